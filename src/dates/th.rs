//! Thai date expressions: 24 เมษายน 2025, 5 ต.ค. 2568, 3 ก.ค. 68, วันที่ 3
//! กุมภาพันธ์ พ.ศ.2568, กุมภาพันธ์ 2568, พ.ศ. 2568, วันอังคาร, วันพุธที่ผ่านมา,
//! เมื่อวานนี้, สัปดาห์หน้า, ปีที่แล้ว.
//!
//! Thai pages count years in the Buddhist era (BE = CE + 543): "2568" is
//! 2025, and a two-digit year after a month is the BE year's last digits
//! ("3 ก.ค. 68" is 3 July 2025). A four-digit year from 2400 up, or one
//! after "พ.ศ.", is BE; after "ค.ศ." it is CE.

use super::civil::Weekday;
use super::resolve::{Expr, Tense, Unit, WeekdayRef, YearSpec};
use super::Found;
use regex::{Captures, Regex};
use std::sync::OnceLock;

/// Years between the eras.
const BUDDHIST_ERA_OFFSET: i32 = 543;
/// The first BE year read as one ("2400" is 1857 CE; no news year is CE 2400).
const FIRST_BUDDHIST_YEAR: i32 = 2400;

/// Month names in full and abbreviated, with their numbers.
#[rustfmt::skip]
const MONTHS: &[(&str, u32)] = &[
    ("มกราคม", 1), ("กุมภาพันธ์", 2), ("มีนาคม", 3), ("เมษายน", 4), ("พฤษภาคม", 5), ("มิถุนายน", 6),
    ("กรกฎาคม", 7), ("สิงหาคม", 8), ("กันยายน", 9), ("ตุลาคม", 10), ("พฤศจิกายน", 11), ("ธันวาคม", 12),
    ("ม.ค.", 1), ("ก.พ.", 2), ("มี.ค.", 3), ("เม.ย.", 4), ("พ.ค.", 5), ("มิ.ย.", 6),
    ("ก.ค.", 7), ("ส.ค.", 8), ("ก.ย.", 9), ("ต.ค.", 10), ("พ.ย.", 11), ("ธ.ค.", 12),
];

#[rustfmt::skip]
const WEEKDAYS: &[(&str, Weekday)] = &[
    ("จันทร์", Weekday::Monday), ("อังคาร", Weekday::Tuesday), ("พุธ", Weekday::Wednesday),
    ("พฤหัสบดี", Weekday::Thursday), ("พฤหัสฯ", Weekday::Thursday), ("พฤหัส", Weekday::Thursday),
    ("ศุกร์", Weekday::Friday), ("เสาร์", Weekday::Saturday), ("อาทิตย์", Weekday::Sunday),
];

/// Longest first: the regex takes the first alternative that matches.
#[rustfmt::skip]
const RELATIVE: &[(&str, i32, Unit)] = &[
    ("เมื่อวานซืน", -2, Unit::Day), ("เมื่อวานนี้", -1, Unit::Day), ("เมื่อวาน", -1, Unit::Day),
    ("วันนี้", 0, Unit::Day), ("พรุ่งนี้", 1, Unit::Day), ("มะรืนนี้", 2, Unit::Day),
    ("สัปดาห์ที่แล้ว", -1, Unit::Week), ("สัปดาห์ที่ผ่านมา", -1, Unit::Week), ("สัปดาห์ก่อน", -1, Unit::Week),
    ("สัปดาห์นี้", 0, Unit::Week), ("สัปดาห์หน้า", 1, Unit::Week),
    ("เดือนที่แล้ว", -1, Unit::Month), ("เดือนที่ผ่านมา", -1, Unit::Month), ("เดือนก่อน", -1, Unit::Month),
    ("เดือนนี้", 0, Unit::Month), ("เดือนหน้า", 1, Unit::Month),
    ("ปีที่แล้ว", -1, Unit::Year), ("ปีที่ผ่านมา", -1, Unit::Year), ("ปีก่อน", -1, Unit::Year),
    ("ปีนี้", 0, Unit::Year), ("ปีหน้า", 1, Unit::Year),
];

struct Patterns {
    day_month: Regex,
    month_year: Regex,
    year: Regex,
    weekday: Regex,
    relative: Regex,
}

fn alternatives<'a>(words: impl Iterator<Item = &'a str>) -> String {
    words.map(regex::escape).collect::<Vec<_>>().join("|")
}

fn patterns() -> &'static Patterns {
    static PATTERNS: OnceLock<Patterns> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        let month = format!("(?P<month>{})", alternatives(MONTHS.iter().map(|(name, _)| *name)));
        let era = r"(?:(?P<era>พ\.ศ\.|ค\.ศ\.)\s*)?";
        let compile = |pattern: String| Regex::new(&pattern).expect("date regex");
        Patterns {
            day_month: compile(format!(r"(?P<day>\d{{1,2}})\s*{month}(?:\s*{era}(?P<year>\d{{4}}|\d{{2}})\b)?")),
            month_year: compile(format!(r"{month}\s*{era}(?P<year>\d{{4}})\b")),
            year: compile(r"(?P<label>ปี\s*)?(?:(?P<era>พ\.ศ\.|ค\.ศ\.)\s*)?(?P<year>\d{4})\b".into()),
            weekday: compile(format!(
                r"วัน(?P<day>{})(?:(?P<reference>ที่ผ่านมา|ที่แล้ว|หน้า)|ที่)?",
                alternatives(WEEKDAYS.iter().map(|(name, _)| *name))
            )),
            relative: compile(alternatives(RELATIVE.iter().map(|(word, _, _)| *word))),
        }
    })
}

pub(crate) fn find(text: &str) -> Vec<Found> {
    let patterns = patterns();
    let mut found = Vec::new();
    found.extend(patterns.day_month.captures_iter(text).filter_map(|caps| {
        let day = caps["day"].parse().ok()?;
        Some(found_at(&caps, Expr::Date { year: year_spec(&caps), month: month_number(&caps["month"])?, day }))
    }));
    found.extend(patterns.month_year.captures_iter(text).filter_map(|caps| {
        Some(found_at(&caps, Expr::Month { year: year_spec(&caps), month: month_number(&caps["month"])? }))
    }));
    // A year needs its word or era: a bare four-digit number may count anything.
    let labelled = |caps: &Captures| caps.name("label").is_some() || caps.name("era").is_some();
    found.extend(patterns.year.captures_iter(text).filter(labelled).filter_map(|caps| match year_spec(&caps) {
        YearSpec::Explicit(year) => Some(found_at(&caps, Expr::Year(year))),
        _ => None,
    }));
    found.extend(patterns.weekday.captures_iter(text).filter_map(|caps| {
        let weekday = WEEKDAYS.iter().find(|(name, _)| *name == &caps["day"])?.1;
        let reference = match caps.name("reference").map(|r| r.as_str()) {
            Some("หน้า") => WeekdayRef::After,
            Some(_) => WeekdayRef::Before,
            None => WeekdayRef::OnOrBefore,
        };
        Some(found_at(&caps, Expr::Weekday { weekday, reference }))
    }));
    found.extend(patterns.relative.find_iter(text).filter_map(|word| {
        let &(_, amount, unit) = RELATIVE.iter().find(|(w, _, _)| *w == word.as_str())?;
        Some(Found { start: word.start(), end: word.end(), expr: Expr::Offset { amount, unit } })
    }));
    found
}

fn found_at(caps: &Captures, expr: Expr) -> Found {
    let whole = caps.get(0).expect("the whole match");
    Found { start: whole.start(), end: whole.end(), expr }
}

fn month_number(name: &str) -> Option<u32> {
    MONTHS.iter().find(|(month, _)| *month == name).map(|&(_, number)| number)
}

/// The year in the common era: "2568" and "พ.ศ. 2568" are 2025, "ค.ศ.
/// 2025" and "2025" are 2025, a two-digit "68" is BE 2568.
fn year_spec(caps: &Captures) -> YearSpec {
    let Some(written) = caps.name("year").and_then(|y| y.as_str().parse::<i32>().ok()) else {
        return YearSpec::Infer(Tense::Unmarked);
    };
    let era = caps.name("era").map(|e| e.as_str());
    let year = match (era, written) {
        (Some("ค.ศ."), year) => year,
        (_, short) if short < 100 => 2500 + short - BUDDHIST_ERA_OFFSET,
        (Some("พ.ศ."), year) => year - BUDDHIST_ERA_OFFSET,
        (_, year) if year >= FIRST_BUDDHIST_YEAR => year - BUDDHIST_ERA_OFFSET,
        (_, year) => year,
    };
    YearSpec::Explicit(year)
}

#[cfg(test)]
mod tests {
    use crate::dates::{extract, CivilDate, Granularity, MentionKind};

    fn read(text: &str) -> Vec<(String, CivilDate, Granularity, MentionKind)> {
        let document = CivilDate::new(2025, 7, 3).unwrap();
        extract(text, "th", document)
            .into_iter()
            .map(|m| (text[m.start..m.end].to_string(), m.date, m.granularity, m.kind))
            .collect()
    }

    fn day(y: i32, m: u32, d: u32) -> CivilDate {
        CivilDate::new(y, m, d).unwrap()
    }

    #[test]
    fn buddhist_era_years_in_full_and_short() {
        let dates = |text: &str| read(text).into_iter().map(|(span, date, _, _)| (span, date)).collect::<Vec<_>>();
        assert_eq!(dates("24 เมษายน 2025"), [("24 เมษายน 2025".into(), day(2025, 4, 24))]);
        assert_eq!(dates("5 ต.ค. 2568 เวลา 15:48 น."), [("5 ต.ค. 2568".into(), day(2025, 10, 5))]);
        assert_eq!(dates("3 ก.ค. 68 (15:41 น.)"), [("3 ก.ค. 68".into(), day(2025, 7, 3))]);
        assert_eq!(dates("วันที่ 3 กุมภาพันธ์ พ.ศ.2568 - 08:15 น."), [("3 กุมภาพันธ์ พ.ศ.2568".into(), day(2025, 2, 3))]);
        assert_eq!(dates("ในปี ค.ศ. 2024"), [("ปี ค.ศ. 2024".into(), day(2024, 1, 1))]);
        // No year: the latest such day on or before the document's.
        assert_eq!(dates("เมื่อวันที่ 22 ส.ค. ที่ผ่านมา"), [("22 ส.ค.".into(), day(2024, 8, 22))]);
    }

    #[test]
    fn weekdays_and_relative_days() {
        let read = read("เมื่อวานนี้ ตำรวจแถลงว่า วันพุธที่ผ่านมา และจะประชุมอีกครั้งสัปดาห์หน้า");
        let spans: Vec<(&str, CivilDate)> = read.iter().map(|(span, date, _, _)| (span.as_str(), *date)).collect();
        // 3 July 2025 is a Thursday.
        assert_eq!(spans, [("เมื่อวานนี้", day(2025, 7, 2)), ("วันพุธที่ผ่านมา", day(2025, 7, 2)), ("สัปดาห์หน้า", day(2025, 7, 10))]);
        assert_eq!(read[1].3, MentionKind::Weekday);
        // A weekday and its date are one mention.
        let merged = super::super::extract("วันพุธที่ 17 ธันวาคม", "th", day(2025, 12, 20));
        assert_eq!((merged.len(), merged[0].date, merged[0].kind), (1, day(2025, 12, 17), MentionKind::Absolute));
    }
}
