//! The cue phrases of the 16 languages (credits, widgets, stamps, notices,
//! appeals, related links, editors' notes), by the reason they give, and
//! their look-up.

use super::line::{opens_with_word, Features};
use super::links::link;
use super::reason::Reason;

/// Cue phrases at the start of a short line (`starts`) or anywhere in it
/// (`contains`), lowercase, colons without the space before them.
struct Cues {
    reason: Reason,
    /// The `starts` are words: one matches only as a word of its own
    /// ([`opens_with_cue`]).
    whole_words: bool,
    max_words: f32,
    starts: &'static [&'static str],
    contains: &'static [&'static str],
}

/// Marks of a photo credit anywhere in a short line, or in the first words
/// of a long one ([`opens_with_photo_credit`](super::credits::opens_with_photo_credit)).
pub(super) const PHOTO_CREDIT_MARKS: &[&str] = &[
    "undated photo", "file photo", "photo provided by", "buy photo", "getty images", "/ getty", "/getty", "via getty",
    "/ afp", "/ reuters", "shutterstock", "/ ap photo", "(ap photo", "/ ap ",
    // A picture's licence: "… en Flickr usada bajo CC BY 2.0", "(CC BY-NC-SA 2.0)".
    "cc by", "cc-by", "creative commons",
    // Thai: "(file photo)".
    "ภาพจากแฟ้ม",
];

const CUES: &[Cues] = &[
    Cues {
        reason: Reason::PhotoCredit,
        whole_words: false,
        max_words: 20.0,
        starts: &[
            "photo:", "photos:", "image:", "images:", "picture:", "photograph:", "photo credit", "image credit",
            "(photo", "(photos", "photo by", "photograph by", "image by", "caption:", "video:", "credit:", "credits:", "source:", "crédit photo", "crédits photo", "crédit:",
            "foto:", "fotos:", "imagen:", "fuente:", "bild:", "quelle:", "fonte:", "imagem:", "beeld:", "bron:",
            // "Foto compartida por kudumomo en Flickr …", "Photo partagée par …",
            // "Imagen de @Qoutb (Twitter).": who took or shared the picture.
            "foto de ", "foto por ", "foto compartida", "fotografía de ", "imagen de ", "imagen del usuario",
            "imagen compartida", "photo de ", "photo partagée", "photo prise par", "image téléchargée",
            "image partagée", "foto di ", "foto von ", "bild von ",
            "fot.", "zdjęcie:", "źródło:", "фото:", "фото ", "источник:", "fotoğraf:", "kaynak:", "صورة:",
            "المصدر:", "تصوير:", "图片来源", "图片:", "图:", "来源:", "摄影:", "资料图", "写真:", "出典:",
            "提供:", "사진=", "사진:", "출처:", "ภาพ:", "ที่มา:", "ขอบคุณภาพ", "เครดิตภาพ", "ที่มาภาพ", "ที่มาของภาพ", "คลิป:",
            "ขอบคุณคลิป", "ภาพจาก:",
            // The BBC's caption and credit labels in its languages ("คำบรรยายภาพ, …").
            "image caption", "image source", "pie de foto", "fuente de la imagen", "légende image", "crédit image",
            "bildunterschrift", "bildquelle", "legenda da foto", "fonte da imagem", "подпись к фото", "автор фото",
            "görsel kaynağı", "görsel açıklaması", "مصدر الصورة", "التعليق على الصورة", "图片说明", "图片来源", "圖像來源",
            "圖像加註文字", "画像提供", "画像説明", "사진 출처", "사진 설명", "คำบรรยายภาพ",
        ],
        contains: PHOTO_CREDIT_MARKS,
    },
    Cues {
        reason: Reason::Credit,
        whole_words: false,
        max_words: 30.0,
        starts: &[
            "written by", "directed by", "starring ", "reporting by", "edited by", "with reporting by", "additional reporting",
            "เรื่อง:", "คอลัมน์ ", "ขอบคุณข้อมูลจาก",
        ],
        contains: &[
            "contributed to this report", "contributed reporting", "contributed to this story", "editing by",
            "writing by", "first appeared in", "originally appeared", "originally published", "made possible",
            "责任编辑", "编辑:", "記者:", "기자 =",
        ],
    },
    Cues {
        // Thai "by" opens a byline, and clauses too: only a short line, as
        // long as a desk's and a site's name ("โดย ทีมข่าวเศรษฐกิจ
        // ประชาชาติธุรกิจ", 7.5 words as the rules count Thai).
        reason: Reason::Credit,
        whole_words: false,
        max_words: 8.0,
        starts: &["โดย "],
        contains: &[],
    },
    Cues {
        reason: Reason::Copyright,
        whole_words: false,
        max_words: 40.0,
        starts: &["copyright", "(c) 1", "(c) 2"],
        contains: &[
            "©", "all rights reserved", "tous droits réservés", "todos los derechos reservados", "alle rechte vorbehalten",
            "tutti i diritti riservati", "todos os direitos reservados", "alle rechten voorbehouden", "wszelkie prawa zastrzeżone",
            "все права защищены", "tüm hakları saklıdır", "جميع الحقوق محفوظة", "版权所有", "版權所有", "无权转载", "不得轉載",
            "無断転載", "無断複製", "許可なく転載", "転載を禁じ", "不得转载", "禁止转载", "무단전재", "무단 전재", "재배포 금지",
            "สงวนลิขสิทธิ์",
            // A wire's terms, in English on any page ("No reproduction or republication without written permission.").
            "no reproduction or republication", "may not be published, broadcast",
        ],
    },
    Cues {
        reason: Reason::BrowserNotice,
        whole_words: false,
        max_words: 60.0,
        starts: &[],
        contains: &[
            "enable javascript", "javascript is disabled", "javascript enabled", "uses cookies", "use of cookies",
            "accept cookies", "our cookie", "javascript", "not available right now", "your browser", "supported browser", "utilise des cookies",
            "utiliza cookies", "verwendet cookies", "использует cookie", "usamos cookies", "utilizamos cookies",
            "nous utilisons des cookies", "wir verwenden cookies", "su navegador", "tu navegador", "votre navigateur",
            "ihr browser", "il tuo browser", "seu navegador", "ваш браузер",
            // Consent banners, in each language's usual words.
            "we use cookies", "this site uses cookies", "this website uses cookies", "cookie policy", "cookie settings",
            "our privacy policy", "manage your preferences", "manage preferences", "by continuing to browse",
            "by continuing to use this site", "store and/or access information on a device",
            "política de cookies", "nuestra política de privacidad", "gestionar tus preferencias", "gestionar preferencias",
            "nosotros y nuestros socios", "si continúa navegando", "si continúas navegando", "aceptar todas las cookies",
            "politique de cookies", "politique de confidentialité", "gérer mes choix", "nous et nos partenaires",
            "en poursuivant votre navigation", "paramétrer les cookies", "votre consentement",
            "cookie-richtlinie", "datenschutzerklärung", "wenn sie weitersurfen", "stimmen sie der verwendung",
            "„alle akzeptieren“", "\"alle akzeptieren\"", "ihre einwilligung können sie", "datenschutzeinstellungen",
            "externe inhalte angezeigt", "externen inhalt von", "an drittplattformen",
            "utilizziamo cookie", "utilizza cookie", "noi e terze parti", "il tuo consenso", "informativa sulla privacy",
            "acconsenti all'uso", "gestisci preferenze", "gestisci le preferenze",
            // The link the banner points to: "… depuis le lien « Préférences cookies » en bas de page."
            "préférences cookies", "gérer mes cookies", "gérer les cookies", "preferenze cookie", "cookie di profilazione",
            "configuración de cookies", "preferencias de cookies", "cookie-einstellungen", "cookie preferences",
            "preferências de cookies",
            // "Wir und unsere Partner verwenden Cookies und ähnliche Technologien, …".
            "cookies und ähnliche technologien", "cookies and similar technologies", "cookies et technologies similaires",
            "cookies et autres traceurs", "cookies y tecnologías similares", "cookie e tecnologie simili",
            "cookies en vergelijkbare technologieën", "cookies en vergelijkbare technieken", "cookie-instellingen", "cookies e tecnologias semelhantes", "ihre einwilligung jederzeit",
            "benötigen ihre zustimmung",
            "política de privacidade", "ao continuar navegando", "ao continuar a navegar", "utilizamos cookies e",
            "maakt gebruik van cookies", "gebruik van cookies", "wij gebruiken cookies", "cookiebeleid",
            "privacyverklaring", "dpg media en haar partners",
            "plików cookies", "pliki cookies", "polityka prywatności", "polityce prywatności", "twoją prywatność",
            "akceptuję i przechodzę", "my i nasi partnerzy",
            "cookie-файлы", "файлы cookie", "файлов cookie", "политикой конфиденциальности", "политика конфиденциальности",
            "обработку персональных данных",
            "çerezler kullan", "çerez politika", "kvkk kapsamında", "kişisel verileriniz",
            "ملفات تعريف الارتباط", "سياسة الخصوصية",
            "《隐私政策》", "《隱私權政策》", "私隱政策", "同意我们的", "同意我們的", "使用cookie", "使用 cookie", "cookies以", "cookie以",
            "cookieを", "クッキー", "プライバシーポリシー", "쿠키", "개인정보처리방침", "개인정보 처리방침",
            // A sign-up form's note on the reader's data rights ("… vous
            // disposez d'un droit d'accès, de rectification …"): the rights
            // listed together, as only such notes list them.
            "droit d'accès, de rectification", "droit d'accès et de rectification", "droits d'accès, de rectification",
            "right to access, rectify", "rights of access, rectification", "right of access, rectification",
            "derechos de acceso, rectificación", "derecho de acceso, rectificación", "auskunft, berichtigung",
            "diritti di accesso, rettifica", "diritto di accesso, rettifica", "direitos de acesso, retificação",
            "direito de acesso, retificação", "recht op inzage, correctie", "prawo dostępu do treści swoich danych",
            "คุกกี้", "นโยบายความเป็นส่วนตัว",
            // Error pages scraped in place of the article.
            "page you requested", "page you are looking for", "page you were looking for", "could not be found", "page not found",
            "no longer be here", "from a bookmark", "page url", "page introuvable", "página no encontrada", "seite nicht gefunden",
            // A blog host's page in place of a moved blog.
            "domain mapping",
        ],
    },
    Cues {
        reason: Reason::Stamp,
        whole_words: false,
        max_words: 12.0,
        starts: &[
            "posted ", "posted:", "updated ", "updated:", "published ", "published:", "last updated", "last modified",
            "publié le", "publié aujourd", "publié hier", "mis à jour", "publicado ", "actualizado", "veröffentlicht", "aktualisiert", "stand:",
            "pubblicato", "aggiornato", "atualizado", "gepubliceerd", "bijgewerkt", "opublikowano", "aktualizacja",
            "опубликовано", "обновлено", "yayınlanma", "güncelleme", "نشر في", "تم التحديث", "发布时间", "更新时间",
            "发表于", "投稿日", "更新日", "입력", "수정", "เผยแพร่", "อัปเดต", "แก้ไขล่าสุด",
        ],
        // A reading time: "Temps de Lecture 3 min.", "Tiempo de lectura: 4 min".
        contains: &[
            "temps de lecture", "tiempo de lectura", "lesezeit", "tempo di lettura", "tempo de leitura", "leestijd",
            "время чтения", "阅读时间",
        ],
    },
    Cues {
        reason: Reason::Widget,
        whole_words: true,
        max_words: 8.0,
        starts: &[
            "share", "tweet", "email this", "e-mail this", "print this", "subscribe", "sign up", "follow us", "follow ",
            "what is your reaction", "what's your reaction", "quelle est votre réaction", "¿cuál es tu reacción",
            "like us", "read more", "read the full", "learn more", "see more", "see also", "more:", "click here",
            "continue reading", "advertisement", "sponsored", "recommended", "related:", "also:", "watch:", "listen:",
            "previously:", "comments", "leave a comment", "log in", "sign in", "newsletter", "download the",
            "play video", "play facebook", "play twitter", "skip to", "back to top", "jump to",
            // fr
            "partager", "lire aussi", "lire la suite", "à lire aussi", "voir aussi", "publicité", "abonnez-vous",
            "s'abonner", "inscrivez-vous", "suivez-nous",
            // es
            "compartir", "lea también", "lee también", "leer más", "publicidad", "suscríbete", "ver más",
            "te puede interesar", "síguenos",
            // de
            "teilen", "mehr zum thema", "lesen sie auch", "lesen sie mehr", "anzeige", "weiterlesen", "abonnieren",
            "folgen sie uns",
            // it
            "condividi", "leggi anche", "pubblicità", "iscriviti", "seguici",
            // pt
            "compartilhar", "leia também", "leia mais", "publicidade", "assine", "siga-nos",
            // nl
            "delen", "lees ook", "lees meer", "advertentie", "abonneer", "volg ons",
            // pl
            "udostępnij", "czytaj też", "czytaj także", "czytaj więcej", "reklama", "zobacz też", "zobacz także",
            // ru
            "поделиться", "читайте также", "реклама", "подписаться", "подпишитесь", "читать далее", "смотрите также",
            // tr
            "paylaş", "ayrıca okuyun", "reklam", "abone ol", "devamını oku", "ilginizi çekebilir",
            // ar
            "شارك", "اقرأ أيضا", "اقرأ أيضاً", "إعلان", "اشترك", "تابعونا", "اقرأ المزيد",
            // zh, ja, ko, th
            "分享", "相关阅读", "相关新闻", "相关报道", "广告", "订阅", "阅读全文", "点击查看", "延伸阅读", "扫码",
            "シェア", "関連記事", "広告", "続きを読む", "공유", "공유하기", "관련기사", "광고", "구독", "구독하기", "แชร์", "อ่านเพิ่มเติม",
            "โฆษณา", "ข่าวยอดนิยม", "ข่าวที่เกี่ยวข้อง", "อ่านข่าวที่เกี่ยวข้อง", "ข่าวล่าสุด", "เรื่องแนะนำ", "ข้ามโพสต์", "สิ้นสุดโพสต์",
            "สิ้นสุด เรื่องแนะนำ", "ข้ามเรื่องแนะนำ", "กดติดตาม", "กดแชร์", "ชอบบทความนี้", "ดาวน์โหลดแอป",
            "ชมคลิปเต็ม", "สนับสนุนโดย", "ติดตามข่าว", "รับข่าว",
        ],
        contains: &[],
    },
    Cues {
        // A page's tags and references, as long as their lists run.
        reason: Reason::Widget,
        whole_words: false,
        max_words: 30.0,
        starts: &[
            "tags:", "tag:", "étiquettes:", "mots-clés:", "etiquetas:", "temas:", "schlagwörter:", "schlagworte:", "argomenti:",
            "tags relacionadas", "trefwoorden:", "tagi:", "теги:", "метки:", "etiketler:", "الوسوم:", "标签:", "標籤:", "タグ:",
            "태그:", "แท็ก:", "แท็ก ", "แท็กที่เกี่ยวข้อง", "อ้างอิง:",
            // A Thai site's menu from its home page, without arrows: "หน้าแรก ข่าว การเมือง …".
            "หน้าแรก ",
        ],
        contains: &[],
    },
    Cues {
        // The Internet Archive's notes on its crawls, scraped in place of
        // pages that were gone.
        reason: Reason::Boilerplate,
        whole_words: false,
        max_words: 80.0,
        starts: &[],
        contains: &[
            "internet archive", "wayback machine", "archive-it", "crawl data", "crawler", "web crawl", "these crawls", "this crawl",
            "seed list", "seedlist", "broken links on the web", " crawls ", "web captures", "linked-to domain",
            "inter-domain navigational",
        ],
    },
    Cues {
        reason: Reason::Widget,
        whole_words: false,
        max_words: 30.0,
        starts: &[
            "please ", "thank you for", "click below", "thanks for", "watch ", "only on ", "read on", "for more on", "for the latest",
            "want more", "for more coverage", "by submitting", "send us", "read:", "stuur ons ",
            // A site's contact line ("Conmutador: 618.813.7080 | Publicidad ext 104, …").
            "phone:", "tel:", "tel.:", "fax:", "conmutador:", "teléfono:", "téléphone:", "tél.:", "telefon:", "telefono:",
            "telefone:", "телефон:",
        ],
        contains: &[
            "mailing list", "sign up for", "sign up now", "subscribe to our", "delivered straight to your",
            // A newsletter offered, not one a source edits ("… the editor of
            // an independent political newsletter in Washington.").
            "our newsletter", "the newsletter", "newsletters", "newsletter!", "newsletter sign", "newsletter delivered",
            "free newsletter", "daily newsletter", "weekly newsletter", "email newsletter", "e-mail newsletter",
            "newsletter abonnieren", "notre newsletter", "votre newsletter", "nuestra newsletter", "na newsletter", "รับ newsletter",
            "click here", "after the jump", "your tweets", "location information",
            // "… ได้ทาง Facebook, X และ LINE": follow the site elsewhere.
            "ได้ทาง facebook", "ได้ทาง line", "ได้ทุกช่องทาง", "ทาง line oa", "แบบเรียลไทม์ได้ทาง", "สมัครจดหมายข่าว", "ส่งตรงถึงอีเมล", "ได้ที่ facebook",
            "คลิกที่นี่", "คลิกเลย",
            // A TikTok post's sound: "… #ข่าวtiktok ♬ เสียงต้นฉบับ - …", "♬ original sound".
            "♬",
            // Forms: a petition's, a shop's, a sign-up's.
            "in your email", "check your email", "your inbox", "into your account", "your signature",
        ],
    },
    Cues {
        // It points at what the page shows elsewhere: a table, a video, a list.
        reason: Reason::PageReference,
        whole_words: false,
        max_words: 30.0,
        starts: &[
            "below,", "below is", "below are", "here are the", "here's a look", "here is a look", "ci-dessous", "a continuación,",
            "here are 1", "here are 2", "here are 3", "here are 4", "here are 5", "here are 6", "here are 7", "here are 8",
            "here are 9",
        ],
        contains: &[
            "provided below", "listed below", "shown below", "see below", "watch below", "video below", "video above",
            "compiled a list", ", here are 1", ", here are 2", ", here are 3", ", here are 4", ", here are 5", ", here are 6",
            ", here are 7", ", here are 8", ", here are 9", "download a copy", " here are ten ", " here are five ", "shown here",
            "we've collected", "we have collected", "we've rounded up", "we've compiled",
        ],
    },
    Cues {
        // A site's appeal to subscribe, donate or log in: polite full
        // sentences, which only their words give away.
        reason: Reason::Appeal,
        whole_words: false,
        max_words: 60.0,
        // A sentence that opens on "log in" in Thai is the form's button.
        starts: &["เข้าสู่ระบบ"],
        contains: &[
            // en
            "subscribe now", "subscribe for", "subscribe today", "for subscribers only", "exclusive to subscribers",
            "available to subscribers", "already a subscriber", "already have an account", "log in to", "sign in to",
            "create an account", "create a free account", "free articles", "unlimited access", "support our journalism",
            "support local journalism", "support independent journalism", "make a contribution", "donate now",
            "become a member", "reached your limit", "to continue reading",
            // Logging in to comment ("declined to comment" and "no estuvo
            // disponible para comentar" are reporting, so only the form's words).
            "to post a comment", "to comment, please", "pour commenter cet article", "pour commenter, ",
            "pour pouvoir commenter", "para comentar tienes", "para comentar debes", "para comentar es necesario",
            "per commentare gli articoli", "per commentare devi", "per commentare è necessario", "um kommentieren zu können",
            "aby dodać komentarz", "om te kunnen reageren", "чтобы оставить комментарий",
            // A site's channel on a messaging app: "Il Corriere è anche su WhatsApp: unisciti al canale …".
            "whatsapp channel", "canale whatsapp", "unisciti al canale", "chaîne whatsapp", "canal de whatsapp",
            "whatsapp-kanal",
            // es
            "suscríbete", "suscribirte", "ya eres suscriptor", "ya tienes una cuenta", "inicia sesión", "iniciar sesión",
            "regístrate", "acceso ilimitado", "apoya el periodismo", "hazte socio", "exclusivo para suscriptores",
            // fr
            "abonnez-vous", "réservé aux abonnés", "déjà abonné", "connectez-vous", "créez un compte", "créer un compte",
            "accès illimité", "soutenez notre", "soutenez-nous", "faites un don", "nous avons besoin de vous",
            "pour continuer à lire",
            // de
            "jetzt abonnieren", "abonnieren sie", "für abonnenten", "sie haben bereits ein abo", "bereits abonnent",
            "jetzt anmelden", "melden sie sich an", "registrieren sie sich", "unbegrenzten zugang", "unterstützen sie uns",
            "jetzt unterstützen", "weiterlesen mit",
            // it
            "abbonati a", "abbonati ora", "riservato agli abbonati", "hai già un abbonamento", "accedi o registrati",
            "registrati gratis", "sostieni il", "dona ora", "continua a leggere", "accesso illimitato", "sostienici",
            "diventa sostenitore", "diventa abbonato", "abbonati:", "grazie agli abbonamenti", "iscriviti alla newsletter",
            "indirizzo email per riceverla",
            // pt
            "assine o", "assine já", "exclusivo para assinantes", "já é assinante", "faça login", "cadastre-se",
            "acesso ilimitado", "apoie o jornalismo", "continue lendo", "para salvar este conteúdo",
            // nl
            "neem een abonnement", "heb je al een abonnement", "word abonnee", "onbeperkt lezen", "steun onze",
            "gratis artikel van", "abonneer je", "al abonnee", "wil je reageren", "maak gratis een account",
            "log in met je", "wij en onze partners",
            // pl
            "w ramach subskrypcji", "z subskrypcją", "masz już subskrypcję", "zaloguj się", "zarejestruj się",
            "masz już konto", "wesprzyj", "nieograniczony dostęp", "szanowny czytelniku", "to tylko fragment",
            "wykup prenumeratę", "aby czytać dalej", "kup dostęp", "czytaj bez ograniczeń", "w subskrypcji",
            "przejdź do serwisu", "na twoją skrzynkę",
            // ru
            "оформите подписку", "входит в подписку", "по подписке", "войдите", "зарегистрируйтесь", "поддержите нас",
            "поддержать редакцию",
            // tr
            "abone ol", "aboneliğ", "giriş yapmalısınız", "giriş yapın", "üye ol", "bağışla destek", "destek olun",
            "okumaya devam etmek için",
            // ar
            "اشترك الآن", "للمشتركين", "سجل الدخول", "تسجيل الدخول", "ادعم", "وصول غير محدود",
            // "Donate now", not "donations" ("حملات لجمع التبرعات", "حملة التبرع بالدم").
            "تبرع الآن", "تبرّع الآن", "اضغط هنا للتبرع",
            // zh
            "点击订阅", "欢迎订阅", "立即订阅", "訂閱", "付费内容", "付費內容", "会员专属", "會員專屬", "请登录", "請登入",
            "立即登录", "注册", "註冊", "赞赏", "贊賞", "小额捐款", "小額捐款", "支持我们", "支持我們", "成为会员", "成為會員",
            // ja
            "会員限定", "有料会員", "有料記事", "ログインすると", "ログインして", "会員登録", "登録すると", "購読",
            // ko
            "구독하고", "구독하기", "구독 신청", "구독자 전용", "로그인", "회원가입", "후원하기", "후원해", "전용 콘텐츠",
            // th
            // "เข้าสู่ระบบ" is "log in" only as a form's words: in a sentence it
            // is "entered the … system" ("… เข้าสู่ระบบคุมประพฤติแล้ว 5,214 คดี").
            "สมัครสมาชิก", "เข้าสู่ระบบเพื่อ", "เข้าสู่ระบบ หรือ", "เข้าสู่ระบบ |", "เข้าสู่ระบบ /", "? เข้าสู่ระบบ", "ร่วมสนับสนุน", "สมัครรับจดหมายข่าว", "ลงทะเบียนรับจดหมายข่าว", "เพิ่มเพื่อนทาง line",
            "คลิกเพิ่มเพื่อน", "สมัครวันนี้", "เดือนแรกฟรี", "ได้ไม่จำกัด", "สมัครรับข่าวสาร", "กรอกอีเมลของคุณ",
            // newsletters delivered to the reader, any language
            "straight to your inbox", "l'essentiel de l'actualité", "dans votre boîte mail", "dans votre boîte e-mail",
            "en tu correo", "en tu bandeja", "in ihr postfach", "nella tua casella", "in je mailbox", "in uw mailbox",
            "no seu e-mail", "no seu email", "на вашу почту", "e-posta adresinize", "النشرة البريدية", "نشرتنا البريدية",
            "إلى بريدك",
            // newsletters and offers, any language
            "votre abonnement", "profitez de notre offre", "sans engagement", "рассылк", "оставьте свой e-mail",
            // Every article offered: "Mit einem Main-Post-Abo lesen Sie alle Artikel ohne Einschränkung …".
            "read all our articles", "access to all articles", "lesen sie alle artikel", "alle artikel ohne einschränkung",
            "zugriff auf alle artikel", "lire tous nos articles", "accès à tous nos articles", "accédez à tous nos",
            "accede a todos nuestros", "acceso a todos los contenidos", "leggi tutti gli articoli", "accesso a tutti gli articoli",
            "acesso a todo o conteúdo", "acesso a todos os conteúdos", "lees alle artikelen", "toegang tot alle artikelen",
            "dostęp do wszystkich artykułów", "доступ ко всем материалам", "tüm içeriklere erişim", "読み放題", "畅读", "暢讀",
            "поддержите редакцию", "quotes delayed", "data is delayed",
            // A newsletter's sign-up: where it lands, and that it can be left.
            "ins postfach", "unser newsletter", "kostenlos anmelden", "w twojej skrzynce", "unsubscribe at any time",
            "désinscrire à tout moment", "désabonner à tout moment", "darte de baja en cualquier momento",
            "darse de baja en cualquier momento", "jederzeit abbestellen", "jederzeit wieder abmelden",
            "disiscriverti in qualsiasi momento", "descadastrar a qualquer momento", "op elk moment afmelden",
            "zrezygnować w każdej chwili", "отписаться в любой момент", "随时取消订阅", "隨時取消訂閱",
            // A tip line: "Heb je een tip voor de redactie?", "Wyślij nam
            // zdjęcia lub nagranie na Kontakt24."
            "tip voor de redactie", "have a news tip", "got a news tip", "send us your photos", "send us your videos",
            "wyślij nam zdjęcia", "wyślij nam swoje zdjęcia", "prześlij nam zdjęcia", "envoyez-nous vos photos",
            "envíanos tus fotos", "envíanos tus vídeos", "schicken sie uns ihre fotos", "inviaci le tue foto",
            "envie suas fotos", "stuur ons je foto", "пришлите нам фото", "присылайте нам фото",
            // A sign-up's button ("Jetzt kostenlos abonnieren.").
            "kostenlos abonnieren",
        ],
    },
    Cues {
        // Another article behind its label, at any length.
        reason: Reason::RelatedLink,
        whole_words: false,
        max_words: 40.0,
        starts: &[
            "read also:", "read more:", "related:", "► related:", "see also:", "more:", "watch:", "most read",
            "lea también:", "lee también:", "leer más:", "te puede interesar", "lire aussi:", "à lire aussi:", "voir aussi:",
            "lesen sie auch:", "mehr zum thema:", "leggi anche:", "leggi anche", "leia também:", "leia mais:",
            "lees ook:", "lees meer:", "czytaj też:", "czytaj także:", "czytaj więcej:", "zobacz też:", "zobacz także:",
            "читайте также:", "смотрите также:", "ilgili haber:", "okumaya devam edin:", "ayrıca okuyun:",
            "اقرأ أيضا:", "اقرأ أيضاً:", "اقرأ أيضا", "اقرأ أيضاً", "相关阅读:", "相关新闻:", "延伸阅读:", "延伸閱讀:",
            "相關新聞:", "関連記事:", "관련기사:", "อ่านข่าว:", "อ่านเพิ่มเติม:", "ข่าวที่น่าสนใจ:", "ข่าวที่เกี่ยวข้อง:",
            "อ่านข่าวที่เกี่ยวข้อง:", "อ่านบทความ:", "ข่าวแนะนำ", "คลิกอ่าน", "อ่านข่าวต้นฉบับ", "ข่าวอื่นๆ ที่น่าสนใจ", "บทความที่เกี่ยวข้อง",
            "บทความอื่นของผู้เขียน", "ข่าวที่คุณอาจสนใจ", "เรื่องที่เกี่ยวข้อง",
        ],
        contains: &[],
    },
    Cues {
        // Notes on the story, not the story, at any length: "UPDATE: …",
        // "Editor's note: …", "This story has been corrected…".
        reason: Reason::EditorNote,
        whole_words: false,
        max_words: 120.0,
        starts: &[
            "update:", "updated:", "editor's note", "editor’s note", "editors' note", "editors’ note", "correction:",
            "clarification:", "note:", "exclusive:", "breaking:", "exclusiva:", "exclusivo:", "exclusif:", "exclusivité:",
            "exklusiv:", "esclusiva:", "esclusivo:", "this story has been", "this story was", "this article has been",
            "this article was", "this post has been", "this post was", "this report has been",
            // A site's note that the post belongs to a series (Global Voices in every language).
            "this post is part of", "this article is part of", "este post es parte", "este post forma parte",
            "este artículo es parte", "este artículo forma parte", "esta publicación es parte",
            "esta publicación forma parte", "ce billet fait partie", "cet article fait partie",
            "questo post fa parte", "este post faz parte", "dieser beitrag ist teil",
            "mise à jour", "note de la rédaction", "actualización:", "nota del editor", "nota de la redacción",
            "anmerkung der redaktion", "korrektur:", "aggiornamento:", "nota della redazione", "atualização:", "nota da redação",
            "обновление:", "от редакции", "güncelleme:", "editörün notu", "更新：", "更新:", "编者按", "追記", "수정:",
        ],
        // An opinion page's disclaimer.
        contains: &[
            "views expressed", "opinions expressed", "may not reflect the views", "les opinions exprimées",
            "n'engagent que leur auteur", "la opinión del autor", "no refleja necesariamente", "die meinung des autors",
            "мнение автора может не совпадать", "l'opinione dell'autore", "a opinião do autor", "yazarın görüşleri",
            "ความคิดเห็นส่วนตัวของผู้เขียน", "ความเห็นของกองบรรณาธิการ", "ความเห็นในบทความนี้เป็นของผู้เขียน",
            "ไม่จำเป็นต้องสอดคล้องกับจุดยืน",
            // A market page's disclaimer ("免责声明：本文内容与数据仅供参考，不构成投资建议…").
            "免责声明", "免責聲明", "不构成投资建议", "不構成投資建議", "风险自担", "風險自負", "not investment advice",
            "does not constitute investment advice",
        ],
    },
    Cues {
        // The page speaking of itself: a live blog's note on what it
        // follows, an article's note that it is being updated. No sentence
        // of the story names "this live blog" or "this article".
        reason: Reason::EditorNote,
        whole_words: false,
        max_words: 40.0,
        starts: &[],
        contains: &[
            "this live blog", "this liveblog", "our live blog", "our live coverage", "this article will be updated",
            "this article is being updated", "this story will be updated", "this is a developing story",
            "this story is developing", "refresh for updates",
            "dans ce direct", "suivez notre direct", "dans notre direct", "retrouvez notre direct", "dans ce live",
            "cet article sera mis à jour", "cet article est mis à jour",
            "cet article est actualisé", "article mis à jour régulièrement",
            "en este directo", "sigue nuestro directo", "en nuestro directo", "este artículo se actualizará", "esta noticia se actualizará",
            "esta noticia está en desarrollo", "noticia en desarrollo", "noticia en ampliación",
            "diesem liveblog", "unserem liveblog", "diesem newsblog", "unserem newsblog", "diesem live-ticker",
            "unserem live-ticker", "dieser artikel wird laufend aktualisiert", "der artikel wird laufend aktualisiert",
            "dieser artikel wird aktualisiert", "dieser text wird laufend aktualisiert",
            "in questa diretta", "segui la diretta", "segui la nostra diretta", "l'articolo è in aggiornamento", "articolo in aggiornamento",
            "notizia in aggiornamento",
            "neste liveblog", "neste blog ao vivo", "nosso liveblog", "esta notícia está sendo atualizada",
            "matéria em atualização", "notícia em atualização", "esta notícia será atualizada",
            "dit liveblog", "deze liveblog", "ons liveblog", "onze liveblog", "dit artikel wordt bijgewerkt",
            "dit artikel wordt aangevuld", "dit bericht wordt aangevuld", "dit bericht wordt bijgewerkt",
            "w tej relacji na żywo", "w naszej relacji", "relacjonujemy na żywo", "artykuł jest aktualizowany", "artykuł będzie aktualizowany",
            "tekst jest aktualizowany", "tekst będzie aktualizowany", "materiał jest aktualizowany",
            "wiadomość jest aktualizowana", "informacja jest aktualizowana",
            "статья дополняется", "новость дополняется", "материал дополняется", "новость обновляется",
            "материал обновляется", "в нашей трансляции", "текстовой трансляции",
            "haber güncelleniyor", "haber güncellenecek", "bu canlı blog",
            "الخبر قيد التحديث", "جار تحديث الخبر", "جارٍ تحديث الخبر", "سيتم تحديث الخبر", "هذه التغطية المباشرة",
            "本文持续更新", "本文持續更新", "持续更新中", "持續更新中", "本文将持续更新", "本文將持續更新",
            "この記事は随時更新", "随時更新します", "随時更新しています", "이 기사는 업데이트", "기사는 계속 업데이트",
            "ข่าวนี้จะอัปเดต", "ข่าวนี้อยู่ระหว่างอัปเดต",
            // A live blog asking to reload it.
            "refresh the page", "refresh this page", "actualisez la page", "rafraîchissez la page", "seite aktualisieren",
            "seite neu laden", "ververs de pagina", "vernieuw de pagina", "recarga la página", "actualiza la página",
            "aggiorna la pagina", "atualize a página", "odśwież stronę", "relację prowadzimy", "обновите страницу",
            "sayfayı yenileyin", "刷新页面", "刷新頁面", "ページを更新", "새로고침", "รีเฟรชหน้า",
        ],
    },
    Cues {
        // A gallery's call to look: "Zobacz zdjęcia.", "Bekijk de foto's".
        reason: Reason::Widget,
        whole_words: false,
        max_words: 20.0,
        starts: &[
            "see the photos", "see photos", "see the pictures", "view the gallery", "view gallery", "watch the video",
            "voir les photos", "voir la vidéo", "regardez la vidéo", "mira las fotos", "ver fotos", "ver las fotos", "mira el vídeo",
            "fotos ansehen", "zur bildergalerie", "zur galerie", "guarda le foto", "guarda la gallery", "guarda il video",
            "veja as fotos", "veja fotos", "assista ao vídeo", "bekijk de foto", "bekijk hier de foto", "bekijk de video",
            "bekijk hier de video", "zobacz zdjęcia", "zobacz galerię", "zobacz wideo", "zobacz nagranie",
            "смотрите фото", "смотрите видео", "fotoğrafları gör", "videoyu izle", "شاهد الصور", "شاهد الفيديو",
            "ชมภาพ", "ชมคลิป", "ประมวลภาพ",
        ],
        contains: &[],
    },
];

pub(super) fn cue(f: &Features) -> Option<Reason> {
    CUES.iter().find_map(|cues| {
        let opens = |s: &&str| if cues.whole_words { opens_with_cue(f, s) } else { f.folded.starts_with(s) || label_behind_a_bar(&f.folded, s) };
        let hit = f.words <= cues.max_words && (cues.starts.iter().any(opens) || cues.contains.iter().any(|s| f.folded.contains(s)));
        hit.then_some(cues.reason)
    })
    .or_else(|| link(f).then_some(Reason::Link))
}

/// A label that the cues write with its colon, behind a bar instead: "Lire
/// aussi | Pourquoi les crues …" (Le Monde), "İLGİLİ HABER | Emekli maaşı …".
fn label_behind_a_bar(folded: &str, cue: &str) -> bool {
    cue.strip_suffix(':').is_some_and(|label| folded.strip_prefix(label).is_some_and(|rest| rest.starts_with(" |")))
}

/// Words after a cue with a plain sense that a button's label may run to
/// ("Delen op Facebook", "Share this article"); a sentence any longer that
/// opens with the word uses it plainly ("Delen van de stad liepen onder
/// water.", "광고 시장이 올해 10% 성장했다.", "شارك الآلاف في المسيرة.").
const CUE_LABEL_WORDS: f32 = 4.0;

/// Widget cues that are also plain words of a sentence: parts, shares,
/// advertising, a police report ("Anzeige"), taking part ("شارك"). An
/// imperative ("Assine a Folha: R$ 1,90 no primeiro mês.") has no such sense.
const PLAIN_SENSE: &[&str] = &[
    "share", "tweet", "comments", "recommended", "sponsored", "advertisement", "newsletter", "partager", "publicité",
    "compartir", "publicidad", "teilen", "anzeige", "condividi", "pubblicità", "compartilhar", "publicidade", "delen",
    "advertentie", "reklama", "реклама", "paylaş", "reklam", "شارك", "إعلان", "공유", "광고", "구독",
];

/// The line opens with the cue as a word of its own: "Share this", not
/// "Shares fell 3 percent."; "Reklama", not "Reklamacje wzrosły …"
/// (complaints rose); "공유", not "공유자전거" (a shared bicycle). In the scripts
/// that do not space their words (Chinese, Japanese, Thai …) a cue can
/// only be read as a prefix.
fn opens_with_cue(f: &Features, cue: &str) -> bool {
    let unspaced = cue.chars().next_back().is_some_and(crate::text::spaces_no_words);
    // "follow ", "related:" end their word themselves.
    let ends_its_word = !cue.ends_with(char::is_alphanumeric);
    if unspaced || ends_its_word {
        f.folded.starts_with(cue)
    } else {
        let plain_sentence = PLAIN_SENSE.contains(&cue) && f.ends_sentence && f.words > CUE_LABEL_WORDS;
        opens_with_word(&f.folded, cue) && !plain_sentence
    }
}

#[cfg(test)]
mod tests {
    use crate::segment::furniture::{classify_sentence, Reason};

    #[test]
    fn a_cue_is_a_word_of_its_own() {
        for prose in [
            "Shares fell 3 percent in early trading.",
            "Reklamacje wzrosły o połowę w tym roku.",
            "공유자전거 이용도 크게 늘었다.",
            "Delen van de stad liepen zondag onder water.",
            "광고 시장이 올해 10% 성장했다.",
            "Share prices fell sharply on Monday morning.",
            "شارك الآلاف في المسيرة يوم الجمعة.",
        ] {
            assert_eq!(classify_sentence(prose), None, "{prose}");
        }
        for widget in ["Share this article", "Delen", "Reklama", "공유하기", "シェアする", "Follow our presidential election coverage.", "Assine a Folha: R$ 1,90 no primeiro mês."] {
            assert!(classify_sentence(widget).is_some(), "{widget}");
        }
    }

    #[test]
    fn a_related_link_behind_a_bar_and_the_banners_cookie_link() {
        for related in [
            "Lire aussi | Pourquoi les crues de fin d’hiver sont-elles de plus en plus violentes dans le bassin de la Garonne ?",
            "İLGİLİ HABER | Emekli maaşı zammı için kritik hafta: Temmuz farkı ne kadar olacak?",
            "Czytaj także | Rząd przyjął projekt ustawy o ochronie ludności",
        ] {
            assert_eq!(classify_sentence(related), Some(Reason::RelatedLink), "{related}");
        }
        // Only a label of the cues: "Lire" alone is a word of the text.
        assert_ne!(classify_sentence("Lire | Écrire | Compter : les trois savoirs de base."), Some(Reason::RelatedLink));
        for banner in [
            "Vous pouvez accepter ou refuser ces traitements, ou modifier vos choix à tout moment depuis le lien « Préférences cookies » en bas de page.",
            "Puoi cambiare idea in qualsiasi momento dal link «Preferenze cookie» in fondo alla pagina.",
        ] {
            assert_eq!(classify_sentence(banner), Some(Reason::BrowserNotice), "{banner}");
        }
    }

    #[test]
    fn rights_offers_consent_sign_ups_tips_and_bylines_in_every_language() {
        let cases = [
            ("Tüm hakları saklıdır.", Reason::Copyright),
            ("Tutti i diritti riservati.", Reason::Copyright),
            ("No reproduction or republication without written permission.", Reason::Copyright),
            ("저작권자 © 연합뉴스 무단전재 및 재배포 금지", Reason::Copyright),
            ("Mit einem Main-Post-Abo lesen Sie alle Artikel ohne Einschränkung – den ersten Monat für 0,99 Euro.", Reason::Appeal),
            ("„Köln am Morgen“: Unser Newsletter bringt Ihnen jeden Werktag um 6 Uhr das Wichtigste aus der Stadt ins Postfach.", Reason::Appeal),
            ("Vous pouvez vous désinscrire à tout moment.", Reason::Appeal),
            ("Z subskrypcji możesz zrezygnować w każdej chwili.", Reason::Appeal),
            ("Heb je een tip voor de redactie?", Reason::Appeal),
            ("Wyślij nam zdjęcia lub nagranie na Kontakt24.", Reason::Appeal),
            ("Jetzt kostenlos abonnieren.", Reason::Appeal),
            ("許可なく転載することを禁じます。", Reason::Copyright),
            ("โดย ทีมข่าวเศรษฐกิจ ประชาชาติธุรกิจ", Reason::Credit),
            ("Wir und unsere Partner verwenden Cookies und ähnliche Technologien, um Inhalte zu personalisieren.", Reason::BrowserNotice),
            ("Conmutador: 618.813.7080 | Publicidad ext 104, 108 | Suscripciones ext.", Reason::Widget),
            ("免责声明：本文内容与数据仅供参考，不构成投资建议，使用前请核实。", Reason::EditorNote),
        ];
        for (line, reason) in cases {
            assert_eq!(classify_sentence(line), Some(reason), "{line}");
        }
        for prose in [
            "Der Verein will alle Artikel der Satzung bis zum Sommer überarbeiten.",
            "Die Zeitung hat rund 40.000 Abonnenten, sagte der Verleger.",
            "El teléfono de la víctima fue hallado en el río.",
            "Policja poprosiła mieszkańców, by wysłali zdjęcia zalanych ulic.",
            "โดยเฉพาะกลุ่มเสี่ยง ได้แก่ เด็กเล็ก ผู้สูงอายุ หญิงตั้งครรภ์",
        ] {
            assert_eq!(classify_sentence(prose), None, "{prose}");
        }
    }

    #[test]
    fn reading_times_are_stamps() {
        for stamp in ["Temps de Lecture 3 min.", "Tiempo de lectura: 4 min.", "Lesezeit: 2 Minuten."] {
            assert_eq!(classify_sentence(stamp), Some(Reason::Stamp), "{stamp}");
        }
        assert_eq!(classify_sentence("Le temps de lecture d'un roman varie selon les lecteurs et les genres littéraires."), None);
    }

    #[test]
    fn forms_a_blog_hosts_page_and_archive_notes() {
        let reasons = [
            "You must confirm your signature in your email for your vote to count.",
            "Morning Money Political intelligence on Washington and Wall Street — weekday mornings, in your inbox.",
            "Shop or log into your account to \"Skip the Month\" by the 5th of the month and you won't be charged.",
            "If you need additional information about domain mapping, please visit our help center.",
            "These web captures are available to the general public.",
            "Top ranked pages (up to a max of 100) from every linked-to domain using the Wide00012 inter-domain navigational link graph",
            "The campaign said it had collected 40,000 signatures, more than twice what the ballot requires.",
        ]
        .map(classify_sentence);
        assert_eq!(reasons[..3], [Some(Reason::Widget); 3]);
        assert_eq!(reasons[3], Some(Reason::BrowserNotice));
        assert_eq!(reasons[4..6], [Some(Reason::Boilerplate); 2]);
        assert_eq!(reasons[6], None);
    }

    #[test]
    fn a_sign_up_forms_note_on_data_rights() {
        let note = "Conformément à la loi informatique et liberté du 6 janvier 1978, mise à jour par la loi du 6 août 2004, \
                    vous disposez d'un droit d'accès, de rectification et de suppression des informations vous concernant.";
        assert_eq!(classify_sentence(note), Some(Reason::BrowserNotice));
        let news = "La CNIL rappelle que chaque citoyen peut demander aux entreprises quelles données elles détiennent sur lui.";
        assert_eq!(classify_sentence(news), None);
    }

    /// "เข้าสู่ระบบ" is a log-in form's words, or "entered the … system" in
    /// a Thai sentence.
    #[test]
    fn thai_log_in_forms_but_not_a_system_entered() {
        for form in ["เข้าสู่ระบบเพื่อแสดงความคิดเห็น", "เข้าสู่ระบบ หรือ สมัครสมาชิก เพื่อบันทึกบทความที่คุณสนใจ", "เข้าสู่ระบบ"] {
            assert_eq!(classify_sentence(form), Some(Reason::Appeal), "{form}");
        }
        let news = "ตั้งแต่วันที่ 11 เม.ย. มีคดีขับรถขณะเมาสุราเข้าสู่ระบบคุมประพฤติแล้ว 5,214 คดี";
        assert_eq!(classify_sentence(news), None);
    }

    /// A newsletter offered to the reader, in any language, is furniture; one
    /// that a source edits or writes is news (DUC2004 lost two such leads).
    #[test]
    fn newsletters_offered_but_not_newsletters_reported() {
        for offer in [
            "Get our free newsletter delivered every weekday morning.",
            "Newsletter abonnieren: „München heute“ – das Wichtigste aus der Stadt, jeden Morgen um 6 Uhr in Ihrem Postfach.",
            "Zapisz się na newsletter Bankier.pl i otrzymuj najważniejsze informacje ze świata finansów.",
            "Inscrivez-vous gratuitement à notre newsletter locale, envoyée chaque vendredi midi.",
        ] {
            assert!(classify_sentence(offer).is_some(), "{offer}");
        }
        for news in [
            "\"That's the problem,\" said Stuart Rothenberg, the editor of an independent political newsletter in Washington.",
            "The Mercers became his supporters after reading Access to Energy, an offbeat scientific newsletter that he wrote.",
        ] {
            assert_eq!(classify_sentence(news), None, "{news}");
        }
    }

    #[test]
    fn series_notes_browser_notices_and_empty_labels_in_spanish_and_french() {
        let reasons = [
            "Este post es parte de nuestra cobertura especial Levantamiento en Libia 2011.",
            "Ce billet fait partie de notre dossier central sur le soulèvement en Syrie 2011/12.",
            "Su navegador tiene las notificaciones bloqueadas.",
            "Quelle est votre réaction ?",
            "El tiempo en Sevilla: .",
            "Los rebeldes tomaron el control de Brega el martes, según fuentes de la oposición.",
            "Le ministre a dit : « Nous ne céderons pas. »",
        ]
        .map(classify_sentence);
        assert_eq!(reasons[..2], [Some(Reason::EditorNote); 2]);
        assert_eq!(reasons[2], Some(Reason::BrowserNotice));
        assert_eq!(reasons[3], Some(Reason::Widget));
        assert_eq!(reasons[4], Some(Reason::Colon));
        assert_eq!(reasons[5..], [None, None], "prose, and a colon that introduces a quote inside the sentence");
    }
}
