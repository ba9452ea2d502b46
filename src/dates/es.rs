//! Spanish date expressions. "mañana" is tomorrow only without an article:
//! "por la mañana", "de la mañana" are a morning, "esta mañana" is today.

use super::civil::Weekday::*;
use super::latin::{self, word_after, words_before, Lexicon, NameCase, Patterns};
use super::resolve::Unit::*;
use super::resolve::{Expr, WeekdayRef};
use super::Found;
use std::sync::OnceLock;

#[rustfmt::skip]
const LEXICON: Lexicon = Lexicon {
    months: &[
        ("enero", 1), ("febrero", 2), ("marzo", 3), ("abril", 4), ("mayo", 5), ("junio", 6), ("julio", 7),
        ("agosto", 8), ("septiembre", 9), ("setiembre", 9), ("octubre", 10), ("noviembre", 11), ("diciembre", 12),
    ],
    month_abbreviations: &[],
    weekdays: &[
        ("lunes", Monday), ("martes", Tuesday), ("miércoles", Wednesday), ("miercoles", Wednesday),
        ("jueves", Thursday), ("viernes", Friday), ("sábado", Saturday), ("sabado", Saturday), ("domingo", Sunday),
    ],
    weekday_suffix: "",
    name_case: NameCase::Lowercase,
    ordinal_suffix: r"º|°|\.º|o",
    month_before_day: false,
    month_prepositions: &["en", "desde", "hasta", "durante", "para", "de", "mediados de", "principios de", "finales de"],
    year_prepositions: &["en", "desde", "hasta", "durante", "del", "año"],
    relative: &[
        ("anteayer", -2, Day),
        ("antier", -2, Day),
        ("antes de ayer", -2, Day),
        ("ayer", -1, Day),
        ("anoche", -1, Day),
        ("hoy", 0, Day),
        ("esta mañana", 0, Day),
        ("esta tarde", 0, Day),
        ("esta noche", 0, Day),
        ("mañana", 1, Day),
        ("pasado mañana", 2, Day),
        ("semana pasada", -1, Week),
        ("pasada semana", -1, Week),
        ("esta semana", 0, Week),
        ("próxima semana", 1, Week),
        ("semana próxima", 1, Week),
        ("semana que viene", 1, Week),
        ("mes pasado", -1, Month),
        ("pasado mes", -1, Month),
        ("este mes", 0, Month),
        ("próximo mes", 1, Month),
        ("mes próximo", 1, Month),
        ("mes que viene", 1, Month),
        ("año pasado", -1, Year),
        ("pasado año", -1, Year),
        ("este año", 0, Year),
        ("próximo año", 1, Year),
        ("año próximo", 1, Year),
        ("año que viene", 1, Year),
    ],
    weekday_before: &[
        ("pasado", WeekdayRef::Before),
        ("próximo", WeekdayRef::After),
        ("este", WeekdayRef::OnOrBefore),
    ],
    weekday_after: &[
        ("pasado", WeekdayRef::Before),
        ("próximo", WeekdayRef::After),
        ("que viene", WeekdayRef::After),
    ],
    habitual: &["cada", "los", "todos los"],
    ago_before: &["hace"],
    ago_after: &[],
    units: &[
        ("día", Day), ("días", Day), ("dia", Day), ("dias", Day), ("semana", Week), ("semanas", Week),
        ("mes", Month), ("meses", Month), ("año", Year), ("años", Year),
    ],
    numbers: &[
        ("un", 1), ("una", 1), ("uno", 1), ("dos", 2), ("tres", 3), ("cuatro", 4), ("cinco", 5),
        ("seis", 6), ("siete", 7), ("ocho", 8), ("nueve", 9), ("diez", 10),
    ],
    future_words: &[
        "va", "van", "vamos", "previsto", "prevista", "previstos", "previstas", "prevé", "prevén", "planea",
        "planean", "próximo", "próxima",
    ],
    future_endings: &["rá", "rán", "remos"],
    future_verb_follows: true,
    clause_openers: &["que", "cuando", "donde", "porque", "mientras"],
    reject,
};

/// "por la mañana" (morning), "hoy en día" (nowadays), "Santo Domingo".
fn reject(text: &str, found: &Found) -> bool {
    const MORNING_DETERMINERS: [&str; 10] =
        ["la", "una", "cada", "esa", "aquella", "media", "misma", "toda", "de", "por"];
    let matched = text[found.start..found.end].to_lowercase();
    let previous = words_before(text, found.start, 1).pop().unwrap_or_default();
    let next = word_after(text, found.end).unwrap_or_default();
    match found.expr {
        Expr::Offset { .. } if matched == "mañana" => MORNING_DETERMINERS.contains(&previous.as_str()),
        Expr::Offset { .. } if matched == "hoy" => {
            next == "día" || (next == "en" && is_hoy_en_dia(text, found.end))
        }
        Expr::Weekday { .. } => matched == "domingo" && ["santo", "plácido"].contains(&previous.as_str()),
        _ => false,
    }
}

fn is_hoy_en_dia(text: &str, end: usize) -> bool {
    let rest: Vec<&str> = text[end..].split_whitespace().take(2).collect();
    rest.len() == 2 && rest[1].trim_end_matches(|c: char| !c.is_alphabetic()).to_lowercase() == "día"
}

pub(crate) fn find(text: &str) -> Vec<Found> {
    static PATTERNS: OnceLock<Patterns> = OnceLock::new();
    latin::find(text, &LEXICON, PATTERNS.get_or_init(|| Patterns::build(&LEXICON)))
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;

    fn doc() -> super::super::CivilDate {
        date(2011, 4, 14) // a Thursday
    }

    #[test]
    fn absolute_dates() {
        assert_eq!(only("el 14 de abril de 2011", "es", doc()), pair("14 de abril de 2011", "2011-04-14"));
        assert_eq!(only("El 5 de abril, la", "es", doc()), pair("5 de abril", "2011-04-05"));
        assert_eq!(only("el 1º de mayo", "es", doc()), pair("1º de mayo", "2010-05-01"));
        assert_eq!(only("el próximo 1º de mayo", "es", doc()), pair("1º de mayo", "2011-05-01"));
        assert_eq!(only("fue recibida con vítores en febrero", "es", date(2011, 11, 23)).1, "2011-02-01");
        assert_eq!(
            only("las elecciones, previstas para el 28 de noviembre", "es", date(2011, 11, 21)).1,
            "2011-11-28"
        );
        assert_eq!(only("desde el 25 de enero", "es", doc()).1, "2011-01-25");
        let range = mentions("entre el 25 y 26 de junio de 2010", "es", doc());
        assert_eq!(range, vec![pair("25", "2010-06-25"), pair("26 de junio de 2010", "2010-06-26")]);
        assert_eq!(mentions("del 3 al 5 de abril", "es", doc())[0], pair("3", "2011-04-03"));
        assert_eq!(mentions("ganó 3 a 1 de local en marzo", "es", doc()), vec![pair("marzo", "2011-03-01")]);
        assert_eq!(only("el 31 de febrero", "es", doc()), pair("febrero", "2011-02-01"));
    }

    #[test]
    fn months_and_years() {
        assert_eq!(only("en marzo de 2011", "es", doc()), pair("marzo de 2011", "2011-03-01"));
        assert_eq!(only("a finales de marzo", "es", doc()), pair("marzo", "2011-03-01"));
        assert_eq!(only("en 2010 hubo", "es", doc()), pair("2010", "2010-01-01"));
        assert!(mentions("en los años 90, 2011 personas", "es", doc()).is_empty());
        assert_eq!(only("en diciembre", "es", date(2012, 1, 2)).1, "2011-12-01");
    }

    #[test]
    fn manana_tomorrow_or_morning() {
        assert_eq!(only("Mañana habrá elecciones", "es", doc()), pair("Mañana", "2011-04-15"));
        assert_eq!(mentions("mañana por la mañana", "es", doc()), vec![pair("mañana", "2011-04-15")]);
        assert_eq!(only("ayer por la mañana", "es", doc()), pair("ayer", "2011-04-13"));
        assert_eq!(only("esta mañana", "es", doc()), pair("esta mañana", "2011-04-14"));
        assert_eq!(only("a las diez de la mañana del martes", "es", doc()), pair("martes", "2011-04-12"));
        assert_eq!(only("pasado mañana", "es", doc()).1, "2011-04-16");
    }

    #[test]
    fn weekdays() {
        assert_eq!(only("el martes murieron", "es", doc()), pair("martes", "2011-04-12"));
        assert_eq!(only("se reunirá el martes", "es", doc()).1, "2011-04-19");
        assert_eq!(only("el martes se reunirá", "es", doc()).1, "2011-04-19");
        assert_eq!(only("dijo el martes que se reunirá", "es", doc()).1, "2011-04-12");
        assert_eq!(only("el jueves pasado", "es", doc()), pair("jueves pasado", "2011-04-07"));
        assert_eq!(only("el próximo lunes", "es", doc()), pair("próximo lunes", "2011-04-18"));
        assert!(mentions("los viernes hay protestas en Santo Domingo", "es", doc()).is_empty());
        assert!(mentions("las Madres de Plaza de Mayo y el diario El Domingo", "es", doc()).is_empty());
        assert_eq!(only("«Martes negro» en la bolsa", "es", doc()).1, "2011-04-12");
    }

    #[test]
    fn relative_expressions() {
        assert_eq!(only("ayer", "es", doc()).1, "2011-04-13");
        assert_eq!(only("anteayer", "es", doc()).1, "2011-04-12");
        assert_eq!(only("anoche", "es", doc()).1, "2011-04-13");
        assert_eq!(only("hoy", "es", doc()).1, "2011-04-14");
        assert!(mentions("hoy en día, y hoy día", "es", doc()).is_empty());
        assert_eq!(only("hace dos días", "es", doc()), pair("hace dos días", "2011-04-12"));
        assert_eq!(only("hace 3 semanas", "es", doc()).1, "2011-03-24");
        assert_eq!(only("la semana pasada", "es", doc()), pair("semana pasada", "2011-04-07"));
        assert_eq!(only("el año pasado", "es", date(2012, 1, 2)).1, "2011-01-01");
    }
}
