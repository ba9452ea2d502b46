//! ISO 8601 dates and date-times (`2024-03-05`, `2024-03-05T14:30+02:00`) as seconds since 1970.

use super::CivilDate;

/// Seconds since 1970 (UTC) of an ISO 8601 date (`2024-03-05`, midnight
/// UTC) or date-time (`2024-03-05T14:30`, `…:15`, `…:15.250`, then `Z`,
/// `+02:00`, `+0200` or nothing for UTC; a space may stand for `T`).
pub fn parse_iso8601(text: &str) -> Option<i64> {
    let (date, time) = match text.find(['T', 't', ' ']) {
        Some(at) => (&text[..at], Some(&text[at + 1..])),
        None => (text, None),
    };
    let days = CivilDate::parse_four_digit_year(date)?.to_unix_days();
    let seconds = match time {
        Some(time) => parse_time_and_zone(time)?,
        None => 0,
    };
    Some(days * 86_400 + seconds)
}

/// Seconds into the day, shifted to UTC, of `HH:MM[:SS[.fff]][Z|±HH:MM|±HHMM]`.
fn parse_time_and_zone(time: &str) -> Option<i64> {
    let zone_at = time.find(['Z', 'z', '+', '-']).unwrap_or(time.len());
    let (clock, zone) = time.split_at(zone_at);
    let clock = clock.split('.').next()?; // fractions of a second are dropped
    let mut parts = clock.split(':');
    let hours: i64 = two_digits(parts.next()?)?;
    let minutes: i64 = two_digits(parts.next()?)?;
    let seconds: i64 = parts.next().map_or(Some(0), two_digits)?;
    if parts.next().is_some() || hours > 24 || minutes > 59 || seconds > 60 {
        return None;
    }
    Some(hours * 3600 + minutes * 60 + seconds - zone_offset(zone)?)
}

/// Seconds east of UTC of `Z`, `±HH:MM`, `±HHMM`, `±HH` or nothing.
fn zone_offset(zone: &str) -> Option<i64> {
    if zone.is_empty() || zone.eq_ignore_ascii_case("z") {
        return Some(0);
    }
    let sign = if zone.starts_with('-') { -1 } else { 1 };
    let digits = zone[1..].replace(':', "");
    let (hours, minutes) = match digits.len() {
        2 => (two_digits(&digits)?, 0),
        4 => (two_digits(&digits[..2])?, two_digits(&digits[2..])?),
        _ => return None,
    };
    (hours <= 23 && minutes <= 59).then_some(sign * (hours * 3600 + minutes * 60))
}

fn two_digits(text: &str) -> Option<i64> {
    (text.len() == 2).then(|| number(text)).flatten()
}

fn number(text: &str) -> Option<i64> {
    text.bytes().all(|b| b.is_ascii_digit()).then(|| text.parse().ok()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_iso_8601_dates_and_times() {
        assert_eq!(parse_iso8601("1970-01-01"), Some(0));
        assert_eq!(parse_iso8601("2024-03-05"), Some(1_709_596_800));
        assert_eq!(parse_iso8601("2024-03-05T10:20"), Some(1_709_596_800 + 37_200));
        assert_eq!(parse_iso8601("2024-03-05 10:20:30Z"), Some(1_709_596_800 + 37_230));
        assert_eq!(parse_iso8601("2024-03-05T10:20:30.250+02:00"), Some(1_709_596_800 + 37_230 - 7200));
        assert_eq!(parse_iso8601("2024-03-05T10:20:30-0500"), Some(1_709_596_800 + 37_230 + 18_000));
        assert_eq!(parse_iso8601("2000-02-29"), Some(951_782_400));
        assert_eq!(parse_iso8601("1969-12-31T23:59:59Z"), Some(-1));
        for bad in ["2023-02-29", "2024-13-01", "24-03-05", "2024-03-05T25:00", "2024-3-5", "yesterday", ""] {
            assert_eq!(parse_iso8601(bad), None, "{bad}");
        }
    }

    /// A date in a file is read as `YYYY-MM-DD` exactly: `CivilDate`'s own
    /// parse also takes the signed and longer years its `Display` writes
    /// ("-0044-03-15", "12024-01-01"), which in an article's date are typos
    /// better refused with a message than read as a date 10,000 years away.
    #[test]
    fn a_date_has_four_year_digits_and_no_sign() {
        for (text, civil_reads_it) in [
            ("-2024-01-01", true),
            ("12024-01-01", true),
            ("002024-01-01", true),
            ("+2024-01-01", false),
            ("2024-02-30", false),
            ("2024-2-3", false),
            ("2024-01-01x", false),
            (" 2024-01-01", false),
            ("2024-01-01 ", false),
            ("2024-01-01T", false),
        ] {
            assert_eq!(parse_iso8601(text), None, "{text:?}");
            assert_eq!(text.parse::<CivilDate>().is_ok(), civil_reads_it, "{text:?}");
        }
        assert_eq!(parse_iso8601("0000-01-01"), Some(CivilDate::new(0, 1, 1).unwrap().to_timestamp()));
        assert_eq!(parse_iso8601("9999-12-31"), Some(CivilDate::new(9999, 12, 31).unwrap().to_timestamp()));
    }
}
