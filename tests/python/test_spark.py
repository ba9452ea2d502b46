"""The Spark jobs (python/precis/spark.py) on local[2] against the CLI built
from the same tree: the batch job's summaries must equal `precis evaluate`'s,
and the streaming job's updates `precis stream --data`'s, also after a stop
and a restart and after a crash between writing a micro-batch and
committing it. The stream is a small synthetic TREC-TS year written here.
"""

import gzip
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import precis
from precis import spark as jobs

ROOT = Path(__file__).resolve().parents[2]
CLI = Path(os.environ.get("PRECIS_BIN", ROOT / "target" / "ci" / "precis"))
DUC_MINI = ROOT / "tests" / "fixtures" / "duc_mini"

# Three invented events, each a few facts told again and again over hours.
EVENTS = {
    "1": ("harbor bridge collapse", [
        "The harbor bridge collapsed on Monday morning.",
        "Two cars fell into the water when the bridge gave way.",
        "Rescuers pulled two people from the water.",
        "Divers are searching for a third driver.",
        "Traffic was diverted to the tunnel.",
        "Officials said the bridge had failed an inspection last year.",
        "The mayor will speak tonight about the collapse.",
        "Engineers blamed corroded steel cables.",
        "Markets closed higher on Monday.",
    ]),
    "2": ("valley wildfire", [
        "A wildfire broke out in the valley on Saturday.",
        "Hundreds of homes were evacuated as the fire spread.",
        "Strong winds pushed the flames towards the town.",
        "Firefighters from three regions joined the effort.",
        "Two firefighters were injured by falling trees.",
        "The fire has burned four thousand hectares.",
        "Rain is forecast for Tuesday, which could help.",
        "The school year will start a week late in the valley.",
    ]),
    "3": ("mine rescue", [
        "Twelve miners were trapped after a tunnel caved in.",
        "Rescue teams drilled a narrow shaft to reach the miners.",
        "A camera lowered into the shaft showed the miners alive.",
        "Food and water were sent down the shaft.",
        "The first miner was lifted out on Thursday.",
        "All twelve miners were rescued by Friday night.",
        "The mine's owner faces an inquiry into safety.",
    ]),
}


def write_year(folder, seed=7, hours=9):
    """A TREC-TS-layout year: every event gets documents at random times
    over `hours` hours, each document a few of its sentences (repeats
    included, so that policies skip as well as select)."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    topics = ['<?xml version="1.0" encoding="UTF-8" ?>\n<events>\n']
    updates = ["query_id\tupdate_id\tdoc_id\tsentence_id\tupdate_len\tduplicate_id\tupdate_text\n"]
    nuggets = ["query_id\tnugget_id\ttimestamp\timportance\tnugget_len\tnugget_text\n"]
    matches = ["query_id\tupdate_id\tnugget_id\tmatch_start\tmatch_end\tauto_p\n"]
    start = 1_700_000_000 - 1_700_000_000 % 3600
    for event, (query, sentences) in EVENTS.items():
        qid = f"TS98.{event}"
        topics.append(f"<event><id>{event}</id><title>{query}</title><start>{start}</start>"
                      f"<end>{start + hours * 3600}</end><query>{query}</query><type>accident</type></event>\n")
        for n, sentence in enumerate(sentences[:4]):
            nuggets.append(f"{qid}\tN{n}\t{start + n * 3600}\t{1 + n % 3}\t5\t{sentence}\n")
        for d in range(rng.randint(6, 10)):
            time = start + rng.randrange(hours * 3600)
            doc_id = f"{time}-{event}{d:03d}"
            for position, index in enumerate(sorted(rng.sample(range(len(sentences)), rng.randint(1, 3)))):
                update_id = f"{doc_id}-{position}"
                text = sentences[index]
                updates.append(f"{qid}\t{update_id}\t{doc_id}\t{position}\t{len(text)}\tNULL\t{text}\n")
                if index < 4:
                    matches.append(f"{qid}\t{update_id}\tN{index}\t0\t5\t0\n")
    topics.append("</events>\n")
    (folder / "trec2098-ts-topics-test.xml").write_text("".join(topics))
    for name, lines in [("updates_sampled", updates), ("nuggets", nuggets), ("matches", matches)]:
        with gzip.open(folder / f"{name}.tsv.gz", "wt") as out:
            out.write("".join(lines))
    return folder


def run_cli(*args):
    return subprocess.run([str(CLI), *map(str, args)], check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def spark():
    session = jobs.session("local[2]")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def year(tmp_path_factory):
    return write_year(tmp_path_factory.mktemp("trec") / "2098")


def cli_updates(year, policy, tmp_path):
    out = tmp_path / f"cli-{policy}"
    stdout = run_cli("stream", "--data", year, "--policy", policy, "--out", out, "--cache", tmp_path / "cache")
    return (out / f"{policy}.tsv").read_text(), stdout


def test_the_feed_is_hourly_files_in_time_order(year, tmp_path):
    files = jobs.feed(year, tmp_path / "feed")
    names = [f.name for f in files]
    assert names == sorted(names) and names[-1].endswith("-end.jsonl")
    times = [f.stat().st_mtime for f in files]
    assert times == sorted(times), "Spark's file source takes files by modification time"
    again = jobs.feed(year, tmp_path / "feed")
    assert [f.stat().st_mtime for f in again] == times, "feeding again leaves the files alone"
    sentences = sum(len(d["sentences"]) for e in precis.trec_events(year) for d in e["documents"])
    assert sum(len(f.read_text().splitlines()) for f in files[:-1]) == sentences


@pytest.mark.parametrize("policy", ["cos", "apsal", "ls+cos"])
def test_stream_updates_equal_the_cli(spark, year, tmp_path, policy):
    expected, _ = cli_updates(year, policy, tmp_path)
    finished, stats = jobs.stream(spark, year, policy, tmp_path / "checkpoint", tmp_path / "out")
    assert finished
    assert stats["micro_batches"] == len(list((tmp_path / "checkpoint" / "feed").glob("*.jsonl")))
    assert (tmp_path / "out" / f"{policy}.tsv").read_text() == expected
    assert len(expected.splitlines()) > 4, "the policy selected updates"


def test_a_crash_after_writing_a_batch_neither_duplicates_nor_loses_updates(spark, year, tmp_path):
    expected, _ = cli_updates(year, "ls", tmp_path)
    checkpoint, out = tmp_path / "checkpoint", tmp_path / "out"
    with pytest.raises(Exception, match="simulated crash after writing micro-batch 3"):
        jobs.stream(spark, year, "ls", checkpoint, out, fail_after=3)
    assert (out / "updates").exists() and not (out / "ls.tsv").exists()
    finished, _ = jobs.stream(spark, year, "ls", checkpoint, out)
    assert finished
    assert (out / "ls.tsv").read_text() == expected


def test_the_command_stops_resumes_and_reports_as_the_cli(year, tmp_path):
    """The interface as a user runs it: `--stop-after-batches`, then the
    same command again; the same TSV and the same lines as `precis stream`."""
    expected, cli_stdout = cli_updates(year, "apsal", tmp_path)
    command = [sys.executable, "-m", "precis.spark", "stream", "--data", str(year), "--policy", "apsal",
               "--checkpoint", str(tmp_path / "checkpoint"), "--out", str(tmp_path / "out")]
    first = subprocess.run(command + ["--stop-after-batches", "3"], capture_output=True, text=True)
    assert first.returncode == 0, first.stderr[-3000:]
    assert "run the same command again to resume" in first.stderr
    assert not (tmp_path / "out" / "apsal.tsv").exists()
    second = subprocess.run(command, capture_output=True, text=True)
    assert second.returncode == 0, second.stderr[-3000:]
    assert (tmp_path / "out" / "apsal.tsv").read_text() == expected
    assert second.stdout == cli_stdout


def test_state_bytes_stay_bounded(year):
    """The bytes Spark keeps per event hold the engine's bounded state, not
    the stream: pushing the same event twice over does not double them."""
    event = precis.trec_events(year)[0]
    state = precis.StreamState(event["query"], "cos")
    sizes = []
    for round_ in range(3):
        for document in event["documents"]:
            moved = {**document, "date": document["time"] + round_ * 86_400}
            _, saved = state.update([moved])
        sizes.append(len(saved))
    assert sizes[2] - sizes[1] <= sizes[1] - sizes[0] + 4096, sizes
    assert sizes[2] < 2 * sizes[0] + 64 * 1024, sizes


def test_batch_summaries_equal_the_cli(spark, tmp_path):
    cli_out = tmp_path / "cli"
    run_cli("evaluate", "--dataset", "duc2004", "--data", DUC_MINI, "--methods", "gg,cerai", "--out", cli_out)
    corpus = tmp_path / "corpus.jsonl"
    assert jobs.main(["corpus", "--dataset", "duc2004", "--data", str(DUC_MINI), "--out", str(corpus)]) == 0
    parquet = tmp_path / "corpus.parquet"
    import pyarrow.json
    import pyarrow.parquet

    pyarrow.parquet.write_table(pyarrow.json.read_json(corpus), parquet)
    for method, source in [("gg", corpus), ("cerai", parquet)]:
        rows = jobs.batch(spark, source, tmp_path / "spark", {"method": method, "budget": 100})
        assert {r["cluster"] for r in rows} == {"1", "2"}
        assert all(r["document"] and r["text"] for r in rows), "every sentence with its provenance"
        for cluster in ["1", "2"]:
            ours = (tmp_path / "spark" / method / f"{cluster}.txt").read_text()
            assert ours == (cli_out / method / f"{cluster}.txt").read_text(), (method, cluster)


def test_a_corpus_without_text_is_refused(spark, tmp_path):
    corpus = tmp_path / "bad.jsonl"
    corpus.write_text('{"cluster": "a", "body": "no text column"}\n')
    with pytest.raises(ValueError, match="needs the columns cluster and text"):
        jobs.batch(spark, corpus, tmp_path / "out", {"method": "gg"})
