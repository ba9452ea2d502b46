//! Fuzz campaign (issue #19, part 4): every reader and parser that takes
//! user bytes gets generated inputs, structure-aware where the format has
//! structure, in an in-process loop on stable Rust.
//!
//! Per input: a panic is caught and the input saved to
//! `target/fuzz-failures/<target>-<n>.bin`; a watchdog thread aborts the
//! process when one input uses more CPU time than [`allow`] gives it (after saving the
//! input); a counting global allocator measures the peak of the bytes live
//! while the input runs, which must stay under `A × input bytes + B` (per
//! target, see [`Target`]).
//!
//! `PRECIS_FUZZ_INPUTS` sets the inputs per target (default [`CI_INPUTS`],
//! the short run CI makes), `PRECIS_FUZZ_SEED` the seed (default fixed), and
//! `PRECIS_FUZZ_ONLY=<n>` runs input `n` alone (to replay a failure).
//! Input `n` of a target depends only on the seed, the target and `n`.
//!
//!     PRECIS_FUZZ_INPUTS=1000000 cargo test --profile ci --test fuzz -- --nocapture --test-threads=1

use precis::dates::{self, CivilDate};
use precis::document::{Cluster, Document};
use precis::input::{documents_from_file, documents_from_paste, parse_iso8601, InputError};
use precis::segment;
use std::alloc::{GlobalAlloc, Layout, System};
use std::fmt::Write as _;
use std::io::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

// ---------------------------------------------------------------- budget

/// Inputs per target when `PRECIS_FUZZ_INPUTS` is not set: CI's short run.
const CI_INPUTS: u64 = 2_000;
/// Inputs run before counting, to build lazily made tables and caches.
const WARM_UP: u64 = 200;
/// The seed when `PRECIS_FUZZ_SEED` is not set.
const DEFAULT_SEED: u64 = 0x5EED_0019;
/// Longest one input may run. The slowest inputs of a 10^6-input run take
/// ~0.2 s (a ZIP bomb unpacking to the 50 MB limit, a 1 MB PDF stream); 2 s
/// leaves a 10x margin for a loaded machine, and is still far below what a
/// quadratic or unbounded loop on a 1 MB input would take.
const TIME_LIMIT: Duration = Duration::from_secs(2);
/// ... plus this much per byte of the stage's input (input bytes for
/// reading, text bytes for segmenting what was read): the slowest linear
/// rate measured is `Cluster::new` on text of many short sentences, 4.6 µs
/// a byte (1 MB of 68,000 one-line paragraphs: 4.7 s) and up to 11 µs a
/// byte with the 2 cores at load 6; 25 µs leaves a margin over that. A 1 MB
/// input may take 27 s; a quadratic step on it would take hours.
const TIME_PER_BYTE: Duration = Duration::from_micros(25);

/// Sets the deadline of a stage working on `bytes` bytes, in the process's
/// CPU time: a loop that never ends burns CPU, while a run niced beside a
/// build may wait for a core far longer than any limit (a 2.5 s Word input
/// took over 18 s of wall time beside a Trunk build and was reported as a
/// hang).
fn allow(stage: usize, bytes: usize) {
    let limit = TIME_LIMIT + TIME_PER_BYTE * bytes as u32;
    STAGE.store(stage, Relaxed);
    DEADLINE_MS.store(cpu_ms() + limit.as_millis() as u64, Relaxed);
}
/// Fixed part of every memory bound: allocator slack, lazily built regexes
/// and tables on first use.
const MIB: usize = 1 << 20;
/// A ZIP bomb may unpack to `MAX_UNPACKED_BYTES` (50 MB) of XML, which the
/// Word and OpenDocument readers hold with its text copy and paragraphs.
const MAX_UNPACKED: usize = precis::limits::MAX_UNPACKED_BYTES;

fn inputs() -> u64 {
    std::env::var("PRECIS_FUZZ_INPUTS").ok().and_then(|v| v.replace('_', "").parse().ok()).unwrap_or(CI_INPUTS)
}

fn seed() -> u64 {
    std::env::var("PRECIS_FUZZ_SEED")
        .ok()
        .and_then(|v| {
            v.strip_prefix("0x").map_or_else(|| v.parse().ok(), |hex| u64::from_str_radix(hex, 16).ok())
        })
        .unwrap_or(DEFAULT_SEED)
}

// ---------------------------------------------------------------- allocator

/// Counts the bytes live and their peak since the last `reset_peak`.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        unsafe { System.dealloc(p, layout) };
        LIVE.fetch_sub(layout.size(), Relaxed);
    }
    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let q = unsafe { System.realloc(p, layout, new_size) };
        if !q.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Relaxed);
            }
        }
        q
    }
}

fn grew(bytes: usize) {
    let live = LIVE.fetch_add(bytes, Relaxed) + bytes;
    PEAK.fetch_max(live, Relaxed);
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

// ---------------------------------------------------------------- random

/// wyrand: fast, good enough for generating inputs.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Self(seed)
    }
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0xa076_1d64_78bd_642f);
        let t = u128::from(self.0) * u128::from(self.0 ^ 0xe703_7ed1_a0b4_28db);
        ((t >> 64) ^ t) as u64
    }
    /// 0..n (n > 0).
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }
    fn range(&mut self, low: usize, high: usize) -> usize {
        low + self.below(high - low + 1)
    }
    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
    /// A size: mostly small, sometimes tens of kB, rarely up to 1 MB.
    fn size(&mut self) -> usize {
        match self.below(10_000) {
            0..=1 => self.range(100_000, 1_000_000),
            2..=100 => self.range(4_096, 65_536),
            101..=2_000 => self.range(512, 4_096),
            _ => self.range(0, 512),
        }
    }
    /// Any scalar value, from every plane.
    fn any_char(&mut self) -> char {
        loop {
            let c = match self.below(8) {
                0 => self.below(0x80) as u32,
                1 => self.below(0x800) as u32,
                2 => self.below(0x1_0000) as u32,
                3 => 0x1_0000 + self.below(0x1_0000) as u32,
                4 => 0x2_0000 + self.below(0x2_0000) as u32,
                5 => 0xE_0000 + self.below(0x2_0000) as u32,
                6 => self.pick(&[0xFFFE, 0xFFFF, 0x1FFFE, 0x10FFFF, 0xFDD0, 0xE0001, 0xE007F, 0xFE0F, 0x1F3FB]),
                _ => self.below(0x11_0000) as u32,
            };
            if let Some(c) = char::from_u32(c) {
                return c;
            }
        }
    }
}

/// The generator of input `n`: its own stream, from the seed, target and `n`.
fn input_rng(seed: u64, target: &str, n: u64) -> Rng {
    let mut h = seed ^ 0x9E37_79B9_7F4A_7C15;
    for b in target.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3);
    }
    let mut rng = Rng::new(h ^ n.wrapping_mul(0xD6E8_FEB8_6659_FD93));
    rng.next();
    rng
}

// ---------------------------------------------------------------- text soup

/// One sentence in each of the languages the summarizer meets (the 16 of
/// issue #19 and a few more scripts).
const SENTENCES: &[&str] = &[
    "The council voted on Tuesday to approve the budget, officials said.",
    "Der Stadtrat stimmte am Dienstag dem Haushalt zu, sagte ein Sprecher.",
    "Le conseil a voté mardi le budget, selon un porte-parole.",
    "El consejo votó el martes a favor del presupuesto, dijo un portavoz.",
    "Il consiglio ha votato martedì il bilancio, ha detto un portavoce.",
    "O conselho votou na terça-feira o orçamento, disse um porta-voz.",
    "De gemeenteraad stemde dinsdag in met de begroting.",
    "Совет во вторник утвердил бюджет, сообщил представитель.",
    "وافق المجلس يوم الثلاثاء على الميزانية، حسبما قال متحدث.",
    "理事会周二投票通过了预算，一位发言人说。",
    "評議会は火曜日に予算を承認したと広報担当者が述べた。",
    "의회는 화요일에 예산을 승인했다고 대변인이 말했다.",
    "परिषद ने मंगलवार को बजट को मंजूरी दी, प्रवक्ता ने कहा।",
    "Meclis salı günü bütçeyi onayladı, dedi sözcü.",
    "Rada we wtorek przyjęła budżet, powiedział rzecznik.",
    "Το συμβούλιο ενέκρινε τον προϋπολογισμό την Τρίτη.",
    "Hội đồng đã thông qua ngân sách vào thứ Ba.",
    "המועצה אישרה את התקציב ביום שלישי, אמר דובר.",
    "Rådet godkände budgeten på tisdagen.",
    "Рада у вівторок ухвалила бюджет.",
];

/// Pieces that trip splitters, decoders and layout code.
const TRICKY: &[&str] = &[
    "Dr. ", "U.S. ", "e.g. ", "No. 5 ", "3.14", "...", "…", "?!", "。", "！", "？", "؟", "।", "\"", "“", "”",
    "«", "»", "``", "''", "(", ")", "[", "]", "\n", "\n\n", "\r\n", "\r", "\t", "\u{0C}", "\u{2028}",
    "\u{2029}", "\u{85}", "---\n", "\n===\n", "\n- ", "\n* ", "• ", "\n1. ", "a) ", "&amp;", "&lt;", "&#x1F600;",
    "&#0;", "&#xD800;", "&#99999999999;", "&nbsp;", "&", "&#", "&#x;", "http://example.com/a.b?c=d. ",
    "user@example.com", "\u{200B}", "\u{200C}", "\u{200D}", "\u{FEFF}", "\u{200E}", "\u{200F}", "\u{202A}",
    "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}", "\u{061C}",
    "\u{FFFD}", "\u{FFFF}", "\u{10FFFF}", "👨‍👩‍👧", "🇫🇷", "ﬁ", "ﬂ", "Ａ", "ǅ", "İ", "ß", "ﷺ", "\u{0}", "\u{1}",
    "\u{7F}", "\u{9F}", "\u{E000}", "𝔘𝔫𝔦", "  ", "MARCH 4, 2024", "4 mars 2024", "Updated 10:42 GMT",
    "Page 3 of 12", "Advertisement", "Read more", "©2024", "Reuters - ", "(AP) — ", "(EFE).- ", ", 20 dic ",
    "MADRID, May 18 (UPI) -- ", "inter-\nnational ",
    "1,000,000", "-1", "٣٤", "१२", "Ⅻ", "½",
];

const COMBINING: &[char] = &['\u{0301}', '\u{0308}', '\u{0327}', '\u{0651}', '\u{05B4}', '\u{093C}', '\u{20DD}', '\u{FE0F}', '\u{1AB0}'];

/// Text of about `len` bytes: sentences in many languages mixed with
/// tricky pieces, combining-mark runs, bidi marks, long lines and words.
fn soup(rng: &mut Rng, len: usize) -> String {
    let mut out = String::with_capacity(len + 64);
    while out.len() < len {
        match rng.below(40) {
            0..=14 => out.push_str(rng.pick(SENTENCES)),
            15..=16 => {
                // A sentence cut anywhere on a char boundary.
                let s = rng.pick(SENTENCES);
                let cut = rng.below(s.len() + 1);
                out.push_str(&s[..(0..=cut).rev().find(|&i| s.is_char_boundary(i)).unwrap_or(0)]);
            }
            17..=26 => out.push_str(rng.pick(TRICKY)),
            27 => out.push(' '),
            28 => {
                let base = rng.pick(&['a', 'e', 'ا', 'क', '字', ' ', '\n']).to_owned();
                out.push(base);
                let n = if rng.chance(50) { rng.range(100, 5_000) } else { rng.range(1, 12) };
                for _ in 0..n.min(len.saturating_sub(out.len()) / 2 + 1) {
                    out.push(rng.pick(COMBINING));
                }
            }
            29 => {
                for _ in 0..rng.range(1, 20) {
                    out.push(rng.any_char());
                }
            }
            30 => {
                // A long word or digit run without spaces.
                let unit = rng.pick(&["a", "9", "字", "-", ".", "_", "é", "\u{200B}"]);
                let n = if rng.chance(20) { rng.range(1_000, 20_000) } else { rng.range(5, 80) };
                out.push_str(&unit.repeat(n.min(len.saturating_sub(out.len()) + 5)));
            }
            31 => {
                let sep = rng.pick(&["\n", " ", ".", "!", "-", "=", "\t", "\r", "\u{3000}", "。", ". "]);
                out.push_str(&sep.repeat(rng.range(2, 300)));
            }
            32 => out.push_str(date_phrase(rng).as_str()),
            33 => {
                let _ = write!(out, "{}", rng.next() >> rng.below(64));
            }
            34 => out.push_str(rng.pick(&["\u{202E}", "\u{2067}", "\u{200F}"])),
            35 => out.push_str(&format!("{}. ", rng.pick(&["Mr", "St", "Jan", "Art", "Nr", "z.B", "Sr", "M", "etc"]))),
            _ => out.push_str(rng.pick(SENTENCES).split(' ').next().unwrap_or("")),
        }
        if rng.chance(3) {
            out.push(' ');
        }
    }
    out
}

/// Byte sequences that are not UTF-8, or are but surprise decoders.
const BROKEN_UTF8: &[&[u8]] = &[
    b"\x80", b"\xBF", b"\xC0\x80", b"\xC1\xBF", b"\xE0\x80\x80", b"\xED\xA0\x80", b"\xED\xBF\xBF",
    b"\xED\xA0\xBD\xED\xB8\x80", b"\xF4\x90\x80\x80", b"\xF5", b"\xFF", b"\xFE", b"\xE2\x82", b"\xF0\x9F\x98",
    b"\x00", b"\xEF\xBB\xBF", b"\xFF\xFE", b"\xF8\x88\x80\x80\x80", b"\xC2", b"\x1B[31m",
];

/// `text` as the bytes of a file: UTF-8 (sometimes broken), UTF-16 with
/// or without a byte-order mark, Windows-1252, or binary.
fn encode(rng: &mut Rng, text: &str) -> Vec<u8> {
    let mut bytes = match rng.below(20) {
        0 => {
            let mut b = vec![0xFF, 0xFE];
            b.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
            b
        }
        1 => {
            let mut b = vec![0xFE, 0xFF];
            b.extend(text.encode_utf16().flat_map(u16::to_be_bytes));
            b
        }
        2 => text.encode_utf16().flat_map(u16::to_le_bytes).collect(),
        3 => text.encode_utf16().flat_map(u16::to_be_bytes).collect(),
        4 => text.chars().map(|c| if (c as u32) < 0x100 { c as u8 } else { 0x80 + rng.below(128) as u8 }).collect(),
        5 => {
            let mut b = b"\xEF\xBB\xBF".to_vec();
            b.extend_from_slice(text.as_bytes());
            b
        }
        _ => text.as_bytes().to_vec(),
    };
    if rng.chance(3) {
        break_bytes(rng, &mut bytes);
    }
    if rng.chance(200) {
        let magic: &[u8] = rng.pick(&[b"PK\x03\x04".as_slice(), b"%PDF-1.4\n", b"{\\rtf1", b"\x89PNG", b"GIF89a", b"\x1F\x8B", b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1"]);
        bytes.splice(0..0, magic.iter().copied());
    }
    bytes
}

/// Inserts broken UTF-8 sequences, flips and truncates.
fn break_bytes(rng: &mut Rng, bytes: &mut Vec<u8>) {
    for _ in 0..rng.range(1, 8) {
        let at = rng.below(bytes.len() + 1);
        match rng.below(4) {
            0 | 1 => {
                let seq = rng.pick(BROKEN_UTF8);
                bytes.splice(at..at, seq.iter().copied());
            }
            2 if at < bytes.len() => bytes[at] ^= 1 << rng.below(8),
            _ => bytes.insert(at, rng.next() as u8),
        }
    }
    if rng.chance(8) {
        let keep = rng.below(bytes.len() + 1);
        bytes.truncate(keep);
    }
}

// ---------------------------------------------------------------- dates

const MONTHS: &[&str] = &[
    "January", "Feb.", "March", "Sept", "December", "janvier", "février", "août", "décembre", "enero", "febrero",
    "septiembre", "setiembre", "Januar", "Februar", "März", "Maerz", "gennaio", "febbraio", "dicembre", "janeiro",
    "fevereiro", "março", "dezembro", "Jan", "déc.", "Okt.", "MAY", "mai", "maio", "maggio", "Mai",
    "มกราคม", "ธันวาคม", "ก.พ.", "ต.ค.", "พ.ศ.", "ค.ศ.",
];
const WEEKDAYS: &[&str] = &[
    "Monday", "Tuesday", "Sunday", "lundi", "mardi", "dimanche", "lunes", "martes", "domingo", "Montag",
    "Dienstag", "Sonntag", "lunedì", "martedì", "domenica", "segunda-feira", "terça", "domingo", "周二", "星期三",
    "礼拜天", "週日", "วันพุธ", "วันพฤหัสฯ", "วันอาทิตย์ที่",
];
const RELATIVE: &[&str] = &[
    "yesterday", "today", "tomorrow", "last week", "next month", "two days ago", "three years ago", "last",
    "next", "this", "will", "hier", "aujourd'hui", "demain", "il y a 3 jours", "la semaine dernière", "prochain",
    "ayer", "hoy", "mañana", "hace dos días", "el pasado", "próximo", "gestern", "heute", "morgen", "vor drei Tagen",
    "letzte Woche", "nächsten", "ieri", "oggi", "domani", "tre giorni fa", "scorso", "ontem", "hoje", "amanhã",
    "há dois dias", "passado", "昨天", "今天", "明天", "前天", "3天前", "上周二", "下周二", "去年", "今年", "明年",
    "上个月", "将于", "本周", "下个月", "เมื่อวานนี้", "สัปดาห์หน้า", "ปีที่แล้ว", "ที่ผ่านมา", "ปี",
];
const NUMBERS: &[&str] = &[
    "0", "00", "1", "01", "2", "12", "13", "28", "29", "30", "31", "32", "99", "100", "1900", "1970", "2000",
    "2024", "2038", "9999", "99999", "-1", "2147483647", "4294967296", "9223372036854775808",
    "340282366920938463463374607431768211456", "０", "３１", "٣١", "一", "十", "三十一", "三十二", "二〇二四",
    "一九九九", "〇", "廿", "卅", "两", "零", "2568", "68", "๒๕๖๘",
];

/// A date phrase in one of the date parser's languages, numbers at the edges.
fn date_phrase(rng: &mut Rng) -> String {
    let n = |rng: &mut Rng| -> String {
        if rng.chance(30) {
            "9".repeat(rng.range(20, 3_000))
        } else if rng.chance(4) {
            (rng.next() % 100_000).to_string()
        } else {
            rng.pick(NUMBERS).to_string()
        }
    };
    let (a, b, c) = (n(rng), n(rng), n(rng));
    let month = rng.pick(MONTHS);
    let weekday = rng.pick(WEEKDAYS);
    let relative = rng.pick(RELATIVE);
    match rng.below(19) {
        0 => format!("{month} {a}, {b}"),
        1 => format!("{a} {month} {b}"),
        2 => format!("on {weekday}, {month} {a}"),
        3 => format!("{a}/{b}/{c}"),
        4 => format!("{a}-{b}-{c}"),
        5 => format!("{a}.{b}.{c}"),
        6 => format!("{a}年{b}月{c}日"),
        7 => format!("{b}月{c}日"),
        8 => format!("{a}年"),
        9 => format!("{relative} {weekday}"),
        10 => format!("el {a} de {month} de {b}"),
        11 => format!("le {a} {month} {b}"),
        12 => format!("am {a}. {month} {b}"),
        13 => format!("{relative} {a} {month}"),
        14 => format!("{weekday} {a}"),
        15 => format!("{a}-{b}-{c}T{a}:{b}:{c}Z"),
        16 => format!("{month} {a}"),
        17 => format!("วันที่ {a} {month} พ.ศ.{b} เวลา {c}:{a} น."),
        _ => format!("{relative}"),
    }
}

/// ISO 8601 strings and near misses, for dates in metadata and JSON.
fn odd_date(rng: &mut Rng) -> String {
    const ODD: &[&str] = &[
        "2024-03-05", "2024-02-30", "2024-02-29", "2023-02-29", "0000-00-00", "0000-01-01", "99999-12-31",
        "-0001-01-01", "2024-13-45T25:61:99Z", "2024-03-05T14:30:15.250+02:00", "2024-03-05T14:30+0200",
        "2024-03-05 14:30", "2024-03-05T", "T", "", "2024", "2024-3-5", "1e9", "９９９９-０１-０１",
        "2024-03-05T14:30:15.99999999999999999999Z", "99999999999999999999-01-01", "2024-03-05T14:30:15+99:99",
        "+2024-01-01", "2024-٠١-٠١", "2024-03-05T14:30:15-23:59", "2024-03-05t00:00z", "2024--05", "-",
        "2024-03-05T14:30:15.", "2024-03-05T14:3", "2024-03-05TT", "1970-01-01T00:00:00+00:00",
        "-292277022657-01-27T08:29:52Z", "292277026596-12-04T15:30:07Z",
    ];
    match rng.below(4) {
        0 => date_phrase(rng),
        1 => {
            let mut s = rng.pick(ODD).to_string();
            let at = rng.below(s.len() + 1);
            if s.is_char_boundary(at) {
                s.insert(at, rng.pick(&['0', '9', '-', ':', 'T', ' ', '+', 'Z', '.', 'é', '字']));
            }
            s
        }
        _ => rng.pick(ODD).to_string(),
    }
}

// ---------------------------------------------------------------- markup

const TAGS: &[&str] = &[
    "html", "head", "body", "p", "div", "span", "script", "style", "article", "main", "nav", "header", "footer",
    "aside", "h1", "h2", "h6", "a", "br", "img", "meta", "title", "time", "table", "tr", "td", "ul", "ol", "li",
    "pre", "code", "template", "noscript", "iframe", "svg", "math", "textarea", "xmp", "form", "button", "figure",
    "blockquote", "section", "b", "i", "em", "strong", "sup", "dl", "dt", "dd", "P", "DIV", "SCRIPT", "x-custom",
    "svg:text", "",
];

fn attribute_soup(rng: &mut Rng, out: &mut String) {
    for _ in 0..rng.below(4) {
        let name = rng.pick(&[
            "class", "id", "href", "property", "name", "itemprop", "content", "datetime", "style", "lang", "dir",
            "hidden", "aria-hidden", "data-x", "CONTENT", "PROPERTY", "",
        ]);
        let value = match rng.below(6) {
            0 => rng.pick(&["article:published_time", "datePublished", "og:title", "description", "rtl"]).to_string(),
            1 => odd_date(rng),
            2 => { let n = rng.range(0, 40); soup(rng, n) },
            _ => rng.pick(&["main", "story", "footer", "nav", "x"]).to_string(),
        };
        match rng.below(6) {
            0 => {
                let _ = write!(out, " {name}='{value}'");
            }
            1 => {
                let _ = write!(out, " {name}={}", value.replace(' ', ""));
            }
            2 => {
                let _ = write!(out, " {name}");
            }
            3 => {
                let _ = write!(out, " {name}=\"{value}");
            }
            _ => {
                let _ = write!(out, " {name}=\"{value}\"");
            }
        }
    }
}

/// HTML tag soup of about `len` bytes: unclosed and misnested tags, raw
/// text elements, comments, entities, metadata with odd dates; sometimes
/// nested 10^4 deep, or with an attribute of 10^5 characters.
fn html(rng: &mut Rng, len: usize) -> String {
    let mut out = String::with_capacity(len + 64);
    let mut open: Vec<&str> = Vec::new();
    if rng.chance(2) {
        out.push_str(rng.pick(&["<!DOCTYPE html>", "<!doctype html><html><head>", "<html>", "<?xml version=\"1.0\"?>", " \n<body>"]));
    }
    if rng.chance(300) {
        let depth = rng.range(1_000, 20_000);
        let tag = rng.pick(&["div", "p", "span", "article", "b", "script", "li"]);
        for _ in 0..depth {
            let _ = write!(out, "<{tag}>");
        }
        out.push_str(rng.pick(SENTENCES));
        if rng.chance(2) {
            for _ in 0..depth {
                let _ = write!(out, "</{tag}>");
            }
        }
    }
    if rng.chance(300) {
        let n = rng.range(100_000, 300_000);
        let _ = write!(out, "<p {}=\"{}\">", rng.pick(&["title", "content", "class"]), "x".repeat(n));
        if rng.chance(2) {
            out.push_str(&"a=b ".repeat(n / 4));
        }
        out.push_str(rng.pick(SENTENCES));
    }
    while out.len() < len {
        match rng.below(24) {
            0..=6 => out.push_str(&{ let n = rng.range(1, 120); soup(rng, n) }),
            7..=10 => {
                let tag = rng.pick(TAGS);
                out.push('<');
                out.push_str(tag);
                attribute_soup(rng, &mut out);
                out.push_str(if rng.chance(10) { "/>" } else { ">" });
                open.push(tag);
            }
            11..=13 => {
                let tag = if rng.chance(3) { rng.pick(TAGS) } else { open.pop().unwrap_or("p") };
                let _ = write!(out, "</{tag}>");
            }
            14 => {
                out.push_str("<!--");
                out.push_str(&{ let n = rng.range(0, 60); soup(rng, n) });
                if !rng.chance(10) {
                    out.push_str(rng.pick(&["-->", "--!>", "->", "--->"]));
                }
            }
            15 => {
                let tag = rng.pick(&["script", "style", "textarea", "title", "noscript", "template", "xmp", "iframe"]);
                let _ = write!(out, "<{tag}>");
                out.push_str(rng.pick(&["var a = '</scr' + 'ipt>';", "<p>hidden</p>", "{ \"datePublished\": \"2024-03-05\" }", "body { x: 1 }", "</", "<!--"]));
                if !rng.chance(8) {
                    let _ = write!(out, "</{}>", if rng.chance(5) { tag.to_uppercase() } else { tag.to_string() });
                }
            }
            16 => {
                let date = odd_date(rng);
                match rng.below(4) {
                    0 => {
                        let _ = write!(out, "<meta property=\"article:published_time\" content=\"{date}\">");
                    }
                    1 => {
                        let _ = write!(out, "<time datetime=\"{date}\">{}</time>", soup(rng, 10));
                    }
                    2 => {
                        let _ = write!(out, "<meta itemprop=datePublished content='{date}'>");
                    }
                    _ => {
                        let _ = write!(out, "<meta name=\"datePublished\" content={date}>");
                    }
                }
            }
            17 => out.push_str(rng.pick(&["&amp;", "&lt;p&gt;", "&#x1F600;", "&#0;", "&#xD800;", "&#99999999999;", "&nbsp;", "&", "&#", "&#x;", "&amp", "&unknown;", "&#65", "&AElig;", "&NotANamedEntity;"])),
            18 => out.push_str(rng.pick(&["<", "</", "<p", "< p>", "<p attr='x", "<!", "<?", "<![CDATA[", "]]>", "<a href=\"", "=\"", ">", "/>", "<>", "</>", "<<p>>", "<p<p>", "<br/", "<!DOCTYPE", "</p\n>", "<p\tid=x>"])),
            19 => {
                let tag = rng.pick(&["title", "h1", "h2"]);
                let _ = write!(out, "<{tag}>{}</{tag}>", { let n = rng.range(0, 80); soup(rng, n) });
            }
            20 => out.push_str(rng.pick(&["<br>", "<br/>", "<img src=x alt='A picture'>", "<p/>", "<hr>", "<wbr>"])),
            21 => out.push_str("\n"),
            _ => {
                let _ = write!(out, "<p>{}</p>", { let n = rng.range(10, 200); soup(rng, n) });
            }
        }
    }
    out
}

/// Markdown syntax soup of about `len` bytes.
fn markdown(rng: &mut Rng, len: usize) -> String {
    let mut out = String::with_capacity(len + 64);
    while out.len() < len {
        out.push_str(match rng.below(16) {
            0 => "# ",
            1 => "###### ",
            2 => "####### ",
            3 => "> ",
            4 => ">>> ",
            5 => "```rust\n",
            6 => "    ",
            7 => "- ",
            8 => "1. ",
            9 => "---\n",
            10 => "|a|b|\n|-|-|\n",
            _ => "",
        });
        for _ in 0..rng.range(1, 6) {
            match rng.below(14) {
                0..=5 => out.push_str(&{ let n = rng.range(1, 100); soup(rng, n) }),
                6 => out.push_str(rng.pick(&["**", "__", "*", "_", "`", "~~", "\\*", "***"])),
                7 => {
                    let _ = write!(out, "[{}]({})", { let n = rng.range(0, 30); soup(rng, n) }, rng.pick(&["http://x.y/z", "", "a b", "(", "<u>"]));
                }
                8 => {
                    let _ = write!(out, "![{}]({})", { let n = rng.range(0, 20); soup(rng, n) }, rng.pick(&["img.png", "", ")"]));
                }
                9 => out.push_str(rng.pick(&["[unclosed", "](", "[]()", "![", "[[[[[[[[", "]]]]]]", "((((", "<http://x>", "<b>html</b>", "[x]: http://x", " #"])),
                10 => {
                    if rng.chance(30) {
                        out.push_str(&"[".repeat(rng.range(1_000, 50_000)));
                        out.push_str(&"](".repeat(rng.range(1, 5_000)));
                    } else {
                        out.push_str(&"#".repeat(rng.range(1, 20)));
                    }
                }
                11 => out.push_str(" ###"),
                _ => out.push(' '),
            }
        }
        out.push_str(rng.pick(&["\n", "\n\n", "\r\n", "  \n", "\n```\n"]));
    }
    out
}

// ---------------------------------------------------------------- JSON

fn json_string(rng: &mut Rng, out: &mut String, len: usize) {
    out.push('"');
    let text = soup(rng, len);
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
        if rng.chance(200) {
            out.push_str(rng.pick(&["\\ud800", "\\udc00", "\\ud83d\\ude00", "\\u0000", "\\n", "\\/", "\\x", "\\u12", "\\uFFFF"]));
        }
    }
    out.push('"');
}

fn json_value(rng: &mut Rng, out: &mut String, depth: usize) {
    match rng.below(if depth > 6 { 4 } else { 7 }) {
        0 => out.push_str(rng.pick(&["null", "true", "false", "0", "-0", "1e308", "1e309", "-1.5", "9223372036854775807", "-9223372036854775808", "18446744073709551616", "1700000000", "-62135596800", "253402300799", "1E400", "0.0000001"])),
        1 | 2 => { let n = rng.range(0, 60); json_string(rng, out, n) },
        3 => {
            let date = odd_date(rng);
            out.push('"');
            out.push_str(&date.replace('\\', "").replace('"', ""));
            out.push('"');
        }
        4 => {
            out.push('[');
            for i in 0..rng.below(5) {
                if i > 0 {
                    out.push(',');
                }
                json_value(rng, out, depth + 1);
            }
            out.push(']');
        }
        _ => {
            out.push('{');
            for i in 0..rng.below(5) {
                if i > 0 {
                    out.push(',');
                }
                { let n = rng.range(0, 8); json_string(rng, out, n) };
                out.push(':');
                json_value(rng, out, depth + 1);
            }
            out.push('}');
        }
    }
}

/// One article record, its fields of the right type or not.
fn json_record(rng: &mut Rng, out: &mut String, text_len: usize) {
    if rng.chance(20) {
        json_value(rng, out, 0);
        return;
    }
    out.push('{');
    let mut first = true;
    for field in ["text", "title", "date", "lang", "id", "extra", "text"] {
        if !rng.chance(4) || (field == "text" && first && !rng.chance(20)) {
            if !first {
                out.push(',');
            }
            first = false;
            let _ = write!(out, "\"{field}\":");
            match (field, rng.below(5)) {
                ("text", 0..=3) => json_string(rng, out, text_len),
                ("title", 0..=2) => { let n = rng.range(0, 100); json_string(rng, out, n) },
                ("date", 0..=1) => {
                    let _ = write!(out, "\"{}\"", odd_date(rng).replace('\\', "").replace('"', ""));
                }
                ("date", 2) => {
                    let _ = write!(out, "{}", rng.next() as i64 >> rng.below(64));
                }
                ("lang", 0..=2) => {
                    let _ = write!(out, "\"{}\"", rng.pick(&["en", "EN", "zh-Hans", "und", "", "xx", "ar", "deu", "a\u{301}"]));
                }
                _ => json_value(rng, out, 1),
            }
        }
    }
    out.push('}');
}

fn json(rng: &mut Rng, len: usize) -> String {
    let mut out = String::with_capacity(len + 64);
    if rng.chance(200) {
        let depth = rng.range(100, 100_000);
        let (open, close) = if rng.chance(2) { ("[", "]") } else { ("{\"text\":", "}") };
        out.push_str(&open.repeat(depth));
        out.push_str("\"x\"");
        if rng.chance(2) {
            out.push_str(&close.repeat(depth));
        }
        return out;
    }
    if rng.chance(3) {
        json_record(rng, &mut out, len);
    } else {
        out.push('[');
        let mut i = 0;
        while out.len() < len || i == 0 {
            if i > 0 {
                out.push_str(rng.pick(&[",", ",", ",\n", " , ", ",,", ""]));
            }
            { let n = rng.range(0, 300); json_record(rng, &mut out, n) };
            i += 1;
        }
        if !rng.chance(20) {
            out.push(']');
        }
    }
    out
}

fn json_lines(rng: &mut Rng, len: usize) -> String {
    let mut out = String::with_capacity(len + 64);
    while out.len() < len || out.is_empty() {
        match rng.below(20) {
            0 => out.push('\n'),
            1 => out.push_str("   \r\n"),
            2 => json_value(rng, &mut out, 0),
            3 => out.push_str(&soup(rng, 30)),
            _ => { let n = rng.range(0, 300); json_record(rng, &mut out, n) },
        }
        out.push_str(rng.pick(&["\n", "\n", "\r\n", "\n\n", " ", ""]));
    }
    out
}

/// Mutations of a generated file's bytes: cut, flip, insert, duplicate.
fn mutate_bytes(rng: &mut Rng, bytes: &mut Vec<u8>) {
    for _ in 0..rng.range(1, 4) {
        if bytes.is_empty() {
            return;
        }
        let at = rng.below(bytes.len());
        match rng.below(6) {
            0 => bytes.truncate(at),
            1 => bytes[at] ^= 1 << rng.below(8),
            2 => bytes[at] = rng.next() as u8,
            3 => {
                let end = (at + rng.range(1, 64)).min(bytes.len());
                let piece = bytes[at..end].to_vec();
                let to = rng.below(bytes.len() + 1);
                bytes.splice(to..to, piece);
            }
            4 => {
                let end = (at + rng.range(1, 64)).min(bytes.len());
                bytes.drain(at..end);
            }
            _ => {
                let seq = rng.pick(BROKEN_UTF8);
                bytes.splice(at..at, seq.iter().copied());
            }
        }
    }
}

// ---------------------------------------------------------------- PDF

/// Latin words for the simple font (WinAnsi), with hyphenation points.
const PDF_WORDS: &[&str] = &[
    "The", "council", "voted", "on", "Tuesday", "to", "approve", "budget", "officials", "said", "inter-",
    "national", "gov-", "ernment", "caf\\351", "na\\357ve", "\\(quoted\\)", "back\\\\slash", "\\223smart\\224",
    "price", "rose", "3.5", "percent", "in", "March", "2024.", "Page", "12",
];

/// A PDF built from objects, then written with or without a good xref.
struct PdfFile {
    objects: Vec<(u32, Vec<u8>)>,
    trailer: String,
}

fn pdf_stream(dict: &str, content: &[u8], compress: bool) -> Vec<u8> {
    let (content, filter) = if compress {
        use flate2::write::ZlibEncoder;
        let mut e = ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(content).unwrap();
        (e.finish().unwrap(), "/Filter /FlateDecode ")
    } else {
        (content.to_vec(), "")
    };
    let mut out = format!("<< {dict} {filter}/Length {} >>\nstream\n", content.len()).into_bytes();
    out.extend_from_slice(&content);
    out.extend_from_slice(b"\nendstream");
    out
}

/// The glyphs of the CID font: CID i+1 draws `CID_TEXT[i]` (CJK, ligatures).
const CID_TEXT: &[&str] = &["理", "事", "会", "周", "二", "投", "票", "。", "fi", "fl", "ﬃ", " ", "予", "算", "ア", "한"];

fn to_unicode_cmap() -> Vec<u8> {
    let mut cmap = String::from(
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Fuzz def\n\
         1 begincodespacerange <0000> <FFFF> endcodespacerange\n",
    );
    let _ = writeln!(cmap, "{} beginbfchar", CID_TEXT.len());
    for (i, text) in CID_TEXT.iter().enumerate() {
        let hex: String = text.encode_utf16().map(|u| format!("{u:04X}")).collect();
        let _ = writeln!(cmap, "<{:04X}> <{hex}>", i + 1);
    }
    cmap.push_str("endbfchar\nendcmap CMapName currentdict /CMap defineresource pop end end\n");
    cmap.into_bytes()
}

/// A readable PDF: pages of one or two columns of Latin text with
/// hyphenation, a CID font for CJK and ligatures, a form XObject, an image.
fn pdf_seed(rng: &mut Rng, len: usize) -> PdfFile {
    let pages = if rng.chance(50) { rng.range(5, 40) } else { rng.range(1, 3) };
    let compress = rng.chance(2);
    let mut objects: Vec<(u32, Vec<u8>)> = Vec::new();
    // 1 catalog, 2 pages, 3 Helvetica, 4 CID font, 5 descendant, 6 ToUnicode, 7 form, 8 image, 9 info.
    let first_page = 10u32;
    let kids: String = (0..pages).map(|p| format!("{} 0 R ", first_page + 2 * p as u32)).collect();
    objects.push((1, b"<< /Type /Catalog /Pages 2 0 R >>".to_vec()));
    objects.push((2, format!("<< /Type /Pages /Kids [{kids}] /Count {pages} >>").into_bytes()));
    objects.push((3, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>".to_vec()));
    objects.push((4, b"<< /Type /Font /Subtype /Type0 /BaseFont /Fuzz /Encoding /Identity-H /DescendantFonts [5 0 R] /ToUnicode 6 0 R >>".to_vec()));
    let widths = if rng.chance(2) { "[1 [1000 1000 1000] 4 16 1000]" } else { "[1 16 1000]" };
    objects.push((5, format!("<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Fuzz /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor << /Type /FontDescriptor /FontName /Fuzz /Flags 4 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 /StemV 80 >> /DW 1000 /W {widths} >>").into_bytes()));
    objects.push((6, pdf_stream("", &to_unicode_cmap(), compress)));
    objects.push((7, pdf_stream("/Type /XObject /Subtype /Form /BBox [0 0 600 100] /Resources << /Font << /F1 3 0 R >> >>", b"BT /F1 9 Tf 72 40 Td (Advertisement in a form) Tj ET", compress)));
    let pixels: Vec<u8> = (0..rng.range(0, 300)).map(|_| rng.next() as u8).collect();
    objects.push((8, pdf_stream("/Type /XObject /Subtype /Image /Width 4 /Height 4 /ColorSpace /DeviceGray /BitsPerComponent 8", &pixels, false)));
    objects.push((9, format!("<< /Title ({}) /CreationDate (D:20240305143000+01'00') >>", rng.pick(&["Council approves budget", "Untitled", "draft.docx", ""])).into_bytes()));
    let per_page = (len / pages).max(40);
    for p in 0..pages {
        let page_id = first_page + 2 * p as u32;
        let mut content = String::new();
        let columns = if rng.chance(2) { 2 } else { 1 };
        let _ = writeln!(content, "BT /F1 9 Tf 300 770 Td (Running header) Tj ET");
        let _ = writeln!(content, "BT /F1 9 Tf 300 30 Td ({}) Tj ET", p + 1);
        let mut column = 0;
        let mut y = 720i64;
        while content.len() < per_page {
            let x = if column == 0 { 72 } else { 320 };
            let mut line = String::new();
            for _ in 0..rng.range(3, 9) {
                line.push_str(rng.pick(PDF_WORDS));
                line.push(' ');
            }
            match rng.below(8) {
                0 => {
                    let glyphs: String = (0..rng.range(2, 12)).map(|_| format!("{:04X}", rng.range(1, CID_TEXT.len()))).collect();
                    let _ = writeln!(content, "BT /F2 11 Tf {x} {y} Td <{glyphs}> Tj ET");
                }
                1 => {
                    let (a, b) = line.split_at(line.len() / 2);
                    let (a, b) = (a.trim_end_matches('\\'), b);
                    let _ = writeln!(content, "BT /F1 11 Tf {x} {y} Td [({a}) -250 ({b})] TJ ET");
                }
                2 => {
                    let _ = writeln!(content, "BT /F1 11 Tf 1 0 0 1 {x} {y} Tm 0.5 Tc 2 Tw 90 Tz ({line}) Tj ET");
                }
                3 if rng.chance(4) => {
                    let _ = writeln!(content, "q 100 0 0 100 {x} {y} cm /Im1 Do Q /Fm1 Do");
                }
                _ => {
                    let _ = writeln!(content, "BT /F1 11 Tf {x} {y} Td ({line}) Tj ET");
                }
            }
            y -= 14;
            if y < 60 {
                y = 720;
                column += 1;
                if column >= columns {
                    break;
                }
            }
        }
        let rotate = if rng.chance(20) { "/Rotate 90 " } else { "" };
        objects.push((page_id, format!("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] {rotate}/Contents {} 0 R /Resources << /Font << /F1 3 0 R /F2 4 0 R >> /XObject << /Fm1 7 0 R /Im1 8 0 R >> >> >>", page_id + 1).into_bytes()));
        objects.push((page_id + 1, pdf_stream("", content.as_bytes(), compress)));
    }
    PdfFile { objects, trailer: "/Root 1 0 R /Info 9 0 R".to_string() }
}

impl PdfFile {
    fn object_mut(&mut self, id: u32) -> Option<&mut Vec<u8>> {
        self.objects.iter_mut().find(|(i, _)| *i == id).map(|(_, body)| body)
    }

    /// Structural damage, before the file is written.
    fn mutate(&mut self, rng: &mut Rng) {
        let n = self.objects.len();
        match rng.below(19) {
            0 => {
                let i = rng.below(n);
                let copy = self.objects[i].clone();
                self.objects.push(copy);
            }
            1 => {
                self.objects.remove(rng.below(n));
            }
            2 => {
                let i = rng.below(n);
                self.objects[i].1 = b"99 0 R".to_vec();
            }
            3 => {
                let depth = rng.range(1_000, 100_000);
                let (open, close) = rng.pick(&[("[", "]"), ("<< /A ", " >>"), ("[<< /K ", ">>]")]);
                let mut body = open.repeat(depth).into_bytes();
                if rng.chance(2) {
                    body.extend(close.repeat(depth).bytes());
                }
                let i = rng.below(n);
                self.objects[i].1 = body;
            }
            4 => {
                let n = rng.range(10_000, 300_000);
                let body = match rng.below(3) {
                    0 => format!("({})", "a".repeat(n)),
                    1 => format!("<{}>", "4F".repeat(n / 2)),
                    _ => format!("/{}", "N".repeat(n)),
                };
                let i = rng.below(self.objects.len());
                self.objects[i].1 = body.into_bytes();
            }
            5 => self.trailer.push_str(" /Encrypt << /Filter /Standard /V 1 /R 2 /O <00112233445566778899AABBCCDDEEFF00112233445566778899AABBCCDDEEFF> /U <00112233445566778899AABBCCDDEEFF00112233445566778899AABBCCDDEEFF> /P -4 >> /ID [<0123456789ABCDEF0123456789ABCDEF> <0123456789ABCDEF0123456789ABCDEF>]"),
            6 => {
                // A page tree loop.
                if let Some(pages) = self.object_mut(2) {
                    *pages = b"<< /Type /Pages /Kids [2 0 R 10 0 R] /Count 2 /Parent 2 0 R >>".to_vec();
                }
            }
            7 => {
                // A form that draws itself.
                if let Some(form) = self.object_mut(7) {
                    *form = pdf_stream("/Type /XObject /Subtype /Form /BBox [0 0 1 1] /Resources << /XObject << /Fm1 7 0 R >> >>", b"/Fm1 Do", false);
                }
            }
            8 => {
                let w = rng.pick(&["[0 4294967295 500]", "[0 1000000 500]", "[-5 -1 3]", "[1 [1e30 -1e30]]", "[0]", "5 0 R", "[0 2147483647 [1]]"]);
                if let Some(font) = self.object_mut(5) {
                    *font = format!("<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Fuzz /W {w} >>").into_bytes();
                }
            }
            9 => {
                // A deflate bomb within the limits: up to 8 MB of operators,
                // of text (refused past MAX_PDF_PAGE_OPERATIONS) or of paths
                // (dropped before pdf-extract reads them).
                let unit: &[u8] = rng.pick(&[b"BT ET\n".as_slice(), b"0 0 Td\n", b"(a) Tj\n", b"q Q ", b"           ", b"0 0 m 1 1 l S\n"]);
                let bytes = if rng.below(4) == 0 { rng.range(64_000, 8 << 20) } else { rng.range(1_000, 64_000) };
                let content = unit.repeat(bytes / unit.len());
                let body = pdf_stream("", &content, true);
                if let Some(page) = self.object_mut(11) {
                    *page = body;
                }
            }
            10 => {
                let i = rng.below(n);
                let body = &mut self.objects[i].1;
                if let Some(at) = body.windows(7).position(|w| w == b"Length ") {
                    body.splice(at + 7..at + 7, rng.pick(&[b"99999999".as_slice(), b"0 ", b"-5 ", b"1"]).iter().copied());
                }
            }
            11 => {
                let number = rng.pick(&["1e999999", "-0", "99999999999999999999", "NaN", "-.", "3.4e38", "--5", "0.0000000000000000001"]);
                let i = rng.below(n);
                let body = &mut self.objects[i].1;
                let at = rng.below(body.len() + 1);
                body.splice(at..at, format!(" {number} ").into_bytes());
            }
            12 => {
                let page = format!("<< /Type /Page /Parent 2 0 R /MediaBox {} /Contents 11 0 R /Resources << /Font << /F1 3 0 R >> >> >>", rng.pick(&["[0 0 0 0]", "[0 0 1e30 1e30]", "[612 792 0 0]", "[]", "5", "[0 0 612 792] /Rotate 45"]));
                if let Some(p) = self.object_mut(10) {
                    *p = page.into_bytes();
                }
            }
            13 => {
                let content = format!("BT /F1 {} Tf {} Td (x) Tj {} Tm (y) Tj ET", rng.pick(&["0", "1e30", "-12", "1e-30"]), rng.pick(&["1e30 1e30", "-1e30 0", "0 0", "NaN 1"]), rng.pick(&["0 0 0 0 0 0", "1e30 0 0 1e30 5 5", "-1 0 0 -1 0 0", "1 2 3 4 5 6"]));
                if let Some(p) = self.object_mut(11) {
                    *p = pdf_stream("", content.as_bytes(), false);
                }
            }
            14 => {
                // Many pages: the page limit.
                let count = rng.range(100, 6_000);
                let kids: String = (0..count).map(|_| "10 0 R ").collect();
                if let Some(p) = self.object_mut(2) {
                    *p = format!("<< /Type /Pages /Kids [{kids}] /Count {count} >>").into_bytes();
                }
            }
            15 => {
                let i = rng.below(n);
                let body = &mut self.objects[i].1;
                let at = rng.below(body.len() + 1);
                body.splice(at..at, soup(rng, 20).into_bytes());
            }
            16 => {
                if let Some(p) = self.object_mut(6) {
                    *p = pdf_stream("", format!("1 beginbfrange <0000> <FFFF> <{}> endbfrange 2 beginbfchar <0001> <D800> <0002> <> endbfchar", "0041".repeat(rng.range(1, 2000))).as_bytes(), false);
                }
            }
            _ => {
                // An object stream and a reference into it.
                let body = pdf_stream("/Type /ObjStm /N 2 /First 8", b"50 0 51 9 << /A 1 >> [1 2 3]", rng.chance(2));
                self.objects.push((49, body));
            }
        }
    }

    fn write(&self, rng: &mut Rng) -> Vec<u8> {
        self.write_as(rng, false)
    }

    /// The file; `clean`: with a good xref and startxref.
    fn write_as(&self, rng: &mut Rng, clean: bool) -> Vec<u8> {
        let mut out = format!("%PDF-1.{}\n%\u{e2}\u{e3}\u{cf}\u{d3}\n", rng.below(8)).into_bytes();
        let mut offsets = Vec::new();
        for (id, body) in &self.objects {
            offsets.push((*id, out.len()));
            out.extend(format!("{id} 0 obj\n").bytes());
            out.extend_from_slice(body);
            out.extend_from_slice(b"\nendobj\n");
        }
        let size = self.objects.iter().map(|(id, _)| *id).max().unwrap_or(0) + 1;
        let xref_at = out.len();
        match if clean { 11 } else { rng.below(12) } {
            0 => {} // no xref at all: lopdf must recover or refuse
            1 => {
                // Offsets off by a few bytes.
                out.extend(format!("xref\n0 {size}\n").bytes());
                for i in 0..size {
                    let off = offsets.iter().find(|(id, _)| *id == i).map_or(0, |&(_, o)| o + rng.below(9));
                    out.extend(format!("{off:010} 00000 n \n").bytes());
                }
            }
            2 => out.extend(format!("xref\n0 {}\n0000000000 65535 f \n", size * 1000).bytes()),
            _ => {
                out.extend(format!("xref\n0 {size}\n0000000000 65535 f \n").bytes());
                for i in 1..size {
                    match offsets.iter().find(|(id, _)| *id == i) {
                        Some(&(_, off)) => out.extend(format!("{off:010} 00000 n \n").bytes()),
                        None => out.extend(b"0000000000 00000 f \n"),
                    }
                }
            }
        }
        let startxref = match if clean { 9 } else { rng.below(10) } {
            0 => rng.below(out.len() + 100),
            1 => usize::MAX,
            _ => xref_at,
        };
        out.extend(format!("trailer\n<< /Size {size} {} >>\nstartxref\n{startxref}\n%%EOF\n", self.trailer).bytes());
        out
    }
}

fn pdf_input(rng: &mut Rng) -> Vec<u8> {
    let len = rng.size().min(200_000);
    let mut pdf = pdf_seed(rng, len);
    let mutations = match rng.below(10) {
        0..=2 => 0,
        3..=7 => 1,
        _ => rng.range(2, 4),
    };
    for _ in 0..mutations {
        pdf.mutate(rng);
    }
    let mut bytes = pdf.write(rng);
    if rng.chance(3) {
        mutate_bytes(rng, &mut bytes);
    }
    bytes
}

// ---------------------------------------------------------------- Word, OpenDocument

fn xml_text(rng: &mut Rng, len: usize) -> String {
    let text = soup(rng, len);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '&' => out.push_str("&amp;"),
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t') => {}
            c => out.push(c),
        }
    }
    if rng.chance(20) {
        out.push_str(rng.pick(&["&#x263A;", "&#1488;", "&quot;", "<![CDATA[cdata & <b> ]]>", "<!-- c -->", "<?pi x?>", "]]&gt;"]));
    }
    out
}

/// XML damage: tag soup, deep nesting, huge attributes, entity tricks.
fn xml_damage(rng: &mut Rng, xml: &mut String) {
    let at = (0..=rng.below(xml.len() + 1)).rev().find(|&i| xml.is_char_boundary(i)).unwrap_or(0);
    let insert = match rng.below(9) {
        0 => {
            let depth = rng.range(1_000, 100_000);
            let tag = rng.pick(&["w:p", "w:r", "text:p", "text:span", "a", "w:del", "text:note"]);
            format!("{}x", format!("<{tag}>").repeat(depth))
        }
        1 => format!("<w:p w:rsid=\"{}\">", "x".repeat(rng.range(100_000, 300_000))),
        2 => "<!DOCTYPE x [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;\">]>&c;".to_string(),
        3 => rng.pick(&["</w:body>", "</w:p></w:p>", "<w:t>", "</w:t>", "<", "</", "<w:p", "/>", "<text:p>", "</office:text>", "<w:pStyle w:val=\"Title\"/>", "<text:h text:outline-level=\"99999999999\">", "<text:s text:c=\"4000000000\"/>", "<text:s text:c=\"-1\"/>", "<w:tab/>", "<w:br/>", "<w:t xml:space=\"preserve\">   </w:t>"]).to_string(),
        4 => rng.pick(&["&foo;", "&#0;", "&#xD800;", "&#99999999;", "&", "<", "]]>", "&amp", "&#x;"]).to_string(),
        5 => String::from_utf8_lossy(rng.pick(BROKEN_UTF8)).into_owned(),
        6 => format!("<x {}/>", (0..rng.range(100, 20_000)).map(|i| format!("a{i}=\"v\" ")).collect::<String>()),
        7 => format!("<{}>", "n".repeat(rng.range(1_000, 100_000))),
        _ => {
            xml.truncate(at);
            String::new()
        }
    };
    if at <= xml.len() {
        xml.insert_str(at, &insert);
    }
}

const W_NS: &str = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006""#;

fn docx_parts(rng: &mut Rng, len: usize) -> Vec<(String, String)> {
    let mut body = format!("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?><w:document {W_NS}><w:body>");
    while body.len() < len {
        match rng.below(12) {
            0 => {
                let style = rng.pick(&["Title", "Heading1", "heading 2", "Subtitle", "MyTitle", ""]);
                let _ = write!(body, "<w:p><w:pPr><w:pStyle w:val=\"{style}\"/></w:pPr><w:r><w:t>{}</w:t></w:r></w:p>", xml_text(rng, 40));
            }
            1 => {
                let _ = write!(body, "<w:p><w:r><w:t>{}</w:t></w:r><w:del><w:r><w:delText>gone</w:delText><w:t>deleted</w:t></w:r></w:del><w:r><w:tab/><w:t xml:space=\"preserve\"> {} </w:t><w:br/></w:r></w:p>", xml_text(rng, 60), xml_text(rng, 30));
            }
            2 => {
                let _ = write!(body, "<w:p><w:r><w:fldChar w:fldCharType=\"begin\"/></w:r><w:r><w:instrText> PAGE </w:instrText></w:r><w:r><w:fldChar w:fldCharType=\"separate\"/></w:r><w:r><w:t>{}</w:t></w:r></w:p>", xml_text(rng, 20));
            }
            3 => {
                let _ = write!(body, "<mc:AlternateContent><mc:Choice Requires=\"wps\"><w:p><w:r><w:t>{}</w:t></w:r></w:p></mc:Choice><mc:Fallback><w:p><w:r><w:t>fallback</w:t></w:r></w:p></mc:Fallback></mc:AlternateContent>", xml_text(rng, 30));
            }
            4 => {
                let _ = write!(body, "<w:tbl><w:tr><w:tc><w:p><w:r><w:t>{}</w:t></w:r></w:p></w:tc><w:tc><w:p><w:hyperlink><w:r><w:t>{}</w:t></w:r></w:hyperlink></w:p></w:tc></w:tr></w:tbl>", xml_text(rng, 20), xml_text(rng, 20));
            }
            _ => {
                let _ = write!(body, "<w:p><w:r><w:t>{}</w:t></w:r><w:r><w:noBreakHyphen/><w:t>{}</w:t></w:r></w:p>", xml_text(rng, 150), xml_text(rng, 20));
            }
        }
    }
    body.push_str("</w:body></w:document>");
    let styles = format!("<w:styles {W_NS}><w:style w:styleId=\"MyTitle\"><w:name w:val=\"{}\"/></w:style><w:style w:styleId=\"H\"><w:name w:val=\"heading 1\"/><w:pPr><w:outlineLvl w:val=\"{}\"/></w:pPr></w:style></w:styles>", rng.pick(&["Title", "title", "Heading 1", ""]), rng.pick(&["0", "9", "-1", "99999999999"]));
    let core = format!("<cp:coreProperties xmlns:cp=\"x\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\" xmlns:dcterms=\"http://purl.org/dc/terms/\"><dc:title>{}</dc:title><dcterms:created>{}</dcterms:created><dcterms:modified>{}</dcterms:modified></cp:coreProperties>", xml_text(rng, 30), odd_date(rng).replace(['<', '&'], ""), odd_date(rng).replace(['<', '&'], ""));
    vec![
        ("[Content_Types].xml".into(), "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"/>".into()),
        ("_rels/.rels".into(), "<Relationships/>".into()),
        ("word/document.xml".into(), body),
        ("word/styles.xml".into(), styles),
        ("docProps/core.xml".into(), core),
    ]
}

fn odt_parts(rng: &mut Rng, len: usize) -> Vec<(String, String)> {
    let mut body = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?><office:document-content xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\"><office:body><office:text>");
    while body.len() < len {
        match rng.below(10) {
            0 => {
                let _ = write!(body, "<text:h text:outline-level=\"{}\">{}</text:h>", rng.pick(&["1", "2", "0", "x"]), xml_text(rng, 40));
            }
            1 => {
                let _ = write!(body, "<text:p text:style-name=\"{}\">{}</text:p>", rng.pick(&["Title", "Subtitle", "P1"]), xml_text(rng, 40));
            }
            2 => {
                let _ = write!(body, "<text:p>{}<text:s text:c=\"{}\"/>{}<text:tab/><text:line-break/>{}</text:p>", xml_text(rng, 30), rng.pick(&["3", "0", "100000", "x"]), xml_text(rng, 20), xml_text(rng, 20));
            }
            3 => {
                let _ = write!(body, "<text:p>{}<text:note><text:note-body><text:p>note</text:p></text:note-body></text:note></text:p>", xml_text(rng, 40));
            }
            4 => {
                let _ = write!(body, "<text:list><text:list-item><text:p>{}</text:p></text:list-item></text:list>", xml_text(rng, 40));
            }
            _ => {
                let _ = write!(body, "<text:p><text:span>{}</text:span> {}</text:p>", xml_text(rng, 100), xml_text(rng, 50));
            }
        }
    }
    body.push_str("</office:text></office:body></office:document-content>");
    let meta = format!("<office:document-meta xmlns:office=\"o\" xmlns:meta=\"m\" xmlns:dc=\"d\"><office:meta><dc:title>{}</dc:title><meta:creation-date>{}</meta:creation-date><dc:date>{}</dc:date></office:meta></office:document-meta>", xml_text(rng, 30), odd_date(rng).replace(['<', '&'], ""), odd_date(rng).replace(['<', '&'], ""));
    vec![
        ("mimetype".into(), "application/vnd.oasis.opendocument.text".into()),
        ("content.xml".into(), body),
        ("meta.xml".into(), meta),
        ("styles.xml".into(), "<office:document-styles/>".into()),
    ]
}

fn zip_of(rng: &mut Rng, parts: &[(String, Vec<u8>)]) -> Vec<u8> {
    use zip::write::SimpleFileOptions;
    use zip::{CompressionMethod, ZipWriter};
    let mut zip = ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, content) in parts {
        let stored = name == "mimetype" || (content.len() < 1 << 20 && rng.chance(4));
        let method = if stored { CompressionMethod::Stored } else { CompressionMethod::Deflated };
        let options = SimpleFileOptions::default().compression_method(method).large_file(rng.chance(50));
        if zip.start_file(name.as_str(), options).is_err() {
            continue;
        }
        zip.write_all(content).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// Patches the ZIP's headers: wrong sizes and CRCs, the encrypted flag,
/// a central directory that points elsewhere.
fn zip_damage(rng: &mut Rng, bytes: &mut [u8]) {
    let headers: Vec<(usize, bool)> = bytes
        .windows(4)
        .enumerate()
        .filter_map(|(i, w)| match w {
            b"PK\x03\x04" => Some((i, true)),
            b"PK\x01\x02" => Some((i, false)),
            _ => None,
        })
        .collect();
    if headers.is_empty() {
        return;
    }
    let (at, local) = rng.pick(&headers);
    // Local header: flags at 6, CRC at 14, sizes at 18 and 22; central: +2.
    let shift = if local { 0 } else { 2 };
    let field = |offset: usize| at + offset + shift;
    let random = rng.next() as u32;
    let value: u32 = rng.pick(&[0, 1, 0xFFFF_FFFF, 0x7FFF_FFFF, 1 << 30, random]);
    let target = match rng.below(5) {
        0 => {
            if let Some(b) = bytes.get_mut(field(6)) {
                *b |= 1; // encrypted
            }
            return;
        }
        1 => field(14),
        2 => field(18),
        3 => field(22),
        _ => {
            // The end of central directory's offset.
            match bytes.windows(4).rposition(|w| w == b"PK\x05\x06") {
                Some(end) => end + 16,
                None => return,
            }
        }
    };
    if let Some(slot) = bytes.get_mut(target..target + 4) {
        slot.copy_from_slice(&value.to_le_bytes());
    }
}

fn office_input(rng: &mut Rng, odt: bool) -> Vec<u8> {
    let len = rng.size().min(200_000);
    let mut parts = if odt { odt_parts(rng, len) } else { docx_parts(rng, len) };
    if rng.chance(3) {
        let i = rng.range(1, parts.len() - 1);
        for _ in 0..rng.range(1, 3) {
            xml_damage(rng, &mut parts[i].1);
        }
    }
    let mut parts: Vec<(String, Vec<u8>)> = parts.into_iter().map(|(n, c)| (n, c.into_bytes())).collect();
    // ZIP bombs (cases 0 and 1) come one input in 400 each: at one in 40,
    // 3,000 OpenDocument inputs took 49 s instead of 12 s.
    match rng.below(40) {
        0 if rng.chance(10) => {
            // A ZIP bomb within the limits (or just over), in the body.
            let unit = if odt { "<text:p>aaaaaaaaaa aaaaaaaaa</text:p>" } else { "<w:p><w:r><w:t>aaaaaaaa aaaa</w:t></w:r></w:p>" };
            let mb = if rng.chance(10) { rng.range(40, 60) } else { rng.range(1, 8) };
            let i = if odt { 1 } else { 2 };
            let mut bomb = parts[i].1.clone();
            let at = bomb.len().saturating_sub(if odt { 54 } else { 22 });
            bomb.splice(at..at, unit.repeat((mb << 20) / unit.len()).into_bytes());
            parts[i].1 = bomb;
        }
        1 if rng.chance(10) => parts.push(("word/unread.bin".into(), vec![0; 30 << 20])),
        2 => {
            for i in 0..rng.range(100, 5_000) {
                parts.push((format!("junk/{i}"), Vec::new()));
            }
        }
        3 => {
            let i = rng.below(parts.len());
            parts.remove(i);
        }
        4 => {
            let i = rng.below(parts.len());
            let copy = parts[i].clone();
            parts.push((format!("{}\u{0}", copy.0), copy.1));
        }
        5 => {
            let i = rng.range(1, parts.len() - 1);
            let mut content = std::mem::take(&mut parts[i].1);
            break_bytes(rng, &mut content);
            parts[i].1 = content;
        }
        _ => {}
    }
    let mut bytes = zip_of(rng, &parts);
    match rng.below(6) {
        0 => zip_damage(rng, &mut bytes),
        1 => mutate_bytes(rng, &mut bytes),
        _ => {}
    }
    bytes
}

// ---------------------------------------------------------------- checks

/// What the app does with documents that were read: segment them, when
/// their text is within what it reads at once (src/worker/read.rs refuses
/// more than `MAX_INPUT_BYTES` of text from one file).
fn read_then_segment(result: Result<Vec<Document>, InputError>) {
    if let Ok(documents) = result {
        assert!(!documents.is_empty(), "Ok with no documents");
        let text: usize = documents.iter().map(|d| d.text.len()).sum();
        if text <= precis::limits::MAX_INPUT_BYTES {
            allow(1, text);
            check_cluster(Cluster::new(documents));
        }
    }
}

fn check_cluster(cluster: Cluster) {
    for s in &cluster.sentences {
        let text = &cluster.documents[s.doc].text;
        assert!(s.start <= s.end && s.end <= text.len(), "sentence span {}..{} of {}", s.start, s.end, text.len());
        assert!(text.is_char_boundary(s.start) && text.is_char_boundary(s.end), "span off char boundaries");
        assert!(s.char_start <= s.char_end);
    }
}

fn check_split(text: &str) {
    let spans = segment::split(text);
    let mut para = 0;
    for s in &spans {
        assert!(s.start <= s.end && s.end <= text.len(), "span {}..{} of {}", s.start, s.end, text.len());
        assert!(text.is_char_boundary(s.start) && text.is_char_boundary(s.end), "span off char boundaries");
        assert!(s.para >= para, "paragraphs out of order");
        assert!(s.text.chars().any(char::is_alphanumeric), "sentence without a letter or digit: {:?}", s.text);
        para = s.para;
    }
    if let Some(line) = segment::headline_line(text) {
        assert!(line.end <= text.len() && text.is_char_boundary(line.start) && text.is_char_boundary(line.end));
    }
}

const LANGS: &[&str] = &[
    "en", "zh", "es", "fr", "de", "it", "pt", "th", "und", "eng", "zh-Hans", "pt_BR", "ru", "ar", "ja", "nl", "", "EN-us",
    "x\u{301}", "-", "chi",
];

fn check_dates(text: &str, lang: &str, document: CivilDate) {
    let mentions = dates::extract(text, lang, document);
    let mut end = 0;
    for m in &mentions {
        assert!(m.start >= end && m.start < m.end && m.end <= text.len(), "mention {}..{} after {end}", m.start, m.end);
        assert!(text.is_char_boundary(m.start) && text.is_char_boundary(m.end));
        assert!(CivilDate::new(m.date.year, m.date.month, m.date.day).is_some(), "invalid date {:?}", m.date);
        end = m.end;
    }
    let day = dates::sentence_date(text, lang, document);
    assert!(CivilDate::new(day.year, day.month, day.day).is_some(), "invalid sentence date {day:?}");
    for piece in text.split([',', ';', '\n']).take(8) {
        if piece.len() < 200 {
            let _ = parse_iso8601(piece.trim());
            let _ = piece.trim().parse::<CivilDate>();
        }
    }
}

// ---------------------------------------------------------------- tokenizer

fn encoder() -> Option<&'static precis::encoder::Encoder> {
    static ENCODER: OnceLock<Option<precis::encoder::Encoder>> = OnceLock::new();
    ENCODER
        .get_or_init(|| {
            let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("models/muse-v3");
            dir.join("table.u8").exists().then(|| precis::models::read_encoder(&dir, "encoder.onnx", &|| 0.0).expect("the model loads").0)
        })
        .as_ref()
}

fn tokenizer_input(rng: &mut Rng) -> Vec<u8> {
    let len = rng.size();
    let text = match rng.below(4) {
        0 => {
            let mut s = String::with_capacity(len + 4);
            while s.len() < len {
                s.push(rng.any_char());
            }
            s
        }
        _ => soup(rng, len),
    };
    text.into_bytes()
}

// ---------------------------------------------------------------- targets

/// One generated input: the bytes, and the file name, language or date the
/// target passes along with them.
struct Case {
    bytes: Vec<u8>,
    name: String,
    param: i64,
}

struct Target {
    name: &'static str,
    generate: fn(&mut Rng) -> Case,
    run: fn(&Case),
    /// Memory bound: peak bytes live while an input runs ≤ A × input bytes + B.
    a: usize,
    b: usize,
}

fn case(bytes: Vec<u8>, name: &str) -> Case {
    Case { bytes, name: name.to_string(), param: 0 }
}

fn text(case: &Case) -> &str {
    std::str::from_utf8(&case.bytes).expect("text targets generate UTF-8")
}

fn file_name(rng: &mut Rng, names: &[&str]) -> String {
    rng.pick(names).to_string()
}

const TEXT_TARGETS: &[Target] = &[
    Target {
        name: "paste",
        generate: |rng| {
            let len = rng.size();
            case(soup(rng, len).into_bytes(), "")
        },
        run: |c| read_then_segment(documents_from_paste(text(c))),
        a: 80,
        b: 4 * MIB,
    },
    Target {
        name: "text_file",
        generate: |rng| {
            let len = rng.size();
            let s = soup(rng, len);
            let name = file_name(rng, &["a.txt", "a.TEXT", "notes", "a.unknown", "a.xhtml", "a.md", "a.docx", "a.pdf"]);
            case(encode(rng, &s), &name)
        },
        run: |c| read_then_segment(documents_from_file(&c.name, &c.bytes)),
        a: 80,
        b: 4 * MIB,
    },
    Target {
        name: "markdown",
        generate: |rng| {
            let len = rng.size();
            let s = markdown(rng, len);
            let bytes = if rng.chance(5) { encode(rng, &s) } else { s.into_bytes() };
            case(bytes, "a.md")
        },
        run: |c| read_then_segment(documents_from_file(&c.name, &c.bytes)),
        a: 80,
        b: 4 * MIB,
    },
    Target {
        name: "html",
        generate: |rng| {
            let len = rng.size();
            let s = html(rng, len);
            let bytes = if rng.chance(5) { encode(rng, &s) } else { s.into_bytes() };
            let name = file_name(rng, &["a.html", "a.htm", "a.XHTML", "page"]);
            case(bytes, &name)
        },
        run: |c| read_then_segment(documents_from_file(&c.name, &c.bytes)),
        a: 80,
        b: 4 * MIB,
    },
    Target {
        name: "json",
        generate: |rng| {
            let len = rng.size();
            let s = json(rng, len);
            let bytes = if rng.chance(5) { encode(rng, &s) } else { s.into_bytes() };
            let name = file_name(rng, &["a.json", "a.JSON", "records"]);
            case(bytes, &name)
        },
        run: |c| read_then_segment(documents_from_file(&c.name, &c.bytes)),
        a: 80,
        b: 4 * MIB,
    },
    Target {
        name: "jsonl",
        generate: |rng| {
            let len = rng.size();
            let s = json_lines(rng, len);
            let bytes = if rng.chance(5) { encode(rng, &s) } else { s.into_bytes() };
            let name = file_name(rng, &["a.jsonl", "a.ndjson", "lines"]);
            case(bytes, &name)
        },
        run: |c| read_then_segment(documents_from_file(&c.name, &c.bytes)),
        a: 80,
        b: 4 * MIB,
    },
    Target {
        name: "pdf",
        generate: |rng| {
            let name = file_name(rng, &["a.pdf", "a.PDF", "scan"]);
            case(pdf_input(rng), &name)
        },
        run: |c| read_then_segment(documents_from_file(&c.name, &c.bytes)),
        a: 80,
        b: 64 * MIB,
    },
    Target {
        name: "docx",
        generate: |rng| {
            let name = file_name(rng, &["a.docx", "a.DOCX", "a.docm", "report"]);
            case(office_input(rng, false), &name)
        },
        run: |c| read_then_segment(documents_from_file(&c.name, &c.bytes)),
        a: 80,
        b: 4 * MAX_UNPACKED + 56 * MIB,
    },
    Target {
        name: "odt",
        generate: |rng| {
            let name = file_name(rng, &["a.odt", "a.ODT", "report"]);
            case(office_input(rng, true), &name)
        },
        run: |c| read_then_segment(documents_from_file(&c.name, &c.bytes)),
        a: 80,
        b: 4 * MAX_UNPACKED + 56 * MIB,
    },
    Target {
        name: "splitter",
        generate: |rng| {
            let len = rng.size();
            let s = match rng.below(4) {
                0 => html(rng, len),
                1 => markdown(rng, len),
                _ => soup(rng, len),
            };
            case(s.into_bytes(), "")
        },
        run: |c| {
            let t = text(c);
            check_split(t);
            let mut documents = vec![Document::new("a", t)];
            if t.len() > 10 {
                let (a, b) = t.split_at((0..=t.len() / 2).rev().find(|&i| t.is_char_boundary(i)).unwrap_or(0));
                documents = vec![Document::new("a", a), Document { lang: Some("zh".into()), ..Document::new("b", b) }];
            }
            check_cluster(Cluster::new(documents));
        },
        a: 80,
        b: 4 * MIB,
    },
    Target {
        name: "dates",
        generate: |rng| {
            let mut s = String::new();
            let len = rng.size().min(20_000);
            while s.len() < len || s.is_empty() {
                if rng.chance(3) {
                    s.push_str(&{ let n = rng.range(0, 60); soup(rng, n) });
                }
                s.push_str(&date_phrase(rng));
                s.push_str(rng.pick(&[" ", ", ", ". ", "", "。", " will ", " 将于"]));
            }
            let lang = rng.pick(LANGS).to_string();
            let seconds = match rng.below(6) {
                0 => rng.pick(&[i64::MIN, i64::MAX, 0, -1, -62_135_596_800, 253_402_300_799, 1 << 40, -(1 << 40)]),
                1 => rng.next() as i64,
                _ => 1_700_000_000 + (rng.next() % 200_000_000) as i64,
            };
            Case { bytes: s.into_bytes(), name: lang, param: seconds }
        },
        run: |c| check_dates(text(c), &c.name, CivilDate::from_timestamp(c.param)),
        a: 80,
        b: 4 * MIB,
    },
    Target {
        name: "tokenizer",
        generate: |rng| case(tokenizer_input(rng), ""),
        run: |c| {
            let ids = encoder().expect("loaded before the loop").tokenize(text(c));
            assert!(ids.len() >= 3 && ids[0] == 1 && ids[ids.len() - 1] == 2, "ids not BOS … EOS");
        },
        a: 80,
        b: 4 * MIB,
    },
];

// ---------------------------------------------------------------- harness

/// The input running now, for the watchdog: target index + 1 (0 when
/// idle), its number, and when it started (ms since `EPOCH`).
static RUNNING_TARGET: AtomicUsize = AtomicUsize::new(0);
static RUNNING_INPUT: AtomicU64 = AtomicU64::new(0);
static RUNNING_SINCE_MS: AtomicU64 = AtomicU64::new(0);
/// When the running input's current stage must end (ms of [`cpu_ms`]), and
/// which stage it is (0 reading or parsing, 1 segmenting what was read).
static DEADLINE_MS: AtomicU64 = AtomicU64::new(0);
static STAGE: AtomicUsize = AtomicUsize::new(0);
static RUNNING_SEED: AtomicU64 = AtomicU64::new(0);
static EPOCH: OnceLock<Instant> = OnceLock::new();
/// Panics (and their places) caught inside the readers' own guard.
static GUARDED_PANICS: Mutex<Vec<String>> = Mutex::new(Vec::new());
/// One target at a time, so the allocator counts one input.
static SERIAL: Mutex<()> = Mutex::new(());

fn now_ms() -> u64 {
    EPOCH.get_or_init(Instant::now).elapsed().as_millis() as u64 + 1
}

/// CPU time this process has used, in ms. One input runs at a time and the
/// watchdog mostly sleeps, so it is the running input's time.
fn cpu_ms() -> u64 {
    let mut time = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime only writes the timespec it is given.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut time) };
    assert_eq!(status, 0, "clock_gettime(CLOCK_PROCESS_CPUTIME_ID) failed");
    time.tv_sec as u64 * 1000 + time.tv_nsec as u64 / 1_000_000
}

fn failure_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"), PathBuf::from);
    target.join("fuzz-failures")
}

fn save(target: &str, n: u64, case: &Case) -> PathBuf {
    let dir = failure_dir();
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join(format!("{target}-{n}.bin"));
    let _ = std::fs::write(&path, &case.bytes);
    let _ = std::fs::write(dir.join(format!("{target}-{n}.txt")), format!("name: {:?}\nparam: {}\n", case.name, case.param));
    path
}

fn start_watchdog() {
    static STARTED: OnceLock<()> = OnceLock::new();
    STARTED.get_or_init(|| {
        now_ms();
        std::thread::spawn(|| loop {
            std::thread::sleep(Duration::from_millis(50));
            let since = RUNNING_SINCE_MS.load(Relaxed);
            let target = RUNNING_TARGET.load(Relaxed);
            let deadline = DEADLINE_MS.load(Relaxed);
            if since == 0 || target == 0 || cpu_ms() <= deadline {
                continue;
            }
            let stage = if STAGE.load(Relaxed) == 0 { "reading" } else { "segmenting what was read" };
            let n = RUNNING_INPUT.load(Relaxed);
            if RUNNING_SINCE_MS.load(Relaxed) != since {
                continue; // it finished meanwhile
            }
            let target = &TEXT_TARGETS[target - 1];
            let seed = RUNNING_SEED.load(Relaxed);
            let case = (target.generate)(&mut input_rng(seed, target.name, n));
            let path = save(target.name, n, &case);
            eprintln!(
                "\nFUZZ HANG: target {} input {n} (seed {seed:#x}) ran {:?} of CPU time past its deadline ({stage}); input saved to {}\n\
                 replay: PRECIS_FUZZ_SEED={seed:#x} PRECIS_FUZZ_ONLY={n} cargo test --profile ci --test fuzz -- {} --nocapture",
                target.name,
                Duration::from_millis(cpu_ms() - deadline),
                path.display(),
                target.name
            );
            std::process::abort();
        });
    });
}

/// Counts the panics the readers catch themselves (they turn them into
/// "damaged file"): chained after the readers' quiet hook.
fn count_guarded_panics() {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        // Let the readers install their hook first, then wrap it.
        let _ = documents_from_file("a.pdf", b"%PDF-1.4\n");
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if RUNNING_TARGET.load(Relaxed) != 0 {
                let place = info.location().map_or_else(String::new, |l| format!("{}:{}", l.file(), l.line()));
                let message = info.payload().downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| info.payload().downcast_ref::<String>().cloned()).unwrap_or_default();
                if let Ok(mut panics) = GUARDED_PANICS.try_lock() {
                    panics.push(format!("{place}: {}", message.chars().take(120).collect::<String>()));
                }
            }
            previous(info);
        }));
    });
}

fn fuzz(name: &str) {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let index = TEXT_TARGETS.iter().position(|t| t.name == name).expect("a target");
    let target = &TEXT_TARGETS[index];
    if name == "tokenizer" && encoder().is_none() {
        println!("SKIP fuzz tokenizer: models/muse-v3/tokenizer.json or encoder.onnx is missing (run `python3 models/build.py`)");
        return;
    }
    start_watchdog();
    count_guarded_panics();
    GUARDED_PANICS.lock().unwrap().clear();
    let seed = seed();
    let only: Option<u64> = std::env::var("PRECIS_FUZZ_ONLY").ok().and_then(|v| v.parse().ok());
    // The Word and OpenDocument inputs include ZIP bombs of up to 60 MB:
    // CI runs a tenth as many of them.
    let ci_share = if matches!(name, "docx" | "odt") && std::env::var_os("PRECIS_FUZZ_INPUTS").is_none() { 10 } else { 1 };
    let range = match only {
        Some(n) => n..n + 1,
        None => 0..inputs() / ci_share,
    };
    // Warm up lazily built tables (regexes, language models, the regex
    // caches) outside the count.
    for n in 0..WARM_UP / if matches!(name, "docx" | "odt") { 10 } else { 1 } {
        let case = (target.generate)(&mut input_rng(seed, "warm-up", n));
        if case.bytes.len() < 100_000 {
            allow(0, case.bytes.len());
            if catch_unwind(AssertUnwindSafe(|| (target.run)(&case))).is_err() {
                let path = save(&format!("{}-warm-up", target.name), n, &case);
                panic!("FUZZ PANIC: target {} warm-up input {n} (seed {seed:#x}), saved to {}", target.name, path.display());
            }
        }
    }
    for lang in LANGS {
        let _ = dates::extract("4 March 2024, 4 mars, 4 de marzo, 4. März, 4 marzo, 4 de março, 3月4日, 4 มีนาคม 2567", lang, CivilDate::new(2024, 3, 5).unwrap());
    }
    let started = Instant::now();
    let (mut count, mut bytes, mut slowest, mut slowest_n) = (0u64, 0u64, Duration::ZERO, 0);
    let (mut worst_ratio, mut worst_peak, mut worst_peak_len) = (0f64, 0usize, 0usize);
    for n in range {
        let case = (target.generate)(&mut input_rng(seed, target.name, n));
        let len = case.bytes.len();
        if only.is_some() {
            println!("input {n} saved to {}", save(target.name, n, &case).display());
        }
        RUNNING_SEED.store(seed, Relaxed);
        RUNNING_INPUT.store(n, Relaxed);
        RUNNING_TARGET.store(index + 1, Relaxed);
        let base = LIVE.load(Relaxed);
        PEAK.store(base, Relaxed);
        let t0 = Instant::now();
        allow(0, len);
        RUNNING_SINCE_MS.store(now_ms(), Relaxed);
        let outcome = catch_unwind(AssertUnwindSafe(|| (target.run)(&case)));
        RUNNING_SINCE_MS.store(0, Relaxed);
        let elapsed = t0.elapsed();
        let peak = PEAK.load(Relaxed).saturating_sub(base);
        RUNNING_TARGET.store(0, Relaxed);
        if let Err(panic) = outcome {
            let path = save(target.name, n, &case);
            let message = panic.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| panic.downcast_ref::<String>().cloned()).unwrap_or_default();
            panic!(
                "FUZZ PANIC: target {} input {n} (seed {seed:#x}): {message}\ninput saved to {}\n\
                 replay: PRECIS_FUZZ_SEED={seed:#x} PRECIS_FUZZ_ONLY={n} cargo test --profile ci --test fuzz -- {} --nocapture",
                target.name,
                path.display(),
                target.name
            );
        }
        let bound = target.a * len + target.b;
        if peak > bound {
            let path = save(target.name, n, &case);
            panic!(
                "FUZZ MEMORY: target {} input {n} (seed {seed:#x}) of {len} bytes had {peak} bytes live at its peak, over {} × {len} + {} = {bound}\ninput saved to {}",
                target.name, target.a, target.b, path.display()
            );
        }
        count += 1;
        bytes += len as u64;
        if elapsed > slowest {
            (slowest, slowest_n) = (elapsed, n);
        }
        if len >= 4_096 {
            worst_ratio = worst_ratio.max(peak as f64 / len as f64);
        }
        if peak > worst_peak {
            (worst_peak, worst_peak_len) = (peak, len);
        }
    }
    let guarded = GUARDED_PANICS.lock().unwrap().clone();
    let mut places: Vec<(String, usize)> = Vec::new();
    for p in &guarded {
        match places.iter_mut().find(|(q, _)| q == p) {
            Some((_, k)) => *k += 1,
            None => places.push((p.clone(), 1)),
        }
    }
    println!(
        "fuzz {:<10} seed {seed:#x}: {count} inputs, {bytes} bytes, {:.1?} wall, slowest {:.1?} (input {slowest_n}), \
         peak {:.1} MiB (input of {worst_peak_len} B), peak/len ≤ {worst_ratio:.1} on inputs ≥ 4 kB, bound {} × len + {} MiB; \
         panics 0, hangs 0, panics caught by the readers' guard {}",
        target.name,
        started.elapsed(),
        slowest,
        worst_peak as f64 / MIB as f64,
        target.a,
        target.b / MIB,
        guarded.len()
    );
    for (place, k) in places {
        println!("    guarded panic ×{k}: {place}");
    }
}

#[test]
fn paste() {
    fuzz("paste");
}
#[test]
fn text_file() {
    fuzz("text_file");
}
#[test]
fn markdown_file() {
    fuzz("markdown");
}
#[test]
fn html_file() {
    fuzz("html");
}
#[test]
fn json_file() {
    fuzz("json");
}
#[test]
fn jsonl_file() {
    fuzz("jsonl");
}
#[test]
fn pdf_file() {
    fuzz("pdf");
}
#[test]
fn docx_file() {
    fuzz("docx");
}
#[test]
fn odt_file() {
    fuzz("odt");
}
#[test]
fn splitter() {
    fuzz("splitter");
}
#[test]
fn dates() {
    fuzz("dates");
}
#[test]
fn tokenizer() {
    fuzz("tokenizer");
}

/// The generators make real documents before they damage them: unmutated
/// seeds read as documents with their words.
#[test]
fn seeds_are_readable() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let mut rng = Rng::new(seed());
    count_guarded_panics();
    RUNNING_TARGET.store(1, Relaxed);
    for _ in 0..5 {
        let pdf = pdf_seed(&mut rng, 2_000);
        let bytes = pdf.write_as(&mut Rng::new(3), true); // a write with a good xref
        let docs = documents_from_file("a.pdf", &bytes).unwrap_or_else(|e| panic!("a seed PDF reads: {e} {:?}", GUARDED_PANICS.lock().unwrap()));
        assert!(docs[0].text.contains("council") || docs[0].text.contains("理"), "{:?}", docs[0].text);
        let parts: Vec<(String, Vec<u8>)> = docx_parts(&mut rng, 2_000).into_iter().map(|(n, c)| (n, c.into_bytes())).collect();
        let docs = documents_from_file("a.docx", &zip_of(&mut rng, &parts)).expect("a seed DOCX reads");
        assert!(!docs[0].text.is_empty());
        let parts: Vec<(String, Vec<u8>)> = odt_parts(&mut rng, 2_000).into_iter().map(|(n, c)| (n, c.into_bytes())).collect();
        let docs = documents_from_file("a.odt", &zip_of(&mut rng, &parts)).expect("a seed ODT reads");
        assert!(!docs[0].text.is_empty());
    }
    RUNNING_TARGET.store(0, Relaxed);
}

/// Times one saved input's reading and segmenting apart:
/// `PRECIS_FUZZ_REPLAY=target/fuzz-failures/docx-158.bin PRECIS_FUZZ_NAME=a.docx`.
#[test]
fn replay() {
    let Some(path) = std::env::var_os("PRECIS_FUZZ_REPLAY") else { return };
    let name = std::env::var("PRECIS_FUZZ_NAME").unwrap_or_else(|_| "a.txt".into());
    let bytes = std::fs::read(path).expect("the saved input");
    if let Some(lang) = name.strip_prefix("dates:") {
        let text = String::from_utf8_lossy(&bytes);
        let t = Instant::now();
        let mentions = dates::extract(&text, lang, CivilDate::new(2024, 3, 5).unwrap());
        println!("dates::extract({lang}): {:?}, {} mentions in {} bytes", t.elapsed(), mentions.len(), text.len());
        return;
    }
    let t = Instant::now();
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    let result = documents_from_file(&name, &bytes);
    println!("read {name}: {:?} ({} bytes), peak {} bytes live", t.elapsed(), bytes.len(), PEAK.load(Relaxed) - base);
    match result {
        Ok(documents) => {
            println!("{} documents, {} bytes of text", documents.len(), documents.iter().map(|d| d.text.len()).sum::<usize>());
            let t = Instant::now();
            let cluster = Cluster::new(documents);
            println!("Cluster::new: {:?}, {} sentences", t.elapsed(), cluster.sentences.len());
        }
        Err(e) => println!("error: {e}"),
    }
}

/// Found by this campaign: a PDF whose page content inflates to a few MB of
/// drawing operators made lopdf hold ~480 bytes an operation: 8 MB of
/// `BT ET` from a 12.8 kB file peaked at 1.57 GB live. Now only the text
/// operators reach lopdf, at most `MAX_PDF_PAGE_OPERATIONS` a page.
#[test]
fn pdf_content_bomb_memory() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    for (unit, refused) in [(b"BT ET\n".as_slice(), true), (b"0 0 m 1 1 l S\n", false)] {
        let mut pdf = pdf_seed(&mut Rng::new(1), 500);
        let content = unit.repeat((8 << 20) / unit.len());
        *pdf.object_mut(11).expect("the first page's content") = pdf_stream("", &content, true);
        let bytes = pdf.write_as(&mut Rng::new(3), true);
        let base = LIVE.load(Relaxed);
        PEAK.store(base, Relaxed);
        let result = documents_from_file("a.pdf", &bytes);
        let peak = PEAK.load(Relaxed) - base;
        println!("{} byte PDF, 8 MB of {:?}: {peak} bytes live at the peak", bytes.len(), String::from_utf8_lossy(unit));
        assert!(peak < 64 << 20, "{} byte PDF: {peak} bytes live at the peak", bytes.len());
        let too_many = matches!(result, Err(InputError::DocumentTooLarge { limit: precis::input::DocumentLimit::PageOperations, .. }));
        assert_eq!(too_many, refused, "{result:?}");
    }
}
