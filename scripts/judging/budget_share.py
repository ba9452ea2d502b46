#!/usr/bin/env python3
"""How much of the same news a summary budget keeps in each language.

usage: scripts/judging/budget_share.py PARALLEL_DIR BINARY [BINARY…]
PARALLEL_DIR holds one folder per language with the same articles
(tests/fixtures/parallel); each language's articles are summarized as one
cluster (`precis summarize --format json`, default method and budget), and
the table gives the summary's lines and its share of the articles' text
(characters other than spaces), one column per binary. A budget that says
as much in every script keeps about the same share in every language.
"""
import glob, json, os, subprocess, sys


def summary(binary, files):
    run = subprocess.run([binary, 'summarize', '--format', 'json'] + files, capture_output=True, text=True)
    if run.returncode:
        return None
    lines = json.loads(run.stdout)['summary']
    return len(lines), sum(len(''.join(line['text'].split())) for line in lines)


def main():
    folder, binaries = sys.argv[1], sys.argv[2:]
    print('| language | ' + ' | '.join(f'{os.path.basename(b)}: lines, share' for b in binaries) + ' |')
    print('|---|' + '---:|' * len(binaries))
    for lang_dir in sorted(glob.glob(os.path.join(folder, '*', ''))):
        files = sorted(glob.glob(os.path.join(lang_dir, '*.txt')))
        text = sum(len(''.join(open(f, encoding='utf-8').read().split())) for f in files)
        cells = []
        for binary in binaries:
            result = summary(binary, files)
            cells.append('failed' if result is None else f'{result[0]}, {100 * result[1] / text:.1f} %')
        print(f'| {os.path.basename(lang_dir.rstrip(os.sep))} | ' + ' | '.join(cells) + ' |')


if __name__ == '__main__':
    main()
