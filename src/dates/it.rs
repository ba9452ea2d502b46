//! Italian date expressions.

use super::civil::Weekday::*;
use super::latin::{self, Lexicon, NameCase, Patterns};
use super::resolve::Unit::*;
use super::resolve::WeekdayRef;
use super::Found;
use std::sync::OnceLock;

#[rustfmt::skip]
const LEXICON: Lexicon = Lexicon {
    months: &[
        ("gennaio", 1), ("febbraio", 2), ("marzo", 3), ("aprile", 4), ("maggio", 5), ("giugno", 6),
        ("luglio", 7), ("agosto", 8), ("settembre", 9), ("ottobre", 10), ("novembre", 11), ("dicembre", 12),
    ],
    month_abbreviations: &[],
    weekdays: &[
        ("lunedì", Monday), ("lunedi", Monday), ("martedì", Tuesday), ("martedi", Tuesday),
        ("mercoledì", Wednesday), ("mercoledi", Wednesday), ("giovedì", Thursday), ("giovedi", Thursday),
        ("venerdì", Friday), ("venerdi", Friday), ("sabato", Saturday), ("domenica", Sunday),
    ],
    weekday_suffix: "",
    name_case: NameCase::Lowercase,
    ordinal_suffix: "º|°",
    month_before_day: false,
    month_prepositions: &["a", "in", "da", "fino a", "entro", "di", "inizio", "fine", "metà"],
    year_prepositions: &["nel", "dal", "del", "fino al", "entro il"],
    relative: &[
        ("l'altro ieri", -2, Day),
        ("ieri l'altro", -2, Day),
        ("altroieri", -2, Day),
        ("ieri", -1, Day),
        ("oggi", 0, Day),
        ("stamattina", 0, Day),
        ("stamani", 0, Day),
        ("stasera", 0, Day),
        ("domani", 1, Day),
        ("dopodomani", 2, Day),
        ("settimana scorsa", -1, Week),
        ("scorsa settimana", -1, Week),
        ("questa settimana", 0, Week),
        ("settimana prossima", 1, Week),
        ("prossima settimana", 1, Week),
        ("mese scorso", -1, Month),
        ("scorso mese", -1, Month),
        ("questo mese", 0, Month),
        ("mese prossimo", 1, Month),
        ("prossimo mese", 1, Month),
        ("anno scorso", -1, Year),
        ("scorso anno", -1, Year),
        ("quest'anno", 0, Year),
        ("anno prossimo", 1, Year),
        ("prossimo anno", 1, Year),
    ],
    weekday_before: &[
        ("scorso", WeekdayRef::Before),
        ("scorsa", WeekdayRef::Before),
        ("prossimo", WeekdayRef::After),
        ("prossima", WeekdayRef::After),
        ("questo", WeekdayRef::OnOrBefore),
        ("questa", WeekdayRef::OnOrBefore),
    ],
    weekday_after: &[
        ("scorso", WeekdayRef::Before),
        ("scorsa", WeekdayRef::Before),
        ("prossimo", WeekdayRef::After),
        ("prossima", WeekdayRef::After),
    ],
    habitual: &["ogni", "tutti i", "tutte le"],
    ago_before: &[],
    ago_after: &["fa"],
    units: &[
        ("giorno", Day), ("giorni", Day), ("settimana", Week), ("settimane", Week), ("mese", Month),
        ("mesi", Month), ("anno", Year), ("anni", Year),
    ],
    numbers: &[
        ("un", 1), ("uno", 1), ("una", 1), ("due", 2), ("tre", 3), ("quattro", 4), ("cinque", 5), ("sei", 6),
        ("sette", 7), ("otto", 8), ("nove", 9), ("dieci", 10),
    ],
    future_words: &["sarà", "saranno", "previsto", "prevista", "dovrà", "dovranno", "prossimo", "prossima"],
    future_endings: &["rà", "ranno"],
    future_verb_follows: true,
    clause_openers: &["che", "quando", "dove", "perché", "mentre"],
    reject: latin::reject_nothing,
};

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
    fn italian_expressions() {
        assert_eq!(only("il 14 aprile 2011", "it", doc()), pair("14 aprile 2011", "2011-04-14"));
        assert_eq!(only("il 30 dicembre", "it", date(2012, 1, 2)).1, "2011-12-30");
        assert_eq!(only("a marzo 2011", "it", doc()), pair("marzo 2011", "2011-03-01"));
        assert_eq!(only("nel 2009", "it", doc()), pair("2009", "2009-01-01"));
        assert_eq!(only("martedì scorso", "it", doc()).1, "2011-04-12");
        assert_eq!(only("martedì la polizia", "it", doc()).1, "2011-04-12");
        assert_eq!(only("si riunirà martedì", "it", doc()).1, "2011-04-19");
        assert_eq!(only("ieri", "it", doc()).1, "2011-04-13");
        assert_eq!(only("l'altro ieri", "it", doc()).1, "2011-04-12");
        assert_eq!(only("domani", "it", doc()).1, "2011-04-15");
        assert_eq!(only("due giorni fa", "it", doc()), pair("due giorni fa", "2011-04-12"));
        assert!(mentions("ogni venerdì", "it", doc()).is_empty());
    }
}
