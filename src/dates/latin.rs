//! Date expressions in languages that put spaces between words (English,
//! Spanish, French, German, Italian, Portuguese). Each language supplies a
//! [`Lexicon`]; the regexes built from it and the reading of their matches
//! are shared here.

use super::civil::Weekday;
use super::resolve::{Expr, Tense, Unit, WeekdayRef, YearSpec};
use super::{clause_around, Found};
use regex::{Captures, Regex};
use std::cmp::Reverse;

/// The words of one language. Phrases are literal: a space matches any
/// whitespace, an apostrophe either ' or ’; matching ignores case.
pub(crate) struct Lexicon {
    pub months: &'static [(&'static str, u32)],
    /// Abbreviations, matched with or without a final period ("Apr.").
    pub month_abbreviations: &'static [(&'static str, u32)],
    pub weekdays: &'static [(&'static str, Weekday)],
    /// Regex glued to a weekday name: German "Dienstagabend".
    pub weekday_suffix: &'static str,
    pub name_case: NameCase,
    /// Regex after a day number: "14th", "1er", "14.", "1º".
    pub ordinal_suffix: &'static str,
    /// English also writes "April 14".
    pub month_before_day: bool,
    /// Words that make a bare month a date: "in March", "a finales de marzo".
    pub month_prepositions: &'static [&'static str],
    /// Words that make a bare four-digit number a year: "in 2011", "seit 2011".
    pub year_prepositions: &'static [&'static str],
    /// "yesterday" → (-1, Day), "la semana pasada" → (-1, Week).
    pub relative: &'static [(&'static str, i32, Unit)],
    /// Words before a weekday: "last", "next", "el próximo". `OnOrBefore`
    /// marks words like "this" that leave the choice to the tense.
    pub weekday_before: &'static [(&'static str, WeekdayRef)],
    /// Words after a weekday: "pasado", "dernier", "prochain".
    pub weekday_after: &'static [(&'static str, WeekdayRef)],
    /// Words before a weekday that make it recurring: "every", "los", "chaque".
    pub habitual: &'static [&'static str],
    /// "hace dos días", "il y a deux jours", "vor zwei Tagen".
    pub ago_before: &'static [&'static str],
    /// "two days ago", "due giorni fa", "dois dias atrás".
    pub ago_after: &'static [&'static str],
    pub units: &'static [(&'static str, Unit)],
    pub numbers: &'static [(&'static str, i32)],
    /// Whole words that mark a future clause: "will", "va", "wird".
    pub future_words: &'static [&'static str],
    /// Verb endings that mark the future tense: Spanish "-rá", French "-ront".
    pub future_endings: &'static [&'static str],
    /// A future verb may follow the date: "el martes se reunirá".
    pub future_verb_follows: bool,
    /// Words that open a new clause, ending the search for a future cue.
    pub clause_openers: &'static [&'static str],
    /// Language-specific vetoes (Spanish "por la mañana" is not tomorrow).
    pub reject: fn(&str, &Found) -> bool,
}

/// How a language writes month and weekday names in running text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NameCase {
    /// English: always capitalized, and lowercase "may" and "march" are
    /// other words, so only capitalized names match.
    Capitalized,
    /// Romance languages: lowercase, so a bare month or weekday capitalized
    /// inside a sentence is a proper noun ("Plaza de Mayo", "Journal du
    /// Dimanche").
    Lowercase,
    /// German: capitalized like every noun; case tells nothing.
    Either,
}

pub(crate) fn reject_nothing(_: &str, _: &Found) -> bool {
    false
}

/// Regexes built once per language from its lexicon.
pub(crate) struct Patterns {
    day_month: Regex,
    /// The first day of "25 y 26 de junio", "du 3 au 5 mars", "14-16 April".
    range_start: Regex,
    month_day: Option<Regex>,
    month_year: Regex,
    preposition_month: Regex,
    preposition_year: Regex,
    weekday: Regex,
    relative: Regex,
    /// The relative phrases in the order of the regex's groups.
    relative_meanings: Vec<(i32, Unit)>,
    ago: Option<Regex>,
}

/// Regex for a literal phrase.
fn phrase_regex(phrase: &str) -> String {
    phrase.split(' ').map(|word| regex::escape(word).replace('\'', "['’]")).collect::<Vec<_>>().join(r"\s+")
}

/// Longest first, so that "pasado mañana" wins over "mañana".
fn longest_first<'a>(phrases: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let mut phrases: Vec<&str> = phrases.into_iter().collect();
    phrases.sort_by_key(|phrase| Reverse(phrase.chars().count()));
    phrases
}

fn alternation<'a>(phrases: impl IntoIterator<Item = &'a str>) -> String {
    let alternatives: Vec<String> = longest_first(phrases).into_iter().map(phrase_regex).collect();
    format!("(?:{})", alternatives.join("|"))
}

fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// Month or weekday names, each ending on a word boundary (or an
/// abbreviation's period), case-sensitive when the language capitalizes them.
fn names_regex(lexicon: &Lexicon, full: &[&str], abbreviations: &[&str], suffix: &str) -> String {
    let capitalized = lexicon.name_case == NameCase::Capitalized;
    let spell = |name: &str| if capitalized { capitalize(name) } else { name.to_string() };
    let mut alternatives: Vec<(usize, String)> = full
        .iter()
        .map(|name| (name.chars().count(), format!(r"{}{suffix}\b", regex::escape(&spell(name)))))
        .chain(
            abbreviations
                .iter()
                .map(|name| (name.chars().count(), format!(r"{}(?:\.|\b)", regex::escape(&spell(name))))),
        )
        .collect();
    alternatives.sort_by_key(|(length, _)| Reverse(*length));
    let joined = alternatives.into_iter().map(|(_, regex)| regex).collect::<Vec<_>>().join("|");
    let case = if capitalized { "-i" } else { "i" };
    format!("(?{case}:{joined})")
}

/// Prepositions, each followed by whitespace unless it ends in a hyphen ("mid-").
fn prepositions_regex(prepositions: &[&str]) -> String {
    let alternatives: Vec<String> = longest_first(prepositions.iter().copied())
        .into_iter()
        .map(|preposition| {
            let separator = if preposition.ends_with('-') { "" } else { r"\s+" };
            format!("{}{separator}", phrase_regex(preposition))
        })
        .collect();
    format!("(?:{})", alternatives.join("|"))
}

impl Patterns {
    pub fn build(lexicon: &Lexicon) -> Self {
        let first = |pairs: &[(&'static str, u32)]| pairs.iter().map(|(name, _)| *name).collect::<Vec<_>>();
        let months = names_regex(lexicon, &first(lexicon.months), &first(lexicon.month_abbreviations), "");
        let weekday_names: Vec<&str> = lexicon.weekdays.iter().map(|(name, _)| *name).collect();
        let weekdays = names_regex(lexicon, &weekday_names, &[], lexicon.weekday_suffix);
        let ordinal = lexicon.ordinal_suffix;
        let year_tail = r"(?:(?:\s*,\s*|\s+)(?:(?:de|del)\s+)?(?P<year>[0-9]{4})\b)?";
        let compile = |pattern: String| Regex::new(&format!("(?i){pattern}")).expect("date regex");

        let day_month_core =
            format!(r"(?P<core>(?P<day>[0-3]?[0-9])(?:{ordinal})?\s*(?:(?:de|of)\s+)?(?P<month>{months}))");
        let day_month = compile(format!(r"\b{day_month_core}{year_tail}"));
        let range_start = compile(format!(
            r"\b(?P<first>[0-3]?[0-9])(?:{ordinal})?\s*(?:-|–|(?:y|e|al|a|et|au|and|to|bis|und)\s)\s*(?:(?:el|le|the|den|il|o)\s+)?{day_month_core}{year_tail}"
        ));
        let month_day = lexicon.month_before_day.then(|| {
            compile(format!(
                r"\b(?P<core>(?P<month>{months})\s*(?P<day>[0-3]?[0-9])(?:{ordinal})?\b){year_tail}"
            ))
        });
        let month_year = compile(format!(
            r"\b(?P<month>{months})(?:\s*,\s*|\s+)(?:(?:de|del|of)\s+)?(?P<year>[12][0-9]{{3}})\b"
        ));
        let preposition_month =
            compile(format!(r"\b{}(?P<month>{months})", prepositions_regex(lexicon.month_prepositions)));
        let preposition_year = compile(format!(
            r"\b{}(?P<year>[12][0-9]{{3}})\b",
            prepositions_regex(lexicon.year_prepositions)
        ));

        let modifier_words = |pairs: &[(&'static str, WeekdayRef)]| {
            (!pairs.is_empty()).then(|| alternation(pairs.iter().map(|(word, _)| *word)))
        };
        let before = modifier_words(lexicon.weekday_before)
            .map_or(String::new(), |words| format!(r"(?:(?P<before>{words})\s+)?"));
        let after = modifier_words(lexicon.weekday_after)
            .map_or(String::new(), |words| format!(r"(?:\s+(?P<after>{words})\b)?"));
        let weekday = compile(format!(r"\b{before}(?P<weekday>{weekdays}){after}"));

        // One capturing group per phrase, longest first; the group that
        // matched indexes `relative_meanings`.
        let mut relative_entries: Vec<&(&str, i32, Unit)> = lexicon.relative.iter().collect();
        relative_entries.sort_by_key(|(phrase, _, _)| Reverse(phrase.chars().count()));
        let groups: Vec<String> =
            relative_entries.iter().map(|(phrase, _, _)| format!("({})", phrase_regex(phrase))).collect();
        let relative = compile(format!(r"\b(?:{})\b", groups.join("|")));
        let relative_meanings = relative_entries.iter().map(|(_, amount, unit)| (*amount, *unit)).collect();

        Self {
            day_month,
            range_start,
            month_day,
            month_year,
            preposition_month,
            preposition_year,
            weekday,
            relative,
            relative_meanings,
            ago: ago_regex(lexicon).map(compile),
        }
    }
}

fn ago_regex(lexicon: &Lexicon) -> Option<String> {
    let number = format!("(?:[0-9]{{1,3}}|{})", alternation(lexicon.numbers.iter().map(|(word, _)| *word)));
    let unit = alternation(lexicon.units.iter().map(|(word, _)| *word));
    let mut branches = Vec::new();
    if !lexicon.ago_before.is_empty() {
        let ago = alternation(lexicon.ago_before.iter().copied());
        branches.push(format!(r"{ago}\s+(?P<count>{number})\s+(?P<unit>{unit})\b"));
    }
    if !lexicon.ago_after.is_empty() {
        let ago = alternation(lexicon.ago_after.iter().copied());
        branches.push(format!(r"(?P<count_first>{number})\s+(?P<unit_first>{unit})\s+{ago}\b"));
    }
    (!branches.is_empty()).then(|| format!(r"\b(?:{})", branches.join("|")))
}

/// All candidate date expressions of one language in `text`.
pub(crate) fn find(text: &str, lexicon: &Lexicon, patterns: &Patterns) -> Vec<Found> {
    let mut found = Vec::new();
    found.extend(day_months(text, lexicon, &patterns.day_month));
    found.extend(range_starts(text, lexicon, &patterns.range_start));
    if let Some(month_day) = &patterns.month_day {
        found.extend(day_months(text, lexicon, month_day));
    }
    found.extend(month_years(text, lexicon, &patterns.month_year));
    found.extend(preposition_months(text, lexicon, &patterns.preposition_month));
    found.extend(preposition_years(text, &patterns.preposition_year));
    found.extend(weekdays(text, lexicon, &patterns.weekday));
    found.extend(relatives(text, patterns));
    if let Some(ago) = &patterns.ago {
        found.extend(agos(text, lexicon, ago));
    }
    found.retain(|candidate| !(lexicon.reject)(text, candidate));
    found
}

fn lookup<T: Copy>(table: &[(&str, T)], word: &str) -> Option<T> {
    let key = word.trim_end_matches('.').to_lowercase();
    table.iter().find(|(name, _)| *name == key).map(|(_, value)| *value)
}

fn month_number(lexicon: &Lexicon, name: &str) -> Option<u32> {
    lookup(lexicon.months, name).or_else(|| lookup(lexicon.month_abbreviations, name))
}

/// "14 April 2011", "April 14", "le 1er avril": the span ends at the day
/// and month when the year is missing or not a plausible one.
fn day_months<'t>(text: &'t str, lexicon: &'t Lexicon, regex: &'t Regex) -> impl Iterator<Item = Found> + 't {
    regex.captures_iter(text).filter_map(move |caps| {
        let core = caps.name("core")?;
        let month = month_number(lexicon, &caps["month"])?;
        let day: u32 = caps["day"].parse().ok()?;
        let (year, end) = year_after(text, lexicon, &caps)?;
        Some(Found { start: core.start(), end, expr: Expr::Date { year, month, day } })
    })
}

/// The year written after a day and month, with the end of the date; or
/// the year to infer, the date ending at the month.
fn year_after(text: &str, lexicon: &Lexicon, caps: &Captures) -> Option<(YearSpec, usize)> {
    let core = caps.name("core")?;
    let year = caps.name("year").and_then(|year| Some((year.as_str().parse::<i32>().ok()?, year.end())));
    Some(match year {
        Some((year, end)) if (1000..3000).contains(&year) => (YearSpec::Explicit(year), end),
        _ => (YearSpec::Infer(tense_around(text, lexicon, core.start(), core.end())), core.end()),
    })
}

/// The first day of a range takes the month and year of the second; the
/// span is its number alone.
fn range_starts<'t>(
    text: &'t str,
    lexicon: &'t Lexicon,
    regex: &'t Regex,
) -> impl Iterator<Item = Found> + 't {
    regex.captures_iter(text).filter_map(move |caps| {
        let first = caps.name("first")?;
        let day: u32 = first.as_str().parse().ok()?;
        let last_day: u32 = caps["day"].parse().ok()?;
        if day >= last_day {
            return None;
        }
        let month = month_number(lexicon, &caps["month"])?;
        let (year, _) = year_after(text, lexicon, &caps)?;
        Some(Found { start: first.start(), end: first.end(), expr: Expr::Date { year, month, day } })
    })
}

fn month_years<'t>(
    text: &'t str,
    lexicon: &'t Lexicon,
    regex: &'t Regex,
) -> impl Iterator<Item = Found> + 't {
    regex.captures_iter(text).filter_map(move |caps| {
        let whole = caps.get(0)?;
        let month = month_number(lexicon, &caps["month"])?;
        let year = YearSpec::Explicit(caps["year"].parse().ok()?);
        Some(Found { start: whole.start(), end: whole.end(), expr: Expr::Month { year, month } })
    })
}

/// "in March": the span is the month name alone.
fn preposition_months<'t>(
    text: &'t str,
    lexicon: &'t Lexicon,
    regex: &'t Regex,
) -> impl Iterator<Item = Found> + 't {
    regex.captures_iter(text).filter_map(move |caps| {
        let name = caps.name("month")?;
        if is_proper_noun(text, lexicon, name.start()) {
            return None;
        }
        let month = month_number(lexicon, name.as_str())?;
        let tense = tense_around(text, lexicon, name.start(), name.end());
        let expr = Expr::Month { year: YearSpec::Infer(tense), month };
        Some(Found { start: name.start(), end: name.end(), expr })
    })
}

/// "in 2011": the span is the year. "the 1990s" has no word boundary after
/// the digits and never matches; "in 2011 %" is a number.
fn preposition_years<'t>(text: &'t str, regex: &'t Regex) -> impl Iterator<Item = Found> + 't {
    regex.captures_iter(text).filter_map(move |caps| {
        let year = caps.name("year")?;
        if text[year.end()..].trim_start().starts_with('%') {
            return None;
        }
        let expr = Expr::Year(year.as_str().parse().ok()?);
        Some(Found { start: year.start(), end: year.end(), expr })
    })
}

fn weekdays<'t>(text: &'t str, lexicon: &'t Lexicon, regex: &'t Regex) -> impl Iterator<Item = Found> + 't {
    regex.captures_iter(text).filter_map(move |caps| {
        let whole = caps.get(0)?;
        let name = caps.name("weekday")?;
        let weekday = weekday_named(lexicon, name.as_str())?;
        if is_habitual(text, whole.start(), lexicon) || is_proper_noun(text, lexicon, name.start()) {
            return None;
        }
        let reference = weekday_reference(text, lexicon, &caps)?;
        Some(Found { start: whole.start(), end: whole.end(), expr: Expr::Weekday { weekday, reference } })
    })
}

/// The weekday whose name starts the matched word ("dienstagabend" → Tuesday).
fn weekday_named(lexicon: &Lexicon, matched: &str) -> Option<Weekday> {
    let lower = matched.to_lowercase();
    lexicon
        .weekdays
        .iter()
        .filter(|(name, _)| lower.starts_with(name))
        .max_by_key(|(name, _)| name.len())
        .map(|(_, weekday)| *weekday)
}

fn weekday_reference(text: &str, lexicon: &Lexicon, caps: &Captures) -> Option<WeekdayRef> {
    let modifier = |group: &str, table: &[(&str, WeekdayRef)]| {
        caps.name(group).and_then(|word| {
            let key = word.as_str().split_whitespace().collect::<Vec<_>>().join(" ").replace('’', "'");
            lookup(table, &key)
        })
    };
    let explicit = modifier("before", lexicon.weekday_before)
        .into_iter()
        .chain(modifier("after", lexicon.weekday_after));
    let reference = explicit.fold(WeekdayRef::OnOrBefore, |chosen, next| match next {
        WeekdayRef::OnOrBefore => chosen,
        decided => decided,
    });
    let whole = caps.get(0)?;
    let name = caps.name("weekday")?;
    let in_future =
        reference == WeekdayRef::OnOrBefore && in_future_clause(text, lexicon, whole.start(), name.end());
    Some(if in_future { WeekdayRef::OnOrAfter } else { reference })
}

/// A capitalized name inside a sentence, in a language that writes names
/// lowercase.
fn is_proper_noun(text: &str, lexicon: &Lexicon, start: usize) -> bool {
    let capitalized = text[start..].chars().next().is_some_and(char::is_uppercase);
    lexicon.name_case == NameCase::Lowercase && capitalized && !starts_sentence(text, start)
}

/// Nothing but opening quotes or brackets between `position` and the end of
/// the previous sentence (or the start of the text).
pub(crate) fn starts_sentence(text: &str, position: usize) -> bool {
    text[..position]
        .trim_end_matches(|c: char| c.is_whitespace() || "\"'„“”«»‘’¿¡([".contains(c))
        .chars()
        .next_back()
        .is_none_or(|c| ".!?:;…".contains(c))
}

fn is_habitual(text: &str, start: usize, lexicon: &Lexicon) -> bool {
    lexicon.habitual.iter().any(|phrase| {
        let count = phrase.split(' ').count();
        let preceding = words_before(text, start, count);
        preceding.len() == count && preceding.join(" ") == *phrase
    })
}

/// Up to `count` words right before `position`, lowercase, in text order.
pub(crate) fn words_before(text: &str, position: usize, count: usize) -> Vec<String> {
    let mut words: Vec<String> =
        text[..position].split_whitespace().rev().take(count).map(normalize_word).collect();
    words.reverse();
    words
}

pub(crate) fn word_after(text: &str, position: usize) -> Option<String> {
    text[position..].split_whitespace().next().map(normalize_word)
}

/// Lowercase, without surrounding punctuation, with a straight apostrophe.
fn normalize_word(word: &str) -> String {
    word.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’')
        .replace('’', "'")
        .to_lowercase()
}

/// Future cue close to a date in its clause: up to four words before it
/// ("will meet on Tuesday") and, where verbs can follow, two after ("el
/// martes se reunirá"); a subordinating word ends the search ("said on
/// Tuesday that it will" is past).
fn in_future_clause(text: &str, lexicon: &Lexicon, start: usize, end: usize) -> bool {
    let (clause_start, clause_end) = clause_around(text, start, end);
    let is_opener = |word: &String| lexicon.clause_openers.contains(&word.as_str());
    let before: Vec<String> =
        text[clause_start..start].split_whitespace().rev().take(4).map(normalize_word).collect();
    let after_count = if lexicon.future_verb_follows { 2 } else { 0 };
    let after = text[end..clause_end].split_whitespace().take(after_count).map(normalize_word);
    let before = before.into_iter().take_while(|word| !is_opener(word));
    let after: Vec<String> = after.take_while(|word| !is_opener(word)).collect();
    before.chain(after).any(|word| is_future_cue(lexicon, &word))
}

fn tense_around(text: &str, lexicon: &Lexicon, start: usize, end: usize) -> Tense {
    if in_future_clause(text, lexicon, start, end) {
        Tense::Future
    } else {
        Tense::Unmarked
    }
}

fn is_future_cue(lexicon: &Lexicon, word: &str) -> bool {
    lexicon.future_words.contains(&word)
        || lexicon
            .future_endings
            .iter()
            .any(|ending| word.ends_with(ending) && word.chars().count() >= ending.chars().count() + 2)
}

fn relatives<'t>(text: &'t str, patterns: &'t Patterns) -> impl Iterator<Item = Found> + 't {
    patterns.relative.captures_iter(text).filter_map(move |caps| {
        let whole = caps.get(0)?;
        let phrase = caps.iter().skip(1).position(|group| group.is_some())?;
        let (amount, unit) = patterns.relative_meanings[phrase];
        Some(Found { start: whole.start(), end: whole.end(), expr: Expr::Offset { amount, unit } })
    })
}

fn agos<'t>(text: &'t str, lexicon: &'t Lexicon, regex: &'t Regex) -> impl Iterator<Item = Found> + 't {
    regex.captures_iter(text).filter_map(move |caps| {
        let whole = caps.get(0)?;
        let count = caps.name("count").or_else(|| caps.name("count_first"))?.as_str();
        let unit = caps.name("unit").or_else(|| caps.name("unit_first"))?.as_str();
        let count = count.parse::<i32>().ok().or_else(|| lookup(lexicon.numbers, count))?;
        let unit = lookup(lexicon.units, unit)?;
        Some(Found { start: whole.start(), end: whole.end(), expr: Expr::Offset { amount: -count, unit } })
    })
}
