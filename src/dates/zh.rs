//! Chinese date expressions: 2011年4月15日, 4月15日, 15日, 今年4月, 星期二,
//! 周三, 上周一, 昨天, 前天, 三天前, 去年. Chinese has no spaces, so matches
//! are checked against the characters around them ("然后天气" holds 后天,
//! "每周一" is every Monday).

use super::civil::Weekday;
use super::resolve::{Expr, Tense, Unit, WeekdayRef, YearSpec};
use super::{clause_around, Found};
use regex::{Captures, Regex};
use std::sync::OnceLock;

const DIGIT: &str = "[0-9０-９]";
const NUMERAL: &str = "[〇零○一二两三四五六七八九十]";

struct Patterns {
    month_date: Regex,
    year: Regex,
    day_of_month: Regex,
    weekday: Regex,
    relative: Regex,
    ago: Regex,
}

fn patterns() -> &'static Patterns {
    static PATTERNS: OnceLock<Patterns> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        let number = format!("(?:{DIGIT}{{1,2}}|{NUMERAL}{{1,3}})");
        let year = format!("(?:{DIGIT}{{4}}|{NUMERAL}{{4}})");
        let compile = |pattern: String| Regex::new(&pattern).expect("date regex");
        Patterns {
            month_date: compile(format!(
                r"(?:(?P<relative_year>今年|去年|明年|前年)|(?P<year>{year})\s*年)?\s*(?P<month>{number})\s*月(?:份)?(?:\s*(?P<day>{number})\s*[日号])?"
            )),
            year: compile(format!(r"(?P<year>{year})\s*年")),
            day_of_month: compile(format!(r"(?P<day>{DIGIT}{{1,2}})\s*日")),
            weekday: compile(r"(?P<week>上个?|下个?|本|这个?)?(?:星期|礼拜|周)(?P<day>[一二三四五六日天])".into()),
            relative: compile(format!("(?:{})", RELATIVE.iter().map(|(word, _, _)| *word).collect::<Vec<_>>().join("|"))),
            ago: compile(format!(r"(?P<count>{DIGIT}{{1,3}}|{NUMERAL}{{1,3}})\s*(?P<unit>天|个?星期|周|个月|年)(?:之)?前")),
        }
    })
}

/// Longest first: the regex takes the first alternative that matches.
#[rustfmt::skip]
const RELATIVE: &[(&str, i32, Unit)] = &[
    ("大前天", -3, Unit::Day),
    ("大后天", 3, Unit::Day),
    ("上个星期", -1, Unit::Week),
    ("下个星期", 1, Unit::Week),
    ("这个星期", 0, Unit::Week),
    ("上星期", -1, Unit::Week),
    ("下星期", 1, Unit::Week),
    ("本星期", 0, Unit::Week),
    ("上个月", -1, Unit::Month),
    ("下个月", 1, Unit::Month),
    ("这个月", 0, Unit::Month),
    ("前天", -2, Unit::Day),
    ("昨天", -1, Unit::Day),
    ("昨日", -1, Unit::Day),
    ("昨晚", -1, Unit::Day),
    ("昨夜", -1, Unit::Day),
    ("昨晨", -1, Unit::Day),
    ("今天", 0, Unit::Day),
    ("今日", 0, Unit::Day),
    ("今晨", 0, Unit::Day),
    ("今早", 0, Unit::Day),
    ("今晚", 0, Unit::Day),
    ("今夜", 0, Unit::Day),
    ("明天", 1, Unit::Day),
    ("明日", 1, Unit::Day),
    ("明晚", 1, Unit::Day),
    ("明早", 1, Unit::Day),
    ("后天", 2, Unit::Day),
    ("上周", -1, Unit::Week),
    ("本周", 0, Unit::Week),
    ("这周", 0, Unit::Week),
    ("下周", 1, Unit::Week),
    ("上月", -1, Unit::Month),
    ("本月", 0, Unit::Month),
    ("下月", 1, Unit::Month),
    ("前年", -2, Unit::Year),
    ("去年", -1, Unit::Year),
    ("今年", 0, Unit::Year),
    ("明年", 1, Unit::Year),
];

/// Value of a number in ASCII, full-width or Chinese digits: "15", "１５",
/// "十五", "二十一", "二〇一一" (years are read digit by digit).
fn parse_number(text: &str) -> Option<i32> {
    let digits: Option<Vec<i32>> = text.chars().map(digit_value).collect();
    if let Some(digits) = digits {
        return Some(digits.iter().fold(0, |value, digit| value * 10 + digit));
    }
    let (tens, units) = text.split_once('十')?;
    let tens = if tens.is_empty() { 1 } else { single_digit(tens)? };
    let units = if units.is_empty() { 0 } else { single_digit(units)? };
    Some(tens * 10 + units)
}

fn single_digit(text: &str) -> Option<i32> {
    let mut chars = text.chars();
    let digit = digit_value(chars.next()?)?;
    chars.next().is_none().then_some(digit)
}

fn digit_value(c: char) -> Option<i32> {
    let value = match c {
        '0'..='9' => c as u32 - '0' as u32,
        '０'..='９' => c as u32 - '０' as u32,
        '〇' | '零' | '○' => 0,
        '一' => 1,
        '二' | '两' => 2,
        '三' => 3,
        '四' => 4,
        '五' => 5,
        '六' => 6,
        '七' => 7,
        '八' => 8,
        '九' => 9,
        _ => return None,
    };
    Some(value as i32)
}

fn is_numeral(c: char) -> bool {
    digit_value(c).is_some() || c == '十'
}

fn char_before(text: &str, position: usize) -> Option<char> {
    text[..position].chars().next_back()
}

fn char_after(text: &str, position: usize) -> Option<char> {
    text[position..].chars().next()
}

/// A number must not continue one before it: "12月" holds "2月".
fn starts_cleanly(text: &str, start: usize) -> bool {
    !char_before(text, start).is_some_and(|c| is_numeral(c) || c.is_ascii_alphanumeric() || c == '.')
}

pub(crate) fn find(text: &str) -> Vec<Found> {
    let patterns = patterns();
    let mut found = Vec::new();
    found.extend(month_dates(text, &patterns.month_date));
    found.extend(years(text, &patterns.year));
    found.extend(days_of_month(text, &patterns.day_of_month));
    found.extend(weekdays(text, &patterns.weekday));
    found.extend(relatives(text, &patterns.relative));
    found.extend(agos(text, &patterns.ago));
    found
}

fn month_dates<'t>(text: &'t str, regex: &'t Regex) -> impl Iterator<Item = Found> + 't {
    regex.captures_iter(text).filter_map(move |caps| {
        let whole = caps.get(0)?;
        let start = whole.start() + (whole.as_str().len() - whole.as_str().trim_start().len());
        if !starts_cleanly(text, start)
            || (caps.name("day").is_some() && is_numbered_thing(text, whole.end()))
        {
            return None;
        }
        let year = year_spec(&caps, tense_around(text, start, whole.end()))?;
        let month = u32::try_from(parse_number(&caps["month"])?).ok()?;
        let expr = match caps.name("day") {
            Some(day) => Expr::Date { year, month, day: u32::try_from(parse_number(day.as_str())?).ok()? },
            None => Expr::Month { year, month },
        };
        Some(Found { start, end: whole.end(), expr })
    })
}

fn year_spec(caps: &Captures, tense: Tense) -> Option<YearSpec> {
    if let Some(relative) = caps.name("relative_year") {
        let offset = match relative.as_str() {
            "前年" => -2,
            "去年" => -1,
            "今年" => 0,
            _ => 1,
        };
        return Some(YearSpec::Relative(offset));
    }
    match caps.name("year") {
        Some(year) => Some(YearSpec::Explicit(parse_number(year.as_str())?)),
        None => Some(YearSpec::Infer(tense)),
    }
}

/// "15号线" is line 15, "3号楼" building 3: 号 after a number names things.
fn is_numbered_thing(text: &str, end: usize) -> bool {
    text[..end].ends_with('号')
        && char_after(text, end).is_some_and(|c| "线楼院令文码房门机车馆厅位".contains(c))
}

/// "2011年", but not "1990年代" (a decade).
fn years<'t>(text: &'t str, regex: &'t Regex) -> impl Iterator<Item = Found> + 't {
    regex.captures_iter(text).filter_map(move |caps| {
        let whole = caps.get(0)?;
        if !starts_cleanly(text, whole.start()) || char_after(text, whole.end()) == Some('代') {
            return None;
        }
        let year = parse_number(&caps["year"])?;
        Some(Found { start: whole.start(), end: whole.end(), expr: Expr::Year(year) })
    })
}

/// "15日" alone: a day of the current month, as in "新华社北京15日电".
fn days_of_month<'t>(text: &'t str, regex: &'t Regex) -> impl Iterator<Item = Found> + 't {
    regex.captures_iter(text).filter_map(move |caps| {
        let whole = caps.get(0)?;
        if !starts_cleanly(text, whole.start()) || char_before(text, whole.start()) == Some('第') {
            return None;
        }
        let day = u32::try_from(parse_number(&caps["day"])?).ok()?;
        let tense = tense_around(text, whole.start(), whole.end());
        Some(Found { start: whole.start(), end: whole.end(), expr: Expr::DayOfMonth { day, tense } })
    })
}

fn weekdays<'t>(text: &'t str, regex: &'t Regex) -> impl Iterator<Item = Found> + 't {
    regex.captures_iter(text).filter_map(move |caps| {
        let whole = caps.get(0)?;
        // 每周一 is every Monday; 一周日程 is a week's schedule.
        let counted_or_recurring = |c: char| c == '每' || c == '隔' || is_numeral(c);
        if caps.name("week").is_none() && char_before(text, whole.start()).is_some_and(counted_or_recurring) {
            return None;
        }
        let weekday = match &caps["day"] {
            "一" => Weekday::Monday,
            "二" => Weekday::Tuesday,
            "三" => Weekday::Wednesday,
            "四" => Weekday::Thursday,
            "五" => Weekday::Friday,
            "六" => Weekday::Saturday,
            _ => Weekday::Sunday,
        };
        let reference = match caps.name("week").map(|week| week.as_str()) {
            Some(week) if week.starts_with('上') => WeekdayRef::Week(-1),
            Some(week) if week.starts_with('下') => WeekdayRef::Week(1),
            Some(_) => WeekdayRef::Week(0),
            None if tense_around(text, whole.start(), whole.end()) == Tense::Future => WeekdayRef::OnOrAfter,
            None => WeekdayRef::OnOrBefore,
        };
        Some(Found { start: whole.start(), end: whole.end(), expr: Expr::Weekday { weekday, reference } })
    })
}

/// 将/将于/计划/预计 within a few characters of the date, same clause.
fn tense_around(text: &str, start: usize, end: usize) -> Tense {
    const CUES: [&str; 7] = ["将", "计划", "预计", "拟", "定于", "准备", "即将"];
    let (clause_start, clause_end) = clause_around(text, start, end);
    let before: String =
        text[clause_start..start].chars().rev().take(6).collect::<Vec<_>>().into_iter().rev().collect();
    let after: String = text[end..clause_end].chars().take(3).collect();
    if CUES.iter().any(|cue| before.contains(cue) || after.contains(cue)) {
        Tense::Future
    } else {
        Tense::Unmarked
    }
}

fn relatives<'t>(text: &'t str, regex: &'t Regex) -> impl Iterator<Item = Found> + 't {
    regex.find_iter(text).filter_map(move |word| {
        let (_, amount, unit) = RELATIVE.iter().find(|(entry, _, _)| *entry == word.as_str())?;
        if is_part_of_other_word(text, word.start(), word.end()) {
            return None;
        }
        Some(Found {
            start: word.start(),
            end: word.end(),
            expr: Expr::Offset { amount: *amount, unit: *unit },
        })
    })
}

/// Relative words hidden in other words: 然后天气 (后天), 以前天 (前天),
/// 聪明天才 (明天), 登上月球 (上月).
fn is_part_of_other_word(text: &str, start: usize, end: usize) -> bool {
    const SKY_WORDS: &str = "气空然下才津堂使生文主安台线性真地鹅桥涯际";
    let matched = &text[start..end];
    let before = char_before(text, start);
    let after = char_after(text, end);
    let before_in = |set: &str| before.is_some_and(|c| set.contains(c));
    let after_in = |set: &str| after.is_some_and(|c| set.contains(c));
    match matched {
        _ if matched.ends_with('天') && after_in(SKY_WORDS) => true,
        "前天" | "前年" => before_in("之以目提此日年月周个从先空"),
        "后天" => before_in("然最之以此其先"),
        "明天" | "明日" | "明年" => before_in("聪光文表声证透阐分清鲜英标照失发"),
        "上月" | "下月" => after_in("球亮光"),
        _ => false,
    }
}

fn agos<'t>(text: &'t str, regex: &'t Regex) -> impl Iterator<Item = Found> + 't {
    regex.captures_iter(text).filter_map(move |caps| {
        let whole = caps.get(0)?;
        if !starts_cleanly(text, whole.start()) {
            return None;
        }
        let count = parse_number(&caps["count"])?;
        let unit = match &caps["unit"] {
            "天" => Unit::Day,
            "个月" => Unit::Month,
            "年" => Unit::Year,
            _ => Unit::Week,
        };
        Some(Found { start: whole.start(), end: whole.end(), expr: Expr::Offset { amount: -count, unit } })
    })
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::parse_number;

    fn doc() -> super::super::CivilDate {
        date(2011, 4, 14) // a Thursday
    }

    #[test]
    fn reads_chinese_numbers() {
        assert_eq!(parse_number("15"), Some(15));
        assert_eq!(parse_number("１５"), Some(15));
        assert_eq!(parse_number("十"), Some(10));
        assert_eq!(parse_number("十五"), Some(15));
        assert_eq!(parse_number("二十一"), Some(21));
        assert_eq!(parse_number("三十"), Some(30));
        assert_eq!(parse_number("二〇一一"), Some(2011));
        assert_eq!(parse_number("十十"), None);
    }

    #[test]
    fn absolute_dates() {
        assert_eq!(only("2011年4月15日，", "zh", doc()), pair("2011年4月15日", "2011-04-15"));
        assert_eq!(only("4月5日上午", "zh", doc()), pair("4月5日", "2011-04-05"));
        assert_eq!(only("四月五号", "zh", doc()), pair("四月五号", "2011-04-05"));
        assert_eq!(only("二〇一一年四月十五日", "zh", doc()).1, "2011-04-15");
        assert_eq!(only("１２月３０日", "zh", date(2012, 1, 2)).1, "2011-12-30");
        assert_eq!(only("新华社北京12日电", "zh", doc()), pair("12日", "2011-04-12"));
        assert_eq!(only("新华社北京30日电", "zh", date(2011, 5, 2)).1, "2011-04-30");
        assert_eq!(only("去年4月", "zh", doc()), pair("去年4月", "2010-04-01"));
        assert_eq!(only("今年3月8日", "zh", doc()).1, "2011-03-08");
    }

    #[test]
    fn years_months_and_non_dates() {
        assert_eq!(only("2011年", "zh", doc()), pair("2011年", "2011-01-01"));
        assert_eq!(only("2011年3月", "zh", doc()), pair("2011年3月", "2011-03-01"));
        for text in
            ["1990年代", "地铁15号线", "3个月", "比分14:4", "第3日", "几天前", "每周一开会", "一周日程"]
        {
            assert!(mentions(text, "zh", doc()).is_empty(), "{text}");
        }
    }

    #[test]
    fn weekdays() {
        assert_eq!(only("星期二", "zh", doc()), pair("星期二", "2011-04-12"));
        assert_eq!(only("周三发生", "zh", doc()), pair("周三", "2011-04-13"));
        assert_eq!(only("会议将于周三举行", "zh", doc()).1, "2011-04-20");
        assert_eq!(only("星期天", "zh", doc()).1, "2011-04-10");
        assert_eq!(only("上周一", "zh", doc()), pair("上周一", "2011-04-04"));
        assert_eq!(only("下星期二", "zh", doc()).1, "2011-04-19");
        assert_eq!(only("本周五", "zh", doc()).1, "2011-04-15");
    }

    #[test]
    fn relative_expressions() {
        assert_eq!(only("昨天", "zh", doc()).1, "2011-04-13");
        assert_eq!(only("前天", "zh", doc()).1, "2011-04-12");
        assert_eq!(only("大前天", "zh", doc()).1, "2011-04-11");
        assert_eq!(only("今天", "zh", doc()).1, "2011-04-14");
        assert_eq!(only("明天", "zh", doc()).1, "2011-04-15");
        assert_eq!(only("三天前", "zh", doc()), pair("三天前", "2011-04-11"));
        assert_eq!(only("两年前", "zh", doc()).1, "2009-01-01");
        assert_eq!(only("上周", "zh", doc()).1, "2011-04-07");
        assert_eq!(only("去年", "zh", date(2012, 1, 2)).1, "2011-01-01");
        for text in ["然后天气转晴", "以前天下太平", "聪明天才", "登上月球"] {
            assert!(mentions(text, "zh", doc()).is_empty(), "{text}");
        }
    }
}
