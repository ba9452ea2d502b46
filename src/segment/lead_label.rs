//! Datelines and kicker labels that open a sentence with a dash:
//! "WASHINGTON (AP) — The …", "LOS ANGELES — …", "(CNN) -- …",
//! "STOWE, Vt. — …", "NEW YORK, May 18 (UPI) -- …", "Madrid, 20 dic
//! (EFE).- …", "FOCUS - La Ligue arabe …", "DÉCRYPTAGE - …".
//!
//! Pages print them glued to the first sentence of the text (or of a
//! section). Left there, a dateline rides into the summary with its lead,
//! and a kicker ("INDUSTRY REACTS - ", "PORTRAIT - ") makes a prose
//! sentence read as page furniture. The splitter cuts after the dash, so
//! the label is a line of its own, which the furniture rules mark
//! ([`is_lead_label`]), and the text after it stays prose.
//!
//! Form only, so any script: one to five words in capitals, at least
//! three capitals, then a dash standing alone; or a place in capitals, in
//! title case ("Madrid", "El Cairo") or in a script without capitals
//! ("فينيكس (أسوشيتد برس) -") with an agency in parentheses
//! ("(AP)", "(Reuters)", "(EFE)"), the dash standing alone or written
//! against the parenthesis ("(EFE).-"). After a comma may come a state or
//! a country ("Vt.", "South Korea"), a date ("Feb. 25", "May 18", "20 dic")
//! or a time ("10:11 p.m."). "I - I don't know" and "OK - fine" have too
//! few capitals; "Los Angeles - The city …" has no agency.

const MAX_LABEL_WORDS: usize = 5;
const MIN_LABEL_CAPITALS: usize = 3;
/// "dic", "marzo", "p.m.": a month or a clock's half in a date or a time.
const MAX_DATE_WORD_CHARS: usize = 10;

/// Where the text after a lead label starts, if `text` opens with one and
/// goes on with a sentence (a capital or a letter of a caseless script, a
/// digit or an opening quote, and at least two words). A Thai entry's clock
/// is read by its own pattern first.
pub(super) fn text_after_label(text: &str) -> Option<usize> {
    if let Some(end) = wire_lead_end(text) {
        return Some(end);
    }
    if let Some(clock) = thai_entry_time(text) {
        return thai_entry_end(text, clock);
    }
    let end = label_end(text).or_else(|| entry_time(text).or_else(|| bare_entry_clock(text)).map(|m| m.end()))?;
    let rest = text[end..].trim_start();
    // A capital, or a letter of a script without case (Hebrew, Arabic).
    let opens = rest.chars().next().is_some_and(|c| (c.is_alphabetic() && !crate::text::is_lowercase(c)) || c.is_numeric() || "\"“«'‘¿¡".contains(c));
    (opens && goes_on_with_a_sentence(rest)).then(|| text.len() - rest.len())
}

/// Two words at least, or in a script that does not space its words, a
/// few of its letters ("台電統計，截至晚間9時…").
fn goes_on_with_a_sentence(rest: &str) -> bool {
    const MIN_UNSPACED_LETTERS: usize = 4;
    rest.split_whitespace().nth(1).is_some() || rest.chars().filter(|&c| crate::text::spaces_no_words(c)).nth(MIN_UNSPACED_LETTERS - 1).is_some()
}

/// The whole line is a lead label (as the splitter leaves it): "WASHINGTON
/// (AP) —".
pub(super) fn is_lead_label(text: &str) -> bool {
    label_end(text) == Some(text.len())
        || wire_lead(text).is_some_and(|m| m.end() == text.trim_end().len())
        || whole_text_is(text, entry_time)
}

/// A live blog's time as the splitter cuts it off its entry: "13h35 :",
/// "21.55 h:", "ore 13:45 -", or the bare clock "15:48".
pub(super) fn is_entry_time(text: &str) -> bool {
    whole_text_is(text, entry_time) || whole_text_is(text, bare_entry_clock)
}

/// Whether `pattern` (which reads a label with the space after it) takes
/// all of `text`.
fn whole_text_is(text: &str, pattern: fn(&str) -> Option<regex::Match<'_>>) -> bool {
    let padded = format!("{} ", text.trim_end());
    pattern(&padded).is_some_and(|m| m.end() == padded.len())
}

/// A Thai live blog's clock glued to its entry, "น." (nalika) its unit and
/// its stop: "18.05 น. ศูนย์…", "21:51 น. ทดเจ็บ…", or with the entry's
/// short title before a colon or a dash, "16.50 น. ปิดถนน : กรมทางหลวง…".
/// Thai prose gives a clock its word, "เวลา 18.05 น.", so a paragraph that
/// opens on the bare clock is an entry. The clock, cut off, is read as the
/// stamp it is (a clock alone on its line stays the stamp rules' too).
fn thai_entry_time(text: &str) -> Option<regex::Match<'_>> {
    use std::sync::OnceLock;
    static THAI_ENTRY_TIME: OnceLock<regex::Regex> = OnceLock::new();
    let pattern = THAI_ENTRY_TIME.get_or_init(|| {
        // The title: one or two runs of Thai letters, no digits (so "ไทยเสมอกับเวียดนาม 1 - 1", a score, is text).
        let title = r"[\p{Thai}&&[^๐-๙]]{2,20}(?:\s[\p{Thai}&&[^๐-๙]]{2,20})?";
        regex::Regex::new(&format!(r"^(?:[01]?\d|2[0-3])[.:][0-5]\d\s?น\.(?:\s+{title}\s[:\-–])?\s+")).expect("the Thai entry time pattern")
    });
    pattern.find(text)
}

/// Where a Thai entry's text starts after its `clock` (the match of
/// [`thai_entry_time`]), when text follows it.
/// A title that ends the sentence on its own ("20.26 น. ประตู!") stays with
/// its clock: the two are one stamp, which the stamp rules take.
fn thai_entry_end(text: &str, clock: regex::Match<'_>) -> Option<usize> {
    const MAX_TITLE_CHARS: usize = 20;
    let rest = text[clock.end()..].trim_end();
    let title_alone = rest.ends_with('!') && !rest.contains(' ') && rest.chars().count() <= MAX_TITLE_CHARS;
    (!rest.is_empty() && !title_alone).then_some(clock.end())
}

/// A live blog's time glued to its entry: "22h38 : Barack Obama annonce …",
/// "14h39. …", "21.55 h: …", "12 heures. …", "10:32 a.m. — …", "1:25 PM: …",
/// "18:04 - …", and with the word some sites print before the clock, "ore
/// 13:45 - …" (Italian), "Um 14:30 Uhr: …", "às 9h10 - …", "godz. 8:15 – …",
/// or in brackets, "[11:45] 파업 참여율은 높다.".
/// The hour takes its minutes or its unit (so "3. …", a list's number, is
/// none), then a colon, a period or a dash, then a space.
fn entry_time(text: &str) -> Option<regex::Match<'_>> {
    use std::sync::OnceLock;
    static ENTRY_TIME: OnceLock<regex::Regex> = OnceLock::new();
    let pattern = ENTRY_TIME.get_or_init(|| {
        let unit = r"(?:h|hs|H|Uhr|uur|heures?|horas|a\.m\.|p\.m\.|am|pm|A\.M\.|P\.M\.|AM|PM|GMT)";
        // "at" in the languages whose live blogs print it before the clock.
        let clock_word = r"(?i:alle ore|ore|alle|a las|às|à|um|om|godz\.|saat|kl\.)\s";
        // Or the clock in brackets: "[11:45] …".
        let bracketed = r"\[(?:[01]?\d|2[0-3])[:.][0-5]\d\]\s+";
        regex::Regex::new(&format!(r"^(?:{bracketed}|(?:{clock_word})?(?:[01]?\d|2[0-3])(?:\s?[hH:.]\s?[0-5]\d(?:\s?{unit})?|\s?{unit})\s?[:.|\-–—]\s+)"))
            .expect("the entry time pattern")
    });
    pattern.find(text)
}

/// A live blog's bare 24-hour clock before its entry, with no separator:
/// "17:41 משרד החינוך הודיע…", "19:40 На Львівщині…". Cut only where a
/// sentence follows (see [`text_after_label`]); alone on its line, the
/// clock is the stamp rules'.
fn bare_entry_clock(text: &str) -> Option<regex::Match<'_>> {
    use std::sync::OnceLock;
    static BARE_CLOCK: OnceLock<regex::Regex> = OnceLock::new();
    BARE_CLOCK.get_or_init(|| regex::Regex::new(r"^(?:[01]\d|2[0-3]):[0-5]\d\s+").expect("the bare clock pattern")).find(text)
}

/// The wire leads of scripts without capitals, glued to the sentence with
/// no dash: Chinese agencies' "新华社北京6月17日电（记者 韩佳诺）", "中新网北京6月11日电
/// ", "（中央社記者江品妍台北5日電）", "【明報專訊】", "【财新网】（记者 韩思远）",
/// "〔記者蔡婷宜／台中報導〕", Japanese "【ワシントン=共同】"; Korean agencies'
/// "(의성=연합뉴스) 김선형 기자 = ", "[OSEN=수원, 홍지수 기자] "; Thai "กรุงเทพฯ 25 มิ.ย. – ".
fn wire_lead(text: &str) -> Option<regex::Match<'_>> {
    use std::sync::OnceLock;
    static WIRE_LEAD: OnceLock<regex::Regex> = OnceLock::new();
    let pattern = WIRE_LEAD.get_or_init(|| {
        regex::Regex::new(concat!(
            r"^(?:",
            // 新华社北京6月17日电 / 人民网北京6月25日电 / 中新社酒泉7月9日电, then maybe （记者 …）
            r"[\p{Han}]{2,12}?\d{1,2}月\d{1,2}日[电電]\s*(?:[（(][^）)]{1,30}[）)])?",
            // （中央社記者江品妍台北5日電）
            r"|[（(][^）)]{2,30}[电電][）)]",
            // 【明報專訊】, 【财新网】（记者 韩思远）, 【ワシントン=共同】
            r"|【[^】]{1,12}】(?:[（(]记者[^）)]{1,20}[）)]|[（(]記者[^）)]{1,20}[）)])?",
            // 〔記者蔡婷宜／台中報導〕
            r"|〔[^〕]{1,20}[報报]導?〕",
            // (의성=연합뉴스) 김선형 기자 =
            r"|\([^()=]{1,12}=[^()]{1,12}\)\s*[^=()]{1,20}기자\s*=",
            // [OSEN=수원, 홍지수 기자]
            r"|\[[^\[\]]{1,30}기자\]",
            // กรุงเทพฯ 25 มิ.ย. –
            r"|[\p{Thai}ฯ. ]{2,24}\s\d{1,2}\s[\p{Thai}.]{2,10}\s[–-]",
            r")\s*",
        ))
        .expect("the wire lead pattern compiles")
    });
    pattern.find(text)
}

/// Where the text after a wire lead starts, when text follows it.
fn wire_lead_end(text: &str) -> Option<usize> {
    let lead = wire_lead(text)?;
    (lead.end() < text.trim_end().len()).then_some(lead.end())
}

/// The byte index just after the label's dash.
fn label_end(text: &str) -> Option<usize> {
    let mut label = Label::default();
    let mut spans = word_spans(text);
    while let Some((start, word)) = spans.next() {
        if is_dash(word) {
            return label.named().then_some(start + word.len());
        }
        if let Some(opened) = word.strip_prefix('(') {
            // "(AP)", "(CNN)", "(Reuters)", "(HealthDay News)", "(Agencias y Redacción)", "(EFE).-".
            let closing = agency_in_parentheses(start + 1, opened, &mut spans)?;
            label.agency = true;
            if closing.dash_glued {
                return label.named().then_some(closing.end);
            }
            continue;
        }
        label.words += 1;
        if label.words > MAX_LABEL_WORDS || !label.take(word) {
            return None;
        }
    }
    None
}

/// What a label has shown so far, word by word.
#[derive(Default)]
struct Label {
    /// Words, the agency's not counted.
    words: usize,
    /// Capital letters before the comma.
    capitals: usize,
    /// A place written "Madrid" or "El Cairo" rather than in capitals.
    title_case: bool,
    agency: bool,
    after_comma: bool,
    /// A day or a time after the comma ("May 18", "20 dic", "10:11 p.m.").
    number_after_comma: bool,
}

impl Label {
    /// Whether the label, ending here, names a place or a kicker: an
    /// agency, or three capitals and no word in title case.
    fn named(&self) -> bool {
        self.agency || (self.capitals >= MIN_LABEL_CAPITALS && !self.title_case)
    }

    /// Reads one word outside the parentheses; false when it cannot be part
    /// of a label.
    fn take(&mut self, word: &str) -> bool {
        let bare = word.strip_suffix(',');
        let word_alone = bare.unwrap_or(word);
        if self.after_comma {
            return self.take_after_comma(word_alone);
        }
        if in_capitals(word_alone) {
            self.capitals += word_alone.chars().filter(|c| c.is_uppercase()).count();
        } else if opens_a_name(word_alone) || (self.words > 1 && is_joining_word(word_alone)) {
            // "Madrid", "El Cairo", "Ciudad de México", "فينيكس": a place, if an agency follows.
            self.title_case = true;
        } else {
            return false;
        }
        self.after_comma = bare.is_some();
        true
    }

    /// After the comma: a state or a country ("Vt.", "India", "South
    /// Korea"), a date ("Feb. 25", "May 18", "20 dic", "5 de marzo") or a
    /// time ("10:11 p.m."); a lowercase word only once a number has come.
    fn take_after_comma(&mut self, word: &str) -> bool {
        if word.starts_with(char::is_uppercase) {
            return true;
        }
        if is_number(word) {
            self.number_after_comma = true;
            return true;
        }
        self.number_after_comma && word.chars().count() <= MAX_DATE_WORD_CHARS && word.chars().all(|c| crate::text::is_lowercase(c) || c == '.')
    }
}

/// A word that may be a name: a capital first, or a letter of a script
/// without capitals, where a place or an agency is written like any word
/// ("فينيكس (أسوشيتد برس) -", "ហ្វីនិច (អេភី) —", Phoenix (AP)).
fn opens_a_name(word: &str) -> bool {
    word.starts_with(|c: char| c.is_uppercase() || crate::text::is_caseless_letter(c))
}

/// "de", "del", "la": short lowercase words inside a place's name.
fn is_joining_word(word: &str) -> bool {
    word.chars().count() <= 3 && word.chars().all(crate::text::is_lowercase)
}

/// "18", "2015", "10:11", "25.": digits, with ':' or '.' between or after.
fn is_number(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_digit()) && word.chars().all(|c| c.is_ascii_digit() || matches!(c, ':' | '.'))
}

/// Where an agency's parentheses close, and whether a dash is glued to them
/// ("(EFE).-").
struct Closing {
    end: usize,
    dash_glued: bool,
}

/// An agency's name in parentheses, from the word after '(' on: at most
/// three words, the first capitalized, the others capitalized or a short
/// joining word ("y", "and"); consumes the words it reads.
fn agency_in_parentheses<'a>(
    first_start: usize,
    first: &'a str,
    rest: &mut impl Iterator<Item = (usize, &'a str)>,
) -> Option<Closing> {
    const MAX_AGENCY_WORDS: usize = 3;
    let (mut start, mut word) = (first_start, first);
    for count in 1..=MAX_AGENCY_WORDS {
        let (name, closing) = match word.split_once(')') {
            Some((name, after)) if after.is_empty() || is_glued_dash(after) => (name, Some(!after.is_empty())),
            Some(_) => return None,
            None => (word, None),
        };
        let fits = if count == 1 { opens_a_name(name) } else { opens_a_name(name) || is_joining_word(name) };
        if !fits || name.contains('(') {
            return None;
        }
        if let Some(dash_glued) = closing {
            return Some(Closing { end: start + word.len(), dash_glued });
        }
        (start, word) = rest.next()?;
    }
    None
}

/// ".-", "-", "—", ".—" written against the closing parenthesis.
fn is_glued_dash(after: &str) -> bool {
    is_dash(after.strip_prefix('.').unwrap_or(after))
}

/// Whitespace-separated words with their byte offsets.
fn word_spans(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_whitespace().map(move |word| (word.as_ptr() as usize - text.as_ptr() as usize, word))
}

/// "—", "-", "--", "–", and DUC's "_".
fn is_dash(word: &str) -> bool {
    (1..=3).contains(&word.chars().count()) && word.chars().all(|c| matches!(c, '-' | '–' | '—' | '―' | '_'))
}

/// "WASHINGTON", "AL-ARISH", "FIGARO.", "L'EXPRESS": a letter, and every
/// letter a capital.
fn in_capitals(word: &str) -> bool {
    word.chars().any(char::is_alphabetic)
        && word.chars().all(|c| c.is_uppercase() || matches!(c, '.' | '\'' | '’' | '-' | '&'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(text: &str) -> Option<&str> {
        text_after_label(text).map(|at| &text[at..])
    }

    /// Each line, cut after its label, leaves the text given with it.
    fn gives_way_to_the_text(cases: &[(&str, &str)]) {
        for (line, text) in cases {
            assert_eq!(after(line), Some(*text), "{line}");
        }
    }

    #[test]
    fn datelines_and_kickers_give_way_to_the_text() {
        gives_way_to_the_text(&[
            ("WASHINGTON (AP) — The president said so.", "The president said so."),
            ("LOS ANGELES -- A jury found him guilty.", "A jury found him guilty."),
            ("(CNN) -- A jury found him guilty.", "A jury found him guilty."),
            ("STOWE, Vt. — Snow fell all night.", "Snow fell all night."),
            ("NEW DELHI, India (AP) _ Snow fell all night.", "Snow fell all night."),
            ("FOCUS - La Ligue arabe a appelé …", "La Ligue arabe a appelé …"),
            ("DÉCRYPTAGE - Le soulèvement reste sunnite.", "Le soulèvement reste sunnite."),
            ("INFO À LA DEMANDE - Alors que Obama …", "Alors que Obama …"),
            ("MOSCOU – « Nous partirons », dit-il.", "« Nous partirons », dit-il."),
            ("NEW DELHI (Reuters) - India said on Monday …", "India said on Monday …"),
            ("(HealthDay News) -- Older adults who walk …", "Older adults who walk …"),
            ("(Agencias y Redacción) - El Gobierno sirio …", "El Gobierno sirio …"),
            // Scripts without capitals write the place and the agency like any word.
            ("فينيكس (أسوشيتد برس) - أُدينت أمينة خزانة سابقة", "أُدينت أمينة خزانة سابقة"),
            ("ហ្វីនិច (អេភី) — អតីតហេរញ្ញិកខោនធីមួយ នៅតំបន់ជនបទ", "អតីតហេរញ្ញិកខោនធីមួយ នៅតំបន់ជនបទ"),
            ("ဖီးနစ် (AP) — အရီဇိုးနားပြည်နယ် ကျေးလက်ဒေသရှိ", "အရီဇိုးနားပြည်နယ် ကျေးလက်ဒေသရှိ"),
        ]);
    }

    #[test]
    fn dated_wire_datelines_give_way_to_the_text() {
        gives_way_to_the_text(&[
            ("NEW YORK, May 18 (UPI) -- Art supply company Crayola …", "Art supply company Crayola …"),
            ("FLORENCE, Italy, Feb. 25 (UPI) -- Raffaele Sollecito has …", "Raffaele Sollecito has …"),
            ("MONDAY, July 2 (HealthDay News) -- Whether a person's …", "Whether a person's …"),
            ("OSAN AIR BASE, South Korea (AFNS) -- South Korea and …", "South Korea and …"),
            ("LONDON, Feb 12 (Reuters) - Britain's economy grew …", "Britain's economy grew …"),
            ("UPDATE, 10:11 p.m. — Variety's first story said …", "Variety's first story said …"),
            ("Madrid, 20 dic (EFE).- Estados Unidos …", "Estados Unidos …"),
            ("El Cairo (EFE).- La junta militar …", "La junta militar …"),
            ("PARÍS, 5 de marzo (EFE) - El presidente …", "El presidente …"),
            ("(EFE).- El presidente sirio …", "El presidente sirio …"),
        ]);
    }

    #[test]
    fn sentences_that_only_look_like_it_stay_whole() {
        // Too few capitals, no dash of its own, lowercase after, too long.
        assert_eq!(after("I - I don't know what happened."), None);
        assert_eq!(after("OK - That is fine by me."), None);
        assert_eq!(after("U.S. - China talks resumed on Monday."), None);
        assert_eq!(after("WASHINGTON-based groups sued on Monday."), None);
        assert_eq!(after("NASA - the agency said nothing."), None);
        assert_eq!(after("The president - who spoke - left."), None);
        assert_eq!(after("ONE TWO THREE FOUR FIVE SIX - Then it ended."), None);
        assert_eq!(after("\"NO - I won't,\" she said."), None);
        assert_eq!(after("PARIS — Oui."), None);
        assert_eq!(after("COVID-19 - What we know so far."), None);
        assert_eq!(after("(see below) - The figures were revised."), None);
        assert_eq!(after("(A long aside in parentheses) - The figures were revised."), None);
        // A place in title case needs an agency; a lowercase word after the
        // comma needs a number before it; a parenthesis goes on after ')'.
        assert_eq!(after("Los Angeles - The city said so."), None);
        assert_eq!(after("The Big Apple - The city said so."), None);
        assert_eq!(after("BOSTON, said he - The city said so."), None);
        assert_eq!(after("Apple (AAPL)'s shares - They fell."), None);
        assert_eq!(after("Mr Smith (left) - The mayor spoke."), None);
        // Nor in a script without capitals: "The minister said - …".
        assert_eq!(after("قال الوزير - إن الحكومة ستدفع"), None);
    }

    #[test]
    fn wire_leads_without_capitals_give_way_to_the_text() {
        gives_way_to_the_text(&[
            ("新华社北京6月17日电（记者 韩佳诺 陈思远）国家统计局17日发布数据显示。", "国家统计局17日发布数据显示。"),
            ("中新网北京6月11日电 北京市气象台11日10时发布高温橙色预警信号。", "北京市气象台11日10时发布高温橙色预警信号。"),
            ("人民网北京6月25日电 （记者 孙雅倩）社会救助法草案25日提请审议。", "社会救助法草案25日提请审议。"),
            ("（中央社記者江品妍台北5日電）勞動部今天召開基本工資審議委員會。", "勞動部今天召開基本工資審議委員會。"),
            ("【明報專訊】一名21歲大學生將名下銀行戶口租予他人。", "一名21歲大學生將名下銀行戶口租予他人。"),
            ("【财新网】（记者 韩思远）4月以来，汽车价格战蔓延。", "4月以来，汽车价格战蔓延。"),
            ("〔記者蔡婷宜／台中報導〕台中捷運藍線今天動工。", "台中捷運藍線今天動工。"),
            ("【ワシントン=共同】米政府は12日、発表した。", "米政府は12日、発表した。"),
            ("(의성=연합뉴스) 김선형 기자 = 경북 의성군에서 산불이 이어지고 있다.", "경북 의성군에서 산불이 이어지고 있다."),
            ("[OSEN=수원, 홍지수 기자] KT 위즈가 3연승을 달렸다.", "KT 위즈가 3연승을 달렸다."),
            ("กรุงเทพฯ 25 มิ.ย. – คณะกรรมการนโยบายการเงินมีมติคงอัตราดอกเบี้ย", "คณะกรรมการนโยบายการเงินมีมติคงอัตราดอกเบี้ย"),
        ]);
        // Brackets that name a section or quote a title, not an agency.
        assert_eq!(after("“新华社”一词出现在报道中。"), None);
        assert_eq!(after("《人民日报》6月17日发表评论员文章。"), None);
        assert!(is_lead_label("【明報專訊】"));
    }

    #[test]
    fn a_live_blogs_time_gives_way_to_its_entry() {
        gives_way_to_the_text(&[
            ("22h38 : Barack Obama annonce une réduction des vols.", "Barack Obama annonce une réduction des vols."),
            ("14h39. Tanks. Sur le site de la ville, des chars.", "Tanks. Sur le site de la ville, des chars."),
            ("21.55 h: \"El pueblo egipcio ha hablado\", asegura Obama.", "\"El pueblo egipcio ha hablado\", asegura Obama."),
            ("12 heures. Le Conseil de sécurité se réunit.", "Le Conseil de sécurité se réunit."),
            ("10:32 a.m. — The governor spoke to reporters.", "The governor spoke to reporters."),
            ("1:25 PM: ചാലക്കുടിപ്പുഴയിൽ ജലനിരപ്പ് ഉയർന്നു.", "ചാലക്കുടിപ്പുഴയിൽ ജലനിരപ്പ് ഉയർന്നു."),
            // Scripts without case open their entry with any letter.
            ("16:52 | כוחות כבאות והצלה חילצו ארבעה בני אדם", "כוחות כבאות והצלה חילצו ארבעה בני אדם"),
            // A bare 24-hour clock before the entry.
            ("17:41 משרד החינוך הודיע כי מחר לא יתקיימו לימודים", "משרד החינוך הודיע כי מחר לא יתקיימו לימודים"),
            ("19:40 На Львівщині енергетики повернули світло.", "На Львівщині енергетики повернули світло."),
            // The word for "at" before the clock, in lowercase too.
            ("ore 13:45 - Il Dipartimento ha inviato due colonne mobili.", "Il Dipartimento ha inviato due colonne mobili."),
            ("Ore 12.15 - Situazione critica anche ad Agliana.", "Situazione critica anche ad Agliana."),
            ("Um 14:30 Uhr: Die Polizei sperrt die Innenstadt.", "Die Polizei sperrt die Innenstadt."),
            ("godz. 8:15 – Prezydent zwołał posiedzenie rządu.", "Prezydent zwołał posiedzenie rządu."),
            ("[11:45] 파업 참여율은 높다.", "파업 참여율은 높다."),
            // A bare clock before an entry in a script without spaces.
            ("21:20 台電統計，截至晚間9時，颱風已造成全台累計4萬3216戶停電。", "台電統計，截至晚間9時，颱風已造成全台累計4萬3216戶停電。"),
        ]);
        for whole in [
            "3. The third point is the budget.",
            "2.50 euros. That is the price.",
            "In 2019: The year began badly.",
            "3:16 For God so loved the world.",
            "12:00 noon came and went.",
            "10:30 Uhr",
            "Alle 10 del mattino, la piazza era già piena.",
            "Um 3 Uhr nachts kam der Anruf.",
            "21:20 台電",
        ] {
            assert_eq!(after(whole), None, "{whole}");
        }
        assert!(is_lead_label("22h38 :") && is_lead_label("21.55 h:") && is_lead_label("ore 13:45 -") && !is_lead_label("3."));
    }

    #[test]
    fn a_thai_live_blogs_clock_gives_way_to_its_entry() {
        gives_way_to_the_text(&[
            ("18.05 น. ศูนย์อำนวยการความปลอดภัยทางถนนสรุปตัวเลข", "ศูนย์อำนวยการความปลอดภัยทางถนนสรุปตัวเลข"),
            ("21:51 น. ทดเจ็บ 5 นาที อินโดนีเซียดันทุกคนขึ้นมาเติมเกมรุก", "ทดเจ็บ 5 นาที อินโดนีเซียดันทุกคนขึ้นมาเติมเกมรุก"),
            ("16.50 น. ปิดถนน : กรมทางหลวงประกาศปิดการจราจร", "กรมทางหลวงประกาศปิดการจราจร"),
            ("18.30 น. ตัวเลขไม่ตรง - นายอนุชา แก้วมณี สส.เชียงใหม่", "นายอนุชา แก้วมณี สส.เชียงใหม่"),
            // A score is the entry's text, not its title.
            ("17.05 น. ฟุตบอลหญิงทีมชาติไทยเสมอกับเวียดนาม 1 - 1 ผ่านเข้ารอบ", "ฟุตบอลหญิงทีมชาติไทยเสมอกับเวียดนาม 1 - 1 ผ่านเข้ารอบ"),
        ]);
        // The clock inside a sentence has its word before it; a year is no
        // clock; a title alone in its sentence stays with the clock.
        for whole in ["เมื่อเวลา 18.05 น. ตำรวจได้รับแจ้งเหตุ", "25.68 น. ไม่ใช่เวลา", "18.05 น.", "20.26 น. ประตู!"] {
            assert_eq!(after(whole), None, "{whole}");
        }
        // The clock cut off is a piece of its own, which the stamp rules read.
        assert!(!is_lead_label("18.05 น. ศูนย์อำนวยการ"));
    }

    #[test]
    fn a_label_alone_is_a_lead_label() {
        assert!(is_lead_label("WASHINGTON (AP) —"));
        assert!(is_lead_label("(CNN) --"));
        assert!(is_lead_label("FOCUS -"));
        assert!(is_lead_label("Madrid, 20 dic (EFE).-"));
        assert!(is_lead_label("NEW YORK, May 18 (UPI) --"));
        assert!(!is_lead_label("FOCUS - La Ligue"));
        assert!(!is_lead_label("WE -"));
        assert!(!is_lead_label("Paris -"));
    }
}
