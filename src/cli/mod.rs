//! The `precis` command line: one module per subcommand, each a thin shell
//! over the core.

pub mod app_files;
pub mod bench_encoder;
pub mod bench_stream;
pub mod cache;
pub mod compare;
pub mod embed;
pub mod embed_dataset;
pub mod evaluate;
pub mod flags;
pub mod furniture;
pub mod mmr_tune;
pub mod models;
pub mod progress;
pub mod registry_args;
pub mod rouge;
pub mod segment;
pub mod settings;
pub mod stream;
pub mod summarize;
pub mod timeline_eval;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "precis", version, about = "Offline multilingual multi-document news summarizer")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// The encoder's build: int8 (the default, as the app runs it: dense
    /// layers on integers, 1.3-1.6 times as fast here, f32's summaries
    /// but for about 1 in 100) or f32 (the network of the Python
    /// reference). Also $PRECIS_ENCODER.
    #[arg(long, global = true, value_enum)]
    pub encoder: Option<precis::models::Precision>,
}

#[derive(Subcommand)]
pub enum Command {
    /// Embed sentences: one per line on stdin, one JSON array of 512 floats per line on stdout.
    Embed(embed::EmbedArgs),
    /// Token ids of sentences: one per line on stdin, one JSON array per line on stdout.
    Tokenize(embed::EmbedArgs),
    /// Native encoder benchmark: load time, single-thread sentences/s and peak memory, as JSON.
    BenchEncoder(bench_encoder::BenchEncoderArgs),
    /// Embed a Multi-News split (document and summary sentences) into a cache for training the CeRA heads.
    EmbedDataset(embed_dataset::EmbedDatasetArgs),
    /// Run methods over DUC2004 or Multi-News, write the summaries, print ROUGE with 95% CIs.
    Evaluate(evaluate::EvaluateArgs),
    /// ROUGE-1/2/3/4, L and SU4 of a summary against references (as ROUGE-1.5.5 -n 4 -m -2 4 -u).
    Rouge(rouge::RougeArgs),
    /// Summarize articles (files or folders) with any method; text or JSON with the search trace.
    Summarize(summarize::SummarizeArgs),
    /// Run two to four methods side by side on the same articles and settings: objective, words, ROUGE with --reference, shared picks.
    Compare(compare::CompareArgs),
    /// Grid search of λ, μ, the seed threshold and γ (mmr, tbmmr) on Multi-News validation.
    MmrTune(mmr_tune::MmrTuneArgs),
    /// Summarize each ml_crisis day that has a reference timeline entry (es, fr, mixed) and score ROUGE-1/2.
    TimelineEval(timeline_eval::TimelineEvalArgs),
    /// Split articles (text, Markdown, HTML, JSON, JSON Lines, PDF, Word) into sentences: one JSON object per line.
    Segment(segment::SegmentArgs),
    /// Precision and recall of the prose/furniture decision on the hand-labelled fixture.
    FurnitureEval(furniture::FurnitureEvalArgs),
    /// Replay dated documents through a streaming policy (TREC-TS scores with --data, else a timeline).
    Stream(stream::StreamArgs),
    /// Tune the streaming policies on a TREC-TS year and train LS (LOLS); writes models/stream/ls.json.
    StreamTrain(stream::TrainArgs),
    /// Streaming benchmark: throughput with encoding, decision latency and memory over a synthetic stream.
    BenchStream(bench_stream::BenchStreamArgs),
    /// Write the encoder's files as the app reads them: the int8 graph typed and decluttered, the tokenizer sorted (models/build.py runs it).
    AppFiles(app_files::AppFilesArgs),
}

pub fn run(cli: Cli) -> anyhow::Result<()> {
    if let Some(precision) = cli.encoder {
        precis::models::choose_precision(precision);
    }
    match cli.command {
        Command::Embed(args) => embed::run_embed(args),
        Command::Tokenize(args) => embed::run_tokenize(args),
        Command::BenchEncoder(args) => bench_encoder::run(args),
        Command::EmbedDataset(args) => embed_dataset::run(args),
        Command::Evaluate(args) => evaluate::run(args),
        Command::Rouge(args) => rouge::run(args),
        Command::Summarize(args) => summarize::run(args),
        Command::Compare(args) => compare::run(args),
        Command::TimelineEval(args) => timeline_eval::run(args),
        Command::MmrTune(args) => mmr_tune::run(args),
        Command::Segment(args) => segment::run(args),
        Command::FurnitureEval(args) => furniture::run(args),
        Command::Stream(args) => stream::run(args),
        Command::StreamTrain(args) => stream::run_train(args),
        Command::BenchStream(args) => bench_stream::run(args),
        Command::AppFiles(args) => app_files::run(args),
    }
}
