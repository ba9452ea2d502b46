#!/usr/bin/env python3
"""The summary lines a change brought in and took out, whole runs compared
(no sample), with their judged labels: how a rule's exclusions change the
junk in every summary, not only in a seeded sample.

usage: scripts/judging/junk_changed.py BEFORE_RUN AFTER_RUN METHODS --score JUDGED.tsv[,MORE.tsv…]
A line counts once per method and cluster whose summary it left or joined.
Prints, per method and in all, the lines that left and came in by label
(junk, prose, unjudged), then the unjudged ones, to be judged blind.
"""
import collections, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from junk_sample import judged_labels, lines_of, take_option


def by_cluster(run, method):
    clusters = collections.defaultdict(set)
    for cluster, line in lines_of(run, method):
        clusters[cluster].add(line)
    return clusters


def main():
    args = sys.argv[1:]
    score = take_option(args, "--score")
    if score is None or len(args) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    before_run, after_run, methods = args[0], args[1], args[2].split(",")
    judged = judged_labels(score.split(","))
    total = {"left": collections.Counter(), "came in": collections.Counter()}
    unjudged = set()
    for m in methods:
        before, after = by_cluster(before_run, m), by_cluster(after_run, m)
        counts = {"left": collections.Counter(), "came in": collections.Counter()}
        for cluster in sorted(set(before) | set(after)):
            for way, lines in (("left", before[cluster] - after[cluster]), ("came in", after[cluster] - before[cluster])):
                for line in lines:
                    label = judged.get(line, "unjudged")
                    counts[way][label] += 1
                    if label == "unjudged":
                        unjudged.add(line)
        for way in counts:
            total[way].update(counts[way])
        print(f"{m}\tleft {dict(counts['left'])}\tcame in {dict(counts['came in'])}")
    print(f"all\tleft {dict(total['left'])}\tcame in {dict(total['came in'])}")
    print(f"junk lines: {total['came in']['junk'] - total['left']['junk']:+d}")
    for line in sorted(unjudged):
        print(f"    {line}")


if __name__ == "__main__":
    main()
