//! The pipeline's two steps by method: the centroid, then the selector with its budget, preselection and order.

use super::notes::{articles_without_prose, empty_summary_note, language_note, no_prose_note, unread_articles_notes};
use super::preselect::is_prose;
use super::{order_sentences, preselect, read_prose, Budget, Reading, Method, Order, Settings, Summary, SummaryRequest};
use crate::centroid::{steer, CeraHead, Centroid, CentroidEstimator, CentroidInput, MeanCentroid, OracleCentroid};
use crate::choices::Choices;
use crate::document::Cluster;
use crate::encoder::Embedding;
use crate::select::beam::BeamSearch;
use crate::select::greedy::Greedy;
use crate::select::location::{location, position_scores};
use crate::select::mmr::smmr;
use crate::select::tbmmr::{Tbmmr, TbmmrParams};
use crate::select::topic::{sentence_times, Topic, TopicEmbeddings, TopicTexts};
use crate::select::{Problem, Selection, Selector, Trace};
use anyhow::{bail, Context, Result};

/// Runs the request's method: the centroid step, then the selection step.
pub fn summarize(request: &SummaryRequest) -> Result<Summary> {
    let centroid = estimate_centroid(request)?;
    select_towards(request, centroid)
}

fn one_embedding_per_sentence(cluster: &Cluster, embeddings: &[Embedding]) -> Result<()> {
    if embeddings.len() != cluster.sentences.len() {
        bail!("{} embeddings for {} sentences", embeddings.len(), cluster.sentences.len());
    }
    Ok(())
}

/// The pipeline's centroid step: where the method's summary should point
/// (the mean, the oracle, or a trained head's estimate), steered towards the
/// reader's topic when she gave one a weight.
pub fn estimate_centroid(request: &SummaryRequest) -> Result<Centroid> {
    let SummaryRequest { cluster, embeddings, settings, reference, heads, topic } = *request;
    one_embedding_per_sentence(cluster, embeddings)?;
    let input = CentroidInput { cluster, embeddings, reference };
    let centroid = match settings.method {
        Method::Oracle => OracleCentroid.estimate(&input),
        Method::Cera => head(heads.and_then(|h| h.cera.as_ref()), "cera")?.estimate(&input),
        Method::Cerai => head(heads.and_then(|h| h.cerai.as_ref()), "cerai")?.estimate(&input),
        _ => MeanCentroid.estimate(&input),
    }?;
    if !settings.steers() {
        return Ok(centroid);
    }
    let given = topic.map(|t| &t.given[..]).unwrap_or_default();
    if given.is_empty() {
        bail!("the topic was not embedded, so it cannot steer the summary");
    }
    Ok(steer(centroid, &crate::centroid::steer::unit_mean(given), settings.topic_weight))
}

fn head<'h>(slot: Option<&'h CeraHead>, name: &str) -> Result<&'h CeraHead> {
    slot.with_context(|| format!("method {name} needs its trained head (models/cera/{name}.onnx)"))
}

/// The pipeline's selection step: the method's selector towards `centroid`.
pub fn select_towards(request: &SummaryRequest, centroid: Centroid) -> Result<Summary> {
    let SummaryRequest { cluster, embeddings, settings, topic, .. } = *request;
    one_embedding_per_sentence(cluster, embeddings)?;
    let (costs, limit) = settings.budget.costs(cluster);
    let unit = if matches!(settings.budget, Budget::Sentences(_)) { "sentences" } else { "words" };
    Choices::of(cluster).check_budget(&costs, limit, unit)?;
    let selector: Box<dyn Selector> = match settings.method {
        Method::Greedy => Box::new(Greedy),
        Method::Beam => Box::new(beam(settings, None)),
        Method::BeamGreedy | Method::Oracle | Method::Cera | Method::Cerai => {
            Box::new(beam(settings, Some(settings.greedy_candidates)))
        }
        Method::Location | Method::Mmr | Method::Tbmmr => marginal_selector(cluster, embeddings, settings, topic)?,
    };
    let mut summary = run_selector(cluster, embeddings, settings, centroid, selector.as_ref());
    if settings.topic_weight > 0.0 && !settings.method.steerable() {
        summary.notes.push(match settings.method {
            Method::Location => "Location ranks by position only, so the topic does not change it.".into(),
            _ => "MMR methods compare sentences with the topic directly (λ weighs it); the topic weight steers centroid methods.".into(),
        });
    }
    if topic.is_none() && settings.method.uses_topic() && cluster.documents.iter().any(|d| d.title.is_some()) {
        summary.notes.push("The headlines were not embedded, so the topic is read from first sentences only.".into());
    }
    if let (Order::Chronological, Trace::Mmr(trace)) = (settings.order, &summary.trace) {
        // TBMMR orders by its reading of the topic's structure (table 3).
        if let Some(topic) = &trace.topic {
            summary.sentences = topic.order.clone();
        }
    }
    Ok(summary)
}

/// Location, SMMR or TBMMR, built from the cluster's times and positions.
fn marginal_selector(
    cluster: &Cluster,
    embeddings: &[Embedding],
    settings: &Settings,
    topic: Option<&TopicEmbeddings>,
) -> Result<Box<dyn Selector>> {
    let times = sentence_times(cluster);
    if settings.method == Method::Location {
        return Ok(Box::new(location(position_scores(cluster), times)));
    }
    let texts = TopicTexts::new(cluster, settings.topic.as_deref());
    let topic = Topic::new(cluster, embeddings, &texts, topic).map_err(anyhow::Error::msg)?;
    Ok(match settings.method {
        Method::Mmr => Box::new(smmr(topic.sentences, times, settings.lambda)),
        _ => {
            let params = TbmmrParams {
                lambda: settings.lambda,
                mu: settings.mu,
                gamma: settings.gamma,
                seed_threshold: settings.seed_threshold,
            };
            Box::new(Tbmmr::new(cluster, embeddings, &topic, times, position_scores(cluster), params))
        }
    })
}

fn beam(settings: &Settings, greedy_candidates: Option<usize>) -> BeamSearch {
    BeamSearch { width: settings.beam_width, greedy_candidates, mode: settings.beam_mode }
}

/// Budget, preselection, selection and ordering around any selector.
pub fn run_selector(
    cluster: &Cluster,
    embeddings: &[Embedding],
    settings: &Settings,
    centroid: Centroid,
    selector: &dyn Selector,
) -> Summary {
    let (costs, limit) = settings.budget.costs(cluster);
    let choices = Choices::of(cluster);
    let reading = read_prose(cluster, embeddings, settings);
    let mut candidates = preselect(cluster, embeddings, &costs, limit, settings, &reading, &choices);
    let mut doubted = reading.no_summary_line.clone();
    if candidates.is_empty() && !doubted.is_empty() {
        // The reader's doubts give way rather than leave the summary empty:
        // a doubtful line is prose all the same.
        doubted.clear();
        let prose_only = Reading { no_summary_line: vec![], ..reading.clone() };
        candidates = preselect(cluster, embeddings, &costs, limit, settings, &prose_only, &choices);
    }
    let read_as_furniture = reading.furniture;
    let weights: Option<Vec<f32>> = (settings.length_weight != 0.0).then(|| {
        cluster.sentences.iter().map(|s| (s.words.max(1) as f32).powf(settings.length_weight)).collect()
    });
    let problem = Problem {
        embeddings,
        candidates: &candidates,
        costs: &costs,
        limit,
        centroid: &centroid.vector,
        redundancy: settings.redundancy,
        weights: weights.as_deref(),
        pinned: &choices.pinned,
    };
    let Selection { sentences, score, trace } = selector.select(&problem);
    let mut notes: Vec<String> = language_note(cluster, &costs, limit, settings, &read_as_furniture).into_iter().collect();
    let without_prose = articles_without_prose(cluster, &read_as_furniture);
    // An article without prose explains an empty summary only when no
    // article has any; otherwise the budget or the search is why.
    if sentences.is_empty() && notes.is_empty() && without_prose.len() < cluster.documents.len() {
        // The shortest sentence that could have been a candidate, not a widget's "Follow us".
        let prose_costs: Vec<usize> = (0..costs.len())
            .filter(|&id| is_prose(cluster, &read_as_furniture, id) && !choices.struck.contains(&id))
            .map(|id| costs[id])
            .collect();
        notes.push(empty_summary_note(cluster, &prose_costs, limit, &settings.budget));
    }
    notes.extend(without_prose.into_iter().map(|(doc, lines)| no_prose_note(cluster, doc, lines)));
    notes.extend(unread_articles_notes(cluster, embeddings, &read_as_furniture));
    Summary {
        cost: sentences.iter().map(|&s| costs[s]).sum(),
        sentences: order_sentences(&cluster.sentences, &cluster.documents, &sentences, settings.order),
        score,
        limit,
        candidates,
        read_as_furniture,
        doubted,
        pinned: choices.pinned,
        struck: choices.struck,
        centroid,
        trace,
        notes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use super::super::tests::{cluster, embeddings, rules_only, storm_and_curfew};
    use crate::centroid::Heads;
    use crate::document::Document;
    use crate::choices::{Choice, SentenceRef};
    use crate::select::testing::unit;
    use crate::summarize::SummaryTexts;

    #[test]
    fn every_method_respects_the_budget_and_orders_by_position() {
        let c = cluster();
        let e = embeddings(5);
        for method in [Method::Greedy, Method::Beam, Method::BeamGreedy] {
            let settings = Settings { method, budget: Budget::Words(8), ..Default::default() };
            let summary = summarize(&SummaryRequest::new(&c, &e, &settings)).unwrap();
            assert!(summary.cost <= 8, "{method:?}");
            assert!(!summary.sentences.is_empty());
            let positions: Vec<_> = summary.sentences.iter().map(|&s| (c.sentences[s].doc, c.sentences[s].index)).collect();
            let mut sorted = positions.clone();
            sorted.sort();
            assert_eq!(positions, sorted);
        }
    }

    #[test]
    fn oracle_needs_a_reference() {
        let settings = Settings { method: Method::Oracle, ..Default::default() };
        let (c, e) = (cluster(), embeddings(5));
        assert!(summarize(&SummaryRequest::new(&c, &e, &settings)).is_err());
        let reference = vec![unit(&[(1, 1.0)])];
        let summary = summarize(&SummaryRequest { reference: Some(&reference), ..SummaryRequest::new(&c, &e, &settings) }).unwrap();
        assert!(!summary.sentences.is_empty());
    }

    #[test]
    fn the_answer_wins_once_the_topic_weighs_enough() {
        let (c, e, question) = storm_and_curfew();
        let pick = |weight: f32| {
            let settings = Settings {
                method: Method::BeamGreedy,
                budget: Budget::Sentences(1),
                topic: Some("What did the mayor say about the curfew?".into()),
                topic_weight: weight,
                ..rules_only()
            };
            let summary = summarize(&SummaryRequest { topic: Some(&question), ..SummaryRequest::new(&c, &e, &settings) }).unwrap();
            (summary.sentences[0], summary.centroid.steering.map(|s| s.degrees_moved()))
        };
        assert_eq!(pick(0.0), (0, None), "weight 0 is the unsteered summary");
        assert_ne!(pick(0.2).0, 3, "a light pull does not override the cluster");
        let (picked, moved) = pick(0.6);
        assert_eq!(picked, 3, "the curfew sentence answers the question");
        assert!(moved.unwrap() > 10.0, "{moved:?}");
        for method in [Method::Greedy, Method::Beam] {
            let settings = Settings { method, budget: Budget::Sentences(1), topic: Some("curfew?".into()), topic_weight: 0.6, ..rules_only() };
            let summary = summarize(&SummaryRequest { topic: Some(&question), ..SummaryRequest::new(&c, &e, &settings) }).unwrap();
            assert_eq!(summary.sentences, vec![3], "{method}");
        }
    }

    #[test]
    fn steering_needs_the_topic_embedded_and_skips_mmr_and_location() {
        let (c, e, _) = storm_and_curfew();
        let settings = Settings { topic: Some("curfew?".into()), topic_weight: 0.5, ..Default::default() };
        assert!(settings.steers());
        let message = summarize(&SummaryRequest::new(&c, &e, &settings)).unwrap_err().to_string();
        assert!(message.contains("topic was not embedded"), "{message}");
        for method in [Method::Mmr, Method::Tbmmr, Method::Location] {
            assert!(!Settings { method, ..settings.clone() }.steers(), "{method}");
        }
        assert!(!Settings { topic: Some("  ".into()), ..settings.clone() }.steers());
        let texts = SummaryTexts::new(&c, &settings, vec![]);
        assert_eq!(texts.topic.unwrap().given, vec!["curfew?".to_string()]);
    }


    /// Three articles of four sentences, each sentence its own direction
    /// plus a shared one, so every method has a clear first choice.
    fn choices_cluster() -> (Cluster, Vec<Embedding>) {
        let c = Cluster::new(vec![
            Document::new("a", "The storm hit the northern coast on Monday. Thousands of homes lost their power overnight. Rescue teams reached the flooded villages by boat. The airport closed its runway for a day."),
            Document::new("b", "Schools in the region stayed closed until Wednesday. The river rose two metres above its usual level. Farmers lost most of the autumn harvest. Officials promised aid for every flooded family."),
            Document::new("c", "The national weather service issued its highest warning. Trains between the two largest cities were cancelled. Insurance claims reached a record by Friday evening. Volunteers handed out blankets at the town hall."),
        ]);
        let shared = |i: usize| if i % 4 == 0 { 0.9 } else { 0.2 };
        let e = (0..c.sentences.len()).map(|i| unit(&[(i, 1.0), (100, shared(i))])).collect();
        (c, e)
    }

    fn shipped_heads() -> Heads {
        let read = |name: &str| std::fs::read(format!("{}/models/cera/{name}.onnx", env!("CARGO_MANIFEST_DIR"))).unwrap();
        Heads::new(Some(CeraHead::from_bytes(&read("cera")).unwrap()), Some(CeraHead::from_bytes(&read("cerai")).unwrap())).unwrap()
    }

    /// Every method keeps a pinned sentence (which it would not pick
    /// alone), never picks a struck one (which it would), and keeps the
    /// budget; MMR and TBMMR pick the pin first and say so, Location keeps
    /// its order around it.
    #[test]
    fn pins_and_strikes_hold_in_every_method() {
        let (c, e) = choices_cluster();
        let heads = shipped_heads();
        let reference = [e[0], e[5]];
        for method in Method::ALL {
            let settings = Settings { method, budget: Budget::Words(25), ..rules_only() };
            let request = |c: &Cluster| {
                let request = SummaryRequest { reference: Some(&reference[..]), heads: Some(&heads), ..SummaryRequest::new(c, &e, &settings) };
                summarize(&request).unwrap()
            };
            let plain = request(&c);
            let first = plain.sentences[0];
            let pin = (0..c.sentences.len()).find(|id| !plain.sentences.contains(id)).unwrap();
            let mut chosen = c.clone();
            crate::choices::choose(&mut chosen, &[(Choice::Pin, SentenceRef::Id(pin)), (Choice::Strike, SentenceRef::Id(first))]).unwrap();
            let summary = request(&chosen);
            let m = method.name();
            assert!(summary.sentences.contains(&pin), "{m}: pin {pin} missing from {:?}", summary.sentences);
            assert!(!summary.sentences.contains(&first) && !summary.candidates.contains(&first), "{m}: struck {first} used");
            assert!(summary.cost <= summary.limit, "{m}: {} over {}", summary.cost, summary.limit);
            assert_eq!((summary.pinned.clone(), summary.struck.clone()), (vec![pin], vec![first]), "{m}");
            match &summary.trace {
                Trace::Mmr(trace) => {
                    assert_eq!((trace.steps[0].picked, trace.steps[0].pinned), (pin, true), "{m}: the pin goes first");
                    assert!(trace.steps[1..].iter().all(|s| !s.pinned), "{m}");
                }
                Trace::Greedy(trace) => assert_eq!(trace.pinned, [pin], "{m}"),
                Trace::Beam(trace) => assert_eq!(trace.pinned, [pin], "{m}"),
                Trace::None => {}
            }
            if method == Method::Location {
                // Around the pin, the sentences come in Location's own order.
                let rest: Vec<usize> = summary.sentences.iter().copied().filter(|&s| s != pin).collect();
                let order: Vec<usize> = plain.sentences.iter().copied().filter(|&s| s != first && rest.contains(&s)).collect();
                assert_eq!(rest[..order.len()], order[..], "{m}");
            }
        }
    }

    #[test]
    fn pins_over_the_budget_are_refused_not_cut() {
        let (mut c, e) = choices_cluster();
        crate::choices::choose(&mut c, &[(Choice::Pin, SentenceRef::Id(0)), (Choice::Pin, SentenceRef::Id(4))]).unwrap();
        let settings = Settings { method: Method::Greedy, budget: Budget::Words(12), ..rules_only() };
        let err = summarize(&SummaryRequest::new(&c, &e, &settings)).unwrap_err().to_string();
        assert_eq!(err, "The pinned sentences need 16 words; the budget is 12 words. Unpin a sentence or raise the budget.");
        // A pinned sentence the filter excluded is used anyway.
        let mut widget = Cluster::new(vec![Document::new("w", "The storm hit the northern coast on Monday.\n\nShare this story\n\nThousands of homes lost their power overnight.")]);
        assert!(widget.sentences[1].excluded.is_some());
        crate::choices::choose(&mut widget, &[(Choice::Pin, SentenceRef::Id(1))]).unwrap();
        let e = embeddings(3);
        let summary = summarize(&SummaryRequest::new(&widget, &e, &Settings { budget: Budget::Words(30), ..rules_only() })).unwrap();
        assert!(summary.sentences.contains(&1), "{:?}", summary.sentences);
    }
}
