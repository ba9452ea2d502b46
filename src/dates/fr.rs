//! French date expressions.

use super::civil::Weekday::*;
use super::latin::{self, word_after, words_before, Lexicon, NameCase, Patterns};
use super::resolve::Unit::*;
use super::resolve::{Expr, WeekdayRef};
use super::Found;
use std::sync::OnceLock;

#[rustfmt::skip]
const LEXICON: Lexicon = Lexicon {
    months: &[
        ("janvier", 1), ("février", 2), ("fevrier", 2), ("mars", 3), ("avril", 4), ("mai", 5), ("juin", 6),
        ("juillet", 7), ("août", 8), ("aout", 8), ("septembre", 9), ("octobre", 10), ("novembre", 11),
        ("décembre", 12), ("decembre", 12),
    ],
    month_abbreviations: &[],
    weekdays: &[
        ("lundi", Monday), ("mardi", Tuesday), ("mercredi", Wednesday), ("jeudi", Thursday),
        ("vendredi", Friday), ("samedi", Saturday), ("dimanche", Sunday),
    ],
    weekday_suffix: "",
    name_case: NameCase::Lowercase,
    ordinal_suffix: "er|e",
    month_before_day: false,
    month_prepositions: &["en", "depuis", "jusqu'en", "dès", "début", "fin", "mi-", "courant", "mois de"],
    year_prepositions: &["en", "depuis", "jusqu'en", "dès", "d'ici", "année", "l'an"],
    relative: &[
        ("avant-hier", -2, Day),
        ("hier", -1, Day),
        ("aujourd'hui", 0, Day),
        ("ce matin", 0, Day),
        ("cet après-midi", 0, Day),
        ("ce soir", 0, Day),
        ("demain", 1, Day),
        ("après-demain", 2, Day),
        ("semaine dernière", -1, Week),
        ("semaine passée", -1, Week),
        ("cette semaine", 0, Week),
        ("semaine prochaine", 1, Week),
        ("mois dernier", -1, Month),
        ("mois passé", -1, Month),
        ("ce mois-ci", 0, Month),
        ("mois prochain", 1, Month),
        ("an dernier", -1, Year),
        ("année dernière", -1, Year),
        ("an passé", -1, Year),
        ("année passée", -1, Year),
        ("cette année", 0, Year),
        ("an prochain", 1, Year),
        ("année prochaine", 1, Year),
    ],
    weekday_before: &[("ce", WeekdayRef::OnOrBefore)],
    weekday_after: &[
        ("dernier", WeekdayRef::Before),
        ("passé", WeekdayRef::Before),
        ("prochain", WeekdayRef::After),
    ],
    habitual: &["chaque", "tous les"],
    ago_before: &["il y a"],
    ago_after: &[],
    units: &[
        ("jour", Day), ("jours", Day), ("semaine", Week), ("semaines", Week), ("mois", Month),
        ("an", Year), ("ans", Year), ("année", Year), ("années", Year),
    ],
    numbers: &[
        ("un", 1), ("une", 1), ("deux", 2), ("trois", 3), ("quatre", 4), ("cinq", 5), ("six", 6),
        ("sept", 7), ("huit", 8), ("neuf", 9), ("dix", 10),
    ],
    future_words: &[
        "va", "vont", "sera", "seront", "aura", "auront", "fera", "feront", "ira", "iront", "doit", "doivent",
        "devrait", "devraient", "prévu", "prévue", "prévus", "prévues", "prochain", "prochaine",
    ],
    future_endings: &["era", "ira", "dra", "rra", "vra", "ront"],
    future_verb_follows: true,
    clause_openers: &["que", "qu'", "quand", "lorsque", "où", "parce"],
    reject,
};

/// "Mardi gras" is a feast, not this week's Tuesday; "(ne date) pas
/// d'hier" means "is not new".
fn reject(text: &str, found: &Found) -> bool {
    match found.expr {
        Expr::Weekday { .. } => word_after(text, found.end).is_some_and(|next| next == "gras"),
        Expr::Offset { amount: -1, .. } => words_before(text, found.start, 2) == ["pas", "d'"],
        _ => false,
    }
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
        assert_eq!(only("le 14 avril 2011, les", "fr", doc()), pair("14 avril 2011", "2011-04-14"));
        assert_eq!(only("le 1er avril", "fr", doc()), pair("1er avril", "2011-04-01"));
        assert_eq!(only("depuis le 25 janvier", "fr", doc()).1, "2011-01-25");
        let range = mentions("du 3 au 5 mars 2011", "fr", doc());
        assert_eq!(range, vec![pair("3", "2011-03-03"), pair("5 mars 2011", "2011-03-05")]);
        assert_eq!(only("Le 30 décembre, des", "fr", date(2012, 1, 2)).1, "2011-12-30");
        assert_eq!(only("le 15 août", "fr", doc()).1, "2010-08-15");
    }

    #[test]
    fn months_and_years() {
        assert_eq!(only("en mars 2011", "fr", doc()), pair("mars 2011", "2011-03-01"));
        assert_eq!(only("début mars", "fr", doc()), pair("mars", "2011-03-01"));
        assert_eq!(only("depuis 2009", "fr", doc()), pair("2009", "2009-01-01"));
        assert!(mentions("dans les années 1990, la mission sur Mars", "fr", doc()).is_empty());
        assert!(mentions("score 14/04, 2011 victimes", "fr", doc()).is_empty());
    }

    #[test]
    fn weekdays() {
        assert_eq!(only("mardi, la police", "fr", doc()), pair("mardi", "2011-04-12"));
        assert_eq!(only("Il se rendra mardi à Paris", "fr", doc()).1, "2011-04-19");
        assert_eq!(only("ce mardi", "fr", doc()), pair("ce mardi", "2011-04-12"));
        assert_eq!(only("jeudi dernier", "fr", doc()), pair("jeudi dernier", "2011-04-07"));
        assert_eq!(only("lundi prochain", "fr", doc()).1, "2011-04-18");
        assert!(mentions("chaque vendredi, et le Mardi gras", "fr", doc()).is_empty());
        assert!(mentions("selon le Journal du Dimanche", "fr", doc()).is_empty());
        assert!(mentions("Ces problèmes ne datent pas d’hier", "fr", doc()).is_empty());
        let sentence_start = mentions("Hier. Dimanche, la foule", "fr", doc());
        assert_eq!(sentence_start, vec![pair("Hier", "2011-04-13"), pair("Dimanche", "2011-04-10")]);
    }

    #[test]
    fn relative_expressions() {
        assert_eq!(only("hier soir", "fr", doc()), pair("hier", "2011-04-13"));
        assert_eq!(only("avant-hier", "fr", doc()).1, "2011-04-12");
        assert_eq!(only("aujourd’hui", "fr", doc()).1, "2011-04-14");
        assert_eq!(only("aujourd'hui", "fr", doc()).1, "2011-04-14");
        assert_eq!(only("demain", "fr", doc()).1, "2011-04-15");
        assert_eq!(only("après-demain", "fr", doc()).1, "2011-04-16");
        assert_eq!(only("il y a deux jours", "fr", doc()), pair("il y a deux jours", "2011-04-12"));
        assert_eq!(only("il y a un an", "fr", doc()).1, "2010-01-01");
        assert_eq!(only("la semaine dernière", "fr", doc()), pair("semaine dernière", "2011-04-07"));
        assert_eq!(only("l'an dernier", "fr", date(2012, 1, 2)), pair("an dernier", "2011-01-01"));
    }
}
