//! Portuguese date expressions. "amanhã" (tomorrow) and "manhã" (morning)
//! are different words, so no veto is needed.

use super::civil::Weekday::*;
use super::latin::{self, word_after, Lexicon, NameCase, Patterns};
use super::resolve::Unit::*;
use super::resolve::{Expr, WeekdayRef};
use super::Found;
use std::sync::OnceLock;

#[rustfmt::skip]
const LEXICON: Lexicon = Lexicon {
    months: &[
        ("janeiro", 1), ("fevereiro", 2), ("março", 3), ("marco", 3), ("abril", 4), ("maio", 5), ("junho", 6),
        ("julho", 7), ("agosto", 8), ("setembro", 9), ("outubro", 10), ("novembro", 11), ("dezembro", 12),
    ],
    month_abbreviations: &[],
    weekdays: &[
        ("segunda-feira", Monday), ("terça-feira", Tuesday), ("terca-feira", Tuesday),
        ("quarta-feira", Wednesday), ("quinta-feira", Thursday), ("sexta-feira", Friday),
        ("sábado", Saturday), ("sabado", Saturday), ("domingo", Sunday),
    ],
    weekday_suffix: "",
    name_case: NameCase::Lowercase,
    ordinal_suffix: "º|°",
    month_before_day: false,
    month_prepositions: &["em", "desde", "até", "de", "início de", "fim de", "final de", "meados de"],
    year_prepositions: &["em", "desde", "até", "ano de"],
    relative: &[
        ("anteontem", -2, Day),
        ("ontem", -1, Day),
        ("hoje", 0, Day),
        ("amanhã", 1, Day),
        ("depois de amanhã", 2, Day),
        ("semana passada", -1, Week),
        ("esta semana", 0, Week),
        ("próxima semana", 1, Week),
        ("semana que vem", 1, Week),
        ("mês passado", -1, Month),
        ("este mês", 0, Month),
        ("próximo mês", 1, Month),
        ("mês que vem", 1, Month),
        ("ano passado", -1, Year),
        ("este ano", 0, Year),
        ("próximo ano", 1, Year),
        ("ano que vem", 1, Year),
    ],
    weekday_before: &[
        ("próximo", WeekdayRef::After),
        ("próxima", WeekdayRef::After),
        ("último", WeekdayRef::Before),
        ("última", WeekdayRef::Before),
        ("este", WeekdayRef::OnOrBefore),
        ("esta", WeekdayRef::OnOrBefore),
    ],
    weekday_after: &[
        ("passado", WeekdayRef::Before),
        ("passada", WeekdayRef::Before),
        ("que vem", WeekdayRef::After),
    ],
    habitual: &["cada", "todo", "toda", "todos os", "todas as"],
    ago_before: &["há", "faz"],
    ago_after: &["atrás"],
    units: &[
        ("dia", Day), ("dias", Day), ("semana", Week), ("semanas", Week), ("mês", Month), ("meses", Month),
        ("ano", Year), ("anos", Year),
    ],
    numbers: &[
        ("um", 1), ("uma", 1), ("dois", 2), ("duas", 2), ("três", 3), ("quatro", 4), ("cinco", 5),
        ("seis", 6), ("sete", 7), ("oito", 8), ("nove", 9), ("dez", 10),
    ],
    future_words: &["vai", "vão", "será", "serão", "previsto", "prevista", "próximo", "próxima"],
    future_endings: &["rá", "rão"],
    future_verb_follows: true,
    clause_openers: &["que", "quando", "onde", "porque", "enquanto"],
    reject,
};

/// "hoje em dia" is "nowadays".
fn reject(text: &str, found: &Found) -> bool {
    let is_today = matches!(found.expr, Expr::Offset { amount: 0, .. })
        && text[found.start..found.end].eq_ignore_ascii_case("hoje");
    is_today
        && word_after(text, found.end).is_some_and(|next| next == "em")
        && text[found.end..].split_whitespace().nth(1).is_some_and(|word| word.starts_with("dia"))
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
    fn portuguese_expressions() {
        assert_eq!(only("em 14 de abril de 2011", "pt", doc()), pair("14 de abril de 2011", "2011-04-14"));
        assert_eq!(only("no dia 30 de dezembro", "pt", date(2012, 1, 2)).1, "2011-12-30");
        assert_eq!(only("em março de 2011", "pt", doc()), pair("março de 2011", "2011-03-01"));
        assert_eq!(only("desde 2009", "pt", doc()), pair("2009", "2009-01-01"));
        assert_eq!(only("na terça-feira", "pt", doc()), pair("terça-feira", "2011-04-12"));
        assert_eq!(only("na quinta-feira passada", "pt", doc()).1, "2011-04-07");
        assert_eq!(only("o governo vai anunciar na segunda-feira", "pt", doc()).1, "2011-04-18");
        assert_eq!(only("ontem de manhã", "pt", doc()), pair("ontem", "2011-04-13"));
        assert_eq!(only("amanhã", "pt", doc()).1, "2011-04-15");
        assert_eq!(only("há dois dias", "pt", doc()), pair("há dois dias", "2011-04-12"));
        assert_eq!(only("três dias atrás", "pt", doc()).1, "2011-04-11");
        assert!(mentions("hoje em dia, aos domingos", "pt", doc()).is_empty());
    }
}
