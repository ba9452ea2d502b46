//! Links, addresses and handles, and posts embedded in the page (a tweet's
//! link or signature, a post quoted under its handle or from its first tag).

use super::line::{Features, Line, SHORT_LINE_WORDS};
use super::page::{name_unnamed, paragraphs};
use super::reason::Reason;

/// A post embedded in the page: its link ("pic.twitter.com/…", "t.co/…")
/// or its signature "(@handle)" followed by the date it was posted, or
/// "@handle · date" ([`handle_and_date`]).
pub(super) fn embedded_post(folded: &str) -> bool {
    folded.contains("pic.twitter.com/") || folded.contains("https://t.co/") || handle_and_date(folded) || bracketed_handle_and_date(folded)
}

/// "— Defesa Civil SP (@defesacivilsp) 5 de fevereiro de 2026": the
/// signature under a post's text, as X's embed code prints it.
fn bracketed_handle_and_date(text: &str) -> bool {
    text.match_indices("(@").any(|(at, _)| {
        let rest = &text[at + 2..];
        let handle_end = rest.find(')').unwrap_or(0);
        handle_end > 0
            && !rest[..handle_end].contains(' ')
            && rest[handle_end + 1..].chars().filter(char::is_ascii_digit).count() >= 4
    })
}

/// Characters after a post's handle and its dot within which its date
/// starts.
const DATE_AFTER_HANDLE: usize = 12;

/// "DGT Extremadura @DGTExtremadura · 12 ago. 2026 ⚠️ Cortada la EX-109 …":
/// a post as X prints it, its author's handle, a middle dot, then the date.
fn handle_and_date(text: &str) -> bool {
    text.match_indices('@').any(|(at, _)| {
        let rest = &text[at + 1..];
        let handle = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
        let opens_word = text[..at].chars().next_back().is_none_or(char::is_whitespace);
        let dated = rest[handle..].strip_prefix(" · ").is_some_and(|after| after.chars().take(DATE_AFTER_HANDLE).any(|c| c.is_ascii_digit()));
        opens_word && handle >= 2 && dated
    })
}

/// "@manal: La policía militar está golpeando …", "@RafifJ [en]: Que …",
/// "@Razaniyat Un amigo en #Aleppo …", "@ooodani #12Cerrar…",
/// "@anasqtiesh\"porter atteinte …": a post or a reader's comment quoted
/// under its author's handle, then a colon, a capital, a tag or a quote
/// ("@handle said …" is a sentence about the post).
pub(super) fn opens_with_handle(text: &str) -> bool {
    let Some(rest) = text.strip_prefix('@') else { return false };
    let handle = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
    let after = rest[handle..].trim_start();
    // A translator's note of the post's language: "[en]".
    let after = match after.strip_prefix('[').and_then(|a| a.split_once(']')) {
        Some((language, tail)) if language.len() <= 3 => tail.trim_start(),
        _ => after,
    };
    let spaced = rest[handle..].starts_with(char::is_whitespace);
    let quoted = after.starts_with(['"', '“', '«']);
    handle >= 1 && (after.starts_with(':') || quoted || (spaced && after.starts_with(|c: char| c.is_uppercase() || c == '@' || c == '#')))
}

/// "#Mubarak gobierna #Egipto desde 1981.", "#AntiCoup alliance confirm …":
/// a post quoted from its first tag, as posts open and sentences do not.
/// Not the tail of a quote that ends on a tag ("#Takei2018," he wrote.),
/// and not a lone tag, which would take its prose paragraph along
/// ("Lyft quickly admitted … #GetMono").
pub(super) fn opens_with_tag(text: &str) -> bool {
    let Some(rest) = text.strip_prefix('#') else { return false };
    let first_word = rest.split_whitespace().next().unwrap_or_default();
    rest.starts_with(char::is_alphabetic) && !first_word.contains(['"', '”', '»']) && rest.split_whitespace().count() >= 3
}

/// Words that speak of a post or its tags ("… utilizan las etiquetas
/// #Syria y #March15 …", "… informó a través de su cuenta en Twitter que
/// …"): a sentence with them reports a post.
const POST_TALK: &[&str] = &[
    "twitter", "tweet", "tuit", "instagram", "facebook", "weibo", "微博", "hashtag", "hahstag", "etiqueta", "mot-dièse",
    "mots-dièse", "mot-clé", "mots-clés", "mot clé", "mots clés", "schlagwort", "parola chiave", "parole chiave", "хештег", "хэштег", "etiket",
    "وسم", "هاشتاغ", "话题", "話題", "タグ", "해시태그", "แฮชแท็ก",
];

/// "Depuis le mois de mars, plus de 2000 personnes ont été tuées par #Assad
/// en #Syrie …": two tags or more in a sentence that does not speak of
/// posts make it a post quoted, wherever the tags stand.
pub(super) fn tagged_post(folded: &str) -> bool {
    let tag = |w: &&str| w.trim_start_matches(['(', '[', '¿', '¡', '"', '“', '«', '„']).strip_prefix('#').is_some_and(|r| r.starts_with(char::is_alphabetic));
    folded.split_whitespace().filter(tag).count() >= 2 && !POST_TALK.iter().any(|w| folded.contains(w))
}

/// Sentences of the longest post taken whole under its signature.
const MAX_POST_SENTENCES: usize = 8;

/// "เทศบาลนครเชียงใหม่ · 5 ต.ค. เวลา 15:48 น. · ประกาศ! ขอให้ประชาชน …": a post
/// quoted under its author's name and the time it was posted, split by
/// dots in the middle; the paragraph the signature opens is the post.
/// A post also ends in its tags ("… เราจะทำงานเพื่อบ้านเกิดต่อไป #เลือกตั้งอบจ68
/// #เชียงใหม่"): two or more in a row close a paragraph that prose does not.
/// So does a post as X prints it ([`handle_and_date`]) and a Weibo post
/// ([`opens_with_topic`]).
pub(super) fn signed_posts(lines: &[Line], judged_by_form: bool, reasons: &mut [Option<Reason>]) {
    let rows = paragraphs(lines);
    for (k, p) in rows.iter().enumerate() {
        if judged_by_form && p.len() == 1 {
            if let Some(post) = post_beside_its_signature(lines, &rows, k) {
                name_unnamed(&mut reasons[post], Reason::EmbeddedPost);
            }
        }
        if p.len() > MAX_POST_SENTENCES {
            continue;
        }
        let p = p.clone();
        let head = lines[p.start].text;
        let author = head.split(" · ").next().filter(|a| a.len() < head.len()).is_some_and(|a| a.chars().any(char::is_alphabetic));
        // On a page without sentence marks (Thai) a line's pieces are taken
        // as one item later (`page::whole_line_items`), and a paragraph named
        // now would end a list of links above it.
        let signed = p.len() >= 2 && (author && matches!(reasons[p.start], Some(Reason::Stamp | Reason::Symbols)) || (judged_by_form && handle_and_date(head)));
        if signed || ends_in_tags(lines[p.end - 1].text) || opens_with_topic(head) {
            name_unnamed(&mut reasons[p], Reason::EmbeddedPost);
        }
    }
}

/// The paragraph of a post whose signature stands alone on its line: the
/// one below a header as X prints it ("Préfet de Lot-et-Garonne @Prefet47 ·
/// 17 mars 2026", "Türkiye Cumhuriyet Merkez Bankası (@TCMB) · 11 Haz 2026"
/// / "⚠️ Crue de la #Garonne : …"), or the one above a signature as X's
/// embed code prints it ("⚠️ Rajadas de vento …" / "Defesa Civil SP
/// (@defesacivilsp) 5 de fevereiro de 2026"), unless that one introduces
/// the post ("… publicado nas redes sociais:") and the post's text was
/// left out. A line that goes on with the post's text after its signature,
/// or ends it with one, is the post itself.
fn post_beside_its_signature(lines: &[Line], rows: &[std::ops::Range<usize>], k: usize) -> Option<std::ops::Range<usize>> {
    const MAX_SIGNATURE_WORDS: usize = 10;
    let signature = lines[rows[k].start].text.trim_end();
    let alone = signature.split_whitespace().count() <= MAX_SIGNATURE_WORDS && !signature.ends_with(crate::text::is_sentence_final);
    let bracketed = bracketed_handle_and_date(signature);
    let header = handle_and_date(signature) || (bracketed && signature.contains(") · "));
    let post = if !alone {
        None
    } else if header {
        rows.get(k + 1)
    } else if bracketed {
        k.checked_sub(1).map(|j| &rows[j]).filter(|above| !lines[above.end - 1].text.trim_end().ends_with(':'))
    } else {
        None
    };
    post.filter(|post| post.len() <= MAX_POST_SENTENCES).cloned()
}

/// Characters of the longest Weibo topic taken for one.
const MAX_TOPIC_CHARS: usize = 30;

/// "@中国气象局 #台风白鹿# 【台风橙色预警】…", "【#台风青鸾登陆#！…": a Weibo post
/// opens with its topic between two '#', after its author's handle or in
/// its bracketed title. A sentence that names a topic runs on before it.
fn opens_with_topic(text: &str) -> bool {
    let text = match text.strip_prefix('@') {
        Some(rest) => rest.split_once(char::is_whitespace).map_or("", |(_, after)| after.trim_start()),
        None => text,
    };
    let Some(topic) = text.trim_start_matches('【').strip_prefix('#') else { return false };
    let inside: String = topic.chars().take_while(|&c| c != '#').take(MAX_TOPIC_CHARS + 1).collect();
    let closed = topic[inside.len()..].starts_with('#');
    // "#43# 38 @ …" numbers a reader's comment.
    let named = inside.chars().any(char::is_alphabetic);
    closed && named && (2..=MAX_TOPIC_CHARS).contains(&inside.chars().count()) && !inside.contains(char::is_whitespace)
}

/// Two or more tags close the text: "… ต่อไป #เลือกตั้งอบจ68 #เชียงใหม่".
fn ends_in_tags(text: &str) -> bool {
    let tag = |w: &str| w.strip_prefix('#').is_some_and(|t| t.starts_with(char::is_alphanumeric));
    text.split_whitespace().rev().take_while(|w| tag(w)).count() >= 2
}

/// How the BBC's sites, in each of their languages, open and close what
/// they embed: "Skip twitter post … End of twitter post", "ข้ามโพสต์ X
/// และอ่านต่อ … สิ้นสุดโพสต์ X", "Skip Recommended stories … End of
/// Recommended stories".
const SKIP_MARKS: &[&str] = &[
    "skip ", "ข้าม", "saltar ", "pular ", "pule ", "passer ", "пропустить ", "atla", "تخطى", "跳过", "跳過", "スキップ", "건너뛰기",
];
const END_MARKS: &[&str] =
    &["end of ", "สิ้นสุด", "final de ", "fim de", "fim do", "fin de ", "конец ", "sonu", "نهاية", "结束", "結束", "終わり", "끝"];
/// Paragraphs between the two marks, at most.
const MAX_SKIPPED_PARAGRAPHS: usize = 15;
/// Words in a mark, at most.
const MARK_WORDS: f32 = 8.0;

/// What the page embeds between a "skip" mark and its "end of" mark: a
/// post, a box of other stories; the marks with it.
pub(super) fn skipped_embeds(lines: &[Line], features: &[Features], reasons: &mut [Option<Reason>]) {
    let paragraphs = paragraphs(lines);
    let mark = |k: usize, marks: &[&str]| {
        let p = &paragraphs[k];
        p.len() == 1 && features[p.start].words <= MARK_WORDS && marks.iter().any(|m| features[p.start].folded.starts_with(m))
    };
    for k in 0..paragraphs.len() {
        if !mark(k, SKIP_MARKS) {
            continue;
        }
        let last = paragraphs.len().min(k + MAX_SKIPPED_PARAGRAPHS + 2);
        if let Some(end) = (k + 1..last).find(|&j| mark(j, END_MARKS)) {
            for p in &paragraphs[k..=end] {
                name_unnamed(&mut reasons[p.clone()], Reason::EmbeddedPost);
            }
        }
    }
}

/// A sentence that ends in a URL: "… as I expect they will.” http://bit.ly/qEYaoz".
pub(super) fn ends_in_link(folded: &str) -> bool {
    folded.split_whitespace().next_back().is_some_and(|last| last.starts_with("http") || last.contains("://"))
}

/// Words in one step of a breadcrumb.
const MAX_CRUMB_WORDS: usize = 3;

/// The first step of a site's breadcrumb, its home page.
const HOME_STEPS: &[&str] = &[
    "home", "homepage", "accueil", "inicio", "portada", "startseite", "início", "página inicial", "strona główna",
    "главная", "ana sayfa", "الرئيسية", "首页", "首頁", "ホーム", "홈", "หน้าแรก",
];

/// The arrows between the steps of a trail to a page's section.
pub(super) const TRAIL_ARROWS: [&str; 4] = [" > ", " › ", " » ", " → "];

/// A breadcrumb: three or more short steps split by arrows or slashes
/// ("หน้าแรก > ข่าว > อาชญากรรม", "Interia / Wydarzenia / Polska"), or two
/// from the home page ("หน้าแรก > อาชญากรรม", "Home › Politics").
pub(super) fn breadcrumb(text: &str) -> bool {
    let Some(arrow) = TRAIL_ARROWS.into_iter().chain([" / "]).find(|a| text.contains(a)) else { return false };
    let steps: Vec<&str> = text.split(arrow).map(str::trim).collect();
    let from_home = steps.len() == 2 && HOME_STEPS.contains(&steps[0].to_lowercase().as_str());
    (steps.len() >= 3 || from_home)
        && steps.iter().all(|s| !s.is_empty() && s.split_whitespace().count() <= MAX_CRUMB_WORDS && !s.ends_with(['.', '!', '?']))
}

/// A URL, an e-mail address or a handle in a short line.
pub(super) fn link(f: &Features) -> bool {
    if names_an_image_file(&f.folded) {
        return true;
    }
    if f.words > SHORT_LINE_WORDS {
        return false;
    }
    let t = &f.folded;
    t.contains("http://") || t.contains("https://") || t.contains("www.") || t.split_whitespace().any(|w| {
        let w = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '@');
        (w.contains('@') && w.contains('.') && !w.starts_with('@')) || (w.starts_with('@') && w.len() > 1)
    })
}

/// A picture's file name ("… in Manila 89e2ecba-5456-11e0-8d67-af1915c87db7.jpg
/// À Manille, …"): a gallery scraped with its pictures' names, at any
/// length; no story names a file of its pictures.
fn names_an_image_file(folded: &str) -> bool {
    const IMAGE_FILES: [&str; 5] = [".jpg", ".jpeg", ".png", ".gif", ".webp"];
    folded.split_whitespace().any(|w| {
        let w = w.trim_end_matches(|c: char| !c.is_alphanumeric());
        IMAGE_FILES.iter().any(|ext| w.len() > ext.len() && w.ends_with(ext))
    })
}

#[cfg(test)]
mod tests {
    use crate::segment::furniture::Reason;
    use crate::segment::furniture::tests::{paragraph, paragraphs_of, PROSE};

    #[test]
    fn two_tags_make_a_post_unless_the_sentence_speaks_of_posts() {
        use crate::segment::furniture::classify_sentence;
        for post in [
            "Depuis le mois de mars, plus de 2000 personnes ont été tuées par #Assad en #Syrie mais le peuple syrien est brave.",
            "Ni los niños en #Siria tienen temor de los tanques de #Bashar.",
            "\"La conferencia de #Antalya [#Anatolia] no es conferencia de \"oposición\".",
        ] {
            assert_eq!(classify_sentence(post), Some(Reason::EmbeddedPost), "{post}");
        }
        for prose in [
            "En Twitter, los sirios han utilizado las etiquetas #Syria y #March15 para conmemorar el día.",
            "Les manifestants utilisent le mot clé #RamadanMassacre et #Hama pour alerter le monde.",
            "The company ranked #1 in sales and #2 in profits last year.",
            "The protest was organised under the #MeToo banner in three cities.",
        ] {
            assert_eq!(classify_sentence(prose), None, "{prose}");
        }
    }

    #[test]
    fn embedded_social_media_posts() {
        let r = paragraph(&[
            "RIP Prodigy one of my favourite rappers of all time, can't believe this. — Boi-1da (@Boi1da) June 20, 2017",
            "Если что-то взорвут, будет плохо. — Степан (@faraday_m) August 20, 2013",
            "The triple-decker includes a swimming pool and a park. pic.twitter.com/VEvTRkXT9O",
            "The rapper, whose account on the service is @Boi1da, posted the short message late on Tuesday night from his home.",
        ]);
        assert_eq!(r[..3], [Some(Reason::EmbeddedPost); 3]);
        assert_eq!(r[3], None);
    }

    #[test]
    fn a_post_signed_by_its_handle_and_date_is_the_post() {
        let r = paragraphs_of(&[
            &[PROSE[0]],
            &["DGT Extremadura @DGTExtremadura · 12 ago. 2026 ⚠️ #IFHoyos Cortada la EX-109 del km 20 al 45.", "Itinerario alternativo por Coria.", "Evite la zona."],
            &["Writers can reach the desk at @citydesk · the team answers within 24 hours on weekdays, a spokesman said."],
            &[PROSE[1]],
        ]);
        assert_eq!(r[1..4], [Some(Reason::EmbeddedPost); 3], "{r:?}");
        assert_eq!((r[0], r[4], r[5]), (None, None, None), "{r:?}");
    }

    #[test]
    fn a_signature_alone_on_its_line_takes_its_posts_text() {
        // X's header above the text, and its embed code's signature below it.
        let r = paragraphs_of(&[
            &[PROSE[0]],
            &["Préfet de Lot-et-Garonne @Prefet47 · 17 mars 2026"],
            &["⚠️ Crue de la #Garonne : ne vous engagez sous aucun prétexte sur une route submergée.", "52 routes sont fermées."],
            &[PROSE[1]],
            &["⚠️ Rajadas de vento acima de 80 km/h na Grande SP nas próximas horas.", "Evite áreas arborizadas."],
            &["Defesa Civil SP (@defesacivilsp) 5 de fevereiro de 2026"],
            &[PROSE[2]],
        ]);
        assert_eq!(r[1..4], [Some(Reason::EmbeddedPost); 3], "{r:?}");
        assert_eq!(r[5..8], [Some(Reason::EmbeddedPost); 3], "{r:?}");
        assert_eq!((r[0], r[4], r[8]), (None, None, None), "{r:?}");
        // A header with the handle in brackets; and a post whose line ends
        // in its signature, whose neighbours are the article's.
        let r = paragraphs_of(&[
            &["Merkez Bankası karar metnini resmi sosyal medya hesabından da paylaştı."],
            &["Türkiye Cumhuriyet Merkez Bankası (@TCMB) · 11 Haz 2026"],
            &["Para Politikası Kurulu, politika faizini yüzde 31'e indirmiştir."],
            &[PROSE[0]],
            &["La cifra ufficiale è arrivata poco dopo le 13. — INGV (@INGVterremoti) 17 aprile 2026"],
            &[PROSE[1]],
        ]);
        assert_eq!((r[0], r[2], r[3], r[5]), (None, Some(Reason::EmbeddedPost), None, None), "{r:?}");
        // Where the post's text was left out, the line that introduces it stays.
        let r = paragraphs_of(&[
            &[PROSE[0]],
            &["O aviso também foi publicado nas redes sociais da Defesa Civil, que pediu cautela:"],
            &["Defesa Civil SP (@defesacivilsp) 5 de fevereiro de 2026"],
            &[PROSE[1]],
        ]);
        assert_eq!((r[0], r[3]), (None, None), "{r:?}");
        assert_ne!(r[1], Some(Reason::EmbeddedPost), "{r:?}");
    }

    #[test]
    fn a_weibo_post_opens_with_its_topic() {
        let r = paragraphs_of(&[
            &[PROSE[0]],
            &["【#台风青鸾登陆#！", "中心附近最大风力15级】据广东省气象台，台风已于今天15时40分前后登陆。", "请注意防范！"],
            &["@中国气象局 #台风白鹿# 【台风橙色预警】“白鹿”已于今晨在广东徐闻沿海登陆。", "请相关地区做好防御工作。"],
            &["网友在#台风白鹿#话题下留言，分享各地的风雨情况。", "气象部门提醒市民注意安全。"],
            &[PROSE[1]],
        ]);
        assert_eq!(r[1..6], [Some(Reason::EmbeddedPost); 5], "{r:?}");
        assert_eq!(r[6..], [None, None, None], "{r:?}");
    }

    #[test]
    fn a_gallery_scraped_with_its_pictures_file_names() {
        let r = paragraphs_of(&[
            &[PROSE[0]],
            &[
                "A student holds a burning replica of a US flag during a protest in Manila 89e2ecba-5456-11e0-8d67-af1915c87db7.jpg À Manille, un étudiant brûle un drapeau américain.",
                "Les bombardements ont touché le port de Tripoli, selon la télévision d'État, qui a montré des images de la nuit.",
            ],
            &["The agency accepts pictures as JPG or PNG files, and .jpg is the most common format sent in by readers."],
        ]);
        assert_eq!(r[1], Some(Reason::Link));
        assert_eq!((r[0], r[2], r[3]), (None, None, None));
    }

    #[test]
    fn posts_quoted_under_their_handle() {
        let r = paragraphs_of(&[
            &[PROSE[0]],
            &["@iyad_elbaghdadi: Confirmado: cañones antiaéreos usados contra los manifestantes.", "22 muertos, cientos de heridos."],
            &["@Razaniyat Un amigo en #Aleppo tiene un módem 3G, me cuenta que no le funciona."],
            &["@realDonaldTrump said on Monday that the trade talks with China were going very well indeed, his aides said."],
            &[PROSE[1]],
            &[PROSE[2]],
        ]);
        assert_eq!(r[1..4], [Some(Reason::EmbeddedPost); 3]);
        assert_eq!((r[0], r[4], r[5], r[6]), (None, None, None, None));
    }

    #[test]
    fn posts_quoted_from_their_first_tag() {
        let r = paragraphs_of(&[
            &[PROSE[0]],
            &["#Mubarak gobierna #Egipto desde 1981."],
            &["#AntiCoup alliance confirm that today's rallies end with the evening and funeral prayers."],
            &["@anasqtiesh\"porter atteinte au sentiment national\", c'est ce qui est reproché aux militants."],
            &["The actor ended his post with #Takei2018 and a link to the article announcing his run."],
            &["#Takei2018,\" the actor wrote, along with a link to a Daily Buzz article announcing his run."],
            &["Lyft quickly admitted the wearable was a prank, but the company did get a model to try one out.", "#GetMono"],
            &[PROSE[1]],
        ]);
        assert_eq!(r[1..4], [Some(Reason::EmbeddedPost); 3]);
        assert_eq!((r[0], r[4], r[5], r[6], r[8]), (None, None, None, None, None));
        assert_ne!(r[7], Some(Reason::EmbeddedPost), "a lone tag is no post");
    }

    #[test]
    fn what_the_page_embeds_between_its_skip_and_end_marks() {
        let r = paragraphs_of(&[
            &[PROSE[0]],
            &["Skip twitter post by Met Office"],
            &["Heat health alert upgraded to amber for the whole of England.", "Stay out of the sun."],
            &["End of twitter post by Met Office"],
            &[PROSE[1]],
            &["Skipping lunch is no cure, the doctor said on Tuesday at the clinic."],
            &[PROSE[2]],
        ]);
        assert!(r[1..5].iter().all(|x| x.is_some()), "{r:?}");
        assert_eq!((r[0], r[5], r[6], r[7]), (None, None, None, None));
    }
}
