#!/usr/bin/env python3
"""Markdown rows from `precis evaluate` results.json files (the figures the
command prints: ROUGE-1.5.5's averages with 95% CIs, x100).
Usage: scripts/judging/results_table.py OUT/results.json [LABEL] ..."""
import json
import sys


def rows(path, label=""):
    data = json.load(open(path))
    for m in data["methods"]:
        met = {x["metric"]: x for x in m["rouge"]["metrics"]}

        def cell(metric, kind):
            v = met[metric][kind]
            return f"{100 * v['bootstrap_mean']:.2f} [{100 * v['low']:.2f}–{100 * v['high']:.2f}]"

        yield (f"| {m['method']}{label} | {cell('ROUGE-1', 'recall')} | {cell('ROUGE-2', 'recall')} | "
               f"{cell('ROUGE-L', 'recall')} | {cell('ROUGE-1', 'f')} | {cell('ROUGE-2', 'f')} | {m['mean_words']:.1f} |")


if __name__ == "__main__":
    print("| method | R1 recall | R2 recall | RL recall | R1 F1 | R2 F1 | words |")
    print("|---|---|---|---|---|---|---:|")
    args = sys.argv[1:]
    while args:
        path, label = args[0], ""
        if len(args) > 1 and not args[1].endswith(".json"):
            label, args = args[1], args[2:]
        else:
            args = args[1:]
        print("\n".join(rows(path, label)))
