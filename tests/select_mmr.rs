//! MMR, TBMMR and Location through the public pipeline (`summarize`), on
//! small clusters with hand-made embeddings.

use precis::document::{Cluster, Document};
use precis::encoder::{Embedding, DIM};
use precis::select::tbmmr::Structure;
use precis::select::topic::TopicTexts;
use precis::select::Trace;
use precis::summarize::{summarize, Budget, Method, Order, Settings, SummaryRequest};

fn unit(parts: &[(usize, f32)]) -> Embedding {
    let mut e = [0f32; DIM];
    for &(axis, w) in parts {
        e[axis] = w;
    }
    let n = e.iter().map(|x| x * x).sum::<f32>().sqrt();
    e.iter_mut().for_each(|x| *x /= n);
    e
}

fn timestamp(date: &str) -> i64 {
    date.parse::<precis::dates::CivilDate>().unwrap().to_timestamp()
}

fn dated(id: &str, title: &str, date: &str, text: &str) -> Document {
    Document {
        title: Some(title.into()),
        timestamp: Some(timestamp(date)),
        lang: Some("en".into()),
        ..Document::new(id, text)
    }
}

/// Day 1: the seed story (2 sentences); day 3: a follow-up whose second
/// sentence goes back to day 1; day 3 also: an unrelated event.
fn cluster() -> (Cluster, Vec<Embedding>) {
    let cluster = Cluster::new(vec![
        dated(
            "seed",
            "Storm hits coast",
            "2011-03-18",
            "A storm hit the coast. Power was cut to many homes.",
        ),
        dated(
            "later",
            "Clean-up begins",
            "2011-03-20",
            "Crews began the clean-up. The storm had hit on 18 March.",
        ),
        dated(
            "other",
            "Election held",
            "2011-03-20",
            "Voters went to the polls. Turnout was high.",
        ),
    ]);
    let embeddings = vec![
        unit(&[(0, 1.0)]),
        unit(&[(0, 0.5), (1, 0.9)]),
        unit(&[(0, 0.4), (2, 0.9)]),
        unit(&[(0, 0.5), (2, 0.9)]),
        unit(&[(5, 1.0)]),
        unit(&[(5, 0.8), (6, 0.6)]),
    ];
    (cluster, embeddings)
}

/// Hand-made embeddings mean nothing to the prose reader, which reads real
/// ones: only the segmentation rules decide what is prose here.
fn settings(method: Method) -> Settings {
    Settings {
        method,
        budget: Budget::Sentences(3),
        prose_reader: false,
        ..Default::default()
    }
}

fn mmr_trace(trace: &Trace) -> &precis::select::mmr::MmrTrace {
    match trace {
        Trace::Mmr(trace) => trace,
        other => panic!("expected an MMR trace, got {other:?}"),
    }
}

#[test]
fn every_new_method_parses_and_keeps_to_the_budget() {
    let (cluster, embeddings) = cluster();
    for name in ["location", "mmr", "tbmmr"] {
        let method: Method = name.parse().unwrap();
        assert_eq!(method.name(), name);
        for budget in [Budget::Sentences(2), Budget::Words(12), Budget::Percent(40.0)] {
            let settings = Settings {
                budget,
                ..settings(method)
            };
            let summary = summarize(&SummaryRequest::new(&cluster, &embeddings, &settings)).unwrap();
            assert!(summary.cost <= summary.limit, "{name} {budget:?}");
            assert!(!summary.sentences.is_empty(), "{name} {budget:?}");
            let trace = mmr_trace(&summary.trace);
            assert_eq!(trace.steps.len(), summary.sentences.len());
        }
    }
}

#[test]
fn location_takes_the_lead_sentences() {
    let (cluster, embeddings) = cluster();
    let summary = summarize(&SummaryRequest::new(&cluster, &embeddings, &settings(Method::Location))).unwrap();
    // Every document's first sentence scores 1; they come out in position order.
    assert_eq!(summary.sentences, vec![0, 2, 4]);
}

#[test]
fn smmr_follows_the_given_topic() {
    let (cluster, embeddings) = cluster();
    let topic_settings = Settings {
        topic: Some("Voters choose.".into()),
        lambda: 0.9,
        ..settings(Method::Mmr)
    };
    // A user's topic must be embedded by the caller.
    assert!(summarize(&SummaryRequest::new(&cluster, &embeddings, &topic_settings)).is_err());
    let texts = TopicTexts::new(&cluster, topic_settings.topic.as_deref());
    assert_eq!(
        texts.texts(),
        vec![
            "Voters choose.",
            "Storm hits coast",
            "Clean-up begins",
            "Election held"
        ]
    );
    let topic = texts
        .embedded(vec![
            unit(&[(5, 1.0)]),
            unit(&[(0, 1.0)]),
            unit(&[(1, 1.0)]),
            unit(&[(5, 1.0)]),
        ])
        .unwrap();
    let one = Settings {
        budget: Budget::Sentences(1),
        ..topic_settings
    };
    let summary = summarize(&SummaryRequest { topic: Some(&topic), ..SummaryRequest::new(&cluster, &embeddings, &one) }).unwrap();
    assert_eq!(summary.sentences, vec![4]); // the election sentence
    assert!(summary.notes.is_empty());
}

#[test]
fn default_topic_without_headline_embeddings_is_noted() {
    let (cluster, embeddings) = cluster();
    let summary = summarize(&SummaryRequest::new(&cluster, &embeddings, &settings(Method::Tbmmr))).unwrap();
    assert!(
        summary
            .notes
            .iter()
            .any(|n| n.contains("headlines were not embedded")),
        "{:?}",
        summary.notes
    );
    let trace = mmr_trace(&summary.trace);
    // Query: the seed's first sentence, then the non-seed themes.
    assert_eq!(serde_json::to_value(&trace.query[0]).unwrap()["kind"], "sentence");
}

#[test]
fn tbmmr_reads_seeds_structure_and_dates() {
    let (cluster, embeddings) = cluster();
    let texts = TopicTexts::new(&cluster, None);
    let headline_embeddings = vec![unit(&[(0, 1.0)]), unit(&[(0, 0.6), (1, 0.8)]), unit(&[(5, 1.0)])];
    let topic = texts.embedded(headline_embeddings).unwrap();
    let s = Settings {
        order: Order::Chronological,
        seed_threshold: 0.5,
        ..settings(Method::Tbmmr)
    };
    let summary = summarize(&SummaryRequest { topic: Some(&topic), ..SummaryRequest::new(&cluster, &embeddings, &s) }).unwrap();
    let trace = mmr_trace(&summary.trace);
    let reading = trace.topic.as_ref().unwrap();
    let seeds: Vec<bool> = reading.documents.iter().map(|d| d.seed).collect();
    // "later": best theme cosine 0.6 (its headline), decay 1/(1 + 2/7) → 0.47 < 0.5.
    assert_eq!(seeds, vec![true, false, false]);
    // On 2011-03-20 the clean-up and the election are two events.
    assert_eq!(reading.structure, Structure::Divergent);
    assert_eq!(
        reading.divergent_day.as_ref().unwrap().events,
        vec![vec![1], vec![2]]
    );
    // The summary is the structure's order; sentence 3 is dated to day 1.
    assert_eq!(summary.sentences, reading.order);
    assert_eq!(trace.times[3].unwrap().to_string(), "2011-03-18");
    let json = serde_json::to_value(&summary.trace).unwrap();
    assert_eq!(json["kind"], "mmr");
    assert_eq!(json["topic"]["structure"], "divergent");
    assert!(json["steps"][0]["candidates"][0]["time"].is_string());
}
