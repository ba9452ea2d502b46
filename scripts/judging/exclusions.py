#!/usr/bin/env python3
"""What the prose filter excludes from clean text: every DUC 2004 cluster
(or any folders of .txt articles) segmented as one cluster by `precis
segment`, the exclusions counted by reason and listed.

usage: scripts/judging/exclusions.py PRECIS_BINARY DOCS_DIR [--prose-reader] [--list]
DOCS_DIR holds one folder per cluster (../shared/data/duc2004/docs).
Wire codes ("graf 19 pvs", "MORE", "ENDIT") and bare datelines ("NEW YORK
(AP) --") are counted apart: the issue's 1% allows them.
"""
import collections, json, os, re, subprocess, sys

# Editorial codes of the wire services and datelines: furniture in any text.
WIRE_CODE = re.compile(r"(\bgraf\b|\bpvs\b|^MORE$|^ENDIT|^END\b|\bstory filed\b|^NYT-|^\(?[A-Z]+\)?$|\bADVANCE FOR\b|\bEDs?:|\bOPTIONAL TRIM\b|\bBC-)")
DATELINE_REASONS = {"page furniture: dateline or label before the text", "page furniture: dateline"}


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    binary, docs = args
    flags = ["--prose-reader"] if "--prose-reader" in sys.argv else []
    total, excluded = 0, []
    for cluster in sorted(os.listdir(docs)):
        folder = os.path.join(docs, cluster)
        files = sorted(os.path.join(folder, f) for f in os.listdir(folder))
        out = subprocess.run([binary, "segment", *flags, *files], capture_output=True, text=True, check=True).stdout
        for row in map(json.loads, out.splitlines()):
            total += 1
            if "excluded" in row:
                excluded.append((cluster, row["excluded"], row["text"]))
    allowed = [e for e in excluded if e[1] in DATELINE_REASONS or WIRE_CODE.search(e[2])]
    counted = [e for e in excluded if e not in allowed]
    print(f"{total} sentences; excluded {len(excluded)} ({100 * len(excluded) / total:.2f}%); "
          f"wire codes and datelines {len(allowed)}; the rest {len(counted)} ({100 * len(counted) / total:.2f}%)")
    for reason, n in collections.Counter(e[1] for e in counted).most_common():
        print(f"  {n:4}  {reason}")
    if "--list" in sys.argv:
        for cluster, reason, text in counted:
            print(f"{cluster}\t{reason}\t{text}")


main()
