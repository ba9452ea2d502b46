#!/usr/bin/env python3
"""Sentences per paragraph of each translation against the English original.

usage: scripts/judging/parallel_split.py PARALLEL_DIR BINARY [LANG,…]
PARALLEL_DIR holds one folder per language with the same articles
(tests/fixtures/parallel), translated sentence for sentence; `BINARY segment`
splits each. A paragraph with more sentences than its English original was
cut inside a sentence (over), one with fewer had two joined (under).
Translators may join or split a sentence now and then, so the English count
is a guide, not a gold standard.
"""
import glob, json, os, subprocess, sys


def paragraphs(binary, path):
    run = subprocess.run([binary, 'segment', path], capture_output=True, text=True, check=True)
    counts = {}
    for row in run.stdout.splitlines():
        para = json.loads(row)['para']
        counts[para] = counts.get(para, 0) + 1
    return counts


def main():
    folder, binary = sys.argv[1], sys.argv[2]
    langs = sys.argv[3].split(',') if len(sys.argv) > 3 else sorted(
        os.path.basename(d.rstrip(os.sep)) for d in glob.glob(os.path.join(folder, '*', '')) if not d.rstrip(os.sep).endswith('en'))
    print('| language | English sentences | sentences | paragraphs as in English | over | under |')
    print('|---|---:|---:|---:|---:|---:|')
    for lang in langs:
        english = sentences = exact = over = under = total = 0
        for original in sorted(glob.glob(os.path.join(folder, 'en', '*.txt'))):
            e = paragraphs(binary, original)
            t = paragraphs(binary, os.path.join(folder, lang, os.path.basename(original)))
            for para, n in e.items():
                m = t.get(para, 0)
                english, sentences, total = english + n, sentences + m, total + 1
                exact += m == n
                over += max(0, m - n)
                under += max(0, n - m)
        print(f'| {lang} | {english} | {sentences} | {exact} of {total} | {over} | {under} |')


if __name__ == '__main__':
    main()
