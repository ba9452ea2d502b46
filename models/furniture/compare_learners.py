#!/usr/bin/env python3
"""Would another learner read junk better than the prose reader's logistic
regression, on the same features (the embedding and five form features)?

usage: models/furniture/compare_learners.py PRECIS_BINARY
Needs numpy and scikit-learn (`pip install scikit-learn`); deterministic.

Every line judged by hand in docs/results/furniture-judged*.tsv (lines
judged both ways left out) is embedded with `PRECIS_BINARY embed`; the
lines the segmentation rules let through alone (`PRECIS_BINARY segment`,
one line per document: still one sentence, not excluded) are the ones a
reader decides. For each learner, 5-fold stratified cross-validation over
all judged lines gives out-of-fold scores; the table gives how many of the
junk lines the rules let through each catches when its threshold loses
0.5%, 1% or 2% of the prose lines the rules let through. Then simple cues,
counted on the lines the rules and the shipped reader let through: all of
them, and those the reader was not trained on (train.TRAINING_FILES).
Result: docs/results/furniture.md ("Tried and not landed: other learners").
"""
import glob, json, re, subprocess, sys, tempfile
import numpy as np
from sklearn.model_selection import StratifiedKFold
from sklearn.neural_network import MLPClassifier
from sklearn.svm import SVC

import train

PROSE_LOSSES = (0.005, 0.01, 0.02)


def judged_lines():
    labels, files = {}, {}
    for path in sorted(glob.glob(str(train.ROOT / 'docs/results/furniture-judged*.tsv'))):
        for row in open(path, encoding='utf-8'):
            text, label = row.rstrip('\n').rsplit('\t', 1)
            text = text.strip()
            if text and labels.setdefault(text, label) != label:
                labels[text] = None
            files.setdefault(text, path.rsplit('/', 1)[-1])
    texts = [t for t, label in labels.items() if label]
    trained_on = np.array([files[t] in train.TRAINING_FILES for t in texts])
    return texts, np.array([labels[t] == 'junk' for t in texts]), trained_on


def passes_rules(binary, texts):
    """Whether each line, as a document of its own, stays one sentence that
    the rules do not exclude."""
    with tempfile.NamedTemporaryFile('w', suffix='.json', encoding='utf-8') as docs:
        json.dump([{'id': str(i), 'text': t} for i, t in enumerate(texts)], docs)
        docs.flush()
        run = subprocess.run([binary, 'segment', docs.name], capture_output=True, text=True, check=True)
    sentences = {}
    for line in run.stdout.splitlines():
        row = json.loads(line)
        sentences.setdefault(row['doc'], []).append(row)
    return np.array([len(sentences.get(i, [])) == 1 and 'excluded' not in sentences[i][0] for i in range(len(texts))])


def logistic(c):
    def scores(x_train, y_train, x_test):
        weights, bias = train.fit(x_train, y_train.astype(float), c=c)
        return train.probability(x_test, weights, bias)
    return scores


def perceptron(hidden, alpha):
    """A one-hidden-layer network, averaged over three seeds."""
    def scores(x_train, y_train, x_test):
        runs = []
        for seed in range(3):
            net = MLPClassifier((hidden,), alpha=alpha, max_iter=300, early_stopping=True, random_state=seed)
            runs.append(net.fit(x_train, y_train).predict_proba(x_test)[:, 1])
        return np.mean(runs, axis=0)
    return scores


def kernel_machine(c):
    def scores(x_train, y_train, x_test):
        return SVC(C=c, kernel='rbf', gamma='scale').fit(x_train, y_train).decision_function(x_test)
    return scores


LEARNERS = [
    ('logistic regression, C 10 (shipped)', logistic(10.0)),
    ('logistic regression, C 3', logistic(3.0)),
    ('network, 64 hidden, alpha 0.001', perceptron(64, 1e-3)),
    ('network, 128 hidden, alpha 0.01', perceptron(128, 1e-2)),
    ('network, 256 hidden, alpha 0.1', perceptron(256, 1e-1)),
    ('RBF kernel machine, C 1', kernel_machine(1.0)),
    ('RBF kernel machine, C 3', kernel_machine(3.0)),
    ('RBF kernel machine, C 10', kernel_machine(10.0)),
]


def out_of_fold(learner, x, y):
    scores = np.zeros(len(y))
    for fit_on, score_on in StratifiedKFold(5, shuffle=True, random_state=0).split(x, y):
        scores[score_on] = learner(x[fit_on], y[fit_on], x[score_on])
    return scores


# Short words that end no headline ("… the border near Yuma is …").
JOINING_WORDS = set("""the a an of to in on at for from with by and or but as that this these those
which who whom whose than then said says told asked about after before into over under between while
when where whether would could should will have has had been being were was are is its their his her
our your my de la el los las le les des du et en un una une der die das und von zu im mit""".split())


def glued_headline(text):
    """A headline glued to the sentence after it, by form: a lowercase word
    that joins nothing, then a capital, and two content words (first five
    letters) of the part before it again after it ("Fighter pilots claim
    asylum || Reuters reported that two Libyan fighter jets … asylum.")."""
    words = text.split()
    if len(words) < 9 or text.rstrip()[-1] not in train.TERMINALS:
        return False
    stems = lambda part: {w[:5] for w in (re.sub(r'\W', '', w.lower()) for w in part)
                          if len(w) >= 4 and not w.isdigit() and w not in JOINING_WORDS}
    for k in range(3, min(len(words) - 5, 25)):
        before, capital = words[k - 1], words[k].lstrip('"“‘\'')
        if (before.isalpha() and before.islower() and before not in JOINING_WORDS
                and capital[:1].isupper() and len(stems(words[:k]) & stems(words[k:])) >= 2):
            return True
    return False


def quote_tail(text):
    """Ends in a closing quote whose opening mark is not in the line."""
    if not text.rstrip().endswith(('"', '”', '»', "'", '’')):
        return False
    opening, closing = sum(map(text.count, '“«„‘')), sum(map(text.count, '”»’'))
    if opening or closing > 1:
        return opening < closing
    return text.count('"') % 2 == 1 or closing == 1


CUES = [
    ('a hashtag', lambda t: '#' in t),
    ("ends in '!'", lambda t: t.rstrip().endswith('!')),
    ("opens in the first person ('I', 'My', 'Je')", lambda t: re.match(r"(I|I'm|My|Je|J'|J’)\b", t)),
    ("a quote's tail without its opening mark", quote_tail),
    ('six words or fewer', lambda t: len(t.split()) <= 6),
    ('a headline glued to its lead', glued_headline),
]


def shipped_reader_flags(x):
    reader = json.loads((train.ROOT / 'models/furniture/reader.json').read_text())
    return train.probability(x, np.array(reader['weights']), reader['bias']) >= reader['threshold']


def main():
    binary = sys.argv[1]
    texts, y, trained_on = judged_lines()
    decided = passes_rules(binary, texts)
    x = np.hstack([train.embed(binary, texts), np.array([train.form_features(t) for t in texts])])
    junk, prose = decided & y, decided & ~y
    print(f'{len(y)} judged lines, {int(y.sum())} junk; the rules let through {int(decided.sum())}, '
          f'{int(junk.sum())} junk and {int(prose.sum())} prose')
    print('| learner | ' + ' | '.join(f'junk caught, {100 * loss:g}% prose lost' for loss in PROSE_LOSSES) + ' |')
    print('|---|' + '---:|' * len(PROSE_LOSSES))
    for name, learner in LEARNERS:
        scores = out_of_fold(learner, x, y)
        caught = [int((scores[junk] > np.quantile(scores[prose], 1 - loss)).sum()) for loss in PROSE_LOSSES]
        print(f'| {name} | ' + ' | '.join(f'{n} / {int(junk.sum())}' for n in caught) + ' |', flush=True)
    left = decided & ~shipped_reader_flags(x)
    held_out = left & ~trained_on
    print(f'\nleft by the rules and the shipped reader: {int((left & y).sum())} junk, {int((left & ~y).sum())} prose; '
          f'of these not trained on: {int((held_out & y).sum())} junk, {int((held_out & ~y).sum())} prose')
    print('| cue | junk : prose, all left | junk : prose, not trained on |')
    print('|---|---:|---:|')
    for name, cue in CUES:
        fires = np.array([bool(cue(t)) for t in texts])
        counts = [f'{int((fires & part & y).sum())} : {int((fires & part & ~y).sum())}' for part in (left, held_out)]
        print(f'| {name} | ' + ' | '.join(counts) + ' |')


if __name__ == '__main__':
    main()
