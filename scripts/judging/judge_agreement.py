#!/usr/bin/env python3
"""Agreement of two judgements of the same lines (line<TAB>prose|junk files).

usage: scripts/judging/judge_agreement.py FIRST.tsv SECOND.tsv
       scripts/judging/judge_agreement.py --repeats FILE.tsv FILE.tsv [FILE.tsv ...]
Prints the 2x2 table over the lines both judged, the share of agreement,
Cohen's kappa, and the lines they disagree on. With --repeats: over the
lines found in more than one of the files (hidden controls, lines met again
in later rounds), how many got both labels. Used to check the
summary-line judgements (docs/results/furniture-judged-blind.tsv) against a
second, independent judge (docs/results/furniture-judged-control.tsv).
"""
import collections, sys

def labels(path):
    rows = (line.rstrip("\n").rsplit("\t", 1) for line in open(path, encoding="utf-8"))
    return {text: label for text, label in rows}

def repeats(paths):
    judged = collections.defaultdict(dict)
    for path in paths:
        for text, label in labels(path).items():
            judged[text.strip()].setdefault(label, set()).add(path)
    files = lambda by_label: set().union(*by_label.values())
    again = {t: by_label for t, by_label in judged.items() if len(files(by_label)) > 1}
    both = [t for t, by_label in again.items() if len(by_label) == 2]
    junk_once = sum(1 for by_label in again.values() if "junk" in by_label)
    print(f"{len(again)} lines judged in more than one file; {len(both)} got both labels, "
          f"of the {junk_once} called junk at least once")
    for t in both:
        print(f"  {t}")

def main():
    if sys.argv[1] == "--repeats":
        return repeats(sys.argv[2:])
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
