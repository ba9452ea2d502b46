//! An HTML page reduced to its article: headline, paragraphs, list items and
//! publication date, as plain text. Nothing of the markup is kept or run:
//! tags are read only to know where text belongs.
//!
//! - Dropped with everything inside: `script`, `style`, `noscript`,
//!   `template` (raw text, skipped unread), `nav`, `footer`, `aside`, `form`,
//!   `button`, `select`, `svg`, `figure`, `iframe`, `dialog`, `menu`, and
//!   `header` outside `article`/`main` (a site banner; an article's own
//!   header holds its headline and date).
//! - Kept: `title`, `h1`, `p`, `li`, each `p`/`li`/extra `h1` a paragraph
//!   (`<br>` a line break). A page with no `p` or `li` keeps its other
//!   visible text, a paragraph per block element.
//! - Title: the first `h1`, else `<title>`.
//! - Date: `<meta property="article:published_time">` (or `name=`, or
//!   `itemprop="datePublished"`), else the first `<time datetime>`; returned
//!   as written.
//!
//! This is a reduction, not a parser: it scans once, in linear time, and
//! tolerates unclosed tags as browsers do for the cases that matter here
//! (`<p>` and `<li>` without end tags).

use super::entities::decode_entities;
use crate::text::collapse_whitespace;

/// The article text of a page.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HtmlArticle {
    pub title: Option<String>,
    /// Paragraphs separated by blank lines.
    pub text: String,
    /// The publication date or time as written in the page (ISO 8601 as a rule).
    pub published: Option<String>,
}

/// Elements whose content is raw text, skipped up to their end tag.
const RAW_TEXT: &[&str] = &["script", "style", "noscript", "template", "textarea", "xmp", "iframe"];
/// Elements dropped with their content.
const DROPPED: &[&str] =
    &["nav", "footer", "aside", "form", "button", "select", "svg", "figure", "dialog", "menu"];
/// Elements kept as paragraphs.
const KEPT: &[&str] = &["p", "li", "h1"];
/// Elements that separate blocks of text when a page has no `p` or `li`.
const BLOCKS: &[&str] = &[
    "div",
    "section",
    "article",
    "main",
    "header",
    "ul",
    "ol",
    "table",
    "tr",
    "td",
    "th",
    "blockquote",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "dl",
    "dt",
    "dd",
    "pre",
    "address",
    "center",
];

/// Reduces a page to its article.
pub fn reduce_html(html: &str) -> HtmlArticle {
    let mut reducer = Reducer::default();
    let mut at = 0;
    while at < html.len() {
        let Some(offset) = html[at..].find('<') else {
            reducer.text(&html[at..]);
            break;
        };
        reducer.text(&html[at..at + offset]);
        at += offset;
        at = reducer.markup(html, at);
    }
    reducer.finish()
}

#[derive(Default)]
struct Reducer {
    /// Names of the dropped elements we are inside of, innermost last.
    dropped: Vec<String>,
    /// Depth of `article` and `main` elements.
    article_depth: usize,
    /// The kept element being read and its text.
    block: Option<(String, String)>,
    /// Text outside kept elements, by block, for pages without `p` or `li`.
    loose: Vec<String>,
    paragraphs: Vec<String>,
    headline: Option<String>,
    title_tag: Option<String>,
    meta_date: Option<String>,
    time_date: Option<String>,
}

impl Reducer {
    /// Text between tags; its line breaks are plain spaces in HTML.
    fn text(&mut self, raw: &str) {
        if raw.is_empty() || !self.dropped.is_empty() {
            return;
        }
        let text = decode_entities(raw).replace(|c: char| c.is_whitespace(), " ");
        self.push(&text);
    }

    fn push(&mut self, text: &str) {
        match &mut self.block {
            Some((_, block)) => block.push_str(text),
            None => match self.loose.last_mut() {
                Some(loose) => loose.push_str(text),
                None => self.loose.push(text.to_string()),
            },
        }
    }

    /// Reads the markup at `html[at]` (a `<`) and returns where text resumes.
    fn markup(&mut self, html: &str, at: usize) -> usize {
        let rest = &html[at..];
        if let Some(comment) = rest.strip_prefix("<!--") {
            return comment.find("-->").map_or(html.len(), |end| at + 4 + end + 3);
        }
        if rest.starts_with("<!") || rest.starts_with("<?") {
            return rest.find('>').map_or(html.len(), |end| at + end + 1);
        }
        let closing = rest.starts_with("</");
        let name_start = at + 1 + usize::from(closing);
        let name_len =
            html[name_start..].find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(html.len() - name_start);
        if name_len == 0 || !html.as_bytes()[name_start].is_ascii_alphabetic() {
            self.text("<");
            return at + 1;
        }
        let name = html[name_start..name_start + name_len].to_ascii_lowercase();
        let (attributes_end, end) = tag_end(html, name_start + name_len);
        let tag = &html[name_start + name_len..attributes_end];
        if closing {
            self.end_tag(&name);
            return end;
        }
        self.start_tag(&name, tag);
        if RAW_TEXT.contains(&name.as_str()) {
            return skip_raw_text(html, end, &name);
        }
        if name == "title" {
            let close = find_ignoring_case(html, end, "</title").unwrap_or(html.len());
            self.title_tag.get_or_insert_with(|| collapse_whitespace(&decode_entities(&html[end..close])));
            return close;
        }
        end
    }

    fn start_tag(&mut self, name: &str, attributes: &str) {
        match name {
            "meta" => self.meta(attributes),
            "time" if self.time_date.is_none() => self.time_date = attribute(attributes, "datetime"),
            _ => {}
        }
        if !self.dropped.is_empty() {
            if is_dropped(name, self.article_depth) && !is_void(attributes) {
                self.dropped.push(name.to_string());
            }
            return;
        }
        match name {
            "article" | "main" => self.article_depth += 1,
            "br" => self.push("\n"),
            _ => {}
        }
        if is_dropped(name, self.article_depth) && !is_void(attributes) {
            self.flush_block();
            self.dropped.push(name.to_string());
        } else if KEPT.contains(&name) {
            self.flush_block();
            self.block = Some((name.to_string(), String::new()));
        } else if BLOCKS.contains(&name) {
            self.break_loose_text();
        }
    }

    fn end_tag(&mut self, name: &str) {
        if let Some(open) = self.dropped.iter().rposition(|d| d == name) {
            self.dropped.truncate(open);
            return;
        }
        if !self.dropped.is_empty() {
            return;
        }
        if matches!(name, "article" | "main") {
            self.article_depth = self.article_depth.saturating_sub(1);
        }
        if KEPT.contains(&name) || BLOCKS.contains(&name) {
            self.flush_block();
            self.break_loose_text();
        }
    }

    fn meta(&mut self, attributes: &str) {
        let key = ["property", "name", "itemprop"].iter().find_map(|k| attribute(attributes, k));
        let is_date = key.is_some_and(|k| {
            k.eq_ignore_ascii_case("article:published_time") || k.eq_ignore_ascii_case("datePublished")
        });
        if is_date && self.meta_date.is_none() {
            self.meta_date = attribute(attributes, "content");
        }
    }

    fn flush_block(&mut self) {
        let Some((name, text)) = self.block.take() else { return };
        let text = collapse_lines(&text);
        if text.is_empty() {
            return;
        }
        if name == "h1" && self.headline.is_none() {
            self.headline = Some(text);
        } else {
            self.paragraphs.push(text);
        }
    }

    fn break_loose_text(&mut self) {
        if self.loose.last().is_none_or(|last| !last.trim().is_empty()) {
            self.loose.push(String::new());
        }
    }

    fn finish(mut self) -> HtmlArticle {
        self.flush_block();
        let paragraphs = if self.paragraphs.is_empty() {
            self.loose.iter().map(|block| collapse_lines(block)).filter(|b| !b.is_empty()).collect()
        } else {
            self.paragraphs
        };
        let title = self.headline.or(self.title_tag).filter(|t| !t.is_empty());
        HtmlArticle { title, text: paragraphs.join("\n\n"), published: self.meta_date.or(self.time_date) }
    }
}

fn is_dropped(name: &str, article_depth: usize) -> bool {
    DROPPED.contains(&name) || (name == "header" && article_depth == 0)
}

/// `<tag … />`: a self-closed element has no content to drop.
fn is_void(attributes: &str) -> bool {
    attributes.trim_end().ends_with('/')
}

/// Where the attributes of a tag starting at `from` end (its `>`, skipping
/// any inside quoted values), and the offset after the tag.
fn tag_end(html: &str, from: usize) -> (usize, usize) {
    let mut quote = None;
    for (i, b) in html.as_bytes()[from..].iter().enumerate() {
        match (quote, b) {
            (None, b'"' | b'\'') => quote = Some(*b),
            (Some(q), _) if q == *b => quote = None,
            (None, b'>') => return (from + i, from + i + 1),
            _ => {}
        }
    }
    (html.len(), html.len())
}

fn skip_raw_text(html: &str, from: usize, name: &str) -> usize {
    match find_ignoring_case(html, from, &format!("</{name}")) {
        Some(close) => tag_end(html, close + 2 + name.len()).1,
        None => html.len(),
    }
}

/// Offset of the first ASCII-case-insensitive match of `needle` at or after `from`.
fn find_ignoring_case(html: &str, from: usize, needle: &str) -> Option<usize> {
    let needle = needle.as_bytes();
    html.as_bytes()[from..]
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
        .map(|i| from + i)
}

/// The decoded value of attribute `name` (ASCII case-insensitive).
fn attribute(attributes: &str, name: &str) -> Option<String> {
    let mut rest = attributes;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '/');
        if rest.is_empty() {
            return None;
        }
        let key_end = rest.find(|c: char| c.is_whitespace() || c == '=' || c == '/').unwrap_or(rest.len());
        let key = &rest[..key_end];
        rest = rest[key_end..].trim_start();
        let value = match rest.strip_prefix('=') {
            Some(after) => {
                let after = after.trim_start();
                let (value, remaining) = match after.chars().next() {
                    Some(q @ ('"' | '\'')) => {
                        let close = after[1..].find(q).map_or(after.len(), |i| i + 1);
                        (&after[1..close], after.get(close + 1..).unwrap_or(""))
                    }
                    _ => {
                        let end = after.find(char::is_whitespace).unwrap_or(after.len());
                        (&after[..end], &after[end..])
                    }
                };
                rest = remaining;
                Some(value)
            }
            None => None,
        };
        if key.eq_ignore_ascii_case(name) {
            return value.map(|v| decode_entities(v).trim().to_string());
        }
        if key_end == 0 && value.is_none() {
            rest = rest.get(1..).unwrap_or("");
        }
    }
}

/// Each line's whitespace collapsed, blank lines dropped (lines come from `<br>`).
fn collapse_lines(text: &str) -> String {
    text.split('\n').map(collapse_whitespace).filter(|l| !l.is_empty()).collect::<Vec<_>>().join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = r#"<!DOCTYPE html>
<html><head>
  <title>Quake hits Tokyo | The Daily</title>
  <meta property="article:published_time" content="2024-03-05T08:30:00Z">
  <style>p { color: red; }</style>
  <script>document.write("<p>injected</p>");</script>
</head><body>
  <header><a href="/">The Daily</a><nav><ul><li>Home</li><li>World</li></ul></nav></header>
  <article>
    <header><h1>Quake  hits
      Tokyo</h1><time datetime="2024-03-04">March 4</time></header>
    <p>A strong earthquake struck Tokyo on Monday.
       Officials said damage was limited.</p>
    <figure><img src="x.jpg"><figcaption>Photo: AP</figcaption></figure>
    <p>Trains stopped &amp; restarted an hour later.<br>Schools stayed open.
    <p>Residents said:</p>
    <ul><li>It was &quot;long&quot;.</li><li>Nobody was hurt.</li></ul>
    <!-- <p>commented out</p> -->
    <aside><p>Related: other quakes</p></aside>
  </article>
  <footer><p>© The Daily</p></footer>
</body></html>"#;

    #[test]
    fn keeps_the_article_and_drops_the_page_around_it() {
        let article = reduce_html(PAGE);
        assert_eq!(article.title.as_deref(), Some("Quake hits Tokyo"));
        assert_eq!(article.published.as_deref(), Some("2024-03-05T08:30:00Z"));
        assert_eq!(
            article.text,
            "A strong earthquake struck Tokyo on Monday. Officials said damage was limited.\n\n\
             Trains stopped & restarted an hour later.\nSchools stayed open.\n\n\
             Residents said:\n\nIt was \"long\".\n\nNobody was hurt."
        );
    }

    #[test]
    fn falls_back_to_title_and_time() {
        let page = "<title>Only &amp; title</title><time class=x datetime='2024-01-02'>x</time><p>Text.</p>";
        let article = reduce_html(page);
        assert_eq!(article.title.as_deref(), Some("Only & title"));
        assert_eq!(article.published.as_deref(), Some("2024-01-02"));
        assert_eq!(article.text, "Text.");
    }

    #[test]
    fn a_page_without_paragraphs_keeps_its_visible_text_by_block() {
        let page = "<div>First block</div><div>Second <b>block</b></div><script>var x = '</div>';</script>";
        assert_eq!(reduce_html(page).text, "First block\n\nSecond block");
    }

    #[test]
    fn tolerates_broken_markup() {
        assert_eq!(reduce_html("a < b and c > d").text, "a < b and c > d");
        assert_eq!(reduce_html("<p title='x > y'>Quoted</p>").text, "Quoted");
        assert_eq!(reduce_html("<p>Unclosed <b").text, "Unclosed");
        assert_eq!(reduce_html("<script>never closed <p>hidden</p>").text, "");
        assert_eq!(reduce_html("<!-- unclosed comment <p>hidden</p>").text, "");
        assert_eq!(reduce_html("<P>Upper</P><SCRIPT>x</SCRIPT>").text, "Upper");
        assert_eq!(reduce_html("").text, "");
    }

    proptest::proptest! {
        #[test]
        fn never_panics_and_never_keeps_tags(parts in proptest::collection::vec(proptest::sample::select(vec![
            "<p>", "</p>", "<li>", "<h1>", "</h1>", "<script>", "</script>", "<!--", "-->", "<nav>", "</nav>",
            "<article>", "<header>", "</header>", "<br>", "<meta property=\"article:published_time\" content='",
            "<time datetime=", "'", "\"", ">", "<", "/>", "&amp;", "&#x", ";", "text", " ", "\n", "é", "字",
        ]), 0..40)) {
            let article = reduce_html(&parts.concat());
            proptest::prop_assert!(!article.text.contains("<p>") && !article.text.contains("<script"));
        }
    }

    #[test]
    fn reads_attributes() {
        assert_eq!(attribute(r#" a="1" B='2' c=3 d"#, "b").as_deref(), Some("2"));
        assert_eq!(attribute(r#" a="1" B='2' c=3 d"#, "c").as_deref(), Some("3"));
        assert_eq!(attribute(r#" content="x &amp; y" "#, "content").as_deref(), Some("x & y"));
        assert_eq!(attribute(r#" d"#, "d"), None);
        assert_eq!(attribute(r#" ="broken" x=1"#, "x").as_deref(), Some("1"));
    }
}
