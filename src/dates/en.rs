//! English date expressions. Month and weekday names count only when
//! capitalized, so "may" and "march" stay verbs.

use super::civil::Weekday::*;
use super::latin::{self, word_after, words_before, Lexicon, NameCase, Patterns};
use super::resolve::Unit::*;
use super::resolve::{Expr, WeekdayRef};
use super::Found;
use std::sync::OnceLock;

#[rustfmt::skip]
const LEXICON: Lexicon = Lexicon {
    months: &[
        ("january", 1), ("february", 2), ("march", 3), ("april", 4), ("may", 5), ("june", 6),
        ("july", 7), ("august", 8), ("september", 9), ("october", 10), ("november", 11), ("december", 12),
    ],
    month_abbreviations: &[
        ("jan", 1), ("feb", 2), ("mar", 3), ("apr", 4), ("jun", 6), ("jul", 7), ("aug", 8),
        ("sep", 9), ("sept", 9), ("oct", 10), ("nov", 11), ("dec", 12),
    ],
    weekdays: &[
        ("monday", Monday), ("tuesday", Tuesday), ("wednesday", Wednesday), ("thursday", Thursday),
        ("friday", Friday), ("saturday", Saturday), ("sunday", Sunday),
    ],
    weekday_suffix: "",
    name_case: NameCase::Capitalized,
    ordinal_suffix: "st|nd|rd|th",
    month_before_day: true,
    month_prepositions: &[
        "in", "since", "until", "till", "by", "during", "from", "through", "early", "late", "mid-",
        "end of", "beginning of", "start of", "middle of",
    ],
    year_prepositions: &["in", "since", "until", "by", "during", "from", "through", "early", "late", "mid-"],
    relative: &[
        ("the day before yesterday", -2, Day),
        ("yesterday", -1, Day),
        ("last night", -1, Day),
        ("today", 0, Day),
        ("tonight", 0, Day),
        ("this morning", 0, Day),
        ("this afternoon", 0, Day),
        ("this evening", 0, Day),
        ("tomorrow", 1, Day),
        ("the day after tomorrow", 2, Day),
        ("last week", -1, Week),
        ("this week", 0, Week),
        ("next week", 1, Week),
        ("last month", -1, Month),
        ("this month", 0, Month),
        ("next month", 1, Month),
        ("last year", -1, Year),
        ("this year", 0, Year),
        ("next year", 1, Year),
    ],
    weekday_before: &[
        ("last", WeekdayRef::Before),
        ("this past", WeekdayRef::Before),
        ("next", WeekdayRef::After),
        ("this coming", WeekdayRef::After),
        ("coming", WeekdayRef::After),
        ("this", WeekdayRef::OnOrBefore),
    ],
    weekday_after: &[],
    habitual: &["every", "each"],
    ago_before: &[],
    ago_after: &["ago"],
    units: &[
        ("day", Day), ("days", Day), ("week", Week), ("weeks", Week),
        ("month", Month), ("months", Month), ("year", Year), ("years", Year),
    ],
    numbers: &[
        ("a", 1), ("an", 1), ("one", 1), ("two", 2), ("three", 3), ("four", 4), ("five", 5),
        ("six", 6), ("seven", 7), ("eight", 8), ("nine", 9), ("ten", 10),
    ],
    future_words: &[
        "will", "shall", "won't", "scheduled", "expected", "due", "plans", "planned", "going", "next", "upcoming",
    ],
    future_endings: &["'ll"],
    future_verb_follows: false,
    clause_openers: &["that", "which", "who", "when", "after", "before", "because", "since", "while"],
    reject,
};

/// Named days ("Super Tuesday", "Good Friday") and titles ("the Sunday
/// Times", "USA Today") are not the document's week.
fn reject(text: &str, found: &Found) -> bool {
    const DAY_EPITHETS: [&str; 9] =
        ["super", "good", "black", "bloody", "ash", "palm", "holy", "easter", "cyber"];
    const PAPERS: [&str; 6] = ["times", "telegraph", "mirror", "express", "herald", "post"];
    let previous = words_before(text, found.start, 1).pop().unwrap_or_default();
    match found.expr {
        Expr::Weekday { .. } => {
            let next = word_after(text, found.end).unwrap_or_default();
            DAY_EPITHETS.contains(&previous.as_str()) || PAPERS.contains(&next.as_str())
        }
        Expr::Offset { .. } => {
            text[found.start..found.end].eq_ignore_ascii_case("today") && previous == "usa"
        }
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
        assert_eq!(only("on 14 April 2011 the", "en", doc()), pair("14 April 2011", "2011-04-14"));
        assert_eq!(only("on April 14, 2011, the", "en", doc()), pair("April 14, 2011", "2011-04-14"));
        assert_eq!(only("on April 5th police", "en", doc()), pair("April 5th", "2011-04-05"));
        assert_eq!(only("the 5th of April", "en", doc()), pair("5th of April", "2011-04-05"));
        let range = mentions("on 4-6 April", "en", doc());
        assert_eq!(range, vec![pair("4", "2011-04-04"), pair("6 April", "2011-04-06")]);
        assert_eq!(only("since Apr. 2 they", "en", doc()), pair("Apr. 2", "2011-04-02"));
        assert_eq!(only("until Sept. 30", "en", doc()), pair("Sept. 30", "2010-09-30"));
    }

    #[test]
    fn may_is_a_month_only_when_capitalized_and_dated() {
        assert_eq!(
            only("talks may 14 times; they will meet on May 2", "en", doc()),
            pair("May 2", "2011-05-02")
        );
        assert_eq!(only("talks may 14 times; they met on May 2", "en", doc()), pair("May 2", "2010-05-02"));
        assert!(mentions("He May be right, and they may 5 times.", "en", doc()).is_empty());
        assert!(mentions("Protesters march 3 miles; the March of Folly.", "en", doc()).is_empty());
        assert_eq!(only("Elections in May will", "en", doc()), pair("May", "2011-05-01"));
    }

    #[test]
    fn months_and_years_alone() {
        let march = super::super::extract("in March 2011 it", "en", doc());
        assert_eq!(march.len(), 1);
        assert_eq!(march[0].date.to_string(), "2011-03-01");
        assert_eq!(march[0].granularity, super::super::Granularity::Month);
        assert_eq!(only("in 2009 the", "en", doc()), pair("2009", "2009-01-01"));
        assert_eq!(only("since early March, when", "en", doc()), pair("March", "2011-03-01"));
        assert!(mentions("In the 1990s and 2000s, 2011 people left; 2008 was bad.", "en", doc()).is_empty());
        assert!(mentions("up 12 in 2011 %", "en", doc()).is_empty());
    }

    #[test]
    fn year_boundaries() {
        let january_2 = date(2012, 1, 2);
        assert_eq!(only("On December 30 troops", "en", january_2).1, "2011-12-30");
        assert_eq!(only("due on January 3", "en", date(2011, 12, 30)).1, "2012-01-03");
        assert_eq!(only("last year", "en", january_2).1, "2011-01-01");
        assert_eq!(only("since December", "en", january_2).1, "2011-12-01");
    }

    #[test]
    fn weekdays_past_and_future() {
        assert_eq!(only("police said on Tuesday", "en", doc()), pair("Tuesday", "2011-04-12"));
        assert_eq!(only("said on Thursday", "en", doc()).1, "2011-04-14");
        assert_eq!(only("the council will meet on Tuesday", "en", doc()).1, "2011-04-19");
        assert_eq!(only("said on Tuesday that it will", "en", doc()).1, "2011-04-12");
        assert_eq!(only("last Thursday", "en", doc()), pair("last Thursday", "2011-04-07"));
        assert_eq!(only("next Monday", "en", doc()), pair("next Monday", "2011-04-18"));
        assert_eq!(only("Monday's attack", "en", doc()).1, "2011-04-11");
    }

    #[test]
    fn weekdays_that_are_not_dates() {
        for text in [
            "He wrote for the Sunday Times.",
            "after Super Tuesday results",
            "Protests every Friday",
            "on Mondays",
            "a monday",
        ] {
            assert!(mentions(text, "en", doc()).is_empty(), "{text}");
        }
    }

    #[test]
    fn relative_expressions() {
        assert_eq!(only("Yesterday, the", "en", doc()), pair("Yesterday", "2011-04-13"));
        assert_eq!(only("the day before yesterday", "en", doc()).1, "2011-04-12");
        assert_eq!(only("tomorrow", "en", doc()).1, "2011-04-15");
        assert_eq!(only("last night", "en", doc()).1, "2011-04-13");
        assert_eq!(only("two days ago", "en", doc()), pair("two days ago", "2011-04-12"));
        assert_eq!(only("a week ago", "en", doc()).1, "2011-04-07");
        assert_eq!(only("3 months ago", "en", doc()).1, "2011-01-01");
        assert_eq!(only("last week", "en", doc()).1, "2011-04-07");
        assert!(mentions("a few days ago, according to USA Today", "en", doc()).is_empty());
    }
}
