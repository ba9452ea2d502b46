"""The Python package against the CLI built from the same tree: the same
inputs must give the same embeddings, summaries and stream updates.

The CLI is $PRECIS_BIN, else target/ci/precis (scripts/test.sh builds it
with `cargo test --profile ci` first). The models are the repo's models/.
"""

import json
import os
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pytest

import precis

ROOT = Path(__file__).resolve().parents[2]
CLI = Path(os.environ.get("PRECIS_BIN", ROOT / "target" / "ci" / "precis"))

# Three invented dated reports of one event, and a later one on another
# topic, so that the stream policies both select and skip.
ARTICLES = [
    {
        "id": "a",
        "title": "Flood closes the river road",
        "date": "2024-03-05T08:00:00Z",
        "text": "Heavy rain flooded the river road in Lindau on Tuesday morning. "
        "Police closed the road between the bridge and the harbour. "
        "About forty houses near the water were evacuated overnight. "
        "The fire brigade pumped water out of cellars in the old town.",
    },
    {
        "id": "b",
        "title": "Lindau evacuates houses as the river rises",
        "date": "2024-03-05T14:30:00Z",
        "text": "The river in Lindau rose another half metre by the afternoon. "
        "Forty houses were evacuated and their residents slept in the school gym. "
        "The mayor said the road would stay closed until Thursday. "
        "Farmers upstream reported fields under water.",
    },
    {
        "id": "c",
        "title": "Water recedes in Lindau",
        "date": "2024-03-06T09:15:00Z",
        "text": "The flood in Lindau began to recede on Wednesday. "
        "Residents returned to their houses and started cleaning the cellars. "
        "The river road reopened to traffic in the evening. "
        "Insurers estimate the damage at two million euros.",
    },
    {
        "id": "d",
        "title": "Lindau council approves a new school",
        "date": "2024-03-08T11:00:00Z",
        "text": "The city council of Lindau approved the construction of a new primary school. "
        "The school will open in 2026 with twelve classrooms and a library. "
        "Parents had asked for a larger building for years.",
    },
]
QUERY = "flood in Lindau"


def run_cli(*args, stdin=None):
    assert CLI.exists(), f"no CLI at {CLI}: build it with `cargo build --profile ci` or set PRECIS_BIN"
    done = subprocess.run([str(CLI), *map(str, args)], input=stdin, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture
def articles_file(tmp_path):
    path = tmp_path / "articles.jsonl"
    path.write_text("".join(json.dumps(a) + "\n" for a in ARTICLES))
    return path


def test_embed_gives_the_cli_embeddings():
    texts = ["Heavy rain flooded the river road.", "La pluie a inondé la route.", "洪水淹没了道路。"]
    embeddings = precis.embed(texts)
    assert embeddings.dtype == np.float32 and embeddings.shape == (3, 512)
    cli = np.array([json.loads(line) for line in run_cli("embed", stdin="\n".join(texts) + "\n").splitlines()], dtype=np.float32)
    np.testing.assert_array_equal(embeddings, cli)


def test_the_f32_encoder_is_the_clis():
    """$PRECIS_ENCODER=f32 (read when the encoder first loads, so in a
    process of its own) gives the embeddings of `precis --encoder f32`."""
    texts = ["Heavy rain flooded the river road.", "La pluie a inondé la route.", "洪水淹没了道路。"]
    script = "import json, sys, precis; print(json.dumps(precis.embed(json.loads(sys.argv[1])).tolist()))"
    done = subprocess.run([sys.executable, "-c", script, json.dumps(texts)], capture_output=True, text=True,
                          env={**os.environ, "PRECIS_ENCODER": "f32"})
    assert done.returncode == 0, done.stderr
    f32 = np.array(json.loads(done.stdout), dtype=np.float32)
    cli = np.array([json.loads(line) for line in run_cli("--encoder", "f32", "embed", stdin="\n".join(texts) + "\n").splitlines()],
                   dtype=np.float32)
    np.testing.assert_array_equal(f32, cli)
    int8 = precis.embed(texts)
    assert not np.array_equal(int8, f32), "the default (int8) build ran the f32 network"
    assert (np.sum(int8 * f32, axis=1) > 0.995).all()


@pytest.mark.parametrize("method", ["gg", "bs+gs", "mmr", "tbmmr", "location", "cera"])
def test_summarize_gives_the_cli_json(articles_file, method):
    summary = precis.summarize(ARTICLES, method=method, budget=40)
    cli = json.loads(run_cli("summarize", "--method", method, "--budget", 40, "--format", "json", articles_file))
    assert summary == cli
    assert summary["summary"], "an empty summary compares nothing"


def test_summary_settings_are_the_cli_flags(articles_file):
    summary = precis.summarize(ARTICLES, method="bs", budget_sentences=2, beam_width=3, order="score",
                               topic="damage", topic_weight=0.5, languages=["en"], no_prose_reader=True)
    cli = json.loads(run_cli("summarize", "--method", "bs", "--budget-sentences", 2, "--beam-width", 3, "--order", "score",
                             "--topic", "damage", "--topic-weight", 0.5, "--languages", "en", "--no-prose-reader",
                             "--format", "json", articles_file))
    assert summary == cli
    assert len(summary["summary"]) == 2
    assert summary["settings"]["prose_reader"] is False


def test_pins_and_strikes_are_the_clis(articles_file):
    """pin= and strike= take ids (ints) or exact texts (strs), as --pin and
    --strike do, and give the CLI's summary; an unknown one is a ValueError."""
    plain = precis.summarize(ARTICLES, "gg", 40)
    first = plain["summary"][0]
    unpicked = next(s for s in precis.summarize(ARTICLES, "gg", 400)["summary"] if s["id"] not in {p["id"] for p in plain["summary"]})
    ours = precis.summarize(ARTICLES, "gg", 40, pin=[unpicked["text"]], strike=[first["id"]])
    ids = [s["id"] for s in ours["summary"]]
    assert unpicked["id"] in ids and first["id"] not in ids
    assert ours["pinned"][0]["id"] == unpicked["id"] and ours["struck"][0]["id"] == first["id"]
    cli = run_cli("summarize", "--method", "gg", "--budget", "40", "--format", "json",
                  "--pin", unpicked["text"], "--strike", str(first["id"]), articles_file)
    assert [s["id"] for s in json.loads(cli)["summary"]] == ids
    with pytest.raises(ValueError, match="no sentence 999"):
        precis.summarize(ARTICLES, pin=[999])


def test_summary_sentences_point_back_to_their_document():
    summary = precis.summarize(ARTICLES, budget=60)
    for sentence in summary["summary"]:
        document = ARTICLES[sentence["doc"]]
        assert sentence["document"] == document["id"]
        assert document["text"][sentence["char_start"]:sentence["char_end"]] == sentence["text"]


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: precis.summarize([{"text": "  "}]), 'empty "text"'),
        (lambda: precis.summarize(ARTICLES, budget=1), "longer than the budget"),
        (lambda: precis.summarize(ARTICLES, method="best"), 'unknown method "best"'),
        (lambda: precis.summarize(ARTICLES, beam_wdth=3), "unknown field `beam_wdth`"),
        (lambda: precis.summarize(ARTICLES, budget=50, budget_percent=10), "one of budget, budget_sentences"),
        (lambda: precis.StreamState(QUERY, policy="fastest"), "fastest"),
        (lambda: precis.StreamState.from_bytes(b"not a state"), "not a Précis stream state"),
    ],
)
def test_bad_input_is_a_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def cli_stream_updates(articles_file, policy):
    """`precis stream`'s updates: (time as YYYY-MM-DD HH:MM UTC, sentence)."""
    lines = run_cli("stream", "--policy", policy, "--query", QUERY, articles_file).splitlines()
    return [(line.split("\t")[0], line.split("\t")[2]) for line in lines]


def as_cli_updates(selected):
    def minute(seconds):
        return datetime.fromtimestamp(seconds, tz=timezone.utc).strftime("%Y-%m-%d %H:%M")

    return [(minute(s["time"]), s["text"]) for s in selected]


def stream_texts(state, arrivals, finish=True):
    texts = []
    for i, article in enumerate(arrivals):
        selected, _ = state.update([article], finish=finish and i == len(arrivals) - 1)
        texts.extend(s["text"] for s in selected)
    return texts


@pytest.mark.parametrize("policy", ["cos", "ls", "ls+cos", "apsal"])
def test_stream_selects_what_the_cli_selects(articles_file, policy):
    cli = cli_stream_updates(articles_file, policy)
    state = precis.StreamState(QUERY, policy)
    one_by_one = [s for i, a in enumerate(ARTICLES) for s in state.update([a], finish=i == len(ARTICLES) - 1)[0]]
    assert as_cli_updates(one_by_one) == cli
    all_at_once, _ = precis.StreamState(QUERY, policy).update(ARTICLES, finish=True)
    assert as_cli_updates(all_at_once) == cli


def test_stream_selects_some_and_skips_some(articles_file):
    selected = cli_stream_updates(articles_file, "cos")
    sentences = sum(len(precis.summarize([a], budget_percent=100)["summary"]) for a in ARTICLES)
    assert 0 < len(selected) < sentences


@pytest.mark.parametrize("policy", ["cos", "apsal"])
def test_a_restored_state_decides_as_the_original(policy):
    whole = precis.StreamState(QUERY, policy)
    expected = stream_texts(whole, ARTICLES)

    state = precis.StreamState(QUERY, policy)
    texts = stream_texts(state, ARTICLES[:1], finish=False)
    selected, saved = state.update(ARTICLES[1:2])
    texts += [s["text"] for s in selected]
    restored = precis.StreamState.from_bytes(saved)
    assert restored.to_bytes() == saved
    assert restored.updates == state.updates
    selected, _ = restored.update(ARTICLES[2:], finish=True)
    assert texts + [s["text"] for s in selected] == expected
    assert restored.finished
    with pytest.raises(ValueError, match="finished"):
        restored.update(ARTICLES[:1])


def test_selected_updates_carry_their_provenance():
    selected, _ = precis.StreamState(QUERY, "cos").update(ARTICLES, finish=True)
    assert selected
    for update in selected:
        article = ARTICLES[update["article"]]
        assert update["document"] == article["id"]
        assert update["text"] in article["text"]
        assert update["time"] >= 1709625600  # 2024-03-05
