//! TREC Temporal Summarization loader (native only).
//!
//! A year folder holds `*topics*.xml`, `nuggets.tsv.gz`, `matches.tsv.gz`
//! and the pooled sentences in `updates.tsv.gz` (else
//! `updates_sampled.tsv.gz`). The stream is simulated as the data README
//! says: pooled sentences grouped into documents (doc_id, ordered by
//! sentence_id), documents replayed in time order (the epoch that starts the
//! doc_id, then the doc_id). A sentence matches the nuggets listed for it in
//! `matches`, and those of the sentence it duplicates (`duplicate_id`): the
//! assessors judged one copy of each duplicate group.

use super::engine::SentenceInput;
use super::evaluate::{score_selected, LabeledDocument, LabeledStream};
use super::metrics;
use crate::encoder::Embedding;
use crate::text::count_words;
use anyhow::{anyhow, bail, Context, Result};
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, PartialEq)]
pub struct Topic {
    pub id: String,
    pub title: String,
    pub query: String,
    pub event_type: String,
    pub start: i64,
    pub end: i64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Nugget {
    pub id: String,
    pub time: i64,
    pub importance: u32,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PooledSentence {
    pub update_id: String,
    pub sentence_id: u32,
    pub text: String,
    /// Indices into the event's nuggets.
    pub nuggets: Vec<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PooledDocument {
    pub doc_id: String,
    pub time: i64,
    pub sentences: Vec<PooledSentence>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// As in the TSV files ("TS14.11").
    pub query_id: String,
    pub topic: Topic,
    pub nuggets: Vec<Nugget>,
    /// In replay order.
    pub documents: Vec<PooledDocument>,
}

#[derive(Clone, Debug, Default)]
pub struct Year {
    pub events: Vec<Event>,
    /// Topics left out because the pool has no sentence for them.
    pub skipped: Vec<String>,
}

/// The files of one year, found by name.
#[derive(Clone, Debug)]
pub struct YearFiles {
    pub topics: PathBuf,
    pub nuggets: PathBuf,
    pub matches: PathBuf,
    pub updates: PathBuf,
}

pub fn find_files(dir: &Path) -> Result<YearFiles> {
    let mut topics: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.contains("topics") && name.ends_with(".xml")
        })
        .collect();
    topics.sort();
    let topics = match topics.as_slice() {
        [one] => one.clone(),
        [] => bail!("no *topics*.xml in {}", dir.display()),
        many => bail!("several topics files in {}: {many:?}", dir.display()),
    };
    let required = |name: &str| {
        let path = dir.join(name);
        if path.is_file() {
            Ok(path)
        } else {
            Err(anyhow!("missing {}", path.display()))
        }
    };
    let updates = required("updates.tsv.gz").or_else(|_| required("updates_sampled.tsv.gz"))
        .map_err(|_| anyhow!("neither updates.tsv.gz nor updates_sampled.tsv.gz in {}", dir.display()))?;
    Ok(YearFiles { topics, nuggets: required("nuggets.tsv.gz")?, matches: required("matches.tsv.gz")?, updates })
}

/// Loads a year folder.
pub fn load_year(dir: &Path) -> Result<Year> {
    let files = find_files(dir)?;
    let topics = std::fs::read_to_string(&files.topics)
        .with_context(|| format!("cannot read {}", files.topics.display()))?;
    build_year(
        parse_topics(&topics)?,
        &read_gz(&files.nuggets)?,
        &read_gz(&files.matches)?,
        &read_gz(&files.updates)?,
    )
}

fn read_gz(path: &Path) -> Result<String> {
    let file = std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut bytes = Vec::new();
    flate2::read::MultiGzDecoder::new(file)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot decompress {}", path.display()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// The `<event>` elements of a topics file.
pub fn parse_topics(xml: &str) -> Result<Vec<Topic>> {
    let element = |block: &str, tag: &str| -> String {
        let open = format!("<{tag}>");
        let close = format!("</{tag}>");
        block
            .find(&open)
            .and_then(|s| block[s + open.len()..].find(&close).map(|e| &block[s + open.len()..s + open.len() + e]))
            .map(|t| unescape_xml(t.trim()))
            .unwrap_or_default()
    };
    let mut topics = Vec::new();
    for block in xml.split("<event>").skip(1) {
        let block = block.split("</event>").next().unwrap_or(block);
        let number = |tag: &str| element(block, tag).parse::<i64>().unwrap_or(0);
        let topic = Topic {
            id: element(block, "id"),
            title: element(block, "title"),
            query: element(block, "query"),
            event_type: element(block, "type"),
            start: number("start"),
            end: number("end"),
        };
        if topic.id.is_empty() {
            bail!("a topic without <id>");
        }
        topics.push(topic);
    }
    Ok(topics)
}

fn unescape_xml(s: &str) -> String {
    s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&apos;", "'").replace("&amp;", "&")
}

/// Data rows of a TSV file with `columns` fields (the last may hold tabs);
/// a header row starting with `query_id` is skipped.
fn rows(text: &str, columns: usize) -> impl Iterator<Item = (usize, Vec<&str>)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with("query_id\t"))
        .map(move |(i, l)| (i + 1, l.splitn(columns, '\t').collect::<Vec<_>>()))
}

fn field<'a>(row: &[&'a str], i: usize, line: usize) -> Result<&'a str> {
    row.get(i).copied().ok_or_else(|| anyhow!("line {line}: expected at least {} fields", i + 1))
}

/// The topic of a query id: "TS14.11" is topic "11" (or an exact id match).
fn topic_key(query_id: &str) -> &str {
    query_id.rsplit('.').next().unwrap_or(query_id)
}

/// The epoch that starts an update or document id.
fn leading_epoch(id: &str, line: usize) -> Result<i64> {
    id.split('-').next().and_then(|t| t.parse().ok()).ok_or_else(|| anyhow!("line {line}: no epoch in id {id:?}"))
}

/// Joins topics, nuggets, matches and pooled sentences into events.
pub fn build_year(topics: Vec<Topic>, nuggets_tsv: &str, matches_tsv: &str, updates_tsv: &str) -> Result<Year> {
    let mut nuggets: HashMap<String, Vec<Nugget>> = HashMap::new();
    for (line, row) in rows(nuggets_tsv, 6) {
        nuggets.entry(field(&row, 0, line)?.to_string()).or_default().push(Nugget {
            id: field(&row, 1, line)?.to_string(),
            time: field(&row, 2, line)?.trim().parse().with_context(|| format!("nuggets line {line}: timestamp"))?,
            importance: field(&row, 3, line)?.trim().parse().unwrap_or(0),
            text: row.get(5).unwrap_or(&"").to_string(),
        });
    }
    let nugget_index: HashMap<(&str, &str), usize> = nuggets
        .iter()
        .flat_map(|(q, list)| list.iter().enumerate().map(move |(i, n)| ((q.as_str(), n.id.as_str()), i)))
        .collect();
    let mut matched: HashMap<(String, String), Vec<usize>> = HashMap::new();
    for (line, row) in rows(matches_tsv, 6) {
        let (query, update, nugget) = (field(&row, 0, line)?, field(&row, 1, line)?, field(&row, 2, line)?);
        if let Some(&n) = nugget_index.get(&(query, nugget)) {
            matched.entry((query.to_string(), update.to_string())).or_default().push(n);
        }
    }
    let mut pooled: HashMap<String, HashMap<String, PooledDocument>> = HashMap::new();
    for (line, row) in rows(updates_tsv, 7) {
        let (query, update, doc_id) = (field(&row, 0, line)?, field(&row, 1, line)?, field(&row, 2, line)?);
        let sentence_id: u32 = field(&row, 3, line)?.trim().parse().with_context(|| format!("updates line {line}: sentence_id"))?;
        let duplicate = field(&row, 5, line)?;
        let mut found: Vec<usize> = [update, duplicate]
            .iter()
            .filter_map(|u| matched.get(&(query.to_string(), u.to_string())))
            .flatten()
            .copied()
            .collect();
        found.sort_unstable();
        found.dedup();
        let time = leading_epoch(doc_id, line).or_else(|_| leading_epoch(update, line))?;
        let doc = pooled
            .entry(query.to_string())
            .or_default()
            .entry(doc_id.to_string())
            .or_insert_with(|| PooledDocument { doc_id: doc_id.to_string(), time, sentences: Vec::new() });
        doc.sentences.push(PooledSentence {
            update_id: update.to_string(),
            sentence_id,
            text: field(&row, 6, line)?.trim().to_string(),
            nuggets: found,
        });
    }
    let mut year = Year::default();
    for topic in topics {
        let query_id = pooled.keys().find(|q| topic_key(q) == topic.id || q.as_str() == topic.id).cloned();
        let Some(query_id) = query_id else {
            year.skipped.push(topic.id.clone());
            continue;
        };
        let documents = in_replay_order(pooled.remove(&query_id).unwrap_or_default());
        let nuggets = nuggets.remove(&query_id).unwrap_or_default();
        year.events.push(Event { query_id, topic, nuggets, documents });
    }
    Ok(year)
}

fn in_replay_order(documents: HashMap<String, PooledDocument>) -> Vec<PooledDocument> {
    let mut documents: Vec<PooledDocument> = documents.into_values().collect();
    for doc in &mut documents {
        doc.sentences.sort_by(|a, b| (a.sentence_id, &a.update_id).cmp(&(b.sentence_id, &b.update_id)));
        doc.sentences.dedup_by(|a, b| a.update_id == b.update_id);
    }
    documents.sort_by(|a, b| (a.time, &a.doc_id).cmp(&(b.time, &b.doc_id)));
    documents
}

impl Event {
    /// Sentence texts in replay order.
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        self.documents.iter().flat_map(|d| d.sentences.iter().map(|s| s.text.as_str()))
    }

    /// Update ids in replay order (the engine's sentence ids index this).
    pub fn update_ids(&self) -> Vec<&str> {
        self.documents.iter().flat_map(|d| d.sentences.iter().map(|s| s.update_id.as_str())).collect()
    }

    pub fn sentence_count(&self) -> usize {
        self.documents.iter().map(|d| d.sentences.len()).sum()
    }

    /// Each nugget's time, in nugget order.
    pub fn nugget_times(&self) -> Vec<i64> {
        self.nuggets.iter().map(|n| n.time).collect()
    }

    /// The nuggets of each pooled sentence, in replay order.
    pub fn sentence_nuggets(&self) -> Vec<&[usize]> {
        self.documents.iter().flat_map(|d| d.sentences.iter().map(|s| s.nuggets.as_slice())).collect()
    }

    /// The event as a replayable stream, given the embeddings of its
    /// sentences (replay order) and of its query.
    pub fn labeled(&self, query: Option<Embedding>, embeddings: &[Embedding]) -> LabeledStream {
        assert_eq!(embeddings.len(), self.sentence_count(), "one embedding per pooled sentence");
        let mut next = embeddings.iter();
        let documents = self
            .documents
            .iter()
            .map(|d| LabeledDocument {
                time: d.time,
                sentences: d
                    .sentences
                    .iter()
                    .map(|s| SentenceInput { words: count_words(&s.text), embedding: *next.next().unwrap(), not_prose: None })
                    .collect(),
                nuggets: d.sentences.iter().map(|s| s.nuggets.clone()).collect(),
            })
            .collect();
        LabeledStream {
            name: self.query_id.clone(),
            query,
            documents,
            nugget_times: self.nugget_times(),
        }
    }
}

/// A selected update as `precis stream --data` writes it (OUT/<policy>.tsv).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TrecUpdate {
    pub query_id: String,
    pub update_id: String,
    /// When it was selected.
    pub time: i64,
}

const UPDATES_HEADER: &str = "query_id\tupdate_id\ttimestamp";

/// The updates file: a header, then one update a line, in the given order.
pub fn updates_tsv(updates: &[TrecUpdate]) -> String {
    let lines = updates.iter().map(|u| format!("{}\t{}\t{}\n", u.query_id, u.update_id, u.time));
    std::iter::once(format!("{UPDATES_HEADER}\n")).chain(lines).collect()
}

/// Reads what [`updates_tsv`] wrote.
pub fn parse_updates_tsv(text: &str) -> Result<Vec<TrecUpdate>> {
    let mut lines = text.lines();
    if lines.next() != Some(UPDATES_HEADER) {
        bail!("an updates file starts with the line {UPDATES_HEADER:?}");
    }
    lines
        .filter(|line| !line.is_empty())
        .map(|line| match line.split('\t').collect::<Vec<_>>()[..] {
            [query_id, update_id, time] => Ok(TrecUpdate {
                query_id: query_id.into(),
                update_id: update_id.into(),
                time: time.parse().with_context(|| format!("bad timestamp in {line:?}"))?,
            }),
            _ => bail!("an updates line has three tab-separated fields: {line:?}"),
        })
        .collect()
}

/// What `precis stream --data` prints: each event's scores, then their
/// mean. `updates` are in the order they were selected.
pub fn report(year: &Year, updates: &[TrecUpdate]) -> Result<Vec<String>> {
    let mut lines = Vec::with_capacity(year.events.len() + 1);
    let mut all = Vec::with_capacity(year.events.len());
    for event in &year.events {
        let ids: HashMap<&str, usize> = event.update_ids().into_iter().enumerate().map(|(i, id)| (id, i)).collect();
        let selected = updates
            .iter()
            .filter(|u| u.query_id == event.query_id)
            .map(|u| ids.get(u.update_id.as_str()).map(|&i| (i, u.time)).with_context(|| format!("{}: no pooled sentence {}", u.query_id, u.update_id)))
            .collect::<Result<Vec<_>>>()?;
        let scores = score_selected(&event.sentence_nuggets(), &event.nugget_times(), &selected);
        lines.push(format!("{} {}", event.query_id, scores.report()));
        all.push(scores);
    }
    if let Some(stray) = updates.iter().find(|u| year.events.iter().all(|e| e.query_id != u.query_id)) {
        bail!("no event {} in this year", stray.query_id);
    }
    lines.push(format!("mean: {}", metrics::mean(&all).report()));
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOPICS: &str = "<?xml version=\"1.0\"?>\n<events>\n<event>\n\t<id>7</id>\n\t<title>A &amp; B fire</title>\n\
        \t<start>100</start>\n\t<end>900</end>\n\t<query>warehouse fire</query> \n\t<type>accident</type>\n</event>\n\
        <event><id>8</id><query>nothing pooled</query></event>\n</events>\n";

    const NUGGETS: &str = "query_id\tnugget_id\ttimestamp\timportance\tnugget_len\tnugget_text\n\
        TS99.7\tN1\t150\t3\t2\tfire started\nTS99.7\tN2\t400\t1\t2\ttwo injured\n";

    const MATCHES: &str = "query_id\tupdate_id\tnugget_id\tmatch_start\tmatch_end\tauto_p\n\
        TS99.7\t200-bbb-3\tN1\t0\t5\t0\n\
        TS99.7\t200-bbb-3\tN2\t6\t9\t0\n\
        TS99.7\t100-aaa-0\tN1\t0\t4\t0\n\
        TS99.7\t100-aaa-0\tUNKNOWN\t0\t4\t0\n";

    const UPDATES: &str = "query_id\tupdate_id\tdoc_id\tsentence_id\tupdate_len\tduplicate_id\tupdate_text\n\
        TS99.7\t200-bbb-5\t200-bbb\t5\t10\t100-aaa-0\tA fire broke out.\n\
        TS99.7\t200-bbb-3\t200-bbb\t3\t10\tNULL\tTwo were hurt in the fire.\n\
        TS99.7\t100-aaa-2\t100-aaa\t2\t10\tNULL\tSmoke\twas seen.\n\
        TS99.7\t100-aaa-0\t100-aaa\t0\t10\tNULL\tA fire broke out.\n";

    #[test]
    fn parses_topics() {
        let topics = parse_topics(TOPICS).unwrap();
        assert_eq!(topics.len(), 2);
        assert_eq!(topics[0].id, "7");
        assert_eq!(topics[0].title, "A & B fire");
        assert_eq!(topics[0].query, "warehouse fire");
        assert_eq!((topics[0].start, topics[0].end), (100, 900));
        assert_eq!(topics[1].query, "nothing pooled");
    }

    #[test]
    fn builds_events_in_replay_order_with_matches() {
        let year = build_year(parse_topics(TOPICS).unwrap(), NUGGETS, MATCHES, UPDATES).unwrap();
        assert_eq!(year.skipped, vec!["8".to_string()]);
        let event = &year.events[0];
        assert_eq!(event.query_id, "TS99.7");
        assert_eq!(event.nuggets.len(), 2);
        assert_eq!(event.update_ids(), vec!["100-aaa-0", "100-aaa-2", "200-bbb-3", "200-bbb-5"]);
        assert_eq!(event.documents.iter().map(|d| d.time).collect::<Vec<_>>(), vec![100, 200]);
        // Tabs inside the text survive; the unknown nugget is ignored; the
        // duplicate of 100-aaa-0 inherits its match.
        assert_eq!(event.documents[0].sentences[1].text, "Smoke\twas seen.");
        let nuggets: Vec<Vec<usize>> = event.documents.iter().flat_map(|d| d.sentences.iter().map(|s| s.nuggets.clone())).collect();
        assert_eq!(nuggets, vec![vec![0], vec![], vec![0, 1], vec![0]]);
        let stream = event.labeled(None, &vec![[0.0; crate::encoder::DIM]; 4]);
        assert_eq!(stream.nugget_times, vec![150, 400]);
        assert_eq!(stream.documents[1].sentences[0].words, 6);
    }
}
