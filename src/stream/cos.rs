//! COS: the WATERLOOCLARKE baseline. Only each document's first sentence is
//! considered; it becomes an update when its cosine to every earlier update
//! is below a threshold. Steered by a reader's topic, COS considers each
//! document's lead for that topic instead (`StreamState::steered`).

use super::engine::{Action, Closest, Policy, Reason, StreamSentence, StreamState};

#[derive(Clone, Debug)]
pub struct Cos {
    pub threshold: f32,
}

impl Policy for Cos {
    fn name(&self) -> &'static str {
        "cos"
    }

    fn decide(&mut self, state: &StreamState, sentence: &StreamSentence) -> (Action, Reason) {
        if sentence.position != state.document_lead() {
            let reason = if state.is_steered() { Reason::NotTopicLead { lead: state.document_lead() } } else { Reason::NotFirstSentence };
            return (Action::Skip, reason);
        }
        let closest = Closest::among(state.updates(), &sentence.embedding, self.threshold);
        let action = if closest.is_novel() { Action::Select } else { Action::Skip };
        (action, Reason::Redundancy { closest })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::engine::tests::{axis, between, input};
    use crate::stream::engine::{Engine, StateConfig};

    #[test]
    fn selects_novel_first_sentences_only() {
        let mut engine = Engine::new(Cos { threshold: 0.7 }, None, StateConfig::default());
        let mut actions = Vec::new();
        // Document 0: its first sentence is the first update; the second is never considered.
        actions.extend(engine.push_document(0, &[input(axis(0)), input(axis(5))]));
        // Document 1 leads with a near-copy (0.8 ≥ 0.7) of update 1: skipped.
        actions.extend(engine.push_document(10, &[input(between(0, 1, 0.8))]));
        // Document 2 leads with something at 0.6 < 0.7: selected.
        actions.extend(engine.push_document(20, &[input(between(0, 2, 0.6))]));
        let got: Vec<Action> = actions.iter().map(|d| d.action).collect();
        assert_eq!(got, vec![Action::Select, Action::Skip, Action::Skip, Action::Select]);
        assert_eq!(actions[1].reason, Reason::NotFirstSentence);
        assert_eq!(actions[2].reason.to_string(), "too similar to update 1: 0.80 ≥ 0.70");
        assert_eq!(actions[3].reason.to_string(), "new: closest is update 1 at 0.60 < 0.70");
        assert_eq!(engine.updates().iter().map(|u| u.sentence).collect::<Vec<_>>(), vec![0, 3]);
    }

    #[test]
    fn a_topic_moves_the_lead_to_the_sentence_that_answers_it() {
        // The second sentence is on the topic (axis 7). At w = 0.3 the first
        // still leads (0.7 > 0.3·0.9); at w = 0.7 the answer does (0.63 > 0.3).
        let document = [input(axis(0)), input(between(7, 1, 0.9))];
        let leads = |w: f32| {
            let mut engine = Engine::new(Cos { threshold: 0.7 }, None, StateConfig::default()).steered(axis(7), w);
            let decisions = engine.push_document(0, &document);
            (decisions[0].action, decisions[1].action, decisions[0].reason.to_string())
        };
        assert_eq!(leads(0.0).0, Action::Select);
        assert_eq!(leads(0.3).0, Action::Select);
        let (first, second, reason) = leads(0.7);
        assert_eq!((first, second), (Action::Skip, Action::Select));
        assert_eq!(reason, "not the document's lead for the topic (sentence 2 is)");
    }
}
