//! Date expressions in sentences, resolved against the document's date: the
//! sentence time of TBMMR (`docs/design/tbmmr.md`, table 2 of the paper).
//!
//! Each language file reads expressions into an [`resolve::Expr`]; the
//! resolver turns them into calendar dates. Supported: English, Chinese,
//! Spanish, French, German, Italian, Portuguese, Thai (Buddhist-era years
//! too); "und" tries them all.
//!
//! Resolution rules (news mostly reports the past):
//! - A day or month without a year is its latest occurrence on or before
//!   the document date ("December 30" in a 2 January article is last
//!   year's); the next one when a future-tense cue stands close to it in the
//!   same clause ("will vote on 20 March", "le 3 juillet prochain", "将于
//!   4月20日"), or when that is at most a week (a month: the next month)
//!   ahead and nearer ("January 3" in a 30 December article).
//! - A plain weekday is the latest on or before the document date ("said on
//!   Tuesday"); the coming one after a future cue ("will meet on Tuesday",
//!   "se reunirá el martes", "将于周三"). "last"/"next" style modifiers make
//!   it strictly before/after; Chinese 上周二/下周二 count calendar weeks.
//! - Weeks shift the document date by 7 days; months and years are their
//!   first day with a coarser [`Granularity`].
//!
//! Pure computation: no clock, no files, no threads (builds for wasm32).

mod civil;
mod de;
mod en;
mod es;
mod fr;
mod iso8601;
mod it;
mod latin;
mod numeric;
mod pt;
mod resolve;
mod th;
mod zh;

pub use civil::{format_date_time, format_time, CivilDate, ParseDateError, Weekday};
pub use iso8601::parse_iso8601;

use resolve::Expr;
use serde::{Deserialize, Serialize};

/// How precise a mention is. Week, month and year mentions still carry one
/// day: the shifted document date for weeks, the first day otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Granularity {
    Day,
    Week,
    Month,
    Year,
}

/// What kind of expression a mention is (table 2 of the TBMMR paper).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MentionKind {
    /// Names its date: "14 April 2011", "4月15日", "March 2011".
    Absolute,
    /// "Tuesday", "el martes pasado", "上周二".
    Weekday,
    /// Counted from the document date: "yesterday", "hace dos días", "去年".
    Relative,
}

/// A date expression found in a text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DateMention {
    /// Byte span in the text (on char boundaries).
    pub start: usize,
    pub end: usize,
    pub date: CivilDate,
    pub granularity: Granularity,
    pub kind: MentionKind,
}

impl DateMention {
    /// The single day that best stands for this mention when a day is
    /// needed: the document date if the mentioned month or year contains it
    /// ("this year" is about now, not 1 January), else the mention's date.
    pub fn representative_day(&self, document_date: CivilDate) -> CivilDate {
        let contains_document = match self.granularity {
            Granularity::Day | Granularity::Week => false,
            Granularity::Month => {
                (self.date.year, self.date.month) == (document_date.year, document_date.month)
            }
            Granularity::Year => self.date.year == document_date.year,
        };
        if contains_document {
            document_date
        } else {
            self.date
        }
    }
}

/// A candidate read by a language parser, before resolution.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Found {
    pub start: usize,
    pub end: usize,
    pub expr: Expr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Language {
    English,
    Chinese,
    Spanish,
    French,
    German,
    Italian,
    Portuguese,
    Thai,
}

const ALL_LANGUAGES: [Language; 8] = [
    Language::English,
    Language::Chinese,
    Language::Spanish,
    Language::French,
    Language::German,
    Language::Italian,
    Language::Portuguese,
    Language::Thai,
];

/// Languages to try for an ISO 639-1 or 639-3 code ("en", "eng", "zh-Hans");
/// "und" and unsupported codes try all of them.
fn languages_for(code: &str) -> &'static [Language] {
    let primary = code.split(['-', '_']).next().unwrap_or("").to_ascii_lowercase();
    let index = match primary.as_str() {
        "en" | "eng" => 0,
        "zh" | "zho" | "chi" | "cmn" => 1,
        "es" | "spa" => 2,
        "fr" | "fra" | "fre" => 3,
        "de" | "deu" | "ger" => 4,
        "it" | "ita" => 5,
        "pt" | "por" => 6,
        "th" | "tha" => 7,
        _ => return &ALL_LANGUAGES,
    };
    std::slice::from_ref(&ALL_LANGUAGES[index])
}

fn find_in(language: Language, text: &str) -> Vec<Found> {
    match language {
        Language::English => en::find(text),
        Language::Chinese => zh::find(text),
        Language::Spanish => es::find(text),
        Language::French => fr::find(text),
        Language::German => de::find(text),
        Language::Italian => it::find(text),
        Language::Portuguese => pt::find(text),
        Language::Thai => th::find(text),
    }
}

/// Date expressions in `text` (language `lang`, ISO 639 code or "und"),
/// resolved against `document_date`, in text order, not overlapping.
pub fn extract(text: &str, lang: &str, document_date: CivilDate) -> Vec<DateMention> {
    let languages = languages_for(lang);
    let numeric_order = if languages == [Language::English] || languages.len() > 1 {
        resolve::FieldOrder::Either
    } else {
        resolve::FieldOrder::DayFirst
    };
    let mut found = numeric::find(text, numeric_order);
    for &language in languages {
        found.extend(find_in(language, text));
    }
    let mentions = found.into_iter().filter_map(|candidate| {
        let resolved = resolve::resolve(candidate.expr, document_date)?;
        Some(DateMention {
            start: candidate.start,
            end: candidate.end,
            date: resolved.date,
            granularity: resolved.granularity,
            kind: resolved.kind,
        })
    });
    merge_weekday_with_date(text, leftmost_longest(mentions.collect()))
}

/// The time of a sentence for TBMMR: its first day-precise mention; else its
/// first coarser mention (see [`DateMention::representative_day`]); else the
/// document's date.
pub fn sentence_date(text: &str, lang: &str, document_date: CivilDate) -> CivilDate {
    let mentions = extract(text, lang, document_date);
    let first_day = mentions.iter().find(|mention| mention.granularity == Granularity::Day);
    match first_day.or(mentions.first()) {
        Some(mention) => mention.representative_day(document_date),
        None => document_date,
    }
}

/// Days within which two sentence times count as close (TBMMR formula (6)).
const CLOSE_DAYS: i64 = 3;

/// TBMMR formula (6): 1 on the same day, 0.3 within three days, else 0.
pub fn time_similarity(a: CivilDate, b: CivilDate) -> f32 {
    match a.days_until(b).abs() {
        0 => 1.0,
        gap if gap <= CLOSE_DAYS => 0.3,
        _ => 0.0,
    }
}

/// Keeps, among overlapping mentions, the one starting first, then the longest.
fn leftmost_longest(mut mentions: Vec<DateMention>) -> Vec<DateMention> {
    mentions.sort_by_key(|mention| (mention.start, std::cmp::Reverse(mention.end)));
    let mut kept: Vec<DateMention> = Vec::with_capacity(mentions.len());
    for mention in mentions {
        if kept.last().is_none_or(|last| mention.start >= last.end) {
            kept.push(mention);
        }
    }
    kept
}

/// "Tuesday, April 14", "martes 14 de abril", "4月15日（星期五）", "mañana
/// viernes": the weekday restates the date, so the two become one mention,
/// dated and typed by the date.
fn merge_weekday_with_date(text: &str, mentions: Vec<DateMention>) -> Vec<DateMention> {
    let mut merged: Vec<DateMention> = Vec::with_capacity(mentions.len());
    for mention in mentions {
        if let Some(previous) = merged.last_mut() {
            if restates_date(text, previous, &mention) {
                let date_part = if previous.kind == MentionKind::Weekday { mention } else { *previous };
                *previous = DateMention { start: previous.start, end: mention.end, ..date_part };
                continue;
            }
        }
        merged.push(mention);
    }
    merged
}

fn restates_date(text: &str, first: &DateMention, second: &DateMention) -> bool {
    let is_day_date = |m: &DateMention| m.kind != MentionKind::Weekday && m.granularity == Granularity::Day;
    let pair = (first.kind == MentionKind::Weekday && is_day_date(second))
        || (is_day_date(first) && second.kind == MentionKind::Weekday);
    pair && is_date_joiner(&text[first.end..second.start])
}

/// Text allowed between a weekday and its date: punctuation, spaces and an
/// article ("Dienstag, den 14. April", "Tuesday the 14th").
fn is_date_joiner(gap: &str) -> bool {
    const ARTICLES: [&str; 6] = ["the", "den", "le", "el", "il", "o"];
    let words: Vec<&str> = gap
        .split(|c: char| c.is_whitespace() || ",，、(（".contains(c))
        .filter(|word| !word.is_empty())
        .collect();
    match words.as_slice() {
        [] => true,
        [word] => ARTICLES.contains(&word.to_lowercase().as_str()),
        _ => false,
    }
}

/// Byte range of the clause around `start..end`: up to the nearest
/// punctuation that separates clauses in any supported script.
pub(crate) fn clause_around(text: &str, start: usize, end: usize) -> (usize, usize) {
    let is_break = |c: char| ",;:.!?\"«»“”()[]\n，。；：！？（）「」".contains(c);
    let clause_start = text[..start]
        .char_indices()
        .rev()
        .find(|&(_, c)| is_break(c))
        .map_or(0, |(index, c)| index + c.len_utf8());
    let clause_end = text[end..].find(is_break).map_or(text.len(), |offset| end + offset);
    (clause_start, clause_end)
}

#[cfg(test)]
pub(crate) mod test_support {
    use super::*;

    pub fn date(year: i32, month: u32, day: u32) -> CivilDate {
        CivilDate::new(year, month, day).unwrap()
    }

    /// (mentioned text, resolved ISO date) of every mention.
    pub fn mentions(text: &str, lang: &str, document: CivilDate) -> Vec<(String, String)> {
        extract(text, lang, document)
            .into_iter()
            .map(|m| (text[m.start..m.end].to_string(), m.date.to_string()))
            .collect()
    }

    /// The single mention in `text`, as (mentioned text, ISO date).
    pub fn only(text: &str, lang: &str, document: CivilDate) -> (String, String) {
        let found = mentions(text, lang, document);
        assert_eq!(found.len(), 1, "{text:?} gave {found:?}");
        found.into_iter().next().unwrap()
    }

    pub fn pair(span: &str, iso: &str) -> (String, String) {
        (span.to_string(), iso.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::*;
    use super::*;
    use proptest::prelude::*;

    const THURSDAY: (i32, u32, u32) = (2011, 4, 14);

    fn thursday() -> CivilDate {
        date(THURSDAY.0, THURSDAY.1, THURSDAY.2)
    }

    #[test]
    fn time_similarity_follows_tbmmr() {
        let day = date(2011, 4, 14);
        assert_eq!(time_similarity(day, day), 1.0);
        assert_eq!(time_similarity(day, day.add_days(-1)), 0.3);
        assert_eq!(time_similarity(day, day.add_days(3)), 0.3);
        assert_eq!(time_similarity(day, day.add_days(4)), 0.0);
        assert_eq!(time_similarity(day.add_days(-30), day), 0.0);
    }

    #[test]
    fn sentence_date_prefers_the_first_day_precise_mention() {
        let doc = thursday();
        assert_eq!(sentence_date("Nothing dated here.", "en", doc), doc);
        assert_eq!(sentence_date("Yesterday, and on Monday too.", "en", doc), date(2011, 4, 13));
        let coarse_then_day = "Since March 2010, 300 people died, the UN said on Monday.";
        assert_eq!(sentence_date(coarse_then_day, "en", doc), date(2011, 4, 11));
        assert_eq!(sentence_date("The war began in March 2010.", "en", doc), date(2010, 3, 1));
        assert_eq!(sentence_date("This year has been hard.", "en", doc), doc);
        assert_eq!(sentence_date("Last week was hard.", "en", doc), date(2011, 4, 7));
    }

    #[test]
    fn merges_a_weekday_with_the_date_it_names() {
        let doc = thursday();
        assert_eq!(
            only("on Tuesday, April 5, 2011", "en", doc),
            pair("Tuesday, April 5, 2011", "2011-04-05")
        );
        assert_eq!(only("el martes 5 de abril", "es", doc), pair("martes 5 de abril", "2011-04-05"));
        assert_eq!(only("Dienstag, den 5. April", "de", doc), pair("Dienstag, den 5. April", "2011-04-05"));
        assert_eq!(only("4月5日（星期二）", "zh", doc), pair("4月5日（星期二", "2011-04-05"));
        assert_eq!(only("mañana viernes en Damasco", "es", doc), pair("mañana viernes", "2011-04-15"));
        assert_eq!(only("hier dimanche", "fr", doc), pair("hier dimanche", "2011-04-13"));
        let apart = mentions("on Tuesday police said that 5 April", "en", doc);
        assert_eq!(apart.len(), 2);
    }

    #[test]
    fn und_tries_every_language() {
        let doc = thursday();
        assert_eq!(only("ayer", "und", doc), pair("ayer", "2011-04-13"));
        assert_eq!(only("昨天", "und", doc), pair("昨天", "2011-04-13"));
        assert_eq!(only("vorgestern", "xx", doc), pair("vorgestern", "2011-04-12"));
        assert_eq!(only("hier", "fr", doc), pair("hier", "2011-04-13"));
        assert!(mentions("ayer", "en", doc).is_empty());
    }

    #[test]
    fn accepts_iso_639_3_and_region_codes() {
        let doc = thursday();
        assert_eq!(only("ayer", "spa", doc).1, "2011-04-13");
        assert_eq!(only("昨天", "zh-Hans", doc).1, "2011-04-13");
        assert_eq!(only("gestern", "de_AT", doc).1, "2011-04-13");
    }

    #[test]
    fn mentions_serialize_for_the_app() {
        let mention = extract("yesterday", "en", thursday())[0];
        let json = serde_json::to_string(&mention).unwrap();
        assert_eq!(json, r#"{"start":0,"end":9,"date":"2011-04-13","granularity":"day","kind":"relative"}"#);
        assert_eq!(serde_json::from_str::<DateMention>(&json).unwrap(), mention);
    }

    fn date_like_text() -> impl Strategy<Value = String> {
        let pieces = prop::sample::select(vec![
            "14", "4", "2011", "/", ".", "-", " ", ",", "de", "of", "le", "am", "el", "April", "abril",
            "avril", "März", "mañana", "morgen", "Morgen", "hier", "ayer", "Tuesday", "martes", "mardi",
            "Dienstag", "年", "月", "日", "号", "周", "星期", "二", "十", "昨天", "前天", "上", "天", "前",
            "ago", "hace", "días", "il y a", "jours", "vor", "Tagen", "last", "next", "will", "é", "ü", "😀",
        ]);
        (prop::collection::vec(pieces, 0..24), any::<String>()).prop_map(|(pieces, noise)| {
            let mut text = pieces.concat();
            text.push_str(&noise);
            text
        })
    }

    proptest! {
        #[test]
        fn extraction_is_total_well_formed_and_deterministic(
            text in date_like_text(),
            lang in prop::sample::select(vec!["en", "zh", "es", "fr", "de", "it", "pt", "und"]),
            days in -30_000i64..60_000,
        ) {
            let document = CivilDate::from_unix_days(days);
            let mentions = extract(&text, lang, document);
            let mut previous_end = 0;
            for mention in &mentions {
                prop_assert!(mention.start < mention.end && mention.end <= text.len());
                prop_assert!(text.is_char_boundary(mention.start) && text.is_char_boundary(mention.end));
                prop_assert!(mention.start >= previous_end);
                previous_end = mention.end;
            }
            prop_assert_eq!(&mentions, &extract(&text, lang, document));
            let _ = sentence_date(&text, lang, document);
        }

        #[test]
        fn unix_days_round_trip(days in -1_000_000i64..1_000_000) {
            let date = CivilDate::from_unix_days(days);
            prop_assert_eq!(date.to_unix_days(), days);
            prop_assert!(CivilDate::new(date.year, date.month, date.day).is_some());
            prop_assert_eq!(date.to_string().parse::<CivilDate>(), Ok(date));
        }
    }
}
