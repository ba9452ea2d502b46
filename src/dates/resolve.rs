//! Turns what a language parser read ("14 April", "last Tuesday", "昨天")
//! into a calendar date, given the document's date. Language-independent.

use super::civil::{CivilDate, Weekday};
use super::{Granularity, MentionKind};

/// A date expression as written, before resolution.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Expr {
    /// A day of a month: "14 April 2011", "4月15日", "去年4月15日".
    Date {
        year: YearSpec,
        month: u32,
        day: u32,
    },
    /// All-numeric "14/04/2011"; `order` says which field is the day.
    Numeric {
        first: u32,
        second: u32,
        year: YearSpec,
        order: FieldOrder,
    },
    /// A month: "March 2011", "in March", "今年3月".
    Month {
        year: YearSpec,
        month: u32,
    },
    /// A year on its own: "in 2011", "2011年".
    Year(i32),
    /// A day of an unnamed month: Chinese "15日".
    DayOfMonth {
        day: u32,
        tense: Tense,
    },
    Weekday {
        weekday: Weekday,
        reference: WeekdayRef,
    },
    /// "yesterday" (Day, -1), "last week" (Week, -1), "two years ago" (Year, -2).
    Offset {
        amount: i32,
        unit: Unit,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum YearSpec {
    Explicit(i32),
    /// "14/04/11": the century nearest the document's year.
    TwoDigit(i32),
    /// Relative to the document's year: 去年 = -1, 今年 = 0.
    Relative(i32),
    /// Not written: see [`choose_occurrence`].
    Infer(Tense),
}

/// What the words around an expression say about when it happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tense {
    Unmarked,
    /// A future cue in the clause: "will", "se reunirá", "prochain", "将".
    Future,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FieldOrder {
    DayFirst,
    /// US "04/14/2011" and day-first "14/04/2011" are both used in English:
    /// a field above 12 decides, else the reading chosen as for dates
    /// without a year.
    Either,
}

/// Which occurrence of a weekday is meant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WeekdayRef {
    /// Plain "Tuesday": the latest one on or before the document date.
    OnOrBefore,
    /// "last Tuesday", "el martes pasado": strictly before.
    Before,
    /// Plain weekday in a future-tense clause: on or after.
    OnOrAfter,
    /// "next Tuesday", "mardi prochain": strictly after.
    After,
    /// Calendar weeks (Monday first) from the document's: 上周二 = -1, 下周二 = +1.
    Week(i32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unit {
    Day,
    Week,
    Month,
    Year,
}

/// A resolved expression.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Resolved {
    pub date: CivilDate,
    pub granularity: Granularity,
    pub kind: MentionKind,
}

/// Years farther than this from the document's are taken as misreadings.
const PLAUSIBLE_YEAR_DISTANCE: i32 = 200;

pub(crate) fn resolve(expr: Expr, document: CivilDate) -> Option<Resolved> {
    let (date, granularity) = match expr {
        Expr::Date { year, month, day } => (resolve_day(year, month, day, document)?, Granularity::Day),
        Expr::Numeric { first, second, year, order } => {
            (resolve_numeric(first, second, year, order, document)?, Granularity::Day)
        }
        Expr::Month { year, month } => (resolve_month(year, month, document)?, Granularity::Month),
        Expr::Year(year) => (CivilDate::new(plausible(year, document)?, 1, 1)?, Granularity::Year),
        Expr::DayOfMonth { day, tense } => (resolve_day_of_month(day, tense, document)?, Granularity::Day),
        Expr::Weekday { weekday, reference } => {
            (resolve_weekday(weekday, reference, document), Granularity::Day)
        }
        Expr::Offset { amount, unit } => resolve_offset(amount, unit, document),
    };
    Some(Resolved { date, granularity, kind: kind_of(expr) })
}

fn kind_of(expr: Expr) -> MentionKind {
    match expr {
        Expr::Weekday { .. } => MentionKind::Weekday,
        Expr::Offset { .. } => MentionKind::Relative,
        Expr::Date { year: YearSpec::Relative(_), .. } | Expr::Month { year: YearSpec::Relative(_), .. } => {
            MentionKind::Relative
        }
        _ => MentionKind::Absolute,
    }
}

fn plausible(year: i32, document: CivilDate) -> Option<i32> {
    ((year - document.year).abs() <= PLAUSIBLE_YEAR_DISTANCE).then_some(year)
}

/// The explicit year, or `None` when it has to be inferred.
fn written_year(year: YearSpec, document: CivilDate) -> Option<Option<i32>> {
    match year {
        YearSpec::Explicit(year) => Some(Some(plausible(year, document)?)),
        YearSpec::TwoDigit(short) => Some(Some(nearest_century(short, document.year))),
        YearSpec::Relative(offset) => Some(Some(document.year + offset)),
        YearSpec::Infer(_) => Some(None),
    }
}

fn nearest_century(short: i32, document_year: i32) -> i32 {
    let base = document_year - document_year.rem_euclid(100) + short;
    [base - 100, base, base + 100].into_iter().min_by_key(|year| (year - document_year).abs()).unwrap_or(base)
}

fn resolve_day(year: YearSpec, month: u32, day: u32, document: CivilDate) -> Option<CivilDate> {
    match (written_year(year, document)?, year) {
        (Some(year), _) => CivilDate::new(year, month, day),
        (None, year) => choose_occurrence(
            (-1..=1).filter_map(|offset| CivilDate::new(document.year + offset, month, day)),
            document,
            tense_of(year),
            DAYS_AHEAD_WITHOUT_CUE,
        ),
    }
}

fn tense_of(year: YearSpec) -> Tense {
    match year {
        YearSpec::Infer(tense) => tense,
        _ => Tense::Unmarked,
    }
}

fn resolve_day_of_month(day: u32, tense: Tense, document: CivilDate) -> Option<CivilDate> {
    // Two months back: "31日" early in a month after a 30-day one.
    choose_occurrence(
        (-2..=1).filter_map(|offset| {
            let month = document.first_of_month_shifted(offset);
            CivilDate::new(month.year, month.month, day)
        }),
        document,
        tense,
        DAYS_AHEAD_WITHOUT_CUE,
    )
}

fn resolve_month(year: YearSpec, month: u32, document: CivilDate) -> Option<CivilDate> {
    match written_year(year, document)? {
        Some(year) => CivilDate::new(year, month, 1),
        None => {
            // Compare months, not days: "in April" in an April article is
            // this April, and without a cue only next month counts as ahead.
            let this_month = document.first_of_month_shifted(0);
            choose_occurrence(
                (-1..=1).filter_map(|offset| CivilDate::new(document.year + offset, month, 1)),
                this_month,
                tense_of(year),
                31,
            )
        }
    }
}

/// How far ahead a yearless date may lie without a future cue.
const DAYS_AHEAD_WITHOUT_CUE: i64 = 7;

/// Which occurrence of a yearless date is meant. News reports the past, so
/// the latest one on or before `document`; the next one when the clause is
/// in the future tense or when it is at most `days_ahead` away and closer
/// than the past one ("January 3" in a 30 December article).
fn choose_occurrence(
    candidates: impl Iterator<Item = CivilDate>,
    document: CivilDate,
    tense: Tense,
    days_ahead: i64,
) -> Option<CivilDate> {
    let candidates: Vec<CivilDate> = candidates.collect();
    let latest_past = candidates.iter().filter(|date| **date <= document).max().copied();
    if tense == Tense::Future {
        let on_or_after = candidates.iter().filter(|date| **date >= document).min().copied();
        return on_or_after.or(latest_past);
    }
    let next = candidates.iter().filter(|date| **date > document).min().copied();
    match (latest_past, next) {
        (Some(past), Some(next)) => {
            let ahead = document.days_until(next);
            let soon = ahead <= days_ahead && ahead < past.days_until(document);
            Some(if soon { next } else { past })
        }
        (past, next) => past.or(next),
    }
}

fn resolve_numeric(
    first: u32,
    second: u32,
    year: YearSpec,
    order: FieldOrder,
    document: CivilDate,
) -> Option<CivilDate> {
    let day_first = resolve_day(year, second, first, document);
    match order {
        FieldOrder::DayFirst => day_first,
        FieldOrder::Either => {
            let month_first = resolve_day(year, first, second, document);
            let readings = [day_first, month_first].into_iter().flatten();
            choose_occurrence(readings, document, Tense::Unmarked, DAYS_AHEAD_WITHOUT_CUE)
        }
    }
}

fn resolve_weekday(weekday: Weekday, reference: WeekdayRef, document: CivilDate) -> CivilDate {
    let days_back = (document.weekday().index() - weekday.index()).rem_euclid(7);
    let days_ahead = (weekday.index() - document.weekday().index()).rem_euclid(7);
    match reference {
        WeekdayRef::OnOrBefore => document.add_days(-days_back),
        WeekdayRef::Before => document.add_days(-(if days_back == 0 { 7 } else { days_back })),
        WeekdayRef::OnOrAfter => document.add_days(days_ahead),
        WeekdayRef::After => document.add_days(if days_ahead == 0 { 7 } else { days_ahead }),
        WeekdayRef::Week(weeks) => {
            let monday = document.add_days(-document.weekday().index());
            monday.add_days(7 * i64::from(weeks) + weekday.index())
        }
    }
}

/// Days and weeks shift the document date; months and years name a calendar
/// period, represented by its first day.
fn resolve_offset(amount: i32, unit: Unit, document: CivilDate) -> (CivilDate, Granularity) {
    let amount = i64::from(amount);
    match unit {
        Unit::Day => (document.add_days(amount), Granularity::Day),
        Unit::Week => (document.add_days(7 * amount), Granularity::Week),
        Unit::Month => (document.first_of_month_shifted(amount), Granularity::Month),
        Unit::Year => {
            (document.first_of_month_shifted(12 * amount - i64::from(document.month) + 1), Granularity::Year)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(year: i32, month: u32, day: u32) -> CivilDate {
        CivilDate::new(year, month, day).unwrap()
    }

    fn resolved(expr: Expr, document: CivilDate) -> CivilDate {
        resolve(expr, document).unwrap().date
    }

    #[test]
    fn infers_the_year_nearest_before_the_document() {
        let day = |month, day| Expr::Date { year: YearSpec::Infer(Tense::Unmarked), month, day };
        let future_day = |month, day| Expr::Date { year: YearSpec::Infer(Tense::Future), month, day };
        assert_eq!(resolved(day(12, 30), date(2012, 1, 2)), date(2011, 12, 30));
        assert_eq!(resolved(day(1, 3), date(2011, 12, 30)), date(2012, 1, 3));
        assert_eq!(resolved(day(3, 20), date(2011, 2, 10)), date(2010, 3, 20));
        assert_eq!(resolved(future_day(3, 20), date(2011, 2, 10)), date(2011, 3, 20));
        assert_eq!(resolved(future_day(2, 10), date(2011, 2, 10)), date(2011, 2, 10));
        assert_eq!(resolved(day(12, 1), date(2011, 6, 15)), date(2010, 12, 1));
        assert_eq!(resolved(day(2, 29), date(2012, 6, 1)), date(2012, 2, 29));
        assert_eq!(resolved(day(2, 29), date(2013, 6, 1)), date(2012, 2, 29));
        assert_eq!(resolve(day(2, 29), date(2010, 6, 1)), None);
    }

    #[test]
    fn infers_months_and_days_of_month() {
        let month = |month, tense| Expr::Month { year: YearSpec::Infer(tense), month };
        assert_eq!(resolved(month(4, Tense::Unmarked), date(2011, 4, 30)), date(2011, 4, 1));
        assert_eq!(resolved(month(5, Tense::Unmarked), date(2011, 4, 30)), date(2011, 5, 1));
        assert_eq!(resolved(month(2, Tense::Unmarked), date(2011, 11, 23)), date(2011, 2, 1));
        assert_eq!(resolved(month(2, Tense::Future), date(2011, 11, 23)), date(2012, 2, 1));
        let day_of_month = |day| Expr::DayOfMonth { day, tense: Tense::Unmarked };
        assert_eq!(resolved(day_of_month(30), date(2011, 5, 2)), date(2011, 4, 30));
        assert_eq!(resolved(day_of_month(3), date(2011, 5, 2)), date(2011, 5, 3));
        assert_eq!(resolved(day_of_month(31), date(2011, 5, 2)), date(2011, 3, 31));
    }

    #[test]
    fn reads_two_digit_years_in_the_nearest_century() {
        assert_eq!(nearest_century(11, 2011), 2011);
        assert_eq!(nearest_century(98, 2003), 1998);
        assert_eq!(nearest_century(2, 1999), 2002);
    }

    #[test]
    fn resolves_ambiguous_numeric_dates_near_the_document() {
        let numeric = |first, second| Expr::Numeric {
            first,
            second,
            year: YearSpec::Explicit(2011),
            order: FieldOrder::Either,
        };
        assert_eq!(resolved(numeric(4, 14), date(2011, 4, 15)), date(2011, 4, 14));
        assert_eq!(resolved(numeric(14, 4), date(2011, 4, 15)), date(2011, 4, 14));
        assert_eq!(resolved(numeric(4, 5), date(2011, 4, 6)), date(2011, 4, 5));
        assert_eq!(resolved(numeric(4, 5), date(2011, 5, 6)), date(2011, 5, 4));
    }

    #[test]
    fn resolves_weekdays_by_reference() {
        let thursday = date(2011, 4, 14);
        let tuesday = |reference| Expr::Weekday { weekday: Weekday::Tuesday, reference };
        let thursday_ref = |reference| Expr::Weekday { weekday: Weekday::Thursday, reference };
        assert_eq!(resolved(tuesday(WeekdayRef::OnOrBefore), thursday), date(2011, 4, 12));
        assert_eq!(resolved(thursday_ref(WeekdayRef::OnOrBefore), thursday), thursday);
        assert_eq!(resolved(thursday_ref(WeekdayRef::Before), thursday), date(2011, 4, 7));
        assert_eq!(resolved(tuesday(WeekdayRef::OnOrAfter), thursday), date(2011, 4, 19));
        assert_eq!(resolved(thursday_ref(WeekdayRef::After), thursday), date(2011, 4, 21));
        assert_eq!(resolved(tuesday(WeekdayRef::Week(-1)), thursday), date(2011, 4, 5));
        assert_eq!(resolved(tuesday(WeekdayRef::Week(0)), thursday), date(2011, 4, 12));
        assert_eq!(resolved(tuesday(WeekdayRef::Week(1)), thursday), date(2011, 4, 19));
    }

    #[test]
    fn resolves_offsets_to_periods() {
        let document = date(2012, 1, 2);
        let offset = |amount, unit| resolve(Expr::Offset { amount, unit }, document).unwrap();
        assert_eq!(offset(-1, Unit::Day).date, date(2012, 1, 1));
        assert_eq!(offset(-1, Unit::Week).date, date(2011, 12, 26));
        assert_eq!(offset(-1, Unit::Week).granularity, Granularity::Week);
        assert_eq!(offset(-1, Unit::Month).date, date(2011, 12, 1));
        assert_eq!(offset(-1, Unit::Year).date, date(2011, 1, 1));
        assert_eq!(offset(0, Unit::Year).granularity, Granularity::Year);
    }

    #[test]
    fn rejects_implausible_years() {
        assert_eq!(resolve(Expr::Year(3500), date(2011, 1, 1)), None);
        let far = Expr::Date { year: YearSpec::Explicit(1500), month: 4, day: 14 };
        assert_eq!(resolve(far, date(2011, 1, 1)), None);
    }
}
