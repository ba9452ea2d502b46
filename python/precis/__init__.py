"""Précis: offline multilingual multi-document news summarization.

Thin wrappers over the native module (src/python.rs), which runs the same
library functions as the `precis` CLI. The sentence encoder loads once per
process, on first use. `models` is the folder holding muse-v3/, cera/ and
stream/ (default: $PRECIS_MODELS, else the repo's models/, as for the CLI).
"""

import json
import time

from . import _precis

__all__ = ["embed", "summarize", "StreamState"]


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


def summarize(documents, method=None, budget=None, *, reference=None, models=None, heads=None, **settings):
    """A summary of `documents`, as `precis summarize --format json` gives it.

    `method`, `budget` and the other keywords are the CLI's flags with `_`
    for `-` (budget_sentences, budget_percent, first_sentences, beam_width,
    greedy_candidates, beam_mode, redundancy, near_duplicate, length_weight,
    order, lambda_, mu, gamma, seed_threshold, topic, topic_weight,
    languages); unset ones take the CLI's defaults. `reference` is a list
    of reference sentences (enables the oracle). Returns a dict whose
    "summary" lists the sentences with their provenance (id in the
    cluster, document id, doc index, index in the document, spans, text).
    Bad input raises ValueError with the core's message.
    """
    options = {name.rstrip("_"): value for name, value in settings.items()}
    if method is not None:
        options["method"] = method
    if budget is not None:
        options["budget"] = budget
    text = _precis.summarize_json(
        _records(documents), json.dumps(options), list(reference or []), models, heads
    )
    return json.loads(text)


class StreamState:
    """A streaming policy (cos, apsal, ls, ls+cos) as a state machine: the
    app's live stream. `update(arrivals)` decides each arriving article's
    sentences and returns `(selected, state_bytes)`; `StreamState.from_bytes`
    restores the state (no model is loaded to restore).
    """

    def __init__(self, query, policy="ls", threshold=None, *, models=None, settings=None, _native=None):
        self._models = models
        self._native = _native or _precis.StreamState(query, policy, threshold, models, settings)

    def update(self, arrivals, *, now=None, finish=False):
        """Articles arrive (strings or dicts with text and optional date,
        title, id), in order. An undated article arrives with the one before
        it (the first one at `now`, default: the current time). `finish`
        ends the stream. Returns the sentences selected now (dicts with
        text and provenance) and the state's bytes."""
        now = int(time.time()) if now is None else int(now)
        records = _records(arrivals) if arrivals else "[]"
        selected, state = self._native.update_json(records, now, finish, self._models)
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
