#!/usr/bin/env python3
"""Agreement of two judgements of the same lines (line<TAB>prose|junk files).

usage: scripts/judge_agreement.py FIRST.tsv SECOND.tsv
Prints the 2x2 table over the lines both judged, the share of agreement,
Cohen's kappa, and the lines they disagree on. Used to check the
summary-line judgements (docs/results/furniture-judged-blind.tsv) against a
second, independent judge (docs/results/furniture-judged-control.tsv).
"""
import collections, sys

def labels(path):
    rows = (line.rstrip("\n").rsplit("\t", 1) for line in open(path, encoding="utf-8"))
    return {text: label for text, label in rows}

def main():
    first, second = labels(sys.argv[1]), labels(sys.argv[2])
    both = [t for t in second if t in first]
    table = collections.Counter((first[t], second[t]) for t in both)
    n = len(both)
    agree = sum(v for (a, b), v in table.items() if a == b) / n
    junk_first = sum(v for (a, _), v in table.items() if a == "junk") / n
    junk_second = sum(v for (_, b), v in table.items() if b == "junk") / n
    chance = junk_first * junk_second + (1 - junk_first) * (1 - junk_second)
    print(f"{n} lines judged by both")
    for a in ("prose", "junk"):
        print(f"  first {a:5}: second prose {table[(a, 'prose')]:4}, junk {table[(a, 'junk')]:4}")
    print(f"agreement {agree:.2f}, Cohen's kappa {(agree - chance) / (1 - chance):.2f}")
    for t in both:
        if first[t] != second[t]:
            print(f"  {first[t]} -> {second[t]}: {t}")

main()
