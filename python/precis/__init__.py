"""Précis: offline multilingual multi-document news summarization.

Thin wrappers over the native module (src/python/), which runs the same
library functions as the `precis` CLI. The sentence encoder loads once per
process, on first use. `models` is the folder holding muse-v3/, cera/ and
stream/ (default: $PRECIS_MODELS, else the repo's models/, as for the CLI).
"""

import json
import time

import numpy as np

from . import _precis

__all__ = ["embed", "summarize", "summary_texts", "StreamState", "trec_events", "trec_report", "dataset", "registry"]


def registry():
    """The core's registry: {"methods": [...], "default_method": ...,
    "policies": [...], "default_policy": ...}, names in the core's order."""
    return json.loads(_precis.registry_json())


def embed(texts, models=None):
    """Sentence embeddings of `texts`: a float32 numpy array [n, 512]."""
    return _precis.embed(list(texts), models)


def _records(documents):
    """Documents (strings, or dicts with text and optional title, date,
    lang, id) as the JSON records `precis summarize` reads from a .json
    file. Documents without an id are named by their index."""
    records = []
    for index, document in enumerate(documents):
        record = {"text": document} if isinstance(document, str) else dict(document)
        record.setdefault("id", str(index))
        records.append(record)
    return json.dumps(records)


def _options(method, budget, settings):
    options = {name.rstrip("_"): value for name, value in settings.items()}
    if method is not None:
        options["method"] = method
    if budget is not None:
        options["budget"] = budget
    return json.dumps(options)


def summary_texts(documents, method=None, budget=None, *, reference=None, **settings):
    """Every text `summarize` embeds for these documents and settings, in
    the order it embeds them in one encoder call (the cluster's sentences,
    then the reference's, the topic and the headlines). Embedding these
    with `embed` and passing them to `summarize(embeddings=…)` gives the
    same summary as letting `summarize` embed."""
    return _precis.summary_texts(_records(documents), _options(method, budget, settings), list(reference or []))


def summarize(documents, method=None, budget=None, *, reference=None, models=None, heads=None, embeddings=None, **settings):
    """A summary of `documents`, as `precis summarize --format json` gives it.

    `method`, `budget` and the other keywords are the CLI's flags with `_`
    for `-` (budget_sentences, budget_percent, first_sentences, beam_width,
    greedy_candidates, beam_mode, redundancy, near_duplicate, length_weight,
    order, lambda_, mu, gamma, seed_threshold, topic, topic_weight,
    languages); unset ones take the CLI's defaults. `pin` and `strike` are
    lists of sentences to keep in every summary or never pick: ids (ints,
    as "summary" and `precis segment` report them) or exact texts (strs).
    `reference` is a list of reference sentences (enables the oracle). Returns a dict whose
    "summary" lists the sentences with their provenance (id in the
    cluster, document id, doc index, index in the document, spans, text).
    `embeddings`, a pair (texts, float32 array [n, 512]), gives embeddings
    computed beforehand (see `summary_texts`). Bad input raises ValueError
    with the core's message.
    """
    if embeddings is not None:
        texts, vectors = embeddings
        embeddings = (list(texts), np.ascontiguousarray(vectors, dtype=np.float32))
    text = _precis.summarize_json(
        _records(documents), _options(method, budget, settings), list(reference or []), models, heads, embeddings
    )
    return json.loads(text)


class StreamState:
    """A streaming policy (cos, apsal, ls, ls+cos; default: the core's,
    `registry()["default_policy"]`) as a state machine: the app's live
    stream. `update(arrivals)` decides each arriving article's
    sentences and returns `(selected, state_bytes)`; `StreamState.from_bytes`
    restores the state (no model is loaded to restore).
    """

    def __init__(self, query, policy=None, threshold=None, *, models=None, settings=None, _native=None):
        self._models = models
        self._native = _native or _precis.StreamState(query, policy, threshold, models, settings)

    def update(self, arrivals, *, now=None, finish=False):
        """Articles arrive (strings or dicts with text and optional date,
        title, id), in order. An article may come already split: a dict
        with `sentences` (strings, or dicts with text and id) instead of
        text, as TREC-TS pools give them; then every article of the call
        must. An undated article arrives with the one before it (the first
        one at `now`, default: the current time). Each article's sentences
        are embedded together, apart from the others. `finish` ends the
        stream. Returns the sentences selected now (dicts with text and
        provenance, and the sentence's id when it had one) and the state's
        bytes."""
        now = int(time.time()) if now is None else int(now)
        arrivals = list(arrivals or [])
        split = [isinstance(a, dict) and "sentences" in a for a in arrivals]
        sentences = None
        if any(split):
            if not all(split):
                raise ValueError("either every article of an update comes split into sentences, or none does")
            sentences = [[s if isinstance(s, dict) else {"text": s} for s in a["sentences"]] for a in arrivals]
            arrivals = [
                {**{k: v for k, v in a.items() if k != "sentences"}, "text": "\n".join(s["text"] for s in split_article)}
                for a, split_article in zip(arrivals, sentences)
            ]
            sentences = json.dumps(sentences)
        records = _records(arrivals) if arrivals else "[]"
        selected, state = self._native.update_json(records, now, finish, self._models, sentences)
        return json.loads(selected), state

    def to_bytes(self):
        return self._native.to_bytes()

    @classmethod
    def from_bytes(cls, state, *, models=None):
        return cls(None, _native=_precis.StreamState.from_bytes(bytes(state)), models=models)

    @property
    def updates(self):
        """Sentences selected since the stream opened."""
        return self._native.updates

    @property
    def finished(self):
        return self._native.finished


def trec_events(year_dir):
    """A TREC-TS year folder's events as `precis stream --data` replays
    them: dicts with query_id, query, title and documents (id, time, and
    sentences with id and text), documents in replay order."""
    return json.loads(_precis.trec_events_json(str(year_dir)))


def trec_report(year_dir, updates_tsv):
    """The lines `precis stream --data` prints for an updates file's text
    (query_id, update_id, timestamp): each event's scores, then the mean."""
    return _precis.trec_report(str(year_dir), updates_tsv)


def dataset(name, path, limit=None):
    """An evaluation dataset (duc2004, multinews) as `precis evaluate`
    reads it: dicts with cluster, documents and references."""
    return json.loads(_precis.dataset_json(name, str(path), limit))
