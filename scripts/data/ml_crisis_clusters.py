#!/usr/bin/env python3
"""Multi-document clusters from the Spanish and French crisis news, as a
Multi-News-style .jsonl.gz, so that `precis evaluate --dataset multinews`
writes every method's summaries of real non-English web articles, for
judging the junk lines in them. The "summary" field, which `evaluate`
needs, is only the first article's headline: the ROUGE scores of such a
run mean nothing. "lang": null has `evaluate` detect each sentence's
language, as the app and `precis summarize` do (Multi-News rows are read
as English).

usage: scripts/data/ml_crisis_clusters.py ML_CRISIS_DIR OUT.jsonl.gz [MAX_DOCS=10]
One cluster per language, topic and ISO week with at least two articles;
at most MAX_DOCS articles each, in file order.
"""
import datetime, gzip, json, os, sys
from collections import defaultdict

def main():
    root, out = sys.argv[1], sys.argv[2]
    max_docs = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    clusters = defaultdict(list)
    for lang in ("es", "fr"):
        for topic in sorted(os.listdir(os.path.join(root, lang))):
            if topic == "reference":
                continue
            for day in sorted(os.listdir(os.path.join(root, lang, topic))):
                year, week, _ = datetime.date.fromisoformat(day).isocalendar()
                folder = os.path.join(root, lang, topic, day)
                for name in sorted(os.listdir(folder)):
                    clusters[(lang, topic, f"{year}-W{week:02d}")].append(os.path.join(folder, name))
    written = 0
    with gzip.open(out, "wt", encoding="utf-8") as sink:
        for (lang, topic, week), paths in sorted(clusters.items()):
            if len(paths) < 2:
                continue
            documents = [open(p, encoding="utf-8").read() for p in paths[:max_docs]]
            row = {"id": f"{lang}-{topic}-{week}", "documents": documents, "summary": "– " + documents[0].split("\n", 1)[0], "lang": None}
            sink.write(json.dumps(row, ensure_ascii=False) + "\n")
            written += 1
    print(f"{written} clusters", file=sys.stderr)

main()
