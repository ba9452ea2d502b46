#!/usr/bin/env python3
"""Candidates for src/segment/boilerplate.txt from the Spanish and French
crisis news, development topics only (Egypt and Libya; Syria and Yemen are
held out): sentences of 3-30 words found in at least MIN files of at least
MIN_DAYS different days. The list in the repository is this output read and
pruned by hand (prose a story could print removed).

usage: scripts/data/boilerplate_ml_crisis.py ML_CRISIS_DIR [MIN=4] > candidates.tsv
"""
import collections, os, re, sys

TOPICS = ("egypt", "libya")
MIN_DAYS = 3


def main():
    root = sys.argv[1]
    minimum = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    split = re.compile(r"(?<=[.!?])\s+")
    files, days, example = collections.Counter(), collections.defaultdict(set), {}
    for lang in ("es", "fr"):
        for topic in TOPICS:
            for day in sorted(os.listdir(os.path.join(root, lang, topic))):
                folder = os.path.join(root, lang, topic, day)
                for name in sorted(os.listdir(folder)):
                    keys = set()
                    for line in open(os.path.join(folder, name), encoding="utf-8"):
                        for s in split.split(line.strip()):
                            if 3 <= len(s.split()) <= 30:
                                key = "".join(c for c in s.lower() if c.isalnum())
                                keys.add(key)
                                example.setdefault(key, s)
                                days[key].add(day)
                    files.update(keys)
    for key, n in files.most_common():
        if n < minimum:
            break
        if len(days[key]) >= MIN_DAYS:
            print(f"{n}\t{example[key]}")


main()
