//! Why a sentence is not prose: the reasons the rules give, and the words a
//! user reads for each.

use std::fmt;

/// Why a sentence is not prose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// Mostly digits and symbols: phone numbers, times, scores, rules.
    Symbols,
    /// A link, an e-mail address or a social handle.
    Link,
    Copyright,
    PhotoCredit,
    Credit,
    /// Share, follow, subscribe, "read more", advertisement.
    Widget,
    /// "Posted on …", "Updated at …".
    Stamp,
    /// "Enable JavaScript", "This site uses cookies".
    BrowserNotice,
    /// Wholly in parentheses or brackets.
    Parenthesized,
    /// Ends in ':' — a label or a quote opener.
    Colon,
    /// Starts with a short all-caps label and a colon: "PHOTOS: …".
    LabelPrefix,
    Dateline,
    AllCaps,
    TitleCase,
    /// A line of its own without a sentence ending.
    NoEnding,
    /// One word (in a document of several sentences).
    TooShort,
    /// Only a date: prose of its paragraph, but no summary line
    /// (`says_nothing_alone`).
    DateAlone,
    /// "Voici quelques vidéos…", "Here are 18 facts…": presents what
    /// follows on the page, so alone it says nothing (`says_nothing_alone`).
    PointsAhead,
    /// The same short line in this many articles of the cluster.
    Repeated(usize),
    /// The same short line several times in one article.
    RepeatedInPage,
    /// A short line in the furniture that opens or closes the page.
    EdgeRun,
    /// Ends in "..." at the end of its line: a teaser or a cut-off line.
    CutOff,
    /// "…, Thursday, Dec. 20, 2012, in Chicago.": an agency photo caption.
    Caption,
    /// A sentence that recurs verbatim on the pages of many unrelated news
    /// sites (learned from Multi-News train pages; `boilerplate.txt`).
    Boilerplate,
    /// "Image caption …", "CLOSE …": a widget's label glued to the text.
    GluedLabel,
    /// "Headline Headline The story…": a headline printed twice.
    RepeatedHeadline,
    /// A tweet or post quoted by the page: "… — Name (@handle) June 20, 2017".
    EmbeddedPost,
    /// Ends in ':', ',', ';' or a dash: it only introduces what follows.
    Dangling,
    /// The rest of a short page that is mostly furniture: a video page, an
    /// error page, an archive's notes.
    FurniturePage,
    /// "UPDATE: …", "Editor's note: …", "This story has been corrected…".
    EditorNote,
    /// Starts with a lowercase letter: the rest of a line the page broke.
    LowercaseStart,
    /// In a short paragraph with a photo credit: the photo's caption.
    CreditedCaption,
    /// "GEORGE STEPHANOPOULOS: …": a speaker's label in a transcript.
    SpeakerLabel,
    /// A bullet, or an entry in a short paragraph led by a name or label
    /// ("Patrick Callahan, 21, Mansfield, CT. Charged with …").
    ListEntry,
    /// "… provided below.", "(3:40)", "here are 20 of …": it points at a
    /// table, a video or a list elsewhere on the page.
    PageReference,
    /// "… reading list.”—Connie Britton": a blurb or pull quote signed by
    /// its author.
    PullQuote,
    /// "22h50 : Le Conseil de sécurité …", "10:32 a.m. — …": an entry of a
    /// live blog, led by its time.
    TimedEntry,
    /// "Israël : qui sont les nouveaux « anti-Bibi » ?", or the page's first
    /// line when it asks: a headline that ends in '?' or '!'.
    Headline,
    /// "WASHINGTON (AP) —", "FOCUS -": a dateline or kicker label the
    /// splitter cut from the text it opened.
    LeadLabel,
    /// "Subscribe now for unlimited access", "Hai già un abbonamento?",
    /// "この記事は会員限定です。": the site asking to subscribe, donate or
    /// log in, in full sentences as often as not.
    Appeal,
    /// "Leggi anche: …", "Czytaj też: …", "相关阅读：…": another article's
    /// headline behind its label.
    RelatedLink,
    /// "Smog dusi Kraków. Normy pyłu przekroczone …": a line whose last
    /// sentence has no end (a headline or a link), or the deck between a
    /// page's headline and its byline or date.
    HeadlineBlock,
    /// "Tu as raison.": a reader's comment, in the thread under the article.
    ReaderComment,
    /// "Wer hat Anspruch?", "拥堵费怎么收？": one of the short questions that
    /// head an explainer's sections, each answered by the text below it.
    QuestionSubhead,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Symbols => write!(f, "not prose: mostly numbers or symbols"),
            Reason::Link => write!(f, "page furniture: link or address"),
            Reason::Copyright => write!(f, "page furniture: copyright notice"),
            Reason::PhotoCredit => write!(f, "page furniture: photo credit"),
            Reason::Credit => write!(f, "page furniture: credit or byline"),
            Reason::Widget => write!(f, "page furniture: share, subscribe or read-more link"),
            Reason::Stamp => write!(f, "page furniture: posted or updated stamp"),
            Reason::BrowserNotice => write!(f, "page furniture: browser or cookie notice"),
            Reason::Parenthesized => write!(f, "page furniture: credit or aside in parentheses"),
            Reason::Colon => write!(f, "fragment: label or quote opener ending in ':'"),
            Reason::LabelPrefix => write!(f, "page furniture: section label"),
            Reason::Dateline => write!(f, "page furniture: dateline"),
            Reason::AllCaps => write!(f, "page furniture: all-caps label"),
            Reason::TitleCase => write!(f, "fragment: every word capitalized (a heading, a name or a label)"),
            Reason::NoEnding => write!(f, "fragment: heading, caption or label (no sentence ending)"),
            Reason::TooShort => write!(f, "fragment: too short to stand alone"),
            Reason::DateAlone => write!(f, "fragment: only a date"),
            Reason::PointsAhead => write!(f, "fragment: presents what follows it ('Here are…', 'Voici…')"),
            Reason::Repeated(n) => write!(f, "page furniture: repeated across {n} articles"),
            Reason::RepeatedInPage => write!(f, "page furniture: repeated within the page"),
            Reason::EdgeRun => write!(f, "page furniture: short line among the page's header or footer"),
            Reason::CutOff => write!(f, "fragment: cut off ('...')"),
            Reason::Caption => write!(f, "page furniture: photo caption"),
            Reason::Boilerplate => write!(f, "page furniture: site boilerplate seen on many news sites"),
            Reason::GluedLabel => write!(f, "page furniture: widget label glued to the text"),
            Reason::RepeatedHeadline => write!(f, "fragment: headline printed twice before the text"),
            Reason::EmbeddedPost => write!(f, "page furniture: embedded social media post"),
            Reason::Dangling => write!(f, "fragment: ends in ':', ',' or a dash (introduces what follows)"),
            Reason::FurniturePage => write!(f, "page furniture: on a short page that is mostly furniture"),
            Reason::EditorNote => write!(f, "page furniture: update label or editor's note"),
            Reason::LowercaseStart => write!(f, "fragment: starts in lowercase (the rest of a broken line)"),
            Reason::CreditedCaption => write!(f, "page furniture: photo caption (next to its credit)"),
            Reason::SpeakerLabel => write!(f, "page furniture: speaker's label in a transcript"),
            Reason::ListEntry => write!(f, "fragment: entry in a list"),
            Reason::PageReference => write!(f, "page furniture: points to a table, video or list on the page"),
            Reason::PullQuote => write!(f, "page furniture: pull quote or blurb signed by its author"),
            Reason::TimedEntry => write!(f, "page furniture: live-blog entry led by its time"),
            Reason::Headline => write!(f, "fragment: headline (a question or exclamation on its own line)"),
            Reason::LeadLabel => write!(f, "page furniture: dateline or label before the text"),
            Reason::Appeal => write!(f, "page furniture: subscription, donation or log-in prompt"),
            Reason::RelatedLink => write!(f, "page furniture: link to another article"),
            Reason::ReaderComment => write!(f, "page furniture: a reader's comment (in the thread under the article)"),
            Reason::QuestionSubhead => write!(f, "fragment: subhead (one of the questions that head the page's sections)"),
            Reason::HeadlineBlock => write!(f, "fragment: headline or deck (its line ends without a sentence end, or it stands between the headline and the byline)"),
        }
    }
}
