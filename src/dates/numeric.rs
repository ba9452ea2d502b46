//! All-numeric dates, the same in every language: "2011-04-14", "2011/4/14",
//! "14/04/2011", "14.4.2011", "14/04/11". A date needs its year: "14/04"
//! alone is as likely a score or a fraction as a date.

use super::resolve::{Expr, FieldOrder, YearSpec};
use super::Found;
use regex::Regex;
use std::sync::OnceLock;

struct Patterns {
    year_first: Regex,
    year_last: Regex,
}

fn patterns() -> &'static Patterns {
    static PATTERNS: OnceLock<Patterns> = OnceLock::new();
    PATTERNS.get_or_init(|| Patterns {
        year_first: Regex::new(r"([12][0-9]{3})([-/.])([01]?[0-9])([-/.])([0-3]?[0-9])").unwrap(),
        year_last: Regex::new(r"([0-3]?[0-9])([/.-])([01]?[0-9])([/.-])([0-9]{4}|[0-9]{2})").unwrap(),
    })
}

/// Numeric dates in `text`; `order` says how to read "04/05/2011".
pub(crate) fn find(text: &str, order: FieldOrder) -> Vec<Found> {
    let patterns = patterns();
    let mut found = Vec::new();
    for caps in patterns.year_first.captures_iter(text) {
        let whole = caps.get(0).unwrap();
        if caps[2] != caps[4] || !stands_alone(text, whole.start(), whole.end()) {
            continue;
        }
        let expr = Expr::Date {
            year: YearSpec::Explicit(number(&caps[1])),
            month: number(&caps[3]) as u32,
            day: number(&caps[5]) as u32,
        };
        found.push(Found { start: whole.start(), end: whole.end(), expr });
    }
    for caps in patterns.year_last.captures_iter(text) {
        let whole = caps.get(0).unwrap();
        let year_text = &caps[5];
        // "3-1-20" is more often a score or a range than a date.
        let short_year_with_dashes = year_text.len() == 2 && &caps[2] == "-";
        if caps[2] != caps[4] || short_year_with_dashes || !stands_alone(text, whole.start(), whole.end()) {
            continue;
        }
        let year = match year_text.len() {
            4 => YearSpec::Explicit(number(year_text)),
            _ => YearSpec::TwoDigit(number(year_text)),
        };
        let expr =
            Expr::Numeric { first: number(&caps[1]) as u32, second: number(&caps[3]) as u32, year, order };
        found.push(Found { start: whole.start(), end: whole.end(), expr });
    }
    found
}

fn number(digits: &str) -> i32 {
    digits.parse().unwrap_or(0)
}

/// Not part of a longer run of digits, letters or separators ("1.14.04.2011",
/// "v2011-04-14", "10.12.2011.5" are something else).
fn stands_alone(text: &str, start: usize, end: usize) -> bool {
    let before = text[..start].chars().next_back();
    let mut after = text[end..].chars();
    let (next, next_but_one) = (after.next(), after.next());
    let glued = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    let separator = |c: Option<char>| c.is_some_and(|c| "-/.".contains(c));
    let glued_before = glued(before) || (separator(before) && glued(text[..start].chars().nth_back(1)));
    let glued_after = glued(next) || (separator(next) && next_but_one.is_some_and(|c| c.is_ascii_digit()));
    !glued_before && !glued_after
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;

    #[test]
    fn reads_iso_and_year_first_dates() {
        let doc = date(2011, 4, 20);
        assert_eq!(only("On 2011-04-14 it began", "en", doc), pair("2011-04-14", "2011-04-14"));
        assert_eq!(only("于2011/4/15举行", "zh", doc), pair("2011/4/15", "2011-04-15"));
        assert_eq!(only("le 2011.04.15", "fr", doc), pair("2011.04.15", "2011-04-15"));
    }

    #[test]
    fn reads_day_first_dates_with_year() {
        let doc = date(2011, 4, 20);
        assert_eq!(only("el 14/04/2011", "es", doc), pair("14/04/2011", "2011-04-14"));
        assert_eq!(only("am 14.4.2011", "de", doc), pair("14.4.2011", "2011-04-14"));
        assert_eq!(only("le 05/04/11", "fr", doc), pair("05/04/11", "2011-04-05"));
        assert_eq!(only("el 05/04/2011", "es", doc).1, "2011-04-05");
    }

    #[test]
    fn english_reads_either_field_order() {
        let doc = date(2011, 4, 20);
        assert_eq!(only("on 04/14/2011", "en", doc).1, "2011-04-14");
        assert_eq!(only("on 14/04/2011", "en", doc).1, "2011-04-14");
        assert_eq!(only("on 04/05/2011", "en", doc).1, "2011-04-05");
    }

    #[test]
    fn ignores_numbers_that_are_not_dates() {
        let doc = date(2011, 4, 20);
        for text in [
            "They won 14/04 on aggregate",
            "a 3-1-20 formation",
            "version 1.14.04.2011",
            "IP 10.12.2011.5",
            "mixed 14/04.2011",
            "2011-04-14x",
            "31/02/2011",
            "14:30",
            "1/2",
        ] {
            assert_eq!(mentions(text, "en", doc), vec![], "{text}");
        }
    }
}
