#!/usr/bin/env python3
"""Candidates for src/segment/boilerplate.txt: sentences of 4-25 words found in
at least MIN clusters of the Multi-News TRAIN split (never validation or test).

usage: scripts/data/boilerplate_lines.py TRAIN.jsonl.gz [MIN=10] > candidates.tsv
Prints clusters<TAB>sentence, most frequent first. The list in the repository
is this output read and pruned by hand (prose and abbreviation splits removed).
"""
import collections, gzip, json, re, sys

def main():
    path, minimum = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 10
    split = re.compile(r"(?<=[.!?])\s+")
    clusters, example = collections.Counter(), {}
    for row in gzip.open(path, "rt"):
        keys = set()
        for doc in json.loads(row)["documents"]:
            for s in split.split(doc):
                s = s.strip()
                if not 4 <= len(s.split()) <= 25:
                    continue
                key = "".join(c for c in s.lower() if c.isalnum())
                keys.add(key)
                example.setdefault(key, s)
        clusters.update(keys)
    for key, n in clusters.most_common():
        if n < minimum:
            break
        print(f"{n}\t{example[key]}")

main()
