#!/usr/bin/env python3
"""Sizes a learned reader for whole Thai paragraphs (issue 42, seventh
round; not built): what the rules leave of the Thai pages is mostly junk
cut into several space-separated pieces, which the prose reader (one
sentence alone in its paragraph) never sees.

usage: scripts/experiments/thai_paragraph_reader.py PRECIS_BINARY [MAX_PIECES]

The paragraphs (fixture lines) of the labelled pages that the rules leave
whole, in all 16 languages, each embedded as one text with its form
features (`precis embed --form-features`); a logistic regression as
models/furniture/train.py fits it, out of fold by page on the dev pages,
then fitted on all dev pages and applied to the Thai test pages once.
Prints, per threshold, the Thai prose and junk paragraphs it would take.
Deterministic; numpy only (run it with .venv/bin/python).
"""
import collections, json, pathlib, sys, tempfile, subprocess
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / 'models/furniture'))
import train  # noqa: E402


def paragraphs(binary):
    with tempfile.NamedTemporaryFile(suffix='.jsonl') as out:
        subprocess.run([binary, 'furniture-eval', '--fixture', str(ROOT / 'tests/fixtures/furniture'), '--sentences', out.name],
                       check=True, capture_output=True)
        rows = [json.loads(r) for r in open(out.name, encoding='utf-8')]
    lines = collections.OrderedDict()
    for r in rows:
        lines.setdefault((r['page'], r['line']), []).append(r)
    return [dict(page=k[0], lang=s[0]['lang'], split=s[0]['split'], prose=s[0]['prose'], pieces=len(s), text=' '.join(x['text'] for x in s))
            for k, s in lines.items() if not any(x['excluded'] for x in s)]


def main():
    binary = sys.argv[1]
    max_pieces = int(sys.argv[2]) if len(sys.argv) > 2 else 99
    cand = paragraphs(binary)
    x = train.embed(binary, [c['text'] for c in cand])
    y = np.array([not c['prose'] for c in cand], dtype=float)
    dev = np.array([c['split'] == 'dev' for c in cand])
    thai = np.array([c['lang'] == 'th' and c['pieces'] <= max_pieces for c in cand])
    oof = train.out_of_fold(x[dev], y[dev], [c['page'] for c in cand if c['split'] == 'dev'])
    weights, bias = train.fit(x[dev], y[dev])
    p = train.probability(x, weights, bias)
    print('threshold | Thai dev (out of fold): prose taken / prose, junk taken / junk | Thai test: prose taken, junk taken')
    for t in [0.3, 0.4, 0.5, 0.6, 0.7]:
        d = (oof >= t) & thai[dev]
        e = (p >= t) & thai & ~dev
        print(f'{t} | {int((d & (y[dev] == 0)).sum())} / {int((thai[dev] & (y[dev] == 0)).sum())}, '
              f'{int((d & (y[dev] == 1)).sum())} / {int((thai[dev] & (y[dev] == 1)).sum())} | '
              f'{int((e & (y == 0)).sum())} / {int((thai & ~dev & (y == 0)).sum())}, {int((e & (y == 1)).sum())} / {int((thai & ~dev & (y == 1)).sum())}')


if __name__ == '__main__':
    main()
