//! The classifier on whole pages in several languages, the helpers that
//! build pages for every file's tests, and a property test.

use super::{classify, classify_sentence, Line, Reason};

pub(super) fn page(lines: &[&str]) -> Vec<Option<Reason>> {
    let doc: Vec<Line> = lines.iter().map(|text| Line { text, own_line: true, ends_line: true, lang: "und" }).collect();
    classify(&[doc]).remove(0)
}

/// The reasons of `lines`, each on a line of its own, on a page whose
/// first and last lines are long prose (so no run of furniture reaches
/// the page's edges through them).
pub(super) fn among_prose(lines: &[&str]) -> Vec<Option<Reason>> {
    let first = "The council met on Tuesday evening to discuss the plan for the new bridge over the river.";
    let last = "The meeting ended after midnight, and a vote is expected at the next session in March.";
    let mut all = vec![first];
    all.extend(lines);
    all.push(last);
    let reasons = page(&all);
    reasons[1..reasons.len() - 1].to_vec()
}

pub(super) fn prose(lines: &[&str]) -> Vec<String> {
    lines.iter().zip(page(lines)).filter(|(_, r)| r.is_none()).map(|(l, _)| l.to_string()).collect()
}

#[test]
fn english_page_furniture() {
    let lines = [
        "Good Country Index Is Released, US Not In The Top 20",
        "Tweet with a location",
        "(Photo: Boyd Huppert, KARE 11)",
        "STOWE, Vt.",
        "The index ranks 163 countries by what they contribute to the world.",
        "Karl Rove:",
        "It was not clear what sparked the incident.",
        "PREVIOUSLY: Sweden tops the list",
        "Source: Gage Skidmore / Flickr",
        "503-294-4004",
        "Associated Press writer Eric Tucker contributed to this report.",
        "Read or Share this story: http://usat.ly/RHTLA8",
        "Why Is This Important?",
        "He was 83.",
    ];
    let reasons = page(&lines);
    assert_eq!(prose(&lines), ["The index ranks 163 countries by what they contribute to the world.", "It was not clear what sparked the incident.", "He was 83."]);
    assert_eq!(reasons[2], Some(Reason::PhotoCredit));
    assert_eq!(reasons[3], Some(Reason::Dateline));
    assert_eq!(reasons[5], Some(Reason::Colon));
    assert_eq!(reasons[8], Some(Reason::PhotoCredit));
    assert_eq!(reasons[9], Some(Reason::Symbols));
    assert_eq!(reasons[10], Some(Reason::Credit));
    assert_eq!(Reason::PhotoCredit.to_string(), "page furniture: photo credit");
}

#[test]
fn french_spanish_german_pages() {
    let fr = [
        "Lire aussi : La réforme des retraites adoptée",
        "Le gouvernement a présenté mercredi son projet de loi sur les retraites.",
        "Photo : AFP",
        "PUBLICITÉ",
        "Les syndicats appellent à une nouvelle journée de grève jeudi.",
    ];
    assert_eq!(prose(&fr), [fr[1], fr[4]]);
    let es = [
        "Compartir en Facebook",
        "El terremoto de magnitud 7,1 sacudió la capital el martes por la tarde.",
        "Foto: EFE",
        "Las autoridades informaron de al menos 200 muertos.",
        "Te puede interesar",
    ];
    assert_eq!(prose(&es), [es[1], es[3]]);
    let de = [
        "Mehr zum Thema",
        "Die Bundesregierung hat am Mittwoch ein neues Klimapaket beschlossen.",
        "Foto: dpa",
        "Der Bundestag soll im Herbst darüber abstimmen.",
        "Anzeige",
    ];
    assert_eq!(prose(&de), [de[1], de[3]]);
    // A caption without a sentence end, over its credit, goes with it.
    let captioned = [
        "Le gouvernement a présenté mercredi son projet de loi sur les retraites.",
        "Manifestation contre la réforme à Paris, le 5 décembre",
        "Photo : AFP",
        "Les syndicats appellent à une nouvelle journée de grève jeudi.",
    ];
    assert_eq!(prose(&captioned), [captioned[0], captioned[3]]);
}

#[test]
fn chinese_arabic_russian_pages() {
    let zh = ["责任编辑：王丽", "国务院周三公布了新的经济刺激计划。", "图片来源：新华社", "该计划包括减税和基础设施投资。", "分享到微信"];
    assert_eq!(prose(&zh), [zh[1], zh[3]]);
    let ar = [
        "اقرأ أيضا: الحكومة تعلن خطة جديدة",
        "أعلنت الحكومة يوم الأربعاء عن خطة جديدة لدعم الاقتصاد.",
        "المصدر: رويترز",
        "وقال وزير المالية إن الخطة ستبدأ الشهر المقبل.",
    ];
    assert_eq!(prose(&ar), [ar[1], ar[3]]);
    let ru = [
        "Читайте также: Правительство одобрило бюджет",
        "Правительство России в среду одобрило проект бюджета на следующий год.",
        "Фото: ТАСС",
        "Документ будет направлен в Государственную думу.",
        "Поделиться",
    ];
    assert_eq!(prose(&ru), [ru[1], ru[3]]);
}

#[test]
fn clean_text_keeps_every_sentence() {
    // Sentences inside a paragraph, one without a full stop included
    // (sentences of three words or fewer are fragments anywhere).
    let doc: Vec<Line> = ["One more came here.", "Two more came here.", "Storm hits the coast", "More of them came."]
        .iter()
        .map(|text| Line { text, own_line: false, ends_line: false, lang: "und" })
        .collect();
    assert!(classify(&[doc]).remove(0).iter().all(Option::is_none));
    // A one-sentence document without a full stop is a sentence.
    assert_eq!(classify_sentence("Storm hits the coast"), None);
    assert_eq!(classify_sentence("Thousands lose power."), None);
    // ... unless it is clearly furniture.
    assert_eq!(classify_sentence("(Associated Press)"), Some(Reason::Parenthesized));
    assert_eq!(classify_sentence("(We are already pretty sure the song is about her.)"), None);
    assert_eq!(classify_sentence("Karl Rove:"), Some(Reason::Colon));
    // Thai does not end sentences with a mark: endings are not judged.
    let th = ["รัฐบาลประกาศมาตรการใหม่เพื่อช่วยเหลือเกษตรกรที่ได้รับผลกระทบจากน้ำท่วม", "นายกรัฐมนตรีกล่าวว่าจะเริ่มจ่ายเงินในสัปดาห์หน้าให้กับทุกครอบครัวที่ลงทะเบียน"];
    assert_eq!(prose(&th).len(), 2);
}

/// Sentences inside one paragraph of prose (not lines of their own).
pub(super) fn paragraph(sentences: &[&str]) -> Vec<Option<Reason>> {
    let doc: Vec<Line> = sentences.iter().map(|text| Line { text, own_line: false, ends_line: false, lang: "und" }).collect();
    classify(&[doc]).remove(0)
}

/// Paragraphs of sentences: each inner slice is one paragraph.
pub(super) fn paragraphs_of(paragraphs: &[&[&str]]) -> Vec<Option<Reason>> {
    let mut doc = vec![];
    for sentences in paragraphs {
        for (i, text) in sentences.iter().enumerate() {
            let ends_line = i + 1 == sentences.len();
            doc.push(Line { text, own_line: sentences.len() == 1, ends_line, lang: "und" });
        }
    }
    classify(&[doc]).remove(0)
}

pub(super) const PROSE: [&str; 3] = [
    "The council voted on Tuesday to close the old bridge to heavy trucks.",
    "Engineers found cracks in two of its supports last month, the city said.",
    "Repairs are expected to take at least a year and cost several million dollars.",
];

/// Each of `entries` alone gets `reason`; none of `others` does.
pub(super) fn only_these_get(reason: Reason, entries: &[&str], others: &[&str]) {
    for entry in entries {
        assert_eq!(classify_sentence(entry), Some(reason), "{entry}");
    }
    for other in others {
        assert_ne!(classify_sentence(other), Some(reason), "{other}");
    }
}

proptest::proptest! {
    #[test]
    fn never_panics_and_is_deterministic(lines in proptest::collection::vec(("\\PC{0,60}", proptest::bool::ANY), 0..8), other in "\\PC{0,40}") {
        let doc: Vec<Line> = lines.iter().map(|(text, own_line)| Line { text, own_line: *own_line, ends_line: *own_line, lang: "und" }).collect();
        let second = vec![Line { text: &other, own_line: true, ends_line: true, lang: "und" }];
        let first = classify(&[doc.clone(), second.clone()]);
        proptest::prop_assert_eq!(first.len(), 2);
        proptest::prop_assert_eq!(first[0].len(), doc.len());
        proptest::prop_assert_eq!(&first, &classify(&[doc, second]));
        let _ = classify_sentence(&other).map(|r| r.to_string());
        let _ = classify_sentence(&format!("Monday, Jan 5, 2é{other}"));
        let _ = classify_sentence(&format!("In this {other} photo, {other}"));
    }
}

#[test]
fn a_one_word_answer_inside_prose_is_prose_and_in_furniture_furniture() {
    let r = paragraphs_of(&[
        &[PROSE[0]],
        &["Czy to znaczy, że reforma się udała?", "Niekoniecznie.", "Zadania domowe nie zniknęły, tylko przeniosły się gdzie indziej."],
        &["Cf.", "S."],
        &[PROSE[1]],
    ]);
    assert_eq!(r[1..4], [None, None, None]);
    assert!(r[4].is_some() && r[5].is_some(), "{r:?}");
}

#[test]
fn a_post_under_its_signature_breadcrumbs_and_live_blog_notes() {
    let r = paragraphs_of(&[
        &[PROSE[0]],
        &["เทศบาลนครเชียงใหม่ · 5 ต.ค. เวลา 15:48 น.", "· ประกาศ!", "ขอให้ประชาชนริมน้ำปิง", "ยกของขึ้นที่สูงโดยด่วน #น้ำท่วมเชียงใหม่"],
        &["หน้าแรก > ข่าว > อาชญากรรม"],
        &["In dit liveblog houden we je op de hoogte van het laatste nieuws over storm Floris."],
        &["Artykuł jest aktualizowany."],
        &["Zobacz zdjęcia."],
        &[PROSE[1]],
        &[PROSE[2]],
    ]);
    // The signature, the lines other rules name, and the rest of the post.
    assert!(r[1..5].iter().all(Option::is_some) && r[3] == Some(Reason::EmbeddedPost), "{r:?}");
    assert!(r[5].is_some(), "{r:?}");
    assert_eq!(r[6..8], [Some(Reason::EditorNote), Some(Reason::EditorNote)]);
    assert_eq!(r[8], Some(Reason::Widget));
    assert_eq!((r[0], r[9], r[10]), (None, None, None));
    // A sentence with slashes is no breadcrumb.
    assert_eq!(paragraphs_of(&[&[PROSE[0]], &["The ratio rose to 3 / 4 / 5 of all votes cast in the district."], &[PROSE[1]]])[1], None);
    // Two steps make a breadcrumb only from the home page.
    for (crumb, is_crumb) in [("หน้าแรก > อาชญากรรม", true), ("Home › Politics", true), ("Sales > Costs", false)] {
        assert_eq!(super::links::breadcrumb(crumb), is_crumb, "{crumb}");
    }
    assert!(paragraphs_of(&[&[PROSE[0]], &["หน้าแรก > อาชญากรรม"], &[PROSE[1]]])[1].is_some());
}

/// Scripts that space phrases, not words (Khmer, Lao, Myanmar, like Thai),
/// ending marks beyond the Latin and CJK ones, Georgian's caseless letters,
/// and Greek's question mark: a plain article in each keeps its prose.
#[test]
fn plain_articles_in_scripts_beyond_the_sixteen_stay_prose() {
    let articles: [&[&str]; 8] = [
        &["ភ្លៀងធ្លាក់ខ្លាំងនៅរាជធានីភ្នំពេញកាលពីម្សិលមិញ។", "សាលារៀនមួយចំនួនត្រូវបិទជាបណ្ដោះអាសន្ន។"],
        &["ຝົນຕົກໜັກຢູ່ນະຄອນຫຼວງວຽງຈັນໃນມື້ວານນີ້.", "ໂຮງຮຽນບາງແຫ່ງຖືກປິດຊົ່ວຄາວ."],
        &["မြို့တွင်း လမ်းများစွာ ရေကြီးမှုဖြစ်ပွားခဲ့သည်။", "ကျောင်းအချို့ကို ယာယီပိတ်ထားရသည်။"],
        &["გუშინ თბილისში ძლიერი წვიმა მოვიდა.", "ზოგიერთი სკოლა დროებით დაიხურა."],
        &["በአዲስ አበባ ትናንት ከባድ ዝናብ ዘነበ።", "አንዳንድ ትምህርት ቤቶች ለጊዜው ተዘግተዋል።"],
        &["Η κυβέρνηση ανακοίνωσε νέα μέτρα για τις πλημμύρες.", "Τι θα γίνει με τα σχολεία;"],
        &["عدالت نے فیس میں اضافے کا فیصلہ معطل کر دیا۔", "والدین پرامید ہیں۔"],
        &["Ինչպե՞ս էին ընդունվում աշխատանքները։", "Պաշտպանությունը դատավճիռը կբողոքարկի։"],
    ];
    for lines in articles {
        assert_eq!(prose(lines), lines.iter().map(|l| l.to_string()).collect::<Vec<_>>(), "{lines:?}");
    }
}

#[test]
fn a_japanese_quote_alone_on_its_line_is_a_sentence() {
    let quote = "「最初に結果を見たときは、何かの間違いだと思った」";
    let r = among_prose(&["研究チームの田中准教授はこう振り返る。", quote, "解析をやり直しても、同じ結果が出た。"]);
    assert_eq!(r[1], None, "{r:?}");
    // A short quote in brackets is still a label or a heading.
    assert!(among_prose(&["「速報」"])[0].is_some());
}
