#!/usr/bin/env python3
"""What the summary-line reader would doubt at other thresholds: the cost
side of its junk figures (docs/results/furniture.md, "Where the two unmet
targets stand").

usage: models/furniture/doubt_frontier.py PRECIS_BINARY ML_CRISIS_DIR [THRESHOLD ...]

Reads the Spanish and French articles of the held-out crisis topics
(train.HELD_OUT_TOPICS) as summaries read them (`precis segment
--prose-reader`), keeps each article's lead window (its first 9 prose
sentences, the default of --first-sentences), scores them with
models/furniture/summary-reader.json, and prints, per threshold, how many
of those sentences it would doubt: all of them, and the ones judged prose
or junk in docs/results/furniture-judged*.tsv. Numpy only.
"""
import glob, json, pathlib, subprocess, sys
import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import train  # noqa: E402  (embedding, the held-out topics)
import train_summary  # noqa: E402  (the judged lines)

ROOT = pathlib.Path(__file__).resolve().parents[2]
LEAD_WINDOW = 9


def lead_sentences(binary, crisis):
    """Each held-out article's first prose sentences in the reader's languages."""
    files = [str(p) for lang in ('es', 'fr') for topic in train.HELD_OUT_TOPICS
             for p in sorted((pathlib.Path(crisis) / lang / topic).glob('*/*'))]
    run = subprocess.run([binary, 'segment', '--prose-reader', *files], capture_output=True, text=True, check=True)
    by_doc = {}
    for row in map(json.loads, run.stdout.splitlines()):
        if 'excluded' not in row and row['lang'] in ('es', 'fr'):
            by_doc.setdefault(row['doc'], []).append(row['text'].strip())
    return sorted({t for lead in by_doc.values() for t in lead[:LEAD_WINDOW] if t and '\n' not in t})


def main():
    binary, crisis, *thresholds = sys.argv[1:]
    thresholds = [float(t) for t in thresholds] or [0.2, 0.3, 0.4, 0.5]
    reader = json.loads((ROOT / 'models/furniture/summary-reader.json').read_text())
    texts = lead_sentences(binary, crisis)
    scores = 1 / (1 + np.exp(-(train.embed(binary, texts) @ np.array(reader['weights']) + reader['bias'])))
    judged, _ = train_summary.judged_lines()
    label = dict(judged)
    prose = np.array([label.get(t) is False for t in texts])
    junk = np.array([label.get(t) is True for t in texts])
    print(f'{len(texts)} lead sentences of held-out es/fr articles; {prose.sum()} judged prose, {junk.sum()} judged junk')
    print('| threshold | doubted, all | judged prose doubted | judged junk doubted |')
    print('|---:|---:|---:|---:|')
    for t in thresholds:
        d = scores >= t
        share = lambda mask: f'{(d & mask).sum()}/{mask.sum()} ({100 * (d & mask).sum() / mask.sum():.1f} %)'
        print(f'| {t} | {share(np.ones_like(d))} | {share(prose)} | {share(junk)} |')


if __name__ == '__main__':
    main()
