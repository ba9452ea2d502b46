//! German date expressions. "morgen" (tomorrow) is written small; "Morgen"
//! is the noun "morning" except at the start of a sentence.

use super::civil::Weekday::*;
use super::latin::{self, starts_sentence, words_before, Lexicon, NameCase, Patterns};
use super::resolve::Unit::*;
use super::resolve::{Expr, WeekdayRef};
use super::Found;
use std::sync::OnceLock;

#[rustfmt::skip]
const LEXICON: Lexicon = Lexicon {
    months: &[
        ("januar", 1), ("jänner", 1), ("februar", 2), ("märz", 3), ("april", 4), ("mai", 5), ("juni", 6),
        ("juli", 7), ("august", 8), ("september", 9), ("oktober", 10), ("november", 11), ("dezember", 12),
    ],
    month_abbreviations: &[],
    weekdays: &[
        ("montag", Monday), ("dienstag", Tuesday), ("mittwoch", Wednesday), ("donnerstag", Thursday),
        ("freitag", Friday), ("samstag", Saturday), ("sonnabend", Saturday), ("sonntag", Sunday),
    ],
    weekday_suffix: "(?:abend|morgen|nachmittag|vormittag|mittag|nacht|früh)?",
    name_case: NameCase::Either,
    ordinal_suffix: r"\.",
    month_before_day: false,
    month_prepositions: &["im", "seit", "bis", "ab", "anfang", "ende", "mitte", "vom", "zum"],
    year_prepositions: &["im jahr", "im jahre", "seit", "bis", "anfang", "ende", "mitte", "jahr"],
    relative: &[
        ("vorgestern", -2, Day),
        ("gestern", -1, Day),
        ("heute", 0, Day),
        ("morgen", 1, Day),
        ("übermorgen", 2, Day),
        ("letzte woche", -1, Week),
        ("letzten woche", -1, Week),
        ("vergangene woche", -1, Week),
        ("vergangenen woche", -1, Week),
        ("vorige woche", -1, Week),
        ("vorigen woche", -1, Week),
        ("diese woche", 0, Week),
        ("dieser woche", 0, Week),
        ("nächste woche", 1, Week),
        ("nächsten woche", 1, Week),
        ("kommende woche", 1, Week),
        ("kommenden woche", 1, Week),
        ("letzten monat", -1, Month),
        ("vergangenen monat", -1, Month),
        ("vorigen monat", -1, Month),
        ("diesen monat", 0, Month),
        ("diesem monat", 0, Month),
        ("nächsten monat", 1, Month),
        ("kommenden monat", 1, Month),
        ("letztes jahr", -1, Year),
        ("letzten jahr", -1, Year),
        ("vergangenes jahr", -1, Year),
        ("vergangenen jahr", -1, Year),
        ("voriges jahr", -1, Year),
        ("vorigen jahr", -1, Year),
        ("dieses jahr", 0, Year),
        ("diesem jahr", 0, Year),
        ("nächstes jahr", 1, Year),
        ("nächsten jahr", 1, Year),
        ("kommendes jahr", 1, Year),
        ("kommenden jahr", 1, Year),
    ],
    weekday_before: &[
        ("letzten", WeekdayRef::Before),
        ("letzter", WeekdayRef::Before),
        ("vergangenen", WeekdayRef::Before),
        ("vergangener", WeekdayRef::Before),
        ("vorigen", WeekdayRef::Before),
        ("nächsten", WeekdayRef::After),
        ("nächster", WeekdayRef::After),
        ("kommenden", WeekdayRef::After),
        ("kommender", WeekdayRef::After),
        ("diesen", WeekdayRef::OnOrBefore),
        ("diesem", WeekdayRef::OnOrBefore),
    ],
    weekday_after: &[],
    habitual: &["jeden", "jeweils"],
    ago_before: &["vor"],
    ago_after: &[],
    units: &[
        ("tag", Day), ("tagen", Day), ("woche", Week), ("wochen", Week), ("monat", Month),
        ("monaten", Month), ("jahr", Year), ("jahren", Year),
    ],
    numbers: &[
        ("einem", 1), ("einer", 1), ("zwei", 2), ("drei", 3), ("vier", 4), ("fünf", 5), ("sechs", 6),
        ("sieben", 7), ("acht", 8), ("neun", 9), ("zehn", 10),
    ],
    future_words: &[
        "wird", "werden", "werde", "soll", "sollen", "will", "wollen", "plant", "planen", "geplant",
        "voraussichtlich", "nächsten", "kommenden",
    ],
    future_endings: &[],
    future_verb_follows: true,
    clause_openers: &["dass", "als", "nachdem", "weil", "wenn", "ob"],
    reject,
};

/// The noun "Morgen" (morning): capitalized inside a sentence, or after a
/// day or an article ("heute morgen", "am Morgen", "jeden Morgen").
fn reject(text: &str, found: &Found) -> bool {
    #[rustfmt::skip]
    const MORNING_CONTEXT: [&str; 14] = [
        "heute", "gestern", "vorgestern", "am", "jeden", "guten", "den", "dem", "des", "einem", "eines", "vom",
        "diesen", "diesem",
    ];
    let matched = &text[found.start..found.end];
    if !matches!(found.expr, Expr::Offset { .. }) || !matched.eq_ignore_ascii_case("morgen") {
        return false;
    }
    let previous = words_before(text, found.start, 1).pop().unwrap_or_default();
    let capitalized = matched.starts_with('M');
    MORNING_CONTEXT.contains(&previous.as_str()) || (capitalized && !starts_sentence(text, found.start))
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
        assert_eq!(only("am 14. April 2011 wurde", "de", doc()), pair("14. April 2011", "2011-04-14"));
        assert_eq!(only("am 5. April", "de", doc()), pair("5. April", "2011-04-05"));
        assert_eq!(only("seit dem 25. Januar", "de", doc()).1, "2011-01-25");
        assert_eq!(mentions("vom 3. bis 5. April", "de", doc())[0], pair("3", "2011-04-03"));
        assert_eq!(only("Am 30. Dezember", "de", date(2012, 1, 2)).1, "2011-12-30");
        assert_eq!(only("am 14.04.2011", "de", doc()).1, "2011-04-14");
    }

    #[test]
    fn months_and_years() {
        assert_eq!(only("im März 2011", "de", doc()), pair("März 2011", "2011-03-01"));
        assert_eq!(only("Ende März", "de", doc()), pair("März", "2011-03-01"));
        assert_eq!(only("im Jahr 2009", "de", doc()), pair("2009", "2009-01-01"));
        assert!(mentions("in den 1990er Jahren kam August Bebel", "de", doc()).is_empty());
    }

    #[test]
    fn weekdays() {
        assert_eq!(only("am Dienstag sagte", "de", doc()), pair("Dienstag", "2011-04-12"));
        assert_eq!(only("am Dienstagabend", "de", doc()), pair("Dienstagabend", "2011-04-12"));
        assert_eq!(only("Der Rat wird am Dienstag tagen", "de", doc()).1, "2011-04-19");
        assert_eq!(only("Am Dienstag wird der Rat tagen", "de", doc()).1, "2011-04-19");
        assert_eq!(only("am vergangenen Donnerstag", "de", doc()).1, "2011-04-07");
        assert_eq!(only("nächsten Montag", "de", doc()).1, "2011-04-18");
        assert!(mentions("jeden Freitag", "de", doc()).is_empty());
    }

    #[test]
    fn morgen_tomorrow_or_morning() {
        assert_eq!(only("Das Urteil fällt morgen.", "de", doc()), pair("morgen", "2011-04-15"));
        assert_eq!(only("Morgen beginnt der Prozess.", "de", doc()), pair("Morgen", "2011-04-15"));
        assert_eq!(only("heute Morgen", "de", doc()), pair("heute", "2011-04-14"));
        assert_eq!(only("gestern morgen", "de", doc()), pair("gestern", "2011-04-13"));
        assert!(mentions("Am Morgen fielen Schüsse, jeden Morgen.", "de", doc()).is_empty());
        assert!(mentions("Sie sagte, der Morgen sei ruhig", "de", doc()).is_empty());
    }

    #[test]
    fn relative_expressions() {
        assert_eq!(only("vorgestern", "de", doc()).1, "2011-04-12");
        assert_eq!(only("übermorgen", "de", doc()).1, "2011-04-16");
        assert_eq!(only("vor zwei Tagen", "de", doc()), pair("vor zwei Tagen", "2011-04-12"));
        assert_eq!(only("vor einem Jahr", "de", doc()).1, "2010-01-01");
        assert_eq!(only("in der vergangenen Woche", "de", doc()), pair("vergangenen Woche", "2011-04-07"));
        assert_eq!(only("im vergangenen Jahr", "de", date(2012, 1, 2)).1, "2011-01-01");
    }
}
