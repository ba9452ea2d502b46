//! The passes over one document: its paragraphs (captions with their
//! credits, notices, headlines, decks, lists of links, transcripts) and its
//! edges, on the reasons the ladder gave each sentence.

use super::authors::name_with_role;
use super::credits::{agency_after_bar, names_a_picture};
use super::form::{asks_a_question, asks_like_a_headline};
use super::labels::caps_label;
use super::ladder::{one_word_answer, one_word_sentence};
use super::line::{Features, Line};
use super::links::TRAIL_ARROWS;
use super::reason::Reason;

/// Gives `reason` to each of the lines that no rule named yet (a rule that
/// takes a paragraph keeps the names its lines already have).
pub(super) fn name_unnamed(reasons: &mut [Option<Reason>], reason: Reason) {
    for r in reasons {
        r.get_or_insert(reason);
    }
}

/// A paragraph's size in words, as [`Features::words`] counts them in
/// every script.
pub(super) fn words_in(features: &[Features], paragraph: &std::ops::Range<usize>) -> f32 {
    features[paragraph.clone()].iter().map(|f| f.words).sum()
}

/// The sentences of each paragraph: runs of lines up to one that ends a
/// line.
pub(super) fn paragraphs(lines: &[Line]) -> Vec<std::ops::Range<usize>> {
    let mut out = vec![];
    let mut start = 0;
    for (i, line) in lines.iter().enumerate() {
        if line.ends_line || i + 1 == lines.len() {
            out.push(start..i + 1);
            start = i + 1;
        }
    }
    out
}

/// Whether every sentence of `paragraph` is named furniture already.
pub(super) fn all_furniture(reasons: &[Option<Reason>], paragraph: &std::ops::Range<usize>) -> bool {
    reasons[paragraph.clone()].iter().all(Option::is_some)
}

/// A one-word sentence in a paragraph of prose answers or exclaims
/// ("Czy to znaczy, że reforma się udała? Niekoniecznie."), and so does
/// one alone on its line under a question ("Há alternativas?" / "Poucas."):
/// prose, though too short for a summary to pick
/// (`too_short_to_stand_alone`). In a paragraph of furniture it stays
/// furniture.
pub(super) fn one_word_answers(lines: &[Line], features: &[Features], reasons: &mut [Option<Reason>]) {
    let short = |r: &Option<Reason>| matches!(r, Some(Reason::TooShort | Reason::TitleCase));
    // "No." after the question it answers, where a word of two letters
    // alone may be a splitter's fragment ("Cf.", "S.").
    let answers = |reasons: &[Option<Reason>], i: usize| {
        i > 0
            && one_word_sentence(lines[i].text, &features[i], 2)
            && asks_a_question(&features[i - 1])
            // The text goes on: poll options ("Yes." "No.") do not.
            && reasons.get(i + 1).is_some_and(Option::is_none)
            && features[i + 1].words >= 4.0
    };
    for paragraph in paragraphs(lines).into_iter().filter(|p| p.len() >= 2) {
        let words: Vec<usize> = paragraph
            .clone()
            .filter(|&i| short(&reasons[i]) && (one_word_answer(&lines[i], &features[i]) || (i > paragraph.start && i + 1 < paragraph.end && answers(reasons, i))))
            .collect();
        let prose = paragraph.clone().all(|i| reasons[i].is_none() || words.contains(&i))
            && paragraph.clone().any(|i| reasons[i].is_none() && features[i].words >= 4.0);
        if prose {
            for i in words {
                reasons[i] = None;
            }
        }
    }
    // Alone on its line.
    for i in 1..lines.len() {
        if lines[i].own_line && lines[i - 1].ends_line && short(&reasons[i]) && answers(reasons, i) {
            reasons[i] = None;
        }
    }
}

/// A match's score written as a sentence inside a paragraph, with its
/// full stop, is the story's ("… lejos del alcance de Ribó. 1-2."), not a
/// widget's: on a line of its own it stays one. Only one or two digits a
/// side, so that a phone number or a span of years stays a table's.
pub(super) fn scores_in_the_text(lines: &[Line], reasons: &mut [Option<Reason>]) {
    for (line, reason) in lines.iter().zip(reasons.iter_mut()) {
        if *reason == Some(Reason::Symbols) && !line.own_line && is_score(line.text) {
            *reason = None;
        }
    }
}

/// "1-2.", "3–0.": goals a side, a dash between them, a full stop.
fn is_score(text: &str) -> bool {
    let Some(score) = text.trim().strip_suffix('.') else { return false };
    let Some((home, away)) = score.split_once(['-', '–']) else { return false };
    let goals = |side: &str| (1..=2).contains(&side.len()) && side.chars().all(|c| c.is_ascii_digit());
    goals(home) && goals(away)
}

/// Words in a paragraph that can still be a caption with its credit.
const CAPTION_PARAGRAPH_WORDS: f32 = 50.0;

/// A short paragraph takes the role of the furniture that marks it: with a
/// photo credit it is a caption (see [`credited_paragraphs`]), led by a name
/// with a number it is a list entry, and with an embedded post's signature
/// it is the post.
pub(super) fn furniture_paragraphs(lines: &[Line], features: &[Features], reasons: &mut [Option<Reason>]) {
    credited_paragraphs(lines, features, reasons);
    for paragraph in short_paragraphs(lines, features) {
        // "Patrick Callahan, 21, Mansfield, CT. Charged with eight counts …":
        // led by a name with a number (an age, a count); a dateline ("BOSTON,
        // Mass.") has none and leads prose.
        let lead = paragraph.start;
        let listed = paragraph.len() > 1
            && matches!(reasons[lead], Some(Reason::TitleCase | Reason::ListEntry))
            && lines[lead].text.contains(|c: char| c.is_ascii_digit());
        // "RiP to the great one Prodigy. … — Lil Wayne (@LilTunechi) June 20, 2017"
        let posted = reasons[paragraph.clone()].contains(&Some(Reason::EmbeddedPost));
        let reason = if listed {
            Reason::ListEntry
        } else if posted {
            Reason::EmbeddedPost
        } else {
            continue;
        };
        name_unnamed(&mut reasons[paragraph], reason);
    }
}

/// A short paragraph with a photo credit in it is a caption, all of it
/// ("Donald Trump before opening the Nasdaq on September 20, 2005. Michael
/// Nagle/Getty Images"; also a credit in parentheses, or an agency after a
/// bar: "Manifestación en la localidad siria de Banias. | Ap"). In every
/// script: a Thai caption's line, which the splitter cut at its spaces,
/// ends in its credit ("ช่างเทียนใช้เวลาแกะสลักขี้ผึ้งนานกว่า 2 เดือน
/// เพื่อเล่าเรื่อง… (ภาพ : สมชาย ทองแท้)").
pub(super) fn credited_paragraphs(lines: &[Line], features: &[Features], reasons: &mut [Option<Reason>]) {
    // A wire story signs its last paragraph with the agency ("… en
    // Hamburgo (Alemania). EFE"): that credit is the story's, not a caption's.
    let paragraphs = paragraphs(lines);
    let last_text = paragraphs.iter().rev().find(|p| !all_furniture(reasons, p)).map(|p| p.start);
    for paragraph in paragraphs.into_iter().filter(|p| caption_sized(features, p)) {
        let signed_in_capitals = paragraph.len() >= 2
            && Some(paragraph.start) != last_text
            && credit_in_capitals_after(&lines[paragraph.end - 1], &features[paragraph.end - 1]);
        let credited = reasons[paragraph.clone()].iter().any(|r| matches!(r, Some(Reason::PhotoCredit | Reason::Parenthesized | Reason::Caption)))
            || lines[paragraph.clone()].iter().any(|line| agency_after_bar(line.text))
            || signed_in_capitals;
        if credited {
            name_unnamed(&mut reasons[paragraph], Reason::CreditedCaption);
        }
    }
}

/// A caption's credit after its sentences, in capitals and without a
/// stop: an agency or the photographer ("… desde o Verão. LUSA", "…
/// Foto di gruppo. ANSA", "… NUNO FERREIRA SANTOS").
fn credit_in_capitals_after(line: &Line, f: &Features) -> bool {
    const MAX_CREDIT_WORDS: f32 = 4.0;
    // A wire's codes close a story's paragraph the same way.
    const WIRE_CODES: [&str; 5] = ["MORE", "END", "ENDS", "ENDIT", "ADD"];
    let text = line.text.trim();
    let capitals = f.letters >= 3 && f.upper == f.letters && text.chars().all(|c| c.is_alphabetic() || " /.-&".contains(c));
    !f.ends_sentence && f.words <= MAX_CREDIT_WORDS && capitals && !line.own_line && !WIRE_CODES.contains(&text)
}

/// Paragraphs short enough to be a caption with its credit, a list entry
/// or a post: three sentences at most.
fn short_paragraphs(lines: &[Line], features: &[Features]) -> Vec<std::ops::Range<usize>> {
    paragraphs(lines).into_iter().filter(|p| caption_sized(features, p)).collect()
}

fn caption_sized(features: &[Features], paragraph: &std::ops::Range<usize>) -> bool {
    paragraph.len() <= 3 && words_in(features, paragraph) <= CAPTION_PARAGRAPH_WORDS
}

/// A short paragraph right above a line that is only a photo credit is
/// its caption ("Smog nad Nową Hutą, poniedziałek 13 stycznia" over "Fot.
/// Jakub Porzycki / Agencja Wyborcza.pl"; "เจ้าหน้าที่สาธารณสุขพ่นหมอกควัน…" over
/// "ภาพ: สำนักงานสาธารณสุขจังหวัดตาก").
pub(super) fn captions_over_credits(lines: &[Line], features: &[Features], reasons: &mut [Option<Reason>]) {
    const MAX_CAPTION_WORDS: f32 = 40.0;
    let paragraphs = paragraphs(lines);
    // The page's first paragraph of prose is its lead, whatever credit
    // follows it.
    let lead = paragraphs.iter().position(|p| !all_furniture(reasons, p));
    for (k, pair) in paragraphs.windows(2).enumerate() {
        let (caption, credit) = (&pair[0], &pair[1]);
        let credit_alone = credit.len() == 1
            && lines[credit.start].own_line
            && reasons[credit.start] == Some(Reason::PhotoCredit)
            && names_a_picture(lines[credit.start].text);
        let words = words_in(features, caption);
        // A caption that ends like a sentence cannot be told from a lead
        // with its picture's credit under it ("The storm hit the coast on
        // Monday …" over "(Photo: Jane Doe)"); Thai ends none.
        // A quote and its speaker ("\"เราพบว่า…\" พ.ต.อ.ศักดิ์ชัย กล่าว") carry on
        // the story, ended or not; a caption may quote a title ("ผู้กำกับและ
        // นักแสดงจาก “แม่น้ำสีน้ำเงิน” ชูรางวัล…").
        let unended = caption.clone().all(|i| !features[i].ends_sentence) && !caption.clone().any(|i| quotes_a_thai_speaker(lines[i].text));
        // Two short sentences are a caption all the same ("Powalone drzewa na
        // ulicy w Kościanie." "Strażacy usuwali je przez kilka godzin."
        // over "Fot. KP PSP w Kościanie"): a lead runs longer.
        const MAX_TWO_SENTENCE_CAPTION_WORDS: f32 = 16.0;
        let two_short = caption.len() == 2 && words <= MAX_TWO_SENTENCE_CAPTION_WORDS;
        // So is one short sentence ("Pazienti in attesa nel corridoio del
        // pronto soccorso dell'ospedale Cardarelli."): a lead says more.
        // A quote ("… challenge," he said.) or a sentence that opens on a
        // connective ("Specifically, Graham said …", "Pendant ce temps, …")
        // carries on the story around a picture.
        // (Where words are not spaced, a sentence's size says less.)
        let one_short = caption.len() == 1
            && Some(k) != lead
            && !features[caption.start].spaceless
            && words <= MAX_TWO_SENTENCE_CAPTION_WORDS
            && describes(lines[caption.start].text);
        if credit_alone && caption.len() <= 2 && words <= MAX_CAPTION_WORDS && (unended || two_short || one_short) {
            name_unnamed(&mut reasons[caption.clone()], Reason::CreditedCaption);
        }
    }
}

/// A sentence that may be a picture's description: no quote in it, and no
/// connective and comma in its first three words.
fn describes(text: &str) -> bool {
    const OPENING_WORDS: usize = 3;
    let connective = text.split_whitespace().take(OPENING_WORDS).any(|w| w.ends_with(','));
    !is_quoted(text) && !connective
}

fn is_quoted(text: &str) -> bool {
    text.contains(QUOTES)
}

const QUOTES: [char; 6] = ['"', '“', '”', '«', '»', '„'];

/// A quote, then a Thai verb of saying (the splitter's list).
fn quotes_a_thai_speaker(text: &str) -> bool {
    text.rfind(QUOTES).is_some_and(|at| crate::segment::rules::THAI_SAYING.iter().any(|verb| text[at..].contains(verb)))
}

/// Lines of pages written without sentence punctuation (Thai), where
/// ending, size and case say nothing, read by their place instead:
/// - the lines above the byline or date that opens the story are its
///   headline and deck;
/// - a short line right after a live blog's time is the entry's title;
/// - short lines after a "most read" or "see also" label are links, and
///   so are headlines in a widget's slot ([`widget_slot_headlines`]).
pub(super) fn unpunctuated_page(lines: &[Line], features: &[Features], reasons: &mut [Option<Reason>]) {
    const MAX_OPENING_PARAGRAPHS: usize = 3;
    const TITLE_WORDS: f32 = 12.0;
    let paragraphs = paragraphs(lines);
    let is_time = |reasons: &[Option<Reason>], i: usize| {
        matches!(reasons[i], Some(Reason::Stamp | Reason::Symbols | Reason::TimedEntry)) && lines[i].text.contains(|c: char| c.is_ascii_digit())
    };
    // A line, which the splitter may have cut at its spaces into a few
    // pieces ("หนุ่มวัย 29 ดับปริศนา หลังซื้อยากินเอง 3 วัน").
    const MAX_TITLE_PIECES: usize = 3;
    let within = |p: &std::ops::Range<usize>, words: f32| p.len() <= MAX_TITLE_PIECES && words_in(features, p) <= words;
    let short = |p: &std::ops::Range<usize>| within(p, TITLE_WORDS);
    const HEADLINE_WORDS: f32 = 20.0;
    let headline_sized = |p: &std::ops::Range<usize>| within(p, HEADLINE_WORDS);
    // A line of three words or so with no number, alone among paragraphs,
    // is a section's label ("ตลาดจีนยังไม่ฟื้น", "ใครเสี่ยงที่สุด"); a
    // statement that short is no summary line either (`too_short`).
    const LABEL_WORDS: f32 = 3.5;
    let label = |p: &std::ops::Range<usize>| {
        let f = &features[p.start];
        p.len() == 1 && f.digits == 0 && (f.words <= LABEL_WORDS || thai_subhead(lines[p.start].text, f))
    };
    // The opening: everything above the first date or byline, when it comes
    // early. The site's own lines above it (a login link, the breadcrumb)
    // are furniture already and do not count, nor does a label's worth of
    // words (the desk's name over the date: "ทีมข่าวอาชญากรรม").
    let unnamed = |p: &std::ops::Range<usize>| !all_furniture(reasons, p) && !label(p);
    let opening = paragraphs
        .iter()
        .position(|p| is_time(reasons, p.start) || reasons[p.start] == Some(Reason::Credit))
        .filter(|&meta| paragraphs[..meta].iter().filter(|p| unnamed(p)).count() <= MAX_OPENING_PARAGRAPHS);
    if let Some(meta) = opening {
        for p in &paragraphs[..meta] {
            name_unnamed(&mut reasons[p.clone()], Reason::HeadlineBlock);
        }
    }
    for (k, p) in paragraphs.iter().enumerate() {
        let next = paragraphs.get(k + 1);
        // An entry's title between its time and a longer paragraph: on a
        // line of its own, or on the time's line when the layout joined them
        // ("21.40 น. นาทีที่ 84 : ใบแดง!" / "เวียดนามเหลือ 10 คน").
        if is_time(reasons, p.end - 1) {
            if let Some(title) = next.filter(|n| short(n) && reasons[(*n).clone()].iter().all(Option::is_none)) {
                let followed = paragraphs.get(k + 2).is_some_and(|after| !short(after));
                if followed {
                    name_unnamed(&mut reasons[title.clone()], Reason::TimedEntry);
                }
            }
        } else if p.len() >= 2 && is_time(reasons, p.end - 2) && reasons[p.end - 1].is_none() && short(&(p.end - 1..p.end)) {
            if next.is_some_and(|after| !short(after)) {
                reasons[p.end - 1] = Some(Reason::TimedEntry);
            }
        }
        // Links after their label.
        let labelled = p.len() == 1 && matches!(reasons[p.start], Some(Reason::Widget | Reason::RelatedLink)) && features[p.start].words <= 4.0;
        if labelled {
            for link in paragraphs[k + 1..].iter().take_while(|n| short(n)) {
                name_unnamed(&mut reasons[link.clone()], Reason::RelatedLink);
            }
            // Longer headlines too, where nothing of the story follows them:
            // the label's list runs into more furniture or the page's end.
            let run = paragraphs[k + 1..].iter().take_while(|n| headline_sized(n)).count();
            let closed = paragraphs.get(k + 1 + run).is_none_or(|after| all_furniture(reasons, after));
            if run > 0 && closed {
                for link in &paragraphs[k + 1..k + 1 + run] {
                    name_unnamed(&mut reasons[link.clone()], Reason::RelatedLink);
                }
            }
        }
    }
    widget_slot_headlines(lines, features, &paragraphs, reasons);
    for p in &paragraphs {
        if reasons[p.start].is_none() && label(p) {
            reasons[p.start] = Some(Reason::TooShort);
        }
    }
    // Three short lines in a row set apart by furniture: a list of links.
    const MIN_LINKS: usize = 3;
    let mut k = 0;
    while k < paragraphs.len() {
        // Unsplit lines only: a closing thought in two pieces is prose.
        let run = paragraphs[k..].iter().take_while(|p| p.len() == 1 && short(p) && reasons[p.start].is_none()).count();
        // Between furniture on both sides (or the page's edge): Thai sites
        // also print a story one short sentence a line.
        let furniture = |j: usize| paragraphs.get(j).is_none_or(|p| all_furniture(reasons, p));
        let boxed = (k == 0 || furniture(k - 1)) && furniture(k + run);
        if run >= MIN_LINKS && boxed {
            for p in &paragraphs[k..k + run] {
                name_unnamed(&mut reasons[p.clone()], Reason::RelatedLink);
            }
        }
        k += run.max(1);
    }
    whole_line_items(features, &paragraphs, reasons);
}

/// A line of a Thai page that a cue names by one of its pieces is one item
/// of the page: the splitter cut it at its spaces, so the widget, photo
/// credit, link, appeal or quoted post takes the line's other pieces along
/// ("รับข่าวเศรษฐกิจ การเงิน อสังหาฯ ก่อนใคร" before "สมัครรับ Newsletter …
/// กรอกอีเมลของคุณ", "แท็ก: ทีมชาติไทย ช้างศึก" before "ฟุตบอลเอเชียนคัพ 2027").
/// A short line only: a paragraph of the story that names a web site is
/// still the story's. A byline does not count: the layout glues it to the
/// story's first line ("โดย ปิยะนุช เกียรติวงศ์ … รัฐบาลเดินหน้า…").
fn whole_line_items(features: &[Features], paragraphs: &[std::ops::Range<usize>], reasons: &mut [Option<Reason>]) {
    const MAX_ITEM_PIECES: usize = 4;
    let names_an_item = |r: &Reason| {
        matches!(r, Reason::Widget | Reason::PhotoCredit | Reason::Link | Reason::EmbeddedPost | Reason::Appeal | Reason::Copyright | Reason::RelatedLink)
    };
    for p in paragraphs.iter().filter(|p| (2..=MAX_ITEM_PIECES).contains(&p.len())) {
        let cut_at_spaces = features[p.clone()].iter().any(|f| f.spaceless);
        let item = reasons[p.clone()].iter().flatten().copied().find(names_an_item);
        if let (true, Some(reason)) = (cut_at_spaces, item) {
            name_unnamed(&mut reasons[p.clone()], reason);
        }
    }
}

/// A Thai subhead a little longer than a label: a phrase with none of the
/// words a statement needs ("บทเรียนจากภาษีน้ำตาล", "พฤติการณ์ของขบวนการ",
/// "ป้องกันตัวเองอย่างไร"), where a short line of the story says what
/// happened with a negation, an aspect or a copula ("ไม่มีผู้เสียชีวิต",
/// "คนขับรถกระบะปลอดภัยแล้ว", "ตัวเลขนี้น่ากังวล"). Matched inside words
/// too (Thai has no spaces between them), which only keeps more lines.
fn thai_subhead(text: &str, f: &Features) -> bool {
    const SUBHEAD_WORDS: f32 = 5.5;
    const STATEMENT_MARKS: [&str; 15] = ["ไม่", "แล้ว", "ยัง", "มี", "เป็น", "คือ", "ได้", "นี้", "นี่", "จะ", "ว่า", "ก็", "?", "“", "\""];
    let thai = text.chars().filter(|&c| crate::segment::rules::is_thai(c)).count();
    2 * thai > f.letters
        && f.words <= SUBHEAD_WORDS
        && !STATEMENT_MARKS.iter().any(|m| text.contains(m))
}

/// Other stories' headlines after a widget or a "read more" on a Thai page
/// (an advertisement's slot, "ติดตามข่าว … ได้ทาง Facebook"): two or more
/// paragraphs in a row of a headline and its second part, neither long, the
/// second not continuing a sentence ("… / อ้างตกงานไม่มีเงินซื้อข้าว", not
/// "… / เพราะคิดว่า …"). A link that carries its own headline ("อ่านเพิ่มเติม:
/// แฟน…") is followed by the story again.
fn widget_slot_headlines(lines: &[Line], features: &[Features], paragraphs: &[std::ops::Range<usize>], reasons: &mut [Option<Reason>]) {
    for (k, p) in paragraphs.iter().enumerate() {
        let widget = reasons[p.clone()].iter().all(|r| *r == Some(Reason::Widget));
        let read_more = lines[p.end - 1].text.trim_end().trim_end_matches(['.', '…']).ends_with("อ่านเพิ่มเติม");
        if !(widget || read_more) {
            continue;
        }
        let headline = |n: &std::ops::Range<usize>| {
            n.len() <= 2
                && reasons[n.clone()].iter().all(Option::is_none)
                && fits_a_headline(&features[n.clone()])
                // No later clause opens with a connective, whether the splitter cut there or not.
                && n.clone().all(|i| !lines[i].text.split_whitespace().skip(usize::from(i == n.start)).any(continues_a_thai_sentence))
        };
        let run = paragraphs[k + 1..].iter().take_while(|n| headline(n)).count();
        if run >= 2 {
            for link in &paragraphs[k + 1..k + 1 + run] {
                name_unnamed(&mut reasons[link.clone()], Reason::RelatedLink);
            }
        }
    }
}

/// A headline's size, at most 12 words a piece; a Thai headline and its
/// second part, which the splitter keeps together when the second opens
/// with a verb ("จับโจรงัดตู้บริจาคศาลเจ้าดังย่านเยาวราช อ้างตกงาน…"), at
/// most 24 together.
fn fits_a_headline(pieces: &[Features]) -> bool {
    const HEADLINE_WORDS: f32 = 12.0;
    if pieces.iter().all(|f| f.spaceless) {
        pieces.iter().map(|f| f.words).sum::<f32>() <= 2.0 * HEADLINE_WORDS
    } else {
        pieces.iter().all(|f| f.words <= HEADLINE_WORDS)
    }
}

/// Words that open a clause continuing the sentence before it in Thai
/// ("และ" and, "เพราะ" because, "ซึ่ง" which, "โดย" by, …): a piece that
/// opens with one is the rest of a sentence, not a headline. Wider than
/// the splitter's `THAI_CLAUSE_OPENERS`, which must not join two sentences
/// ("ส่วน" as for, "เมื่อ" when, "จาก" from may open one).
fn continues_a_thai_sentence(text: &str) -> bool {
    const CONNECTIVES: &[&str] = &[
        "และ", "แต่", "โดย", "ซึ่ง", "เพราะ", "ทำให้", "จึง", "หรือ", "ขณะที่", "ส่วน", "ด้วย", "จน", "หาก", "เมื่อ", "ก่อน", "หลังจาก",
        "ตั้งแต่", "เพื่อ", "ที่", "ก็", "แม้", "รวมถึง", "รองลงมา", "จาก", "ถึง", "ไม่ว่า", "เนื่องจาก", "กล่าวว่า", "ระบุว่า",
    ];
    let text = text.trim_start();
    CONNECTIVES.iter().any(|c| text.starts_with(c))
}

/// A consent banner or a subscription box is a paragraph of a few
/// sentences, only one of which names cookies or a subscription: "Valoramos
/// tu privacidad. Nosotros y nuestros socios almacenamos …", "Notre
/// rédaction est indépendante … Pour continuer à vous informer, abonnez-vous
/// …". The rest of such a paragraph goes with it.
pub(super) fn site_notices(lines: &[Line], reasons: &mut [Option<Reason>]) {
    const MAX_NOTICE_SENTENCES: usize = 5;
    for paragraph in paragraphs(lines) {
        // A link's label opens its paragraph; the headline after it may be
        // cut in two ("อ่านเพิ่มเติม: เปิดแผนรัฐ ตั้งแล็บตรวจทุเรียน 20 แห่ง …").
        let notice = reasons[paragraph.clone()]
            .iter()
            .find(|r| matches!(r, Some(Reason::BrowserNotice | Reason::Appeal)))
            .copied()
            .flatten()
            .or(reasons[paragraph.start].filter(|r| {
                *r == Reason::RelatedLink || (*r == Reason::Widget && announces_articles(&lines[paragraph.start].text.to_lowercase()))
            }));
        if let (Some(reason), true) = (notice, paragraph.len() <= MAX_NOTICE_SENTENCES) {
            for r in &mut reasons[paragraph] {
                r.get_or_insert(reason);
            }
        }
    }
}

/// Longest sentence before a headline's kicker ("Smog dusi Kraków.").
const HEADLINE_SENTENCE_WORDS: f32 = 15.0;

/// Words in a line that can still be a headline with its kicker or a
/// related article's headline with its second sentence.
const HEADLINE_LINE_WORDS: f32 = 40.0;

/// "Smog dusi Kraków. Normy pyłu przekroczone pięciokrotnie, kierowcy
/// pojadą komunikacją za darmo", "Matura 2025. CKE podała terminy
/// egzaminów": a short line of two or three sentences whose last one has
/// no end is a headline or a link, all of it, on a page that ends its
/// sentences (a paragraph of prose ends like one).
pub(super) fn headline_lines(lines: &[Line], features: &[Features], reasons: &mut [Option<Reason>]) {
    for paragraph in paragraphs(lines) {
        let last = paragraph.end - 1;
        let words = words_in(features, &paragraph);
        let unended = reasons[last] == Some(Reason::NoEnding) || (reasons[last].is_none() && !features[last].ends_sentence);
        // A headline's sentences are short; a lead followed by a wire code
        // ("… said Saturday. Mitch _ once, 2nd graf pvs") is not one.
        let short = features[paragraph.start..last].iter().all(|f| f.words <= HEADLINE_SENTENCE_WORDS);
        if (2..=3).contains(&paragraph.len()) && words <= HEADLINE_LINE_WORDS && unended && short {
            name_unnamed(&mut reasons[paragraph], Reason::HeadlineBlock);
        }
    }
}

/// A deck: up to two short paragraphs between the page's opening furniture
/// (its headline) and the byline or date that opens the story
/// ("Rund 14 Milliarden Euro will das Finanzministerium einsparen." between
/// the headline and "Von Jana Richter · 14.05.2025"). A lead follows the
/// byline; a paragraph above it is the deck.
pub(super) fn decks(lines: &[Line], reasons: &mut [Option<Reason>]) {
    const MAX_DECK_PARAGRAPHS: usize = 2;
    const MAX_DECK_SENTENCES: usize = 3;
    let paragraphs = paragraphs(lines);
    let furniture = |p: &std::ops::Range<usize>| all_furniture(reasons, p);
    let Some(first_prose) = paragraphs.iter().position(|p| !furniture(p)) else { return };
    // After the byline or the date comes the lead, not a deck; and a deck
    // stands under a headline.
    let headline = |r: Option<Reason>| {
        matches!(r, Some(Reason::NoEnding | Reason::TitleCase | Reason::AllCaps | Reason::Headline | Reason::HeadlineBlock | Reason::LabelPrefix))
    };
    // A section label or breadcrumb above the headline ("Haven", "Accueil
    // Vox Société") is no byline.
    // A kicker may open the headline's line ("LIBYE. Donné pour mort, …").
    let Some(headline_at) = paragraphs[..first_prose].iter().position(|p| headline(reasons[p.start]) || headline(reasons[p.end - 1])) else { return };
    let opening = Opening { lines, reasons, paragraphs: &paragraphs, headline_at, first_prose };
    // A date or byline between the headline and the first paragraph makes
    // that paragraph the lead, unless a byline or date follows it right
    // away ("Stand: 17.02.2026 18:04 Uhr", the deck, "Von Lena Hartmann,
    // SWR"): not a photo's credit, nor a note on the author further down.
    let meta_above = opening.byline_or_date_above();
    let byline_or_date = |r: Option<Reason>| matches!(r, Some(Reason::Stamp | Reason::Symbols | Reason::TitleCase));
    let deck_end = (first_prose..paragraphs.len().min(first_prose + MAX_DECK_PARAGRAPHS + 1))
        .find(|&k| furniture(&paragraphs[k]) || name_with_role(&lines[paragraphs[k].start]))
        .filter(|&k| opening.closes_a_deck(k));
    let Some(deck_end) = deck_end else { return };
    if opening.between_clocks(deck_end) {
        return;
    }
    if meta_above && (deck_end != first_prose + 1 || !byline_or_date(reasons[paragraphs[deck_end].start])) {
        return;
    }
    let deck = &paragraphs[first_prose..deck_end];
    // A paragraph that ends in ':' announces the list below it ("… here are
    // some things you shouldn't leave in your car:"); a deck does not.
    let announces = |p: &std::ops::Range<usize>| matches!(reasons[p.end - 1], Some(Reason::Dangling | Reason::Colon));
    if deck.iter().all(|p| p.len() <= MAX_DECK_SENTENCES && !furniture(p) && !announces(p)) {
        for p in deck {
            name_unnamed(&mut reasons[p.clone()], Reason::HeadlineBlock);
        }
    }
}

/// A page's opening as [`decks`] reads it: its paragraphs, the first
/// heading and the first paragraph of prose.
struct Opening<'a, 'l> {
    lines: &'a [Line<'l>],
    reasons: &'a [Option<Reason>],
    paragraphs: &'a [std::ops::Range<usize>],
    headline_at: usize,
    first_prose: usize,
}

impl Opening<'_, '_> {
    fn reason(&self, k: usize) -> Option<Reason> {
        self.reasons[self.paragraphs[k].start]
    }

    fn text(&self, k: usize) -> &str {
        self.lines[self.paragraphs[k].start].text
    }

    /// A byline's or a date's reason; a byline is often a bare name
    /// ("Katarzyna Nowak, Onet", "Marta Gil").
    fn is_meta(r: Option<Reason>) -> bool {
        matches!(r, Some(Reason::Stamp | Reason::Credit | Reason::Symbols | Reason::Dateline | Reason::LeadLabel | Reason::PhotoCredit | Reason::TitleCase | Reason::TooShort))
    }

    /// A byline or a date between the first heading and the first prose.
    /// The first heading may be the site's menu ("Main-Post Startseite
    /// Region Würzburg …"); under it, the trail to the section ("Bogotá >
    /// Movilidad") and a kicker right above the headline ("Urteil am
    /// Landgericht") are no byline, which names a desk or a place with a
    /// comma ("Digital Desk, Bhubaneswar") or stands below the headline.
    fn byline_or_date_above(&self) -> bool {
        let proper = |r: Option<Reason>| matches!(r, Some(Reason::NoEnding | Reason::Headline | Reason::HeadlineBlock | Reason::LabelPrefix));
        let headline = (self.headline_at..self.first_prose).find(|&k| proper(self.reason(k))).unwrap_or(self.first_prose);
        let trail = |k: usize| self.paragraphs[k].len() == 1 && TRAIL_ARROWS.iter().any(|a| self.text(k).contains(a));
        let kicker = |k: usize| {
            matches!(self.reason(k), Some(Reason::TooShort | Reason::TitleCase))
                && !self.text(k).contains([',', '，', '،'])
                && !self.text(k).chars().any(char::is_numeric)
                && k + 1 == headline
        };
        (self.headline_at + 1..self.first_prose).any(|k| Self::is_meta(self.reason(k)) && !trail(k) && !kicker(k))
    }

    /// The furniture paragraph `k` after the first prose ends a deck: a
    /// byline or a date, or a desk's name in capitals right above the date
    /// ("REDACCIÓN BOGOTÁ", then "14 de julio 2026, 08:45 p. m.").
    fn closes_a_deck(&self, k: usize) -> bool {
        let desk_above_date = self.reason(k) == Some(Reason::AllCaps) && self.paragraphs.get(k + 1).is_some_and(|p| self.reasons[p.start] == Some(Reason::Stamp));
        Self::is_meta(self.reason(k)) || name_with_role(&self.lines[self.paragraphs[k].start]) || desk_above_date
    }

    /// The first prose stands between two clocks alone on their lines, the
    /// second at `end`: an entry of a timed transcript or a live page
    /// ("00:00", the text, "00:27"), not a deck (which a dated stamp may
    /// head: "Stand: 04.12.2025 21:47 Uhr").
    fn between_clocks(&self, end: usize) -> bool {
        const CLOCK_WORDS: usize = 2;
        let clock = |k: usize| {
            self.paragraphs[k].len() == 1
                && matches!(self.reason(k), Some(Reason::Stamp | Reason::Symbols))
                && self.text(k).split_whitespace().count() <= CLOCK_WORDS
        };
        self.first_prose > 0 && clock(self.first_prose - 1) && clock(end)
    }
}

/// Words of the labels that announce other articles, lowercase.
const RELATED_WORDS: &[&str] = &[
    "read", "more", "also", "related", "see ", "popular", "lire", "voir", "lus", "lea ", "lee ", "leer", "más", "leídas",
    "mehr", "lesen", "gelesen", "leggi", "letti", "leia", "lidas", "lees", "gelezen", "czytaj", "zobacz", "popularne",
    "читайте", "смотрите", "популяр", "ilgili", "okuyun", "okunan", "اقرأ", "الأكثر", "相关", "相關", "延伸", "热门", "熱門",
    "関連", "人気", "관련", "많이 본", "อ่าน", "ข่าวยอดนิยม", "ข่าวที่เกี่ยวข้อง", "ข่าวล่าสุด", "ข่าวแนะนำ", "ข่าวอื่น", "ที่น่าสนใจ", "บทความที่เกี่ยวข้อง", "บทความอื่น",
    "เรื่องที่เกี่ยวข้อง", "อาจสนใจ",
];

/// A label of other articles ("Most read", "Lees ook", "ข่าวล่าสุด").
fn announces_articles(folded: &str) -> bool {
    RELATED_WORDS.iter().any(|w| folded.contains(w))
}

/// Longest headline taken for a link in a list after a "see also" label.
const LINK_WORDS: f32 = 25.0;

/// A label such as "Zobacz także", "Most read", "Lees ook" on its own line,
/// then short lines: the list of other articles it announces, up to the
/// first line too long for a headline.
pub(super) fn link_blocks(lines: &[Line], features: &[Features], reasons: &mut [Option<Reason>]) {
    let paragraphs = paragraphs(lines);
    for (k, label) in paragraphs.iter().enumerate() {
        // A heading, or a widget that announces other articles ("Lees ook",
        // "Most read"), not one that shares this one ("Tweet with a location").
        let announces = |f: &Features| announces_articles(&f.folded);
        let labelled = label.len() == 1
            && match reasons[label.start] {
                Some(Reason::RelatedLink | Reason::NoEnding | Reason::TitleCase | Reason::AllCaps) => true,
                Some(Reason::Widget) => announces(&features[label.start]),
                _ => false,
            }
            && features[label.start].words <= 4.0;
        if !labelled {
            continue;
        }
        // Short lines; one that reads as prose only between two headlines
        // (a photo's credit or a share button around it is no list).
        let short = |p: &std::ops::Range<usize>| p.len() <= 2 && words_in(features, p) <= LINK_WORDS;
        let marked = |p: &std::ops::Range<usize>| reasons[p.end - 1].is_some();
        let headline = |p: &std::ops::Range<usize>| {
            matches!(
                reasons[p.end - 1],
                Some(Reason::NoEnding | Reason::HeadlineBlock | Reason::RelatedLink | Reason::TitleCase | Reason::Headline | Reason::Boilerplate | Reason::ListEntry)
            )
        };
        let after = &paragraphs[k + 1..];
        let run = after
            .iter()
            .enumerate()
            .take_while(|&(j, p)| {
                let between = (j == 0 || headline(&after[j - 1])) && after.get(j + 1).is_some_and(|next| short(next) && headline(next));
                short(p) && (marked(p) || between)
            })
            .count();
        let links: Vec<&std::ops::Range<usize>> = after[..run].iter().collect();
        // A list holds two links at least, mostly headlines already.
        let headlines = links.iter().filter(|p| reasons[p.end - 1].is_some()).count();
        if links.len() >= 2 && 2 * headlines >= links.len() {
            for p in links {
                name_unnamed(&mut reasons[p.clone()], Reason::RelatedLink);
            }
        }
    }
}

/// Short lines of their own that end in '?' or '!', with a heading or a
/// scrap of a list on each side of the run, are more headlines in a list
/// of other stories ("Est-il vraiment possible de recycler les mégots ?"
/// between "Notre-Dame, Saint-Denis..." and "La crise économique due à
/// l'épidémie est unique, voici pourquoi"). Prose has few such questions
/// or exclamations alone on a line between headings.
pub(super) fn headline_lists(lines: &[Line], features: &[Features], reasons: &mut [Option<Reason>]) {
    // Alone on its line: the end of a quote ("Keep it positive.”") bounds no list.
    let listed = |i: usize| {
        lines[i].own_line
            && matches!(
                reasons[i],
                Some(
                    Reason::NoEnding
                        | Reason::TitleCase
                        | Reason::TooShort
                        | Reason::CutOff
                        | Reason::Headline
                        | Reason::Boilerplate
                        | Reason::RelatedLink
                        | Reason::HeadlineBlock
                )
            )
    };
    let candidate = |i: usize| {
        reasons[i].is_none()
            && lines[i].own_line
            && asks_like_a_headline(&features[i])
    };
    let mut runs = vec![];
    let mut i = 1;
    while i + 1 < lines.len() {
        let end = (i..lines.len()).find(|&j| !candidate(j)).unwrap_or(lines.len());
        if end > i && end < lines.len() && listed(i - 1) && listed(end) {
            runs.push(i..end);
        }
        i = end.max(i + 1);
    }
    for run in runs {
        for r in &mut reasons[run] {
            *r = Some(Reason::ListEntry);
        }
    }
}

/// Words of the longest question taken for a section's subhead.
const SUBHEAD_WORDS: f32 = 12.0;

/// Subheads, on a page whose sections each open with one, that the page
/// needs before it reads as an explainer.
const MIN_QUESTION_SUBHEADS: usize = 3;

/// An explainer's sections headed by questions ("Wer hat Anspruch?",
/// "¿Quién puede pedirlo?", "拥堵费怎么收？"): three short questions or
/// more alone on their lines, each with the text that answers it below.
/// A question asked in the text runs on in its paragraph, or stands once
/// or twice on a page. On an interview's page the questions are the
/// interviewer's, and its short turns are spared ([`short_turns`]).
pub(super) fn question_subheads(lines: &[Line], features: &[Features], reasons: &mut [Option<Reason>]) {
    if interview(lines, features) {
        short_turns(lines, features, reasons);
        return;
    }
    let asks = |i: usize| {
        matches!(reasons[i], None | Some(Reason::TooShort))
            && lines[i].own_line
            && features[i].words <= SUBHEAD_WORDS
            && asks_a_question(&features[i])
    };
    let answered = |i: usize| i + 1 < lines.len() && reasons[i + 1].is_none() && !asks(i + 1);
    let subheads: Vec<usize> = (0..lines.len()).filter(|&i| asks(i) && answered(i)).collect();
    if subheads.len() >= MIN_QUESTION_SUBHEADS {
        for i in subheads {
            reasons[i] = Some(Reason::QuestionSubhead);
        }
    }
}

/// A page that prints an interview: labelled so, or with the
/// interviewer's turns of a remark and a question.
fn interview(lines: &[Line], features: &[Features]) -> bool {
    interview_page(lines) || interviewer_turns(lines, features)
}

/// A short question or answer alone on its line, on an interview's page,
/// is a turn of the talk ("— А что тогда?", "— Нет."), not a fragment.
fn short_turns(lines: &[Line], features: &[Features], reasons: &mut [Option<Reason>]) {
    for i in 0..lines.len() {
        let f = &features[i];
        let answers = i > 0 && asks_a_question(&features[i - 1]);
        if reasons[i] == Some(Reason::TooShort) && lines[i].own_line && f.ends_sentence && (asks_a_question(f) || answers) {
            reasons[i] = None;
        }
    }
}

/// Paragraphs of a remark and a question that make an interview.
const MIN_INTERVIEWER_TURNS: usize = 3;

/// The interviewer asks in a fifth of an interview's paragraphs or more
/// (a quarter or so in the interviews of the crisis news and the fixture).
/// Readers' comments end a paragraph on a question too, but in about a
/// tenth of them.
const MIN_ASKING_SHARE: f32 = 0.2;

/// A page printed as an interview without its label: the interviewer's
/// turns, paragraphs of a remark and a question ("— Покупатели жалуются,
/// что из аптек снова пропадают препараты. Это дефицит?"), and many
/// paragraphs that end on a question. An explainer's subheads stand alone,
/// and its text seldom ends a paragraph on a question.
fn interviewer_turns(lines: &[Line], features: &[Features]) -> bool {
    let paragraphs = paragraphs(lines);
    let asks = |p: &std::ops::Range<usize>| asks_a_question(&features[p.end - 1]);
    let turns = paragraphs.iter().filter(|p| p.len() >= 2 && asks(p) && !asks_a_question(&features[p.start])).count();
    let asking = paragraphs.iter().filter(|p| asks(p)).count();
    turns >= MIN_INTERVIEWER_TURNS && asking as f32 >= MIN_ASKING_SHARE * paragraphs.len() as f32
}

/// "INTERVIEW", "Entretien", "ENTREVISTA", "인터뷰": the label, alone on its
/// line, of a page that prints an interview, where a question alone on its
/// line is the interviewer's, asked in the text ("Hebt u met hen gepraat?"),
/// not a section's subhead.
fn interview_page(lines: &[Line]) -> bool {
    const LABELS: [&str; 20] = [
        "interview", "vraaggesprek", "entretien", "entrevista", "intervista", "интервью", "wywiad", "röportaj", "söyleşi", "インタビュー", "인터뷰", "专访", "專訪",
        "访谈", "訪談", "สัมภาษณ์", "สัมภาษณ์พิเศษ", "حوار", "مقابلة", "حوار خاص",
    ];
    const MAX_LABEL_CHARS: usize = 20;
    lines.iter().any(|line| {
        let label = line.text.trim_matches(|c: char| !c.is_alphanumeric() && c != ' ').trim();
        line.own_line && label.chars().count() <= MAX_LABEL_CHARS && LABELS.contains(&label.to_lowercase().as_str())
    })
}

/// A page that opens with a short question or exclamation alone on its
/// line opens with its headline ("¿Por qué en Libia sí y en Siria no?",
/// "Are Nevada officials actually trying to preserve the state's marijuana
/// black market?"): a lead is a statement, or runs on in its paragraph.
pub(super) fn asking_headline(lines: &[Line], features: &[Features], reasons: &mut [Option<Reason>]) {
    let opens_page = lines.len() >= MIN_PAGE_FOR_HEADLINE && lines[0].own_line && reasons[0].is_none();
    if opens_page && asks_like_a_headline(&features[0]) {
        reasons[0] = Some(Reason::Headline);
    }
}

/// Sentences on a page whose first line can be taken for its headline: a
/// note or a letter of a few lines may well open with a question.
const MIN_PAGE_FOR_HEADLINE: usize = 5;

/// Speakers' labels in a transcript ("PRESIDENT OBAMA: Well, I don't think
/// …"): an all-caps label of one to three words and a colon, at the start
/// of three or more paragraphs of the page. (One such line, "NEW DELHI:
/// The government…", is a dateline on a lead and stays prose.)
pub(super) fn speaker_labels(lines: &[Line], reasons: &mut [Option<Reason>]) {
    let labelled: Vec<usize> = paragraphs(lines).into_iter().map(|p| p.start).filter(|&i| caps_label(lines[i].text).is_some()).collect();
    if labelled.len() >= 3 {
        for i in labelled {
            reasons[i].get_or_insert(Reason::SpeakerLabel);
        }
    }
}

/// A short page (4 to 50 sentences) with at least twice as many furniture
/// sentences as others, two of them known site boilerplate or four of them
/// links, is a video page, an error page or an archive's notes ("Rating is available when the
/// video has been rented.", "Sorry, the page you requested was not
/// found."): its remaining sentences are the page's own blurbs ("If you are
/// looking for an older news story…"), not an article. (A short article
/// among many share buttons has no such boilerplate and keeps its prose.)
pub(super) fn furniture_page(reasons: &mut [Option<Reason>]) {
    // A note on the story ("This post is part of our coverage …") says the
    // page is a story, so it does not count towards furniture.
    // So does a live blog's time label, and a quoted post: a page that
    // quotes posts is a story about them.
    let furniture = reasons.iter().filter(|r| r.is_some_and(|r| !matches!(r, Reason::EditorNote | Reason::TimedEntry | Reason::EmbeddedPost))).count();
    let others = reasons.len() - furniture;
    let boilerplate = reasons.iter().filter(|r| **r == Some(Reason::Boilerplate)).count();
    let links = reasons.iter().filter(|r| **r == Some(Reason::Link)).count();
    if (4..=50).contains(&reasons.len()) && furniture >= 2 * others && (boilerplate >= 2 || links >= 4) {
        for reason in reasons.iter_mut().filter(|r| r.is_none()) {
            *reason = Some(Reason::FurniturePage);
        }
    }
}

/// Short lines (5 words or fewer, own line) in a run of furniture that
/// reaches the page's edge, with furniture between them and the edge and
/// at least two furniture lines in the run: "Thank you.", "Send." among
/// the share buttons. At the foot, furniture must lie on their inner side
/// too: a short line between the story and the footer is the story's last
/// word ("距离今年高考还有10天。", "Konsultacje potrwają 21 dni."), where one
/// between the header and the story is its title ("«Металлург» — обладатель
/// Кубка Гагарина!").
pub(super) fn edge_runs(lines: &[Line], features: &[Features], reasons: &mut [Option<Reason>]) {
    let n = lines.len();
    let weak = |i: usize| lines[i].own_line && features[i].words <= 5.0;
    for (order, at_foot) in [((0..n).collect::<Vec<_>>(), false), ((0..n).rev().collect(), true)] {
        let mut furniture = 0;
        // Short lines met since the last furniture line, and those with
        // furniture on their inner side too.
        let (mut pending, mut enclosed) = (vec![], vec![]);
        for i in order {
            if reasons[i].is_some() {
                furniture += 1;
                enclosed.append(&mut pending);
            } else if weak(i) {
                // Only lines with furniture between them and the edge.
                if furniture > 0 {
                    pending.push(i);
                }
            } else {
                break;
            }
        }
        if !at_foot {
            enclosed.append(&mut pending);
        }
        if furniture >= 2 {
            for i in enclosed {
                reasons[i] = Some(Reason::EdgeRun);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::segment::furniture::Reason;
    use crate::segment::furniture::tests::{page, paragraphs_of, PROSE};

    #[test]
    fn a_deck_under_the_menu_the_trail_and_the_kicker() {
        let deck = "Sechs Jahre lang zweigte ein Karnevalist Geld aus der Vereinskasse ab – am Ende fehlten mehr als 238.000 Euro.";
        let lead = "Der 61-Jährige trägt einen grauen Anzug, das Hemd bis oben zugeknöpft, und schweigt.";
        let r = page(&[
            "Köln | Region | Sport | Kultur | Wirtschaft | Politik | Panorama | Rat & Service",
            "Startseite › Köln › Longerich",
            "Urteil am Landgericht",
            "Ehemaliger Schatzmeister muss ins Gefängnis",
            deck,
            "Von Sabine Hollerbach",
            "17.03.2026, 18:42 Uhr",
            lead,
            "Die Anklage warf ihm Untreue in 143 Fällen vor, das Gericht folgte ihr in fast allen Punkten.",
        ]);
        assert_eq!(r[4], Some(Reason::HeadlineBlock), "{r:?}");
        assert_eq!(r[7..], [None, None], "{r:?}");
        // A desk's name in capitals above the date closes the deck too.
        let r = page(&[
            "Así fue el primer recorrido del tren del metro sobre el viaducto",
            "El tren avanzó 5,2 kilómetros entre el patio taller y la avenida Primero de Mayo.",
            "REDACCIÓN BOGOTÁ",
            "14 de julio 2026, 08:45 p. m.",
            "A las 10:14 de la mañana de este martes, el primer tren salió del patio taller y avanzó despacio sobre el viaducto.",
            "No llevaba pasajeros, solo técnicos e ingenieros de la empresa que lo fabricó en China.",
        ]);
        assert_eq!(r[1], Some(Reason::HeadlineBlock), "{r:?}");
        assert_eq!(r[4..], [None, None], "{r:?}");
    }

    #[test]
    fn a_byline_below_the_headline_and_a_transcripts_clocks_keep_the_lead() {
        // A short line under the headline is a byline: the paragraph after it is the lead.
        let lead = "El presidente ordenó este jueves atacar una base aérea en respuesta al supuesto uso de armas químicas.";
        let r = page(&[
            "Estados Unidos ataca una base aérea con 59 misiles en respuesta al ataque químico",
            "Copiar el vínculo",
            "Estos son vínculos a páginas externas y abrirán en una nueva ventana",
            lead,
            "Foto: Getty Images",
            "Según el Pentágono, dos destructores lanzaron desde el mar Mediterráneo 59 misiles contra el objetivo.",
        ]);
        assert_eq!(r[3], None, "{r:?}");
        // A video's text between its clocks is an entry, not a deck.
        let r = page(&[
            "В Якутии досрочно закрыли ледовую переправу через Лену",
            "13 марта 2026, 15:24",
            "00:00",
            "В Якутии почти на три недели раньше обычного закрыли ледовую переправу. Лёд начал трескаться после тёплых дней.",
            "00:27",
            "Ещё в понедельник по этой дороге шли фуры, а теперь на лёд не пускают даже пешеходов.",
        ]);
        assert_eq!(r[3], None, "{r:?}");
    }

    #[test]
    fn short_pages_that_are_mostly_furniture() {
        // A video page: its blurb is not an article.
        let video = page(&[
            "Rating is available when the video has been rented.",
            "This feature is not available right now.",
            "Please try again later.",
            "Jimmy gets a surprise visit from a dragon queen, and they talk about her crazy life.",
            "Published on Sep 2, 2008",
            "Learn more",
        ]);
        // (Above the page's date it is also its deck.)
        assert!(matches!(video[3], Some(Reason::FurniturePage | Reason::HeadlineBlock)), "{video:?}");
        let undated = page(&[
            "Rating is available when the video has been rented.",
            "This feature is not available right now.",
            "Please try again later.",
            "Jimmy gets a surprise visit from a dragon queen, and they talk about her crazy life.",
            "Learn more",
        ]);
        assert_eq!(undated[3], Some(Reason::FurniturePage));
        // An article with a few widgets keeps its sentences.
        let article = page(&[
            "Share this story",
            "The council voted on Tuesday to close the old bridge to heavy trucks.",
            "Engineers found cracks in two of its supports last month.",
            "Learn more",
        ]);
        assert_eq!(article[1..3], [None, None]);
        // A story that quotes posts is a story about them: its posts do not
        // make it a page of furniture.
        let quoting = page(&[
            "This feature is not available right now.",
            "Please try again later.",
            "The campaign now tries to keep the news from Hama trending on social networks.",
            "Même les gamins en #Syria n'ont pas peur des tanks de #Bashar.",
            "Vu de #Damas en #Syrie où je vis depuis 6 ans, la mort de Bashar Al Assad ressemble à une rumeur.",
            "Ni los niños en #Siria tienen temor de los tanques de #Bashar.",
            "Depuis le mois de mars, plus de 2000 personnes ont été tuées par #Assad en #Syrie.",
            "The journalist replied that a tweet alone could not stop a massacre.",
        ]);
        assert_eq!([quoting[2], quoting[7]], [None, None], "{quoting:?}");
    }

    #[test]
    fn one_short_sentence_over_a_photo_credit_is_its_caption() {
        let r = paragraphs_of(&[
            &[PROSE[0]],
            &["Ein leerer Busbahnhof in Stuttgart während eines Warnstreiks im vergangenen Jahr."],
            &["Foto: dpa"],
            &[PROSE[1]],
            &["\"It's without a doubt going to be the governor's most difficult challenge,\" he said."],
            &["Photo: Jane Doe"],
            &["Pendant ce temps, et malgré la promesse d'un changement, les manifestations continuent."],
            &["Photo : AFP"],
            &[PROSE[2]],
        ]);
        assert_eq!(r[1], Some(Reason::CreditedCaption), "{r:?}");
        // A quote, or a sentence that goes on from a connective, carries on the story.
        assert_eq!(r[4], None, "{r:?}");
        assert_eq!(r[6], None, "{r:?}");
    }

    /// Thai ends no sentence, so a short paragraph over a picture's credit
    /// is its caption; unless it quotes a speaker ("…" พ.ต.อ.ศักดิ์ชัย
    /// กล่าว), which carries on the story. A caption may quote a film's
    /// title and stay one.
    #[test]
    fn a_thai_quote_over_a_credit_is_the_story_a_quoted_title_a_caption() {
        let quote = ["\"เราพบว่าเครือข่ายนี้เปลี่ยนบัญชีรับเงินแทบทุกสัปดาห์ เพื่อไม่ให้ธนาคารระงับบัญชีได้ทัน", "บางบัญชีใช้รับเงินแค่ 2-3 วันแล้วทิ้งเลย\" พ.ต.อ.ศักดิ์ชัย กล่าว"];
        let titled = "ผู้กำกับและนักแสดงจาก “แม่น้ำสีน้ำเงิน” ชูรางวัลภาพยนตร์ยอดเยี่ยมบนเวที";
        let prose = [
            "ตำรวจได้แจ้งข้อกล่าวหาผู้ต้องหาทั้งหมดในความผิดฐานร่วมกันฉ้อโกงประชาชนและร่วมกันฟอกเงิน",
            "ผู้ต้องหา 4 รายในกลุ่มนี้ทำหน้าที่จัดหาบัญชีม้า โดยจ้างนักศึกษาให้เปิดบัญชีในราคาบัญชีละ 3,000 บาท",
            "ภาพยนตร์เรื่องนี้คว้ารางวัลไปทั้งหมด 9 สาขาจากการเข้าชิง 11 สาขาในปีนี้",
        ];
        let r = paragraphs_of(&[&[prose[0]], &quote, &["ภาพ : กองบังคับการปราบปราม"], &[prose[1]], &[titled], &["ภาพ : สมชาย ทองแท้"], &[prose[2]]]);
        assert_eq!(r[1..3], [None, None], "{r:?}");
        assert_eq!(r[5], Some(Reason::CreditedCaption), "{r:?}");
    }

    #[test]
    fn captions_next_to_their_credit_and_list_entries() {
        let r = paragraphs_of(&[
            &["Donald Trump before opening the Nasdaq on September 20, 2005.", "Michael Nagle/Getty Images"],
            &[PROSE[0]],
            &["Patrick Callahan, 21, Mansfield, CT.", "Charged with eight counts of permitting a minor to possess alcohol."],
            &["BOSTON, Mass.", "(AP) — A couple born on the same day at the same hospital have exchanged vows."],
            &[PROSE[1], PROSE[2]],
        ]);
        assert_eq!(r[..2], [Some(Reason::CreditedCaption), Some(Reason::PhotoCredit)]);
        assert_eq!(r[2], None);
        assert_eq!(r[3..5], [Some(Reason::TitleCase), Some(Reason::ListEntry)]);
        // A dateline leads prose: no number, so not a list.
        assert_eq!(r[6], None);
        assert_eq!(r[7..], [None, None]);
    }

    #[test]
    fn captions_credited_in_spanish_and_french_or_by_an_agency_after_a_bar() {
        let r = paragraphs_of(&[
            &["Un símbolo copto de una iglesia en El Cairo.", "Foto compartida por kudumomo en Flickr usada bajo CC BY 2.0"],
            &["Manifestants devant l'ambassade syrienne au Caire.", "Photo de Hossam El Hamalawy"],
            &["Embajada de Siria, Londres.", "Imagen del usuario de Flickr Yersinia (CC BY-NC-SA 2.0)."],
            &["Manifestación en la localidad siria de Banias.", "| Ap"],
            &[PROSE[0]],
            // A footer's links after a bar are not a credit.
            &[PROSE[1], "| Versión para móvil"],
        ]);
        let caption = [Some(Reason::CreditedCaption), Some(Reason::PhotoCredit)];
        assert_eq!((&r[0..2], &r[2..4], &r[4..6]), (&caption[..], &caption[..], &caption[..]));
        assert_eq!(r[6..8], [Some(Reason::CreditedCaption), Some(Reason::GluedLabel)]);
        assert_eq!(r[8..], [None, None, Some(Reason::GluedLabel)]);
    }

    #[test]
    fn a_short_two_sentence_caption_over_its_credit() {
        let r = paragraphs_of(&[
            &[PROSE[0]],
            &["Powalone drzewa na ulicy w Kościanie.", "Strażacy usuwali je przez kilka godzin."],
            &["Fot. KP PSP w Kościanie"],
            // A lead with its picture's credit under it stays prose.
            &[PROSE[1], PROSE[2]],
            &["Fot. Tomasz Wojda / PAP"],
            &["The storm hit the coast on Monday.", "Thousands of homes lost their power for most of the night and the next day."],
            &["(Photo: Jane Doe)"],
        ]);
        assert_eq!(r[1..4], [Some(Reason::CreditedCaption), Some(Reason::CreditedCaption), Some(Reason::PhotoCredit)]);
        assert_eq!(r[4..6], [None, None]);
        assert_eq!(r[7..9], [None, None]);
    }

    #[test]
    fn a_thai_caption_line_ending_in_its_credit_is_all_caption() {
        let r = paragraphs_of(&[
            &["ต้นเทียนของวัดศรีประดู่ใช้ขี้ผึ้งกว่า 4 ตัน", "และใช้ช่างแกะสลักทั้งหมด 40 คน"],
            &["ช่างเทียนใช้เวลาแกะสลักขี้ผึ้งนานกว่า 2 เดือน", "เพื่อเล่าเรื่องพุทธประวัติตอนเสด็จลงจากดาวดึงส์ (ภาพ : สมชาย ทองแท้)"],
            &["เจ้าอาวาสวัดศรีประดู่เล่าว่า", "ช่างส่วนใหญ่เป็นคนหนุ่มสาวในชุมชนที่มาฝึกกับช่างรุ่นเก่า"],
        ]);
        assert_eq!(r[2], Some(Reason::CreditedCaption), "{r:?}");
        assert!(r[3].is_some());
        assert_eq!((r[0], r[1], r[4], r[5]), (None, None, None, None), "{r:?}");
    }

    /// A Thai story's body: long pieces, as the fixture's pages print them.
    const THAI_BODY: [&[&str]; 3] = [
        &["คณะกรรมการกำกับกิจการพลังงานมีมติให้ปรับค่าไฟฟ้าเฉลี่ยสำหรับงวดเดือนกันยายนถึงธันวาคมลงมาอยู่ที่ 3.98 บาทต่อหน่วย", "จากงวดปัจจุบันที่ 4.09 บาทต่อหน่วย"],
        &["ค่าไฟที่ลดลงเป็นผลจากราคาก๊าซธรรมชาติเหลวในตลาดโลกที่อ่อนตัวลง", "ทำให้ต้นทุนเชื้อเพลิงในการผลิตไฟฟ้าต่ำกว่าที่ประมาณการไว้ในช่วงต้นปี"],
        &["ผู้ใช้ไฟไม่เกิน 50 หน่วยต่อเดือนยังได้ใช้ไฟฟรีตามเดิมจนถึงสิ้นปีนี้ตามมติคณะรัฐมนตรี"],
    ];

    #[test]
    fn a_thai_pages_opening_above_its_date_counts_without_the_sites_lines() {
        let mut page: Vec<&[&str]> = vec![
            &["เข้าสู่ระบบ / ลงทะเบียน"],
            &["หน้าแรก / เศรษฐกิจ / พลังงาน"],
            &["กกพ. เคาะค่าไฟงวด ก.ย.-ธ.ค. 68 เหลือ 3.98 บาทต่อหน่วย ลดลง 11 สตางค์"],
            &["ภาคเอกชนชี้ยังแพงกว่าเพื่อนบ้าน", "จี้รัฐรื้อโครงสร้างค่าไฟทั้งระบบ"],
            &["กองบรรณาธิการ ฐานเศรษฐกิจ"],
            &["01 ส.ค. 2568 | 16:05 น."],
        ];
        page.extend(THAI_BODY);
        let r = paragraphs_of(&page);
        assert!(r[..7].iter().all(Option::is_some), "{r:?}");
        assert!(r[7..].iter().all(Option::is_none), "{r:?}");
        // Four paragraphs of the story's own above the date: no opening.
        let mut late: Vec<&[&str]> = THAI_BODY.to_vec();
        late.extend([&["ผู้ใช้ไฟไม่ต้องยื่นเรื่องใดๆ เพิ่มเติมเพื่อรับส่วนลดค่าไฟฟ้าในรอบบิลเดือนกันยายน"][..], &["01 ส.ค. 2568 | 16:05 น."]]);
        assert!(paragraphs_of(&late)[..6].iter().all(Option::is_none));
    }

    /// A live blog's entry title joined to its time's line is still its
    /// title; the entry's own text after its time is not.
    #[test]
    fn a_thai_entry_title_on_its_times_line() {
        // Four paragraphs of the story above the first time: no opening.
        const EARLIER: &[&str] = &["ผู้ใช้ไฟไม่ต้องยื่นเรื่องใดๆ เพิ่มเติมเพื่อรับส่วนลดค่าไฟฟ้าในรอบบิลเดือนกันยายน"];
        let page_with = |entry: &'static [&'static str]| {
            let mut page: Vec<&[&str]> = THAI_BODY.to_vec();
            page.extend([EARLIER, entry]);
            page.extend(THAI_BODY);
            paragraphs_of(&page)
        };
        let r = page_with(&["21.40 น. นาทีที่ 84 : ใบแดง!", "เวียดนามเหลือ 10 คน"]);
        assert_eq!(r[6..8], [Some(Reason::Stamp), Some(Reason::TimedEntry)], "{r:?}");
        assert!(r[..6].iter().chain(&r[8..]).all(Option::is_none), "{r:?}");
        let r = page_with(&["21.40 น. นาทีที่ 84 : ใบแดง!", "กองหลังเวียดนามถูกไล่ออกจากสนามหลังเข้าสกัดจากด้านหลังใส่กองหน้าไทยซึ่งหลุดเดี่ยวเข้าไปหน้าประตู"]);
        assert_eq!(r[7], None, "{r:?}");
    }

    /// A Thai subhead between paragraphs is a label; a short line of the
    /// story that says what happened is not.
    #[test]
    fn thai_subheads_but_not_short_statements() {
        for (line, subhead) in [
            ("บทเรียนจากภาษีน้ำตาล", true),
            ("พฤติการณ์ของขบวนการ", true),
            ("ป้องกันตัวเองอย่างไร", true),
            ("ยังไม่มีรายงานผู้เสียชีวิต", false),
            ("คนขับรถกระบะปลอดภัยแล้ว", false),
            ("ใครจะเป็นผู้กำกับดูแล?", false),
        ] {
            let mut page: Vec<&[&str]> = THAI_BODY.to_vec();
            let middle = [line];
            page.push(&middle);
            page.extend(THAI_BODY);
            let r = paragraphs_of(&page);
            assert_eq!(r[5] == Some(Reason::TooShort), subhead, "{line}: {r:?}");
            assert!(r[..5].iter().chain(&r[6..]).all(Option::is_none), "{r:?}");
        }
    }

    /// A long headline under a "recommended" label is a link when the page
    /// closes after it; with the story going on after it, it may be prose.
    #[test]
    fn a_long_thai_headline_under_its_label_at_the_pages_end() {
        const HEADLINE: &[&str] = &["หมอเตือน ฝุ่นพิษทำเด็กป่วยทางเดินหายใจพุ่ง", "แนะวิธีเลือกหน้ากากให้ถูกต้องและเปลี่ยนทุกวัน"];
        let mut page: Vec<&[&str]> = THAI_BODY.to_vec();
        page.extend([&["ข่าวแนะนำ"][..], HEADLINE]);
        let r = paragraphs_of(&page);
        assert_eq!(r[6..8], [Some(Reason::RelatedLink); 2], "{r:?}");
        page.extend(THAI_BODY);
        assert!(paragraphs_of(&page)[6..].iter().all(Option::is_none));
    }

    #[test]
    fn thai_headlines_in_an_advertisements_slot() {
        let mut page: Vec<&[&str]> = THAI_BODY.to_vec();
        page.extend([
            &["Advertisement"][..],
            &["ค่าเงินบาทแข็งค่าสุดในรอบ 7 เดือน", "ผู้ส่งออกหวั่นกระทบคำสั่งซื้อ"],
            &["สายการบินต้นทุนต่ำลดเที่ยวบินจีน", "หันเพิ่มเส้นทางอินเดีย"],
            &["วัดส่วนใหญ่ไม่ได้แจ้งความ", "เพราะคิดว่าเป็นเงินจำนวนไม่มาก"],
        ]);
        page.extend(THAI_BODY);
        let r = paragraphs_of(&page);
        assert_eq!(r[6..10], [Some(Reason::RelatedLink); 4], "{r:?}");
        // The story goes on where a piece continues a sentence.
        assert!(r[..5].iter().chain(&r[10..]).all(Option::is_none), "{r:?}");
        // One such paragraph after a widget may be the story's own.
        let mut one: Vec<&[&str]> = THAI_BODY.to_vec();
        one.extend([&["Advertisement"][..], &["ค่าเงินบาทแข็งค่าสุดในรอบ 7 เดือน", "ผู้ส่งออกหวั่นกระทบคำสั่งซื้อ"]]);
        one.extend(THAI_BODY);
        assert!(paragraphs_of(&one)[6..].iter().all(Option::is_none));
    }

    /// A widget named by one piece of a Thai line takes the line's other
    /// pieces along; a byline glued to the story's first line does not.
    #[test]
    fn a_thai_line_named_by_one_piece_goes_whole() {
        let mut page: Vec<&[&str]> = THAI_BODY.to_vec();
        page.push(&["รับข่าวเศรษฐกิจ การเงิน อสังหาฯ ก่อนใคร", "สมัครรับ Newsletter ฐานเศรษฐกิจ กรอกอีเมลของคุณ สมัคร"]);
        page.extend(THAI_BODY);
        let r = paragraphs_of(&page);
        assert_eq!(r[5..7], [Some(Reason::Widget); 2], "{r:?}");
        assert!(r[..5].iter().chain(&r[7..]).all(Option::is_none), "{r:?}");
        let mut bylined: Vec<&[&str]> = THAI_BODY.to_vec();
        bylined.push(&["โดย ปิยะนุช เกียรติวงศ์", "รัฐบาลเดินหน้าผลักดันร่างกฎหมายสถานบันเทิงครบวงจรอีกครั้งเพื่อดึงเงินลงทุนจากต่างประเทศ"]);
        bylined.extend(THAI_BODY);
        let r = paragraphs_of(&bylined);
        assert_eq!(r[5..7], [Some(Reason::Credit), None], "{r:?}");
    }

    #[test]
    fn a_thai_caption_over_its_thanks_for_the_picture() {
        let mut page: Vec<&[&str]> = THAI_BODY.to_vec();
        page.extend([&["ตำรวจคุมตัวผู้ต้องหาไปชี้จุดที่วัดแห่งหนึ่งใน อ.สีคิ้ว", "ซึ่งเป็นวัดแรกที่ก่อเหตุ"][..], &["ขอบคุณภาพ : สภ.สีคิ้ว"]]);
        page.extend(THAI_BODY);
        let r = paragraphs_of(&page);
        assert_eq!(r[5..8], [Some(Reason::CreditedCaption), Some(Reason::CreditedCaption), Some(Reason::PhotoCredit)], "{r:?}");
        assert!(r[..5].iter().chain(&r[8..]).all(Option::is_none), "{r:?}");
    }

    #[test]
    fn a_page_that_opens_with_a_question_opens_with_its_headline() {
        let opening = "¿Por qué en Libia sí y en Siria no?";
        assert_eq!(page(&[opening, PROSE[0], PROSE[1], PROSE[2], PROSE[0]])[0], Some(Reason::Headline));
        // A short note may ask first; further down, a question is prose.
        assert_eq!(page(&[opening, PROSE[0], PROSE[1]])[0], None);
        assert_eq!(page(&[PROSE[0], opening, PROSE[1], PROSE[2], PROSE[0]])[1], None);
    }

    #[test]
    fn transcripts_updates_and_broken_lines() {
        let r = paragraphs_of(&[
            &["GEORGE STEPHANOPOULOS: Thanks for joining us live for this exclusive interview with the president."],
            &["PRESIDENT OBAMA: Great to be here, and thank you for having me on the show today."],
            &["GEORGE STEPHANOPOULOS: There has been a huge response since we announced this interview."],
            &["UPDATE: Authorities positively identified the two bodies found near the creek on Tuesday."],
            &["in up to 40 states – in many for the first time."],
            &["iPhone sales rose by a third in the last quarter of the year, the company said."],
            &["($55,327), North-Central New Jersey ($53,986) and Chicago ($50,934) also topped the list."],
            &["-- up to a maximum of 100 most highly ranked URLs per domain"],
            &["— Я не знаю, что будет дальше, — сказал он журналистам в понедельник."],
            &[PROSE[0]],
            &[PROSE[1]],
        ]);
        // Short labelled lines are labels anyway; the long one is judged as
        // a transcript's.
        assert!(r[..3].iter().all(Option::is_some));
        assert_eq!(r[1], Some(Reason::SpeakerLabel));
        assert_eq!(r[3], Some(Reason::EditorNote));
        assert_eq!(r[4], Some(Reason::LowercaseStart));
        assert_eq!(r[5], None, "a name with a capital inside starts in lowercase");
        assert_eq!(r[6], Some(Reason::LowercaseStart));
        assert_eq!(r[7], Some(Reason::ListEntry));
        assert_eq!(r[8], None, "a dash opens dialogue in Russian");
        assert_eq!(r[9..], [None, None]);
    }

    #[test]
    fn notes_on_the_story_do_not_make_a_furniture_page() {
        let lines = [
            "Este post es parte de nuestra cobertura especial Protestas en Siria 2011.",
            "http://twitter.com/activista/status/1",
            "http://twitter.com/activista/status/2",
            "http://twitter.com/activista/status/3",
            "http://twitter.com/activista/status/4",
            PROSE[0],
            PROSE[1],
            PROSE[2],
            "Este post forma parte de nuestra cobertura especial Protestas en Siria 2011.",
        ];
        let r = page(&lines);
        assert_eq!(r[0], Some(Reason::EditorNote));
        assert_eq!(r[1..5], [Some(Reason::Link); 4]);
        assert_eq!(r[5..8], [None, None, None], "four links and two notes do not outnumber three sentences two to one");
    }

    #[test]
    fn a_question_among_headlines_is_one_of_them() {
        let lines = [
            "Il a aussi appelé au calme dans les grandes villes du pays après les violences de la nuit.",
            "Budget européen : un accord à 1 800 milliards d'euros",
            "Est-il vraiment possible de recycler les bouteilles ?",
            "Arabie Saoudite : plusieurs personnes blessées dans un attentat à Riyad",
            "Les transports en commun gratuits pour les moins de 18 ans !",
            "Qui sont les forces d'opposition syriennes ?",
            "Le Conseil national syrien a été créé fin août à Istanbul par des opposants en exil.",
            "Pourquoi le Conseil a-t-il attendu si longtemps ?",
            "Parce que la Ligue arabe a fixé un délai qui expire samedi soir à minuit.",
        ];
        let r = page(&lines);
        assert_eq!(r[1..4], [Some(Reason::NoEnding), Some(Reason::ListEntry), Some(Reason::NoEnding)]);
        // Beside one heading only, a question is prose (and so is one in
        // the text itself).
        assert_eq!((r[4], r[5], r[7]), (None, None, None));
        // A run of them, between a heading and a scrap ("Abonnés").
        let r = page(&[
            lines[0],
            lines[1],
            "Faut-il reconstruire les ponts détruits ?",
            "Est-il vraiment possible de recycler les bouteilles ?",
            "Abonnés",
            lines[6],
        ]);
        assert_eq!(r[2..5], [Some(Reason::ListEntry), Some(Reason::ListEntry), Some(Reason::TooShort)]);
    }

    #[test]
    fn a_caption_credited_in_capitals_after_its_sentences() {
        use crate::segment::furniture::tests::paragraphs_of;
        let r = paragraphs_of(&[
            &["O Algarve vai ter uma segunda central de dessalinização, a construir em Lagos, anunciou o Governo."],
            &["A barragem de Odeleite, no concelho de Castro Marim, fotografada em Fevereiro.", "O espelho de água recuou mais de 200 metros.", "LUSA"],
            &["É o valor mais baixo para o mês de Março desde que há registos, segundo a Agência Portuguesa do Ambiente."],
            &["Os agricultores vão ter de cortar 15% da água de rega.", "A medida entra em vigor em Abril, disse a ministra à LUSA."],
            &["Prodi had said he would call a confidence vote if the Communists yanked support.", "MORE"],
            &["A associação de regantes reagiu com dureza ao anúncio do Governo, feito na quinta-feira em Lisboa."],
            &["El EI ha comenzado a lanzar operaciones en el sur y en el centro del país.", "EFE"],
        ]);
        assert_eq!(r[1..3], [Some(Reason::CreditedCaption); 2], "{r:?}");
        assert!(r[3].is_some(), "{r:?}");
        assert_eq!((r[0], r[4]), (None, None), "{r:?}");
        // An agency named in a sentence is no credit, nor is a wire's code
        // (furniture itself), nor the agency that signs the story's last
        // paragraph.
        assert_eq!(r[5..8], [None, None, None], "{r:?}");
        assert_eq!((r[9], r[10]), (None, None), "{r:?}");
    }

    #[test]
    fn questions_that_head_an_explainers_sections_are_subheads() {
        let sections = [
            "Le gouvernement a présenté mercredi son projet de décret sur la semaine de quatre jours dans la fonction publique.",
            "Qui est concerné ?",
            "Tous les agents de l'État, titulaires comme contractuels, pourront en faire la demande à partir de septembre.",
            "Combien d'heures par jour ?",
            "La durée de travail hebdomadaire ne change pas, elle sera simplement répartie sur quatre journées plus longues.",
            "Le chef de service peut-il refuser ?",
            "Oui, si la continuité du service public l'exige, mais il devra motiver sa décision par écrit.",
        ];
        let explainer = page(&sections);
        assert_eq!([explainer[1], explainer[3], explainer[5]], [Some(Reason::QuestionSubhead); 3], "{explainer:?}");
        assert!([explainer[0], explainer[2], explainer[4], explainer[6]].iter().all(Option::is_none), "{explainer:?}");
        // One or two questions asked on their lines are the text's own.
        let asked = page(&[
            "Le gouvernement a présenté mercredi son projet de décret sur la semaine de quatre jours dans la fonction publique.",
            "Mais qui répondra au téléphone le vendredi ?",
            "Les syndicats posent la question depuis des mois, sans obtenir de réponse claire du ministère.",
            "Et que deviendront les horaires d'ouverture ?",
            "Le projet de décret reste muet sur ce point, que les préfectures devront régler elles-mêmes.",
        ]);
        assert!(asked.iter().all(Option::is_none), "{asked:?}");
        // On an interview's page, the interviewer asks them.
        let mut interview = vec!["INTERVIEW"];
        interview.extend(sections);
        let interview = page(&interview);
        assert!(!interview.contains(&Some(Reason::QuestionSubhead)) && interview[6] == None, "{interview:?}");
    }

    #[test]
    fn a_score_in_a_paragraph_of_prose_is_prose() {
        let r = paragraphs_of(&[
            &["Minuto 89.", "Centro de Ferrán desde la izquierda y Salvatierra cabecea cruzado, lejos del alcance de Ribó.", "1-2."],
            &["El Pizjuán enmudeció durante unos segundos, mientras celebraban los béticos."],
            &["1-2"],
            &["Reserve su viaje a Egipto con todo incluido desde hoy.", "4.195€/pers."],
            &["Las fotos muestran los barrios destruidos de Alepo.", "(27.03.2016)."],
        ]);
        assert_eq!(r[..4], [None; 4], "{r:?}");
        assert_eq!([r[4], r[6], r[8]], [Some(Reason::Symbols); 3], "{r:?}");
    }

    #[test]
    fn an_interview_without_its_label_is_told_by_the_interviewers_turns() {
        let talk: [&[&str]; 12] = [
            &["С начала года лекарства подорожали почти на 6%.", "Это больше, чем общая инфляция.", "Почему?"],
            &["Потому что около 40% того, что стоит на полке, так или иначе завязано на импорт."],
            &["Покупатели жалуются, что из аптек снова пропадают препараты.", "Это дефицит?"],
            &["Нет."],
            &["А что тогда?"],
            &["Это перебои, и дефицит — это когда препарата нет нигде и его нечем заменить."],
            &["Вы запустили собственную торговую марку.", "Зачем?"],
            &["Чтобы зарабатывать, и я не буду делать вид, что мотив другой."],
            &["Вы будете покупать?"],
            &["Если цена будет разумной, да, мы уже смотрим на несколько сетей на Урале."],
            &["Что будет с рынком к концу года?"],
            &["Консолидация продолжится, небольшим сетям сейчас очень тяжело."],
        ];
        let reasons = paragraphs_of(&talk);
        assert!(reasons.iter().all(Option::is_none), "{reasons:?}");
        // An explainer's subheads still head its sections: its paragraphs
        // do not end on questions.
        let explainer = paragraphs_of(&[
            &["Le gouvernement a présenté mercredi son projet de décret sur la semaine de quatre jours."],
            &["Qui est concerné ?"],
            &["Tous les agents de l'État pourront en faire la demande à partir de septembre."],
            &["Combien d'heures par jour ?"],
            &["La durée de travail hebdomadaire ne change pas, elle sera répartie sur quatre journées."],
            &["Le chef de service peut-il refuser ?"],
            &["Oui, si la continuité du service public l'exige.", "Il devra motiver sa décision par écrit."],
        ]);
        assert_eq!([explainer[1], explainer[3], explainer[5]], [Some(Reason::QuestionSubhead); 3], "{explainer:?}");
    }

    #[test]
    fn the_storys_last_short_line_above_the_footer_is_prose() {
        let foot = page(&[
            "教育部提醒广大考生，考前要合理安排作息，保持平和心态，提前熟悉考点位置和交通路线，认真核对准考证信息。",
            "距离今年高考还有10天。",
            "【纠错】 【责任编辑：王子涵】",
            "热点推荐",
            "关于我们 | 联系我们 | 广告服务 | 法律声明",
        ]);
        assert_eq!(foot[1], None, "{foot:?}");
        // Among the share buttons, a short line is one of them.
        let buttons = page(&[
            PROSE[0], PROSE[1], PROSE[2],
            "Share on Facebook",
            "We read every comment.",
            "Share on X",
            "© 2026 The Daily News",
        ]);
        assert_eq!(buttons[4], Some(Reason::EdgeRun), "{buttons:?}");
    }

    #[test]
    fn a_word_alone_under_its_question_answers_it() {
        let r = page(&[
            "A greve foi convocada por quatro sindicatos, em protesto contra a proposta do Governo.",
            "Há alternativas?",
            "Poucas.",
            "Às 8h, dezenas de pessoas esperavam por um autocarro que não chegava na Praça do Areeiro.",
        ]);
        assert_eq!(r[2], None, "{r:?}");
        let r = paragraphs_of(&[
            &["¿Hace falta convivir con él?", "No.", "Es una de las diferencias con el borrador que el ministerio presentó en noviembre."],
            &["Los autónomos quedan fuera del permiso, según el texto aprobado por el Consejo de Ministros."],
        ]);
        assert_eq!(r[1], None, "{r:?}");
        // A poll's options answer nothing.
        let poll = paragraphs_of(&[&["Should the city close the old bridge to heavy trucks?", "Yes.", "No."], &[PROSE[0]], &[PROSE[1]]]);
        assert!(poll[1].is_some() && poll[2].is_some(), "{poll:?}");
    }
}
