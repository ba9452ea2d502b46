"""models/furniture/train.py computes the prose reader's features in Python,
and src/segment/prose_reader.rs in Rust: both must agree, or the shipped
weights read other numbers than they were trained on. The cases are those
of the Rust unit tests (`form_features_by_hand`, `context_features_by_hand`).
"""

import importlib.util
import math
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("train", ROOT / "models" / "furniture" / "train.py")
train = importlib.util.module_from_spec(spec)
spec.loader.exec_module(train)


def test_form_features_as_in_rust():
    words, sentence, colon, capitals, question = train.form_features("Who WON?  ")
    assert abs(words - math.log(3)) < 1e-9
    assert (sentence, colon, question) == (1.0, 0.0, 1.0)
    assert abs(capitals - 4 / 6) < 1e-9
    assert train.form_features("Lire aussi :")[2] == 1.0
    assert train.form_features("«Ya basta»")[1] == 1.0


def test_context_features_as_in_rust():
    excluded = [True, False, True, False, False, False, True, False]
    paragraphs = [0, 1, 2, 2, 3, 3, 3, 4]
    assert train.context_features(excluded, paragraphs, 1) == [1.0, 1.0, 1.0, 0.5, 1 / 7, 1.0]
    assert train.context_features(excluded, paragraphs, 4) == [0.0, 0.0, 0.0, 2 / 6, 4 / 7, 0.0]
    assert train.context_features(excluded, paragraphs, 7) == [1.0, 1.0, 1.0, 1 / 3, 1.0, 0.0]
    first = train.context_features(excluded, paragraphs, 0)
    assert first[:2] == [1.0, 0.0] and first[5] == 1.0
    assert train.context_features([False], [0], 0) == [1.0, 1.0, 1.0, 0.0, 0.0, 1.0]
