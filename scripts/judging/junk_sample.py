#!/usr/bin/env python3
"""Seeded random sample of summary lines per method, for judging junk by hand.

usage: scripts/judging/junk_sample.py RUN_DIR METHODS N SEED > sample.tsv
Writes method<TAB>cluster<TAB>line for N lines per method (the union is what
gets judged; a line's judgement is shared by every method that picked it).
The sample is bottom-k: the N lines whose seeded SHA-256 of
(seed, method, cluster, line) is smallest, uniform over the run's lines.
With --score JUDGED.tsv[,MORE.tsv…] (line<TAB>prose|junk) prints the junk share per method;
with --only A,B the share is over the sampled lines of the clusters whose
names contain A or B (e.g. the held-out topics of scripts/data/ml_crisis_clusters.py).
"""
import hashlib, sys, os, glob

def lines_of(run, method):
    out = []
    for path in sorted(glob.glob(os.path.join(run, method, "*.txt"))):
        cluster = os.path.basename(path)[:-4]
        for line in open(path, encoding="utf-8"):
            line = line.strip()
            if line:
                out.append((cluster, line))
    return out

def bottom_k(lines, n, seed, method):
    """The n lines with the smallest seeded hashes: a uniform random sample
    that stays put when a filter change replaces a few lines elsewhere (so
    only the newcomers need judging)."""
    key = lambda cl: hashlib.sha256(f"{seed}\t{method}\t{cl[0]}\t{cl[1]}".encode()).hexdigest()
    return sorted(lines, key=key)[:n]

def judged_labels(paths):
    """line -> prose|junk from the judged files (line<TAB>label), the later
    file winning; lines stripped, as `lines_of` strips summary lines."""
    judged = {}
    for path in paths:
        for row in open(path, encoding="utf-8"):
            text, label = row.rstrip("\n").rsplit("\t", 1)
            judged[text.strip()] = label
    return judged

def take_option(args, name):
    """The value after `name` in `args` (both removed), or None."""
    if name not in args:
        return None
    i = args.index(name)
    value = args[i + 1]
    del args[i:i + 2]
    return value

def main():
    args = sys.argv[1:]
    score = take_option(args, "--score")
    only = take_option(args, "--only")
    only = only.split(",") if only else None
    run, methods, n, seed = args[0], args[1].split(","), int(args[2]), int(args[3])
    judged = judged_labels(score.split(",")) if score else {}
    for m in methods:
        lines = lines_of(run, m)
        sample = bottom_k(lines, n, seed, m)
        if score and only:
            sample = [(c, l) for c, l in sample if any(part in c for part in only)]
        if score:
            junk = [l for _, l in sample if judged.get(l) == "junk"]
            missing = sum(1 for _, l in sample if l not in judged)
            share = 100 * len(junk) / max(len(sample), 1)
            print(f"{m}\t{len(lines)} lines\tsample {len(sample)}\tjunk {len(junk)} ({share:.1f}%)\tunjudged {missing}")
            for l in junk:
                print(f"    {l}")
        else:
            for c, l in sample:
                print(f"{m}\t{c}\t{l}")

if __name__ == "__main__":
    main()
