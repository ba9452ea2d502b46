//! ml_crisis: Spanish and French crisis news with reference timelines.
//!
//! Layout: `<lang>/<topic>/<YYYY-MM-DD>/*.txt` (an article: a headline
//! line, then the text, one paragraph a line) and
//! `<lang>/reference/<topic>.txt` (timeline entries: a date line, then the
//! entry's sentences one a line, closed by a line of dashes). Reference
//! text is tokenized ("l' est", "Kadhafi ,") and a hyphen that was split
//! off starts a line of its own ("Celui" / "- ci"): such lines are joined
//! back to the line before.

use crate::dates::CivilDate;
use crate::document::Document;
use anyhow::{bail, Context, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One dated entry of a reference timeline.
#[derive(Clone, Debug, PartialEq)]
pub struct TimelineEntry {
    pub date: CivilDate,
    pub sentences: Vec<String>,
}

/// The data of one language and topic.
#[derive(Clone, Debug)]
pub struct TopicData {
    pub lang: String,
    pub topic: String,
    pub timeline: Vec<TimelineEntry>,
    /// Day folders with articles, in date order.
    pub days: BTreeMap<CivilDate, PathBuf>,
}

impl TopicData {
    /// The sentences of every timeline entry of `date`, in file order.
    pub fn reference_of(&self, date: CivilDate) -> Vec<String> {
        self.timeline
            .iter()
            .filter(|e| e.date == date)
            .flat_map(|e| e.sentences.iter().cloned())
            .collect()
    }

    /// Dates with a timeline entry, each once, in order.
    pub fn reference_days(&self) -> Vec<CivilDate> {
        let mut days: Vec<CivilDate> = self.timeline.iter().map(|e| e.date).collect();
        days.sort();
        days.dedup();
        days
    }

    /// The articles of one day, dated to it (none when there is no folder).
    pub fn articles(&self, date: CivilDate) -> Result<Vec<Document>> {
        let Some(folder) = self.days.get(&date) else {
            return Ok(vec![]);
        };
        let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
            .with_context(|| format!("{}", folder.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "txt"))
            .collect();
        files.sort();
        files
            .iter()
            .map(|path| {
                let text = std::fs::read_to_string(path).with_context(|| format!("{}", path.display()))?;
                let id = format!("{}/{}/{date}/{}", self.lang, self.topic, file_name(path));
                Ok(article(&id, &text, &self.lang, date))
            })
            .filter(|d| d.as_ref().map_or(true, |d| !d.text.trim().is_empty()))
            .collect()
    }
}

/// Every language and topic under `root`, sorted by language then topic.
pub fn load(root: &Path) -> Result<Vec<TopicData>> {
    let mut all = vec![];
    for lang in subfolders(root)? {
        let reference = root.join(&lang).join("reference");
        if !reference.is_dir() {
            continue;
        }
        for topic in subfolders(&root.join(&lang))?
            .into_iter()
            .filter(|t| t != "reference")
        {
            let path = reference.join(format!("{topic}.txt"));
            let text = std::fs::read_to_string(&path).with_context(|| format!("{}", path.display()))?;
            let timeline = parse_timeline(&text).with_context(|| format!("{}", path.display()))?;
            let days = day_folders(&root.join(&lang).join(&topic))?;
            all.push(TopicData {
                lang: lang.clone(),
                topic,
                timeline,
                days,
            });
        }
    }
    if all.is_empty() {
        bail!(
            "{}: expected <lang>/<topic>/<YYYY-MM-DD>/*.txt and <lang>/reference/<topic>.txt",
            root.display()
        );
    }
    Ok(all)
}

/// An article file: the first line is the headline, the rest the text.
pub fn article(id: &str, text: &str, lang: &str, date: CivilDate) -> Document {
    let text = text.trim_start_matches('\u{feff}').trim();
    let (headline, body) = text.split_once('\n').unwrap_or(("", text));
    Document {
        id: id.to_string(),
        title: Some(headline.trim().to_string()).filter(|h| !h.is_empty()),
        timestamp: Some(date.to_timestamp()),
        text: body.trim().to_string(),
        lang: Some(lang.to_string()),
        keep_furniture: false,
        pinned: vec![],
        struck: vec![],
    }
}

/// Reads a reference timeline (see the module notes for the format).
pub fn parse_timeline(text: &str) -> Result<Vec<TimelineEntry>> {
    let mut entries: Vec<TimelineEntry> = vec![];
    let mut open = false;
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if line.len() >= 3 && line.bytes().all(|b| b == b'-') {
            open = false;
        } else if let (false, Ok(date)) = (open, line.parse::<CivilDate>()) {
            entries.push(TimelineEntry {
                date,
                sentences: vec![],
            });
            open = true;
        } else if open {
            add_line(&mut entries.last_mut().expect("an open entry").sentences, line);
        } else {
            bail!("line {}: text outside a dated entry: {line:?}", number + 1);
        }
    }
    entries.retain(|e| !e.sentences.is_empty());
    Ok(entries)
}

/// Appends a line; "- ci" continues the line before as "Celui-ci".
fn add_line(sentences: &mut Vec<String>, line: &str) {
    match (line.strip_prefix("- "), sentences.last_mut()) {
        (Some(rest), Some(last)) => {
            last.push('-');
            last.push_str(rest);
        }
        _ => sentences.push(line.to_string()),
    }
}

fn subfolders(dir: &Path) -> Result<Vec<String>> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .with_context(|| format!("{}", dir.display()))?
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    Ok(names)
}

fn day_folders(dir: &Path) -> Result<BTreeMap<CivilDate, PathBuf>> {
    Ok(subfolders(dir)?
        .into_iter()
        .filter_map(|name| Some((name.parse().ok()?, dir.join(name))))
        .collect())
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeline_entries_with_split_hyphens_joined() {
        let text = "2011-02-17\nL' opposition appelle à un \" Jour de colère \" .\nCelui\n- ci mobilise ses partisans .\n\
                    --------------------------------\n2011-02-23\nKadhafi accuse Al\n- Qaida .\n\
                    --------------------------------\n2011-02-23\nLe secrétaire général évoque un millier de morts .\n\
                    --------------------------------\n2013-08-21\n--------------------------------\n";
        let entries = parse_timeline(text).unwrap();
        assert_eq!(entries.len(), 3); // the empty 2013-08-21 entry is dropped
        assert_eq!(entries[0].sentences[1], "Celui-ci mobilise ses partisans .");
        assert_eq!(entries[1].sentences, vec!["Kadhafi accuse Al-Qaida ."]);
        assert_eq!(entries[2].date.to_string(), "2011-02-23");
        assert!(parse_timeline("stray text\n").is_err());
    }

    #[test]
    fn an_article_is_a_headline_then_its_text() {
        let date: CivilDate = "2011-03-19".parse().unwrap();
        let doc = article(
            "fr/libya/x",
            "Libye : Kadhafi menace\nPremière ligne.\nDeuxième ligne.\n",
            "fr",
            date,
        );
        assert_eq!(doc.title.as_deref(), Some("Libye : Kadhafi menace"));
        assert_eq!(doc.text, "Première ligne.\nDeuxième ligne.");
        assert_eq!(doc.timestamp, Some(date.to_timestamp()));
        assert_eq!(doc.lang.as_deref(), Some("fr"));
    }

    #[test]
    fn reads_the_folder_layout() {
        let root = std::env::temp_dir().join(format!("precis-ml-crisis-{}", std::process::id()));
        let day = root.join("es/egypt/2011-01-26");
        std::fs::create_dir_all(&day).unwrap();
        std::fs::create_dir_all(root.join("es/reference")).unwrap();
        std::fs::write(day.join("a.txt"), "Titular\nManifestantes en El Cairo.\n").unwrap();
        std::fs::write(
            root.join("es/reference/egypt.txt"),
            "2011-01-26\nProtestas en El Cairo .\n-----\n",
        )
        .unwrap();
        let data = load(&root).unwrap();
        let date = "2011-01-26".parse().unwrap();
        let articles = data[0].articles(date).unwrap();
        std::fs::remove_dir_all(&root).ok();
        assert_eq!(articles.len(), 1);
        assert_eq!(articles[0].title.as_deref(), Some("Titular"));
        assert_eq!((data[0].lang.as_str(), data[0].topic.as_str()), ("es", "egypt"));
        assert_eq!(data[0].reference_of(date), vec!["Protestas en El Cairo ."]);
        assert_eq!(data[0].reference_days(), vec![date]);
        assert!(data[0].days.contains_key(&date));
    }
}
