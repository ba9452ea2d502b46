"""Précis on Apache Spark: summaries of a whole corpus, and live event streams.

    python -m precis.spark corpus --dataset multinews --data FILE --out corpus.jsonl
    python -m precis.spark batch --input corpus.jsonl --method gg --out DIR
    python -m precis.spark stream --data TREC_TS_YEAR --policy ls+cos --checkpoint DIR --out DIR

Both jobs call the package's functions, which are the core's: Spark only
moves the data. The batch job embeds each cluster in `mapInArrow` (the
texts `precis summarize` embeds, in one encoder call, so the summaries equal
the CLI's) and summarizes each cluster in `applyInArrow`. The streaming job
keeps each event's `StreamState` bytes in Spark's keyed state
(`transformWithStateInPandas`, RocksDB state store, with a TTL) and writes
each micro-batch's updates idempotently, one file per (event, batch).

Spark never downloads anything: no `--packages`; the models come from
$PRECIS_MODELS or the repo's models/ (see the README for a real cluster).
"""

import argparse
import glob
import json
import os
import statistics
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pyarrow as pa

import precis

# Method and policy names and their defaults: the core's registry.
REGISTRY = precis.registry()

ROCKSDB = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider"

# ---------------------------------------------------------------- session


def session(master=None, app="precis", partitions=None):
    """A Spark session whose Python workers run this interpreter (so they
    import this package), with the RocksDB state store. `master`: local[2]
    unless spark-submit gave one."""
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = SparkSession.builder.appName(app)
    submitted = "PYSPARK_GATEWAY_PORT" in os.environ  # the driver of spark-submit
    if master or not submitted:
        master = master or "local[2]"
        builder = builder.master(master)
    if partitions or (master or "").startswith("local"):
        # Four tasks a core: clusters and events differ in size, and an idle core waits for the biggest task.
        builder = builder.config("spark.sql.shuffle.partitions", str(partitions or 4 * _cores(master)))
    spark = (
        builder.config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.streaming.stateStore.providerClass", ROCKSDB)
        # A micro-batch only when a file arrives: no empty batches to poll timers.
        .config("spark.sql.streaming.noDataMicroBatches.enabled", "false")
        .config("spark.sql.adaptive.enabled", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def _models(models=None):
    """The models folder as this worker sees it: `models`, else
    $PRECIS_MODELS (spark.executorEnv on a cluster). A relative folder not
    found here is looked up among the files Spark shipped with `--archives
    models.tar.gz#NAME`: unpacked beside each executor on a cluster, in
    SparkFiles' folder on local[N]."""
    models = models or os.environ.get("PRECIS_MODELS")
    if models and not os.path.isabs(models) and not os.path.exists(models):
        from pyspark import SparkFiles

        shipped = os.path.join(SparkFiles.getRootDirectory(), models)
        if os.path.exists(shipped):
            return shipped
    return models


def _cores(master):
    inside = master[master.find("[") + 1 : master.find("]")] if "[" in master else "1"
    return os.cpu_count() if inside == "*" else max(1, int(inside))


# ------------------------------------------------------------------ batch

DOCUMENT_FIELDS = ["id", "title", "date", "lang", "text"]

EMBEDDED_SCHEMA = (
    "cluster string, kind string, position long, id string, title string, date long, lang string, "
    "text string, embedding array<float>"
)

SUMMARY_SCHEMA = (
    "cluster string, method string, rank int, sentence int, document string, doc int, `index` int, "
    "start long, `end` long, lang string, words int, text string"
)


def corpus_records(dataset, data, limit=None):
    """One record per document of an evaluation dataset, in order: the
    batch job's input (cluster, position, id, text, and title, date, lang
    when known)."""
    for cluster in precis.dataset(dataset, data, limit):
        for position, document in enumerate(cluster["documents"]):
            record = {"cluster": cluster["cluster"], "position": position}
            record.update({k: document[k] for k in DOCUMENT_FIELDS if document.get(k) is not None})
            if "timestamp" in document:
                record["date"] = document["timestamp"]
            yield record


def read_corpus(spark, path):
    """Documents from Parquet or JSONL: `cluster` and `text`, optionally
    `position` (the document's order in its cluster; else the input's
    order), `id`, `title`, `date` (seconds since 1970) and `lang`."""
    from pyspark.sql import functions as F

    reader = spark.read.parquet if str(path).endswith(".parquet") else spark.read.json
    frame = reader(str(path))
    missing = [c for c in ("cluster", "text") if c not in frame.columns]
    if missing:
        raise ValueError(f"{path}: the corpus needs the columns cluster and text (missing: {', '.join(missing)})")
    if "position" not in frame.columns:
        frame = frame.withColumn("position", F.monotonically_increasing_id())
    for column, kind in [("id", "string"), ("title", "string"), ("date", "long"), ("lang", "string")]:
        frame = frame.withColumn(column, F.col(column).cast(kind) if column in frame.columns else F.lit(None).cast(kind))
    return frame.select("cluster", F.col("position").cast("long"), "id", "title", "date", "lang", "text")


def _documents(rows):
    """Package documents from corpus rows (dicts), ids defaulting to the position."""
    documents = []
    for row in rows:
        document = {k: row[k] for k in ("title", "date", "lang") if row.get(k) is not None}
        document["id"] = row["id"] if row.get("id") is not None else str(row["position"])
        document["text"] = row["text"]
        documents.append(document)
    return documents


def embed_clusters(options):
    """`mapInArrow`'s function: partitions arrive sorted by cluster, so each
    cluster's documents are contiguous (across Arrow batches too). Each
    cluster's texts are embedded in one call, as `precis summarize` embeds
    them; out come its documents and its embeddings, in order."""

    def run(batches):
        current, rows = None, []
        for batch in batches:
            for row in batch.to_pylist():
                if row["cluster"] != current and rows:
                    yield _embedded_cluster(current, rows, options)
                    rows = []
                current = row["cluster"]
                rows.append(row)
        if rows:
            yield _embedded_cluster(current, rows, options)

    return run


def _embedded_cluster(cluster, rows, options):
    documents = _documents(rows)
    texts = precis.summary_texts(documents, **{k: v for k, v in options.items() if k != "models"})
    vectors = precis.embed(texts, models=_models(options.get("models")))
    n = len(rows)
    flat = pa.array(vectors.reshape(-1))  # zero-copy from numpy
    embeddings = pa.ListArray.from_arrays(pa.array(np.arange(0, len(texts) + 1) * vectors.shape[1], pa.int32()), flat)
    none = lambda count, kind: pa.nulls(count, kind)  # noqa: E731
    return pa.RecordBatch.from_pydict(
        {
            "cluster": [cluster] * (n + len(texts)),
            "kind": ["document"] * n + ["embedding"] * len(texts),
            "position": [r["position"] for r in rows] + list(range(len(texts))),
            "id": [d["id"] for d in documents] + [None] * len(texts),
            "title": [r["title"] for r in rows] + [None] * len(texts),
            "date": [r["date"] for r in rows] + [None] * len(texts),
            "lang": [r["lang"] for r in rows] + [None] * len(texts),
            "text": [r["text"] for r in rows] + texts,
            "embedding": pa.concat_arrays([none(n, pa.list_(pa.float32())), embeddings]),
        },
        schema=pa.schema(
            [
                ("cluster", pa.string()), ("kind", pa.string()), ("position", pa.int64()), ("id", pa.string()),
                ("title", pa.string()), ("date", pa.int64()), ("lang", pa.string()), ("text", pa.string()),
                ("embedding", pa.list_(pa.float32())),
            ]
        ),
    )


def summarize_cluster(options):
    """`applyInArrow`'s function: one cluster's documents and embeddings in,
    its summary sentences with their provenance out."""
    method = options.get("method") or REGISTRY["default_method"]

    def run(table):
        import pyarrow.compute as pc

        of_kind = lambda kind: table.filter(pc.equal(table["kind"], kind)).sort_by("position")  # noqa: E731
        embedded = of_kind("embedding")
        # The vectors straight from the Arrow buffer: no copy, no Python floats.
        vectors = embedded.column("embedding").combine_chunks().flatten().to_numpy().reshape(embedded.num_rows, -1)
        documents = _documents(of_kind("document").drop_columns(["embedding"]).to_pylist())
        settings = {**options, "models": _models(options.get("models"))}
        summary = precis.summarize(documents, embeddings=(embedded.column("text").to_pylist(), vectors), **settings)
        cluster = table.column("cluster")[0].as_py()
        out = [
            {
                "cluster": cluster, "method": method, "rank": rank, "sentence": s["id"], "document": s["document"],
                "doc": s["doc"], "index": s["index"], "start": s["start"], "end": s["end"], "lang": s["lang"],
                "words": s["words"], "text": s["text"],
            }
            for rank, s in enumerate(summary["summary"])
        ]
        return pa.Table.from_pylist(out, schema=SUMMARY_ARROW)

    return run


def batch(spark, input_path, out_dir, options, partitions=None):
    """Summarizes every cluster of the corpus; writes OUT/summaries (Parquet,
    one row per summary sentence with its provenance) and
    OUT/<method>/<cluster>.txt as `precis evaluate` does. Returns the
    summary rows and the counts."""
    documents = read_corpus(spark, input_path)
    partitions = partitions or int(spark.conf.get("spark.sql.shuffle.partitions"))
    by_cluster = documents.repartition(partitions, "cluster").sortWithinPartitions("cluster", "position")
    embedded = by_cluster.mapInArrow(embed_clusters(options), EMBEDDED_SCHEMA)
    summaries = embedded.groupBy("cluster").applyInArrow(summarize_cluster(options), SUMMARY_SCHEMA)
    out = Path(out_dir)
    summaries.write.mode("overwrite").parquet(str(out / "summaries"))
    rows = spark.read.parquet(str(out / "summaries")).orderBy("cluster", "rank").collect()
    method = options.get("method") or REGISTRY["default_method"]
    (out / method).mkdir(parents=True, exist_ok=True)
    by_name = {}
    for row in rows:
        by_name.setdefault(row["cluster"], []).append(row["text"])
    for cluster, lines in by_name.items():
        (out / method / f"{cluster}.txt").write_text("".join(line + "\n" for line in lines))
    return rows


# ----------------------------------------------------------------- stream

# SUMMARY_SCHEMA for pyarrow (workers have no Spark session to parse it).
SUMMARY_ARROW = pa.schema(
    [("cluster", pa.string()), ("method", pa.string()), ("rank", pa.int32()), ("sentence", pa.int32()),
     ("document", pa.string()), ("doc", pa.int32()), ("index", pa.int32()), ("start", pa.int64()),
     ("end", pa.int64()), ("lang", pa.string()), ("words", pa.int32()), ("text", pa.string())]
)

FEED_SCHEMA = (
    "query_id string, query string, doc_id string, time long, position int, update_id string, text string, "
    "`end` boolean"
)
UPDATES_SCHEMA = "query_id string, `update` int, update_id string, timestamp long"
STATE_SCHEMA = "state binary"


def feed(year_dir, into, interval=0.0, events=None):
    """Drops a TREC-TS year into `into` as a live feed would: one JSONL file
    of pooled sentences per hour of crawl time, in time order, then a file
    that ends every event. Files appear atomically and in order (their
    modification times increase), and a file already there is left alone,
    so feeding again after a crash changes nothing. `events`: the year's
    `precis.trec_events`, when the caller has them. Returns the files."""
    into = Path(into)
    into.mkdir(parents=True, exist_ok=True)
    hours = {}
    events = events if events is not None else precis.trec_events(year_dir)
    for event in events:
        for document in event["documents"]:
            for position, sentence in enumerate(document["sentences"]):
                hours.setdefault(document["time"] // 3600, []).append(
                    {
                        "query_id": event["query_id"], "query": event["query"], "doc_id": document["id"],
                        "time": document["time"], "position": position, "update_id": sentence["id"],
                        "text": sentence["text"], "end": False,
                    }
                )
    files = [(f"hour-{hour:08d}.jsonl", hours[hour]) for hour in sorted(hours)]
    files.append(("hour-99999999-end.jsonl", [{"query_id": e["query_id"], "query": e["query"], "end": True} for e in events]))
    base = time.time() - len(files)
    written = []
    for i, (name, rows) in enumerate(files):
        path = into / name
        if not path.exists():
            hidden = into / f".{name}.tmp"
            hidden.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
            os.utime(hidden, (base + i, base + i))
            os.replace(hidden, path)
            if interval:
                time.sleep(interval)
        written.append(path)
    return written


def _event_processor(policy, threshold, models, ttl_ms):
    from pyspark.sql.streaming import StatefulProcessor

    class EventProcessor(StatefulProcessor):
        """One event's stream: its `StreamState` bytes in keyed state; each
        micro-batch's arrivals sorted by (time, document id, position),
        grouped into documents and pushed through the policy."""

        def init(self, handle):
            self.saved = handle.getValueState("stream", STATE_SCHEMA, ttl_ms)

        def handleInputRows(self, key, rows, timerValues):
            import pandas as pd

            batch = pd.concat(list(rows), ignore_index=True)
            ends = batch["end"].fillna(False).astype(bool)
            arrivals = batch[~ends].sort_values(["time", "doc_id", "position"], kind="stable")
            here = _models(models)
            if self.saved.exists():
                stream = precis.StreamState.from_bytes(self.saved.get()[0], models=here)
            else:
                stream = precis.StreamState(batch["query"].iloc[0], policy, threshold, models=here)
            if stream.finished:
                return
            documents = [
                {"id": doc_id, "date": int(group["time"].iloc[0]),
                 "sentences": [{"id": u, "text": t} for u, t in zip(group["update_id"], group["text"])]}
                for doc_id, group in arrivals.groupby("doc_id", sort=False)
            ]
            now = documents[0]["date"] if documents else 0
            selected, state = stream.update(documents, now=now, finish=bool(ends.any()))
            self.saved.update((state,))
            if selected:
                yield pd.DataFrame(
                    {
                        "query_id": pd.Series([key[0]] * len(selected), dtype=object),
                        "update": pd.Series([s["update"] for s in selected], dtype="int32"),
                        "update_id": pd.Series([s["id"] for s in selected], dtype=object),
                        "timestamp": pd.Series([s["time"] for s in selected], dtype="int64"),
                    }
                )

        def close(self):
            pass

    return EventProcessor()


class BatchWriter:
    """`foreachBatch`: each event's updates of micro-batch B go to
    OUT/updates/<event>/<B>.tsv, written whole and renamed into place, so
    a batch that runs again after a crash rewrites the same files."""

    def __init__(self, out, stop_after=None, fail_after=None):
        self.out = Path(out)
        self.stop_after = stop_after
        self.fail_after = fail_after
        self.batches = 0
        self.enough = threading.Event()

    def __call__(self, frame, batch_id):
        rows = frame.collect()  # once: collecting runs the stateful step
        by_event = {}
        for row in rows:
            by_event.setdefault(row["query_id"], []).append(row)
        for event, updates in by_event.items():
            folder = self.out / "updates" / event
            folder.mkdir(parents=True, exist_ok=True)
            lines = "".join(f"{u['update']}\t{u['update_id']}\t{u['timestamp']}\n" for u in sorted(updates, key=lambda u: u["update"]))
            hidden = folder / f".{batch_id:08d}.tsv.tmp"
            hidden.write_text(lines)
            os.replace(hidden, folder / f"{batch_id:08d}.tsv")
        if self.fail_after is not None and batch_id == self.fail_after:
            raise RuntimeError(f"simulated crash after writing micro-batch {batch_id}")
        self.batches += 1
        if self.stop_after is not None and self.batches >= self.stop_after:
            self.enough.set()


def collect_updates(out, events):
    """OUT/<policy>.tsv's updates: every event in the year's order, its
    updates in the order they were selected, whatever batches they came in."""
    lines = ["query_id\tupdate_id\ttimestamp\n"]
    for event in events:
        folder = Path(out) / "updates" / event["query_id"]
        rows = []
        for path in sorted(glob.glob(str(folder / "*.tsv"))):
            for line in Path(path).read_text().splitlines():
                update, update_id, timestamp = line.split("\t")
                rows.append((int(update), update_id, timestamp))
        numbers = [r[0] for r in rows]
        if sorted(numbers) != list(range(len(rows))):
            raise RuntimeError(f"{event['query_id']}: updates {sorted(numbers)} are not 0..{len(rows) - 1} exactly once")
        lines += [f"{event['query_id']}\t{update_id}\t{timestamp}\n" for _, update_id, timestamp in sorted(rows)]
    return "".join(lines)


def stream(spark, data, policy, checkpoint, out, threshold=None, models=None, files_per_batch=1,
           ttl_hours=24 * 7, stop_after=None, fail_after=None, feed_dir=None):
    """The streaming job (see the module's doc). Returns (finished, stats)."""
    checkpoint, out = Path(checkpoint), Path(out)
    feed_dir = Path(feed_dir) if feed_dir else checkpoint / "feed"
    events = precis.trec_events(data)
    files = feed(data, feed_dir, events=events)
    arrivals = (
        spark.readStream.schema(FEED_SCHEMA)
        .option("maxFilesPerTrigger", files_per_batch)
        .json(str(feed_dir))
    )
    updates = arrivals.groupBy("query_id").transformWithStateInPandas(
        _event_processor(policy, threshold, models, int(ttl_hours * 3600 * 1000)),
        UPDATES_SCHEMA,
        "Append",
        "ProcessingTime",
    )
    writer = BatchWriter(out, stop_after, fail_after)
    started = time.time()
    query = (
        updates.writeStream.foreachBatch(writer)
        .option("checkpointLocation", str(checkpoint / "query"))
        .trigger(availableNow=True)
        .start()
    )
    while query.isActive and not writer.enough.is_set():
        query.awaitTermination(0.2)
    stopped = writer.enough.is_set()
    if stopped:
        query.stop()
    else:
        query.awaitTermination()  # raises what failed the query
    wall = time.time() - started
    stats = _stream_stats(query.recentProgress, wall, len(files), events)
    # availableNow ends once every file there at the start (the whole feed) is committed.
    if stopped:
        return False, stats
    tsv = collect_updates(out, events)
    (out / f"{policy}.tsv").write_text(tsv)
    return True, stats


def _stream_stats(progress, wall, files, events):
    """This run's micro-batches: sentences and articles a second of
    processing, and each micro-batch's end-to-end time (Spark's
    triggerExecution: reading the files, the stateful step, the writes)."""
    batches = [p for p in progress if p.get("numInputRows", 0) > 0]
    latencies = [p["durationMs"].get("triggerExecution", 0) / 1000 for p in batches]
    rows = sum(p["numInputRows"] for p in batches)
    sentences = sum(len(d["sentences"]) for e in events for d in e["documents"])
    # Articles in proportion to the sentences this run read (all of them in a full run).
    articles = sum(len(e["documents"]) for e in events) * rows / max(sentences, 1)
    busy = sum(latencies)
    return {
        "micro_batches": len(batches),
        "feed_files": files,
        "events": len(events),
        "input_rows": rows,
        "wall_s": round(wall, 2),
        "sentences_per_s": round(rows / busy, 1) if busy else None,
        "articles_per_s": round(articles / busy, 1) if busy else None,
        "latency_s": {
            "median": round(statistics.median(latencies), 3) if latencies else None,
            "p95": round(sorted(latencies)[int(0.95 * (len(latencies) - 1))], 3) if latencies else None,
            "max": round(max(latencies), 3) if latencies else None,
        },
    }


# -------------------------------------------------------------------- CLI


def _settings_options(args):
    options = {"method": args.method}
    if args.budget is not None:
        options["budget"] = args.budget
    if args.models:
        options["models"] = args.models
    for pair in args.set or []:
        name, _, value = pair.partition("=")
        options[name.replace("-", "_")] = json.loads(value) if value[:1] in "0123456789-[{\"tfn" else value
    return options


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m precis.spark", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)

    corpus = commands.add_parser("corpus", help="write an evaluation dataset as the batch job's JSONL corpus")
    corpus.add_argument("--dataset", choices=["duc2004", "multinews"], required=True)
    corpus.add_argument("--data", required=True)
    corpus.add_argument("--limit-clusters", type=int)
    corpus.add_argument("--out", required=True)

    run = commands.add_parser("batch", help="summarize every cluster of a corpus")
    run.add_argument("--input", required=True, help="Parquet or JSONL documents (cluster, text, …)")
    run.add_argument("--out", required=True)
    run.add_argument("--method", choices=REGISTRY["methods"], default=REGISTRY["default_method"])
    run.add_argument("--budget", type=int)
    run.add_argument("--set", action="append", metavar="NAME=VALUE", help="any other summary setting (as the CLI's flags)")
    run.add_argument("--master", help="default: local[2], or spark-submit's")
    run.add_argument("--partitions", type=int)
    run.add_argument("--models")

    live = commands.add_parser("stream", help="follow a TREC-TS year as a live stream")
    live.add_argument("--data", required=True, help="a TREC-TS year folder")
    live.add_argument("--policy", choices=REGISTRY["policies"], default=REGISTRY["default_policy"])
    live.add_argument("--threshold", type=float)
    live.add_argument("--checkpoint", required=True)
    live.add_argument("--out", required=True)
    live.add_argument("--feed", help="the folder the hourly files are dropped in (default: CHECKPOINT/feed)")
    live.add_argument("--files-per-batch", type=int, default=1, help="hourly files per micro-batch")
    live.add_argument("--state-ttl-hours", type=float, default=24 * 7)
    live.add_argument("--stop-after-batches", type=int, help="stop after N micro-batches (as a crash would)")
    live.add_argument("--master", help="default: local[2], or spark-submit's")
    live.add_argument("--models")

    drop = commands.add_parser("feed", help="drop a TREC-TS year into a folder as hourly files")
    drop.add_argument("--data", required=True)
    drop.add_argument("--to", required=True)
    drop.add_argument("--interval", type=float, default=0.0, help="seconds between files")

    args = parser.parse_args(argv)
    if args.command == "corpus":
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        with open(args.out, "w") as out:
            for record in corpus_records(args.dataset, args.data, args.limit_clusters):
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
        return 0
    if args.command == "feed":
        files = feed(args.data, args.to, args.interval)
        print(f"{len(files)} files in {args.to}", file=sys.stderr)
        return 0
    if args.models:
        os.environ["PRECIS_MODELS"] = str(Path(args.models).resolve())
    spark = session(args.master)
    try:
        if args.command == "batch":
            started = time.time()
            rows = batch(spark, args.input, args.out, _settings_options(args), args.partitions)
            wall = time.time() - started
            clusters = len({r["cluster"] for r in rows})
            master = spark.sparkContext.master
            print(f"{clusters} clusters summarized in {wall:.1f} s ({clusters / wall:.2f} clusters/s) on {master}; "
                  f"summaries in {args.out}", file=sys.stderr)
            return 0
        finished, stats = stream(
            spark, args.data, args.policy, args.checkpoint, args.out, args.threshold, args.models,
            args.files_per_batch, args.state_ttl_hours, args.stop_after_batches,
            _env_int("PRECIS_SPARK_FAIL_AFTER_BATCH"), args.feed,
        )
        Path(args.out).mkdir(parents=True, exist_ok=True)
        (Path(args.out) / f"{args.policy}.stats.json").write_text(json.dumps(stats, indent=1))
        print(f"micro-batches: {json.dumps(stats)}", file=sys.stderr)
        if not finished:
            print(f"stopped after {stats['micro_batches']} micro-batches with input; run the same command again to resume",
                  file=sys.stderr)
            return 0
        tsv = (Path(args.out) / f"{args.policy}.tsv").read_text()
        for line in precis.trec_report(args.data, tsv):
            print(line)
        return 0
    finally:
        spark.stop()


def _env_int(name):
    value = os.environ.get(name)
    return int(value) if value else None


if __name__ == "__main__":
    sys.exit(main())
