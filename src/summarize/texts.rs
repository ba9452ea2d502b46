//! What a summary needs embedded beside the sentences (`SummaryTexts`), and those embeddings.

use super::{summarize, Settings, Summary, SummaryRequest};
use crate::centroid::Heads;
use crate::document::{Cluster, Sentence};
use crate::encoder::Embedding;
use crate::select::topic::{TopicEmbeddings, TopicTexts};
use anyhow::{Context, Result};

/// What a summary needs embedded beside the cluster's sentences: the
/// reference summary's sentences and, for MMR and TBMMR, the topic and the
/// headlines.
#[derive(Clone, Debug, Default)]
pub struct SummaryTexts {
    pub reference: Vec<String>,
    /// For the methods that compare sentences with a topic.
    pub topic: Option<TopicTexts>,
}

impl SummaryTexts {
    pub fn new(cluster: &Cluster, settings: &Settings, reference: Vec<String>) -> Self {
        let needs_topic = settings.method.uses_topic() || settings.steers();
        let topic = needs_topic.then(|| TopicTexts::new(cluster, settings.topic.as_deref()));
        Self { reference, topic }
    }

    /// Every text to embed: the cluster's sentences, the reference's, then
    /// the topic's and the headlines.
    pub fn texts<'a>(&'a self, cluster: &'a Cluster) -> impl Iterator<Item = &'a str> {
        cluster
            .sentences
            .iter()
            .map(Sentence::as_read)
            .chain(self.reference.iter().map(String::as_str))
            .chain(self.topic.iter().flat_map(TopicTexts::texts))
    }

    /// The embeddings `embed` finds for [`Self::texts`].
    pub fn embedded(&self, cluster: &Cluster, embed: impl Fn(&str) -> Option<Embedding>) -> Result<EmbeddedTexts> {
        let lookup = |texts: &mut dyn Iterator<Item = &str>| -> Result<Vec<Embedding>> {
            texts.map(|t| embed(t).with_context(|| format!("no embedding for {t:?}"))).collect()
        };
        let topic = match &self.topic {
            Some(texts) => Some(texts.embedded(lookup(&mut texts.texts().into_iter())?).map_err(anyhow::Error::msg)?),
            None => None,
        };
        Ok(EmbeddedTexts {
            sentences: lookup(&mut cluster.sentences.iter().map(Sentence::as_read))?,
            reference: lookup(&mut self.reference.iter().map(String::as_str))?,
            topic,
        })
    }

    /// Embeds every text with `encoder` in one go (the native path).
    pub fn encode(&self, encoder: &crate::encoder::Encoder, cluster: &Cluster) -> Result<EmbeddedTexts> {
        let texts: Vec<&str> = self.texts(cluster).collect();
        let embeddings = encoder.encode(&texts)?;
        let by_text: std::collections::HashMap<&str, Embedding> = texts.iter().copied().zip(embeddings).collect();
        self.embedded(cluster, |t| by_text.get(t).copied())
    }

    /// Embeds every text with `encoder` and summarizes (the native path).
    pub fn encode_and_summarize(
        &self,
        encoder: &crate::encoder::Encoder,
        cluster: &Cluster,
        settings: &Settings,
        heads: Option<&Heads>,
    ) -> Result<Summary> {
        let embedded = self.encode(encoder, cluster)?;
        summarize(&embedded.request(cluster, settings, heads))
    }
}

/// The embeddings of a [`SummaryTexts`].
pub struct EmbeddedTexts {
    /// One per sentence of the cluster.
    pub sentences: Vec<Embedding>,
    pub reference: Vec<Embedding>,
    pub topic: Option<TopicEmbeddings>,
}

impl EmbeddedTexts {
    /// The summary request of `cluster` under `settings`.
    pub fn request<'a>(&'a self, cluster: &'a Cluster, settings: &'a Settings, heads: Option<&'a Heads>) -> SummaryRequest<'a> {
        SummaryRequest {
            reference: (!self.reference.is_empty()).then_some(&self.reference[..]),
            topic: self.topic.as_ref(),
            heads,
            ..SummaryRequest::new(cluster, &self.sentences, settings)
        }
    }
}
