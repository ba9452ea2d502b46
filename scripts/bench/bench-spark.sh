#!/usr/bin/env bash
# Throughput of the Spark jobs against the single-process CLI, in one run on
# this machine (README, "Spark"):
#   batch:  Multi-News validation full text, `precis evaluate --threads 1|2`
#           against `python -m precis.spark batch` on local[1] and local[2];
#           the summaries must be identical.
#   stream: a TREC-TS year, `precis stream --data` against
#           `python -m precis.spark stream` on local[2]; the updates and the
#           printed scores must be identical.
# Usage: scripts/bench/bench-spark.sh DATA_DIR [METHOD] [POLICY] [TREC_YEAR]
#   (BENCH_PARTS="batch" or "stream" runs one part only)
#   DATA_DIR is ../shared/data (multinews/val_fulltext_sample250.jsonl.gz,
#   trec_ts/YEAR). Work files go to $BENCH_DIR (default target/bench-spark).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DATA="$(cd "${1:?usage: scripts/bench/bench-spark.sh DATA_DIR [METHOD] [POLICY] [TREC_YEAR]}" && pwd)"
METHOD="${2:-gg}"
POLICY="${3:-ls}"
YEAR="${4:-2013}"
WORK="${BENCH_DIR:-$ROOT/target/bench-spark}"
CLI="${PRECIS_BIN:-$ROOT/target/ci/precis}"
PY="$ROOT/.venv/bin/python"
rm -rf "$WORK" && mkdir -p "$WORK"
cd "$WORK"
now() { date +%s.%N; }
elapsed() { python3 -c "print(f'{$(now) - $1:.1f}')"; }

echo "machine: $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
PARTS="${BENCH_PARTS:-batch stream}"
MN="$DATA/multinews/val_fulltext_sample250.jsonl.gz"
if [[ " $PARTS " == *" batch "* ]]; then
"$PY" -m precis.spark corpus --dataset multinews --data "$MN" --out corpus.jsonl
echo "batch: $(wc -l < corpus.jsonl) documents, method $METHOD"
for threads in 1 2; do
  t=$(now); "$CLI" evaluate --dataset multinews --data "$MN" --methods "$METHOD" --threads "$threads" --out "cli$threads" > /dev/null 2>> log
  echo "  CLI --threads $threads: $(elapsed "$t") s"
done
for cores in 1 2; do
  t=$(now); "$PY" -m precis.spark batch --input corpus.jsonl --method "$METHOD" --budget 230 --master "local[$cores]" --out "spark$cores" > /dev/null 2>> log
  echo "  Spark local[$cores]: $(elapsed "$t") s with the JVM's start; $(grep -o 'clusters summarized in [0-9.]* s' log | tail -1)"
  diff -r -q "cli1/$METHOD" "spark$cores/$METHOD" > /dev/null && echo "  identical to the CLI's summaries" \
    || { echo "  DIFFERENT from the CLI's summaries"; exit 1; }
done

fi

if [[ " $PARTS " == *" stream "* ]]; then
echo "stream: TREC-TS $YEAR, policy $POLICY, 24 hourly files a micro-batch"
t=$(now); "$CLI" stream --data "$DATA/trec_ts/$YEAR" --policy "$POLICY" --out cli-stream --cache cache > cli-stream.txt 2>> log
echo "  CLI: $(elapsed "$t") s (embedding included)"
t=$(now); "$PY" -m precis.spark stream --data "$DATA/trec_ts/$YEAR" --policy "$POLICY" --checkpoint checkpoint --out spark-stream \
  --files-per-batch 24 > spark-stream.txt 2>> log
echo "  Spark local[2]: $(elapsed "$t") s; $(cat "spark-stream/$POLICY.stats.json" | tr -d '\n ')"
cmp -s "cli-stream/$POLICY.tsv" "spark-stream/$POLICY.tsv" && cmp -s cli-stream.txt spark-stream.txt \
  && echo "  identical updates and report ($(($(wc -l < "cli-stream/$POLICY.tsv") - 1)) updates)" \
  || { echo "  DIFFERENT updates or report"; exit 1; }
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
