//! Proleptic Gregorian calendar dates and weekdays, with the day arithmetic
//! the resolver needs (no dependency: the algorithms are a few lines).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

const SECONDS_PER_DAY: i64 = 86_400;

/// A calendar day (UTC), serialized as ISO 8601 "YYYY-MM-DD".
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CivilDate {
    pub year: i32,
    /// 1..=12
    pub month: u32,
    /// 1..=31, valid for the month
    pub day: u32,
}

/// Day of the week, Monday first (ISO 8601).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Weekday {
    Monday,
    Tuesday,
    Wednesday,
    Thursday,
    Friday,
    Saturday,
    Sunday,
}

impl Weekday {
    const ALL: [Weekday; 7] = [
        Weekday::Monday,
        Weekday::Tuesday,
        Weekday::Wednesday,
        Weekday::Thursday,
        Weekday::Friday,
        Weekday::Saturday,
        Weekday::Sunday,
    ];

    /// 0 for Monday … 6 for Sunday.
    pub fn index(self) -> i64 {
        self as i64
    }

    /// Monday for 0 … Sunday for 6 (taken modulo 7).
    pub fn from_index(index: i64) -> Weekday {
        Self::ALL[index.rem_euclid(7) as usize]
    }
}

pub fn is_leap_year(year: i32) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

pub fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap_year(year) => 29,
        2 => 28,
        _ => 0,
    }
}

impl CivilDate {
    /// The date, if `month` and `day` exist in that year.
    pub fn new(year: i32, month: u32, day: u32) -> Option<Self> {
        (day >= 1 && day <= days_in_month(year, month)).then_some(Self { year, month, day })
    }

    /// Parses "YYYY-MM-DD" with exactly four year digits and no sign, as
    /// dates are written in files and page metadata (`parse_iso8601`);
    /// `parse` (`FromStr`) also reads the signed and longer years.
    pub fn parse_four_digit_year(text: &str) -> Option<Self> {
        parse_calendar_date(text, 4..=4, false)
    }

    /// Days since 1970-01-01 (H. Hinnant's days_from_civil).
    pub fn to_unix_days(self) -> i64 {
        let month = i64::from(self.month);
        let year = i64::from(self.year) - i64::from(month <= 2);
        let era = year.div_euclid(400);
        let year_of_era = year - era * 400;
        let shifted_month = (month + 9) % 12; // March = 0, so leap days fall last
        let day_of_year = (153 * shifted_month + 2) / 5 + i64::from(self.day) - 1;
        let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
        era * 146_097 + day_of_era - 719_468
    }

    /// The date `days` after 1970-01-01 (H. Hinnant's civil_from_days).
    /// Days beyond a million years either side are held at that bound, so
    /// the year always fits an `i32` (a wrapped year made Feb 29 of a common
    /// year; found by tests/fuzz.rs).
    pub fn from_unix_days(days: i64) -> Self {
        const MILLION_YEARS: i64 = 365_242_500;
        let shifted = days.clamp(-MILLION_YEARS, MILLION_YEARS) + 719_468;
        let era = shifted.div_euclid(146_097);
        let day_of_era = shifted - era * 146_097;
        let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
        let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
        let shifted_month = (5 * day_of_year + 2) / 153;
        let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
        let month = if shifted_month < 10 { shifted_month + 3 } else { shifted_month - 9 };
        let year = year_of_era + era * 400 + i64::from(month <= 2);
        Self { year: year as i32, month: month as u32, day: day as u32 }
    }

    /// The UTC day containing `seconds` since the Unix epoch.
    pub fn from_timestamp(seconds: i64) -> Self {
        Self::from_unix_days(seconds.div_euclid(SECONDS_PER_DAY))
    }

    /// Midnight UTC at the start of this day, in seconds since the epoch.
    pub fn to_timestamp(self) -> i64 {
        self.to_unix_days() * SECONDS_PER_DAY
    }

    pub fn weekday(self) -> Weekday {
        // 1970-01-01 was a Thursday (index 3).
        Weekday::from_index(self.to_unix_days() + 3)
    }

    pub fn add_days(self, days: i64) -> Self {
        Self::from_unix_days(self.to_unix_days() + days)
    }

    /// Signed number of days from `self` to `later`.
    pub fn days_until(self, later: CivilDate) -> i64 {
        later.to_unix_days() - self.to_unix_days()
    }

    /// The first day of the month `months` months away from this one.
    pub fn first_of_month_shifted(self, months: i64) -> Self {
        let index = i64::from(self.year) * 12 + i64::from(self.month) - 1 + months;
        Self { year: index.div_euclid(12) as i32, month: index.rem_euclid(12) as u32 + 1, day: 1 }
    }
}

/// "2024-03-05 14:30": a timestamp's UTC date and time of day.
pub fn format_date_time(seconds: i64) -> String {
    let rest = seconds.rem_euclid(SECONDS_PER_DAY);
    format!("{} {:02}:{:02}", CivilDate::from_timestamp(seconds), rest / 3600, rest % 3600 / 60)
}

/// "2024-03-05", or "2024-03-05 14:30" when the time is not midnight (UTC).
pub fn format_time(seconds: i64) -> String {
    if seconds.rem_euclid(SECONDS_PER_DAY) == 0 {
        CivilDate::from_timestamp(seconds).to_string()
    } else {
        format_date_time(seconds)
    }
}

impl fmt::Display for CivilDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.year < 0 {
            write!(f, "-{:04}-{:02}-{:02}", self.year.unsigned_abs(), self.month, self.day)
        } else {
            write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseDateError(String);

impl fmt::Display for ParseDateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not an ISO date (YYYY-MM-DD): {:?}", self.0)
    }
}

impl std::error::Error for ParseDateError {}

impl FromStr for CivilDate {
    type Err = ParseDateError;

    /// Parses "YYYY-MM-DD" (a leading '-' for years before 1 BCE, up to six
    /// year digits: whatever `Display` writes).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        parse_calendar_date(text, 4..=6, true).ok_or_else(|| ParseDateError(text.to_string()))
    }
}

/// `YYYY-MM-DD` with `year_digits` digits of year, after a '-' when `signed`
/// allows years before 1 BCE; `None` unless the day exists.
fn parse_calendar_date(text: &str, year_digits: std::ops::RangeInclusive<usize>, signed: bool) -> Option<CivilDate> {
    let (sign, unsigned) = match text.strip_prefix('-').filter(|_| signed) {
        Some(rest) => (-1, rest),
        None => (1, text),
    };
    let mut parts = unsigned.split('-');
    let mut number = |width: std::ops::RangeInclusive<usize>| {
        parts
            .next()
            .filter(|part| width.contains(&part.len()) && part.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|part| part.parse::<i64>().ok())
    };
    let year = number(year_digits)? * sign;
    let month = number(2..=2)?;
    let day = number(2..=2)?;
    if parts.next().is_some() {
        return None;
    }
    CivilDate::new(year as i32, month as u32, day as u32)
}

impl Serialize for CivilDate {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for CivilDate {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(year: i32, month: u32, day: u32) -> CivilDate {
        CivilDate::new(year, month, day).unwrap()
    }

    #[test]
    fn converts_known_days() {
        assert_eq!(date(1970, 1, 1).to_unix_days(), 0);
        assert_eq!(date(2000, 3, 1).to_unix_days(), 11_017);
        assert_eq!(date(1969, 12, 31).to_unix_days(), -1);
        assert_eq!(CivilDate::from_unix_days(15_078), date(2011, 4, 14));
        assert_eq!(CivilDate::from_timestamp(1_302_825_599), date(2011, 4, 14));
        assert_eq!(CivilDate::from_timestamp(1_302_825_600), date(2011, 4, 15));
        assert_eq!(CivilDate::from_timestamp(-1), date(1969, 12, 31));
        assert_eq!(date(2011, 4, 15).to_timestamp(), 1_302_825_600);
    }

    #[test]
    fn validates_days_of_month() {
        assert!(CivilDate::new(2012, 2, 29).is_some());
        assert!(CivilDate::new(2011, 2, 29).is_none());
        assert!(CivilDate::new(1900, 2, 29).is_none());
        assert!(CivilDate::new(2000, 2, 29).is_some());
        assert!(CivilDate::new(2011, 4, 31).is_none());
        assert!(CivilDate::new(2011, 13, 1).is_none());
        assert!(CivilDate::new(2011, 1, 0).is_none());
    }

    #[test]
    fn knows_weekdays() {
        assert_eq!(date(1970, 1, 1).weekday(), Weekday::Thursday);
        assert_eq!(date(2011, 4, 14).weekday(), Weekday::Thursday);
        assert_eq!(date(2024, 2, 29).weekday(), Weekday::Thursday);
        assert_eq!(date(2012, 1, 1).weekday(), Weekday::Sunday);
    }

    #[test]
    fn shifts_days_and_months_across_boundaries() {
        assert_eq!(date(2011, 12, 31).add_days(1), date(2012, 1, 1));
        assert_eq!(date(2012, 3, 1).add_days(-1), date(2012, 2, 29));
        assert_eq!(date(2012, 1, 2).days_until(date(2011, 12, 30)), -3);
        assert_eq!(date(2012, 1, 20).first_of_month_shifted(-1), date(2011, 12, 1));
        assert_eq!(date(2011, 12, 5).first_of_month_shifted(1), date(2012, 1, 1));
        assert_eq!(date(2011, 3, 5).first_of_month_shifted(-27), date(2008, 12, 1));
    }

    #[test]
    fn formats_and_parses_iso() {
        assert_eq!(date(2011, 4, 5).to_string(), "2011-04-05");
        assert_eq!("2011-04-05".parse::<CivilDate>(), Ok(date(2011, 4, 5)));
        assert_eq!("-0044-03-15".parse::<CivilDate>(), Ok(date(-44, 3, 15)));
        assert_eq!(date(-44, 3, 15).to_string(), "-0044-03-15");
        assert!("2011-02-30".parse::<CivilDate>().is_err());
        assert!("2011-4-5".parse::<CivilDate>().is_err());
        assert!("2011-04-05x".parse::<CivilDate>().is_err());
        assert!("".parse::<CivilDate>().is_err());
        assert_eq!(CivilDate::parse_four_digit_year("2011-04-05"), Some(date(2011, 4, 5)));
        for text in ["-0044-03-15", "12011-04-05", "2011-02-30", "2011-4-5", "+2011-04-05", ""] {
            assert_eq!(CivilDate::parse_four_digit_year(text), None, "{text:?}");
        }
    }

    #[test]
    fn serializes_as_iso_string() {
        let json = serde_json::to_string(&date(2011, 4, 14)).unwrap();
        assert_eq!(json, "\"2011-04-14\"");
        assert_eq!(serde_json::from_str::<CivilDate>(&json).unwrap(), date(2011, 4, 14));
        assert!(serde_json::from_str::<CivilDate>("\"2011-02-30\"").is_err());
    }

    #[test]
    fn timestamps_print_as_utc_dates_and_times() {
        assert_eq!(format_time(0), "1970-01-01");
        assert_eq!(format_time(86_400 + 3_600 * 14 + 60 * 30), "1970-01-02 14:30");
        assert_eq!(format_date_time(0), "1970-01-01 00:00");
        assert_eq!(format_date_time(-60), "1969-12-31 23:59");
    }

    #[test]
    fn far_timestamps_stay_valid_dates() {
        for seconds in [i64::MAX, i64::MIN, 1 << 55, -(1 << 55)] {
            let day = CivilDate::from_timestamp(seconds);
            assert!(CivilDate::new(day.year, day.month, day.day).is_some(), "{day:?}");
            assert!(day.year.abs() <= 1_002_000, "{day:?}");
        }
        assert_eq!(CivilDate::from_unix_days(0), CivilDate::new(1970, 1, 1).unwrap());
    }
}
