#!/usr/bin/env python3
"""Issue #43, part 1: choose the embedding table's row order and block size by
measurement (docs/results/table-blocks.md).

usage: .venv/bin/python scripts/experiments/table_blocks.py [OUT.md]
       (default OUT: docs/results/table-blocks.md; needs target/ci/precis or
       $PRECIS, models/muse-v3/ and ../shared/data)

The table has 128,010 rows of 512 u8 codes. Piece frequencies are counted on
training text only (Multi-News validation; ml_crisis Egypt and Libya; the dev
pages of tests/fixtures/furniture/pages). Held out: DUC2004 clusters,
ml_crisis Syria and Yemen clusters, the test pages of the 16 languages. For
each row order and block size, a held-out cluster or article needs every
block that holds one of its pieces before its first summary; we count those
blocks and their bytes (raw; x 0.40, the whole table's gzip ratio; and each
touched block gzipped on its own, zlib level 6, its rows sorted by chunk
inside the block). Block sizes 256-4096 as asked, and 16-128 because the
large ones cannot meet the budget; and the pieces' rows alone (the floor, as
HTTP range requests of raw rows would fetch them).
"""
import gzip, json, os, shutil, subprocess, sys, tempfile, time, zlib
from concurrent.futures import ThreadPoolExecutor
from multiprocessing import Pool
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.normpath(os.path.join(ROOT, "..", "shared", "data"))
PRECIS = os.environ.get("PRECIS", os.path.join(ROOT, "target", "ci", "precis"))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "docs", "results", "table-blocks.md")
ROWS, DIM, NUM_CHUNKS = 128010, 512, 17
CHUNK_ROWS = ROWS // NUM_CHUNKS
BLOCKS = [256, 512, 1024, 2048, 4096]  # asked in the issue's brief
SMALL = [16, 32, 64, 128]  # added: a text's rare pieces each cost a whole block
ALL = SMALL + BLOCKS
GZ_LEVEL = 6  # zlib; gzip -9 makes the whole table 1.3 % smaller (26.43 against 26.78 MB)
GZ_RATIO = 0.40  # the whole table: 26.4 MB gzip -9 of 65.5 MB
# Languages in a fixed order: Latin script, then Cyrillic, Arabic, Thai, Hangul, Han/kana.
LANGS = ["en", "es", "fr", "it", "pt", "de", "nl", "pl", "tr", "ru", "ar", "th", "ko", "ja", "zh-Hans", "zh-Hant"]
PAGES = os.path.join(ROOT, "tests", "fixtures", "furniture", "pages")
T0 = time.time()


def log(*a):
    print(f"[{time.time() - T0:6.1f}s]", *a, file=sys.stderr, flush=True)


def tokenize(lines):
    """Piece ids of each line (one `precis tokenize` run)."""
    text = "".join(l.replace("\n", " ").replace("\r", " ") + "\n" for l in lines)
    out = subprocess.run([PRECIS, "tokenize"], input=text.encode("utf-8"), stdout=subprocess.PIPE, check=True).stdout
    res = [json.loads(l) for l in out.decode("utf-8").splitlines()]
    assert len(res) == len(lines), (len(res), len(lines))
    return res


def segment(docs, tmp):
    """The sentences the app would encode: `precis segment` of the documents, every sentence (excluded ones too)."""
    os.makedirs(tmp, exist_ok=True)
    paths = []
    for i, d in enumerate(docs):
        p = os.path.join(tmp, f"d{i}.txt")
        with open(p, "w", encoding="utf-8") as f:
            f.write(d)
        paths.append(p)
    out = subprocess.run([PRECIS, "segment", *paths], stdout=subprocess.PIPE, check=True).stdout.decode("utf-8")
    return [json.loads(l)["text"] for l in out.splitlines() if l.strip()]


def pages(split):
    for name in sorted(os.listdir(PAGES)):
        if name.endswith(".jsonl"):
            for line in open(os.path.join(PAGES, name), encoding="utf-8"):
                p = json.loads(line)
                if p["split"] == split:
                    yield p


def ml_crisis(tmp, max_docs):
    out = os.path.join(tmp, f"ml_crisis_{max_docs}.jsonl.gz")
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "data", "ml_crisis_clusters.py"),
                    os.path.join(DATA, "ml_crisis"), out, str(max_docs)], check=True, stderr=subprocess.DEVNULL)
    return [json.loads(l) for l in gzip.open(out, "rt", encoding="utf-8")]


def held_out_topic(cid):
    return "-syria-" in cid or "-yemen-" in cid


# ---------------------------------------------------------------- training counts
def training_counts(tmp):
    lines, langs = [], []
    def add(lang, text):
        for l in text.split("\n"):
            l = l.strip()
            if l:
                lines.append(l)
                langs.append(lang)
    n_mn = 0
    for row in gzip.open(os.path.join(DATA, "multinews", "val.jsonl.gz"), "rt", encoding="utf-8"):
        for d in json.loads(row)["documents"]:
            add("en", d)
        n_mn += 1
    n_ml = 0
    for c in ml_crisis(tmp, 100000):  # every article of a week, for counting
        if not held_out_topic(c["id"]):
            for d in c["documents"]:
                add(c["id"].split("-")[0], d)
            n_ml += 1
    n_pages = 0
    for p in pages("dev"):
        add(p["lang"], "\n".join(l["text"] for l in p["lines"]))
        n_pages += 1
    log(f"training: {n_mn} Multi-News clusters, {n_ml} ml_crisis es/fr week clusters, {n_pages} dev pages, {len(lines)} lines")
    ids = tokenize(lines)
    counts = {l: np.zeros(ROWS, np.int64) for l in LANGS}
    idx = {l: [] for l in LANGS}
    for lang, seq in zip(langs, ids):
        idx[lang].append(seq)
    tokens = {}
    for l in LANGS:
        if idx[l]:
            flat = np.fromiter((i for s in idx[l] for i in s), np.int64)
            counts[l] = np.bincount(flat, minlength=ROWS)
            tokens[l] = len(flat)
    return counts, tokens, {"multinews": n_mn, "ml_crisis": n_ml, "pages": n_pages, "lines": len(lines)}


# ---------------------------------------------------------------- held-out units
def held_out_units(tmp):
    units = []  # (dataset, name, docs)
    duc = os.path.join(DATA, "duc2004", "docs")
    for c in sorted(os.listdir(duc), key=int):
        folder = os.path.join(duc, c)
        docs = [open(os.path.join(folder, f), encoding="utf-8", errors="replace").read() for f in sorted(os.listdir(folder))]
        units.append(("DUC2004 (en)", c, docs))
    for c in ml_crisis(tmp, 10):  # clusters as ml_crisis_clusters.py writes them: <= 10 articles a week
        if held_out_topic(c["id"]):
            units.append((f"ml_crisis {c['id'].split('-')[0]}", c["id"], c["documents"]))
    for p in pages("test"):
        units.append((f"page {p['lang']}", p["id"], ["\n".join(l["text"] for l in p["lines"])]))
    with ThreadPoolExecutor(2) as ex:
        sents = list(ex.map(lambda iu: segment(iu[1][2], os.path.join(tmp, f"u{iu[0]}")), enumerate(units)))
    flat = [s for ss in sents for s in ss]
    log(f"held out: {len(units)} units, {len(flat)} sentences")
    ids = tokenize(flat)
    out, k = [], 0
    for (ds, name, _), ss in zip(units, sents):
        seqs = ids[k:k + len(ss)]
        k += len(ss)
        out.append((ds, name, len(ss), np.unique(np.fromiter((i for s in seqs for i in s), np.int64))))
    return out


# ---------------------------------------------------------------- orders: pos[id] = row
def stored_row(ids):
    return (ids % NUM_CHUNKS) * CHUNK_ROWS + ids // NUM_CHUNKS


def from_sequence(seq):
    pos = np.empty(ROWS, np.int64)
    pos[seq] = np.arange(ROWS)
    return pos


def orders(counts):
    ids = np.arange(ROWS)
    F = np.stack([counts[l] / max(counts[l].sum(), 1) for l in LANGS])  # per-language normalized frequency
    seen = F.sum(0) > 0
    raw = sum(counts[l] for l in LANGS).astype(np.float64)
    o = {}
    o["a. id"] = ids.copy()
    o["a'. stored today"] = stored_row(ids)
    # b: global frequency, languages weighted equally (each language's normalized frequency, summed)
    g = F.sum(0)
    o["b. frequency"] = from_sequence(np.lexsort((ids, ~seen, -g)))
    # b': global frequency from raw counts (English Multi-News dominates)
    o["b'. frequency, raw counts"] = from_sequence(np.lexsort((ids, raw == 0, -raw)))
    # c: by language (argmax of normalized frequency), languages in LANGS order, then frequency; unseen last
    lang = np.argmax(F, 0)
    best = F[lang, ids]
    lang_key = np.where(seen, lang, len(LANGS))
    o["c. language, then frequency"] = from_sequence(np.lexsort((ids, -best, lang_key)))
    return o, seen


# ---------------------------------------------------------------- gzip of blocks
TABLE = None


def _gz(rows):
    if isinstance(rows, str):  # the whole table, stored or in id order
        t = TABLE if rows == "stored" else TABLE[stored_row(np.arange(ROWS))]
        return len(zlib.compress(t.tobytes(), GZ_LEVEL))
    return len(zlib.compress(TABLE[rows].tobytes(), GZ_LEVEL))


def block_rows(pos, inv, bs, b):
    """Stored rows of block b of the order pos, sorted by chunk inside the block (the same block, 2-6 % smaller gzipped)."""
    ids = inv[b * bs:(b + 1) * bs]
    ids = ids[np.lexsort((pos[ids], ids % NUM_CHUNKS))]
    return stored_row(ids)


def load_table():
    """The table's rows chunk-major, as the graph was built with them (row
    `stored_row(id)`), read from models/muse-v3/table.u8 by models/build.py's
    reader (since 2026-12-05 in zlib blocks, `write_table`)."""
    sys.path.insert(0, os.path.join(ROOT, "models"))
    from build import read_table
    row_of_piece, rows = read_table(os.path.join(ROOT, "models", "muse-v3", "table.u8"))
    t = np.empty_like(rows)
    t[stored_row(np.arange(len(row_of_piece)))] = rows[row_of_piece]
    assert t.shape == (ROWS, DIM), t.shape
    return t


def pct(a, q):
    return float(np.percentile(np.asarray(a, float), q)) if len(a) else float("nan")


def runs(rows):
    """Contiguous runs of rows (what one multipart range request would ask for)."""
    r = np.sort(rows)
    return int(1 + np.count_nonzero(np.diff(r) > 1)) if len(r) else 0


def main():
    global TABLE
    tmp = tempfile.mkdtemp(prefix="table-blocks-")
    counts, tokens, ntrain = training_counts(tmp)
    log("tokens counted", {l: tokens.get(l, 0) for l in LANGS})
    units = held_out_units(tmp)
    ords, seen = orders(counts)
    log(f"seen pieces in training: {int(seen.sum())} of {ROWS}")
    TABLE = load_table()
    inv = {on: np.argsort(pos) for on, pos in ords.items()}
    touched = {}
    jobs, keys = ["id", "stored"], [("whole", "a. id"), ("whole", "a'. stored today")]
    for on, pos in ords.items():
        for bs in ALL:
            tb = [np.unique(pos[u[3]] // bs) for u in units]
            touched[on, bs] = tb
            if on.startswith("a"):
                continue  # they touch nearly every block: the whole table's ratio is used
            for b in np.unique(np.concatenate(tb)):
                keys.append((on, bs, int(b)))
                jobs.append(block_rows(pos, inv[on], bs, int(b)))
    log(f"gzip of {len(jobs) - 2} blocks and the whole table twice")
    with Pool(2) as pool:
        sizes = pool.map(_gz, jobs, chunksize=16)
    gz = dict(zip(keys, sizes))
    res = {}  # (dataset, order, block rows) -> lists over units
    datasets = []
    for i, (ds, name, nsent, u) in enumerate(units):
        if ds not in datasets:
            datasets.append(ds)
        for on, pos in ords.items():
            for bs in ALL:
                tb = touched[on, bs][i]
                raw = len(tb) * bs * DIM
                if on.startswith("a"):
                    g = raw * gz["whole", on] / (ROWS * DIM)
                else:
                    g = sum(gz[on, bs, int(b)] for b in tb)
                r = res.setdefault((ds, on, bs), {"blocks": [], "raw": [], "x040": [], "gz": [], "pieces": [], "names": [], "runs": [], "tail8k": []})
                r["blocks"].append(len(tb)); r["raw"].append(raw); r["x040"].append(raw * GZ_RATIO)
                r["gz"].append(g); r["pieces"].append(len(u)); r["names"].append(name)
                r["runs"].append(runs(pos[u])); r["tail8k"].append(float(np.mean(pos[u] >= 8192)))
    shutil.rmtree(tmp, ignore_errors=True)
    unseen = {}
    for ds, name, nsent, u in units:
        unseen.setdefault(ds, []).append(float(np.mean(~seen[u])))
    return units, list(ords), res, datasets, tokens, ntrain, int(seen.sum()), gz, unseen


MB = 1e6
STORED = "a'. stored today"
FIXED = {"the app's code": 2.2, "the tokenizer": 1.8, "the CeRA heads": 2.7, "the encoder without its table (30.1 − 26.4)": 3.6}
BUDGET = 12.0 - sum(FIXED.values())


def report(units, orders_, res, datasets, tokens, ntrain, nseen, gz, unseen):
    L = []
    P = L.append
    med = lambda d, o, b, k="gz": pct(res[d, o, b][k], 50)
    p90 = lambda d, o, b, k="gz": pct(res[d, o, b][k], 90)
    mp = lambda d, o, b, k="gz", s=MB, f=".2f": f"{med(d, o, b, k) / s:{f}} ({p90(d, o, b, k) / s:{f}})"
    cmd = ".venv/bin/python scripts/experiments/table_blocks.py"
    P("# The embedding table in row blocks: which order, which block size (issue #43, part 1)\n")
    P(f"Command, from the project root with `target/ci/precis` built (`$PRECIS` names another binary): `{cmd}` "
      f"(this run: {time.time() - T0:.0f} s on 2 busy cores; nothing sampled).\n")
    P(f"The table: 128,010 rows (the tokenizer's 128,000 pieces and 10 more) × 512 u8 codes = {ROWS * DIM / MB:.1f} MB raw; "
      f"gzipped whole, zlib level {GZ_LEVEL}: {gz['whole', STORED] / MB:.2f} MB as stored today (chunk-major), "
      f"{gz['whole', 'a. id'] / MB:.2f} MB in id order (gzip -9: 26.43 and 29.41 MB, docs/results/int8.md).\n")
    P("**Training** (piece-id counts; nothing held out is in it): Multi-News validation "
      f"({ntrain['multinews']:,} clusters, English), every ml_crisis Egypt and Libya article "
      f"({ntrain['ml_crisis']} language-topic-week groups, Spanish and French), and the {ntrain['pages']} dev pages "
      "of `tests/fixtures/furniture/pages` (16 languages); documents split on lines "
      f"({ntrain['lines']:,} lines). Tokens per language: "
      + ", ".join(f"{l} {tokens.get(l, 0):,}" for l in LANGS)
      + f". {nseen:,} of the 128,010 ids occur. Beyond English, Spanish and French the counts come from 130 to 1,456 lines "
      "of dev pages per language.\n")
    P("**Held out**: the 50 DUC2004 clusters (10 articles each); the ml_crisis Syria and Yemen clusters as "
      "`scripts/data/ml_crisis_clusters.py` writes them (one per language, topic and ISO week, at most 10 articles); "
      "every test page of `tests/fixtures/furniture/pages` as one article (5 to 27 per language). Each is cut into "
      "sentences by `precis segment` (every sentence, excluded ones too: the app embeds them all) and tokenized "
      "by `precis tokenize`; BOS, EOS and UNK count as pieces.\n")
    P("**Orders** (a piece's row = its position in the order): "
      "**a** piece id; **a'** today's stored order (chunk-major: row = (id mod 17)·7,530 + id div 17); "
      "**b** global frequency, each language's counts normalized by its corpus and summed (every language weighs the same), "
      "unseen ids last in id order; **b'** the same from raw counts (English, 3.4 M of the 5.1 M tokens, dominates); "
      "**c** each piece in the language where its normalized frequency is highest, languages in the order "
      + " ".join(LANGS) + ", by that frequency within a language; unseen ids last in id order.\n")
    P("**Bytes**: a cluster or article needs every block that holds one of its pieces. Raw = blocks × block rows × 512; "
      "**×0.40** = raw × 0.40, a rough gzip ratio (the whole table's); **gz** = measured: each touched block gzipped on its own "
      f"(zlib level {GZ_LEVEL}) with its rows sorted by chunk inside the block (the same blocks, 2–6 % smaller: the chunks' codes "
      "spread differently). For a and a', which touch nearly every block, gz = raw × the whole table's measured ratio. "
      "Median (90th percentile) over a dataset's clusters or a language's articles; with 5 to 9 articles the 90th percentile "
      "is interpolated between the two largest.\n")
    P(f"**Budget**: 12 MB before the first summary, less " + ", ".join(f"{k} ({v} MB)" for k, v in FIXED.items())
      + f", leaves **≈ {BUDGET:.1f} MB for table blocks** (gzipped).\n")

    focus = [d for d in ["DUC2004 (en)", "page it", "page zh-Hans", "page zh-Hant"] if d in datasets]
    P("## The asked block sizes: DUC2004, Italian, Chinese\n")
    P("Per dataset: blocks touched | MB gz measured | MB raw × 0.40; median (90th percentile).\n")
    P("| order | block rows | " + " | ".join(f"{d}: blocks | gz | ×0.40" for d in focus) + " |")
    P("|---|---:|" + "---:|---:|---:|" * len(focus))
    for on in orders_:
        for bs in BLOCKS:
            cells = []
            for d in focus:
                cells += [mp(d, on, bs, "blocks", 1, ".0f"), mp(d, on, bs), mp(d, on, bs, "x040")]
            P(f"| {on} | {bs} | " + " | ".join(cells) + " |")
    P("")
    P("DUC2004 cluster 1 (the README's, 179 sentences): MB gz measured (blocks), by order and block rows:\n")
    P("| order | " + " | ".join(str(b) for b in ALL) + " |")
    P("|---|" + "---:|" * len(ALL))
    for on in orders_:
        cells = []
        for bs in ALL:
            r = res["DUC2004 (en)", on, bs]
            j = r["names"].index("1")
            cells.append(f"{r['gz'][j] / MB:.2f} ({r['blocks'][j]})")
        P(f"| {on} | " + " | ".join(cells) + " |")
    P("")
    P("## Every dataset and language: MB gz measured, median (90th percentile)\n")
    P("Block sizes 16 to 128 are beyond the brief: they show what the tail costs. Blocks touched = requests.\n")
    for on in [o for o in orders_ if not o.startswith("a")]:
        P(f"### Order {on}\n")
        P("| held out | units | distinct pieces | " + " | ".join(f"{b}" for b in ALL) + " | blocks at 16 | blocks at 256 |")
        P("|---|---:|---:|" + "---:|" * (len(ALL) + 2))
        for d in datasets:
            cells = [mp(d, on, bs) for bs in ALL]
            P(f"| {d} | {len(res[d, on, 16]['gz'])} | {med(d, on, 16, 'pieces'):,.0f} | " + " | ".join(cells)
              + f" | {mp(d, on, 16, 'blocks', 1, '.0f')} | {mp(d, on, 256, 'blocks', 1, '.0f')} |")
        P("")
    P("### Blocks touched, orders a and a' (median; every dataset touches most of them)\n")
    P("| held out | " + " | ".join(f"{on}, {bs} rows" for on in orders_[:2] for bs in (1024, 4096)) + " |")
    P("|---|" + "---:|" * 4)
    for d in datasets:
        P(f"| {d} | " + " | ".join(f"{med(d, on, bs, 'blocks'):.0f} of {-(-ROWS // bs)}" for on in orders_[:2] for bs in (1024, 4096)) + " |")
    P("")
    P("### The floor: only the rows a text uses\n")
    P("Distinct pieces × 512 bytes, raw (as HTTP range requests of an uncompressed row file would fetch them), "
      "and the contiguous runs of those rows in orders b' and c (parts of a multipart range request; each part adds ~100 bytes "
      "of headers). Share of the pieces at rank 8,192 or beyond, and share unseen in training. Median (90th percentile).\n")
    P("| held out | distinct pieces | MB raw | runs, b' | runs, c | beyond 8,192, b' | beyond 8,192, c | unseen |")
    P("|---|---:|---:|---:|---:|---:|---:|---:|")
    bp, c = "b'. frequency, raw counts", "c. language, then frequency"
    for d in datasets:
        pieces = np.asarray(res[d, c, 16]["pieces"], float)
        P(f"| {d} | {mp(d, c, 16, 'pieces', 1, ',.0f')} | {pct(pieces * DIM, 50) / MB:.2f} ({pct(pieces * DIM, 90) / MB:.2f}) | "
          f"{mp(d, bp, 16, 'runs', 1, '.0f')} | {mp(d, c, 16, 'runs', 1, '.0f')} | "
          f"{med(d, bp, 16, 'tail8k'):.0%} | {med(d, c, 16, 'tail8k'):.0%} | {pct(unseen[d], 50):.1%} |")
    P("")
    P("## What this says\n")
    P(says(res, datasets, orders_, focus, med, gz, unseen))
    return "\n".join(L)


def says(res, datasets, orders_, focus, med, gz, unseen):
    ords = [o for o in orders_ if not o.startswith("a")]
    name = {"DUC2004 (en)": "An English DUC2004 cluster", "page it": "An Italian article",
            "page zh-Hans": "A Chinese (simplified) article", "page zh-Hant": "A Chinese (traditional) article"}
    out = []
    fixed = sum(FIXED.values())
    lines = []
    for d in focus:
        best = min(((med(d, o, b), o, b) for o in ords for b in BLOCKS))
        today = med(d, "a'. stored today", 4096)
        small = min(((med(d, o, b), o, b) for o in ords for b in SMALL))
        lines.append(f"- **{name[d]}**: best asked order and size **{best[1]}, {best[2]} rows: {best[0] / MB:.2f} MB** "
                     f"of blocks (median; {med(d, best[1], best[2], 'blocks'):.0f} blocks), so {fixed + best[0] / MB:.1f} MB before the first summary "
                     f"against 12 MB (the whole table today: {fixed + gz['whole', STORED] / MB:.1f} MB). "
                     f"Smallest with blocks down to 16 rows: {small[1]}, {small[2]} rows, {small[0] / MB:.2f} MB "
                     f"in {med(d, small[1], small[2], 'blocks'):.0f} requests ({fixed + small[0] / MB:.1f} MB in all). "
                     f"The rows alone: {med(d, ords[0], 16, 'pieces') * DIM / MB:.2f} MB raw.")
    duc = "DUC2004 (en)"
    c = "c. language, then frequency"
    bp = "b'. frequency, raw counts"
    others = [d for d in datasets if d not in (duc, "page en")]
    worst = max(others, key=lambda d: med(d, c, 256) / min(med(d, o, 256) for o in ords))
    worst_r = med(worst, c, 256) / min(med(worst, o, 256) for o in ords)
    fits = [b for b in SMALL + BLOCKS if med(duc, c, b) / MB <= BUDGET + 2.7]
    small_langs = [d for d in datasets if d.startswith("page ") and d[5:] not in ("en", "es", "fr")]
    unseen_lo = min(pct(unseen[d], 50) for d in small_langs)
    unseen_hi = max(pct(unseen[d], 50) for d in small_langs)
    least = min((med(d, o, b), d, o, b) for d in datasets for o in ords for b in BLOCKS)
    out.append(f"Fixed part before any block: {fixed:.1f} MB; the budget left for blocks is {BUDGET:.1f} MB.\n")
    out.append("\n".join(lines) + "\n")
    out.append(
        (f"- **No block size from 256 to 4,096 rows meets the target in any order**, for any dataset (the smallest median is {least[0] / MB:.2f} MB: {least[1]}, {least[2]}, {least[3]} rows). "
         if least[0] / MB > BUDGET else f"- The smallest median with the asked sizes is {least[0] / MB:.2f} MB ({least[1]}, {least[2]}, {least[3]} rows). ") +
        f"Frequency orders do gather a text's "
        f"common pieces, but a DUC2004 cluster has a median {med(duc, c, 16, 'pieces'):,.0f} distinct pieces and "
        f"{med(duc, bp, 16, 'tail8k'):.0%} of them rank at 8,192 or beyond even in the English-heavy order b' "
        f"(names, numbers, rare words): each of those costs a whole block. So a DUC cluster touches "
        f"{med(duc, bp, 1024, 'blocks'):.0f} blocks of 1,024 rows in b' and {med(duc, c, 1024, 'blocks'):.0f} in c, "
        f"not the ~8 of the issue's quick count ({med(duc, 'a. id', 1024, 'blocks'):.0f} in id order).\n"
        f"- **Order: c** (by language, then frequency). Outside English it is the best order or within "
        f"{(worst_r - 1):.0%} of it at 256 rows (worst: {worst}); for English b' (English frequency) is a little better "
        f"({med(duc, bp, 256) / MB:.1f} against {med(duc, c, 256) / MB:.1f} MB for DUC2004 at 256 rows), but b' is far worse for the "
        f"languages it under-counts (Italian {med('page it', bp, 256) / MB:.1f} against {med('page it', c, 256) / MB:.1f} MB, "
        f"Thai {med('page th', bp, 256) / MB:.1f} against {med('page th', c, 256) / MB:.1f} MB); b (one list, languages weighted equally) "
        f"costs more than c for DUC2004 ({med(duc, 'b. frequency', 256) / MB:.1f} MB) and for Chinese ({med('page zh-Hans', 'b. frequency', 256) / MB:.2f} against {med('page zh-Hans', c, 256) / MB:.2f} MB).\n"
        f"- **Block size: the smallest that the request count allows.** Bytes fall with every halving (DUC2004 in c: "
        f"{med(duc, c, 4096) / MB:.1f} MB at 4,096 rows, {med(duc, c, 256) / MB:.1f} at 256, {med(duc, c, 16) / MB:.1f} at 16) "
        f"while requests grow ({med(duc, c, 4096, 'blocks'):.0f}, {med(duc, c, 256, 'blocks'):.0f}, {med(duc, c, 16, 'blocks'):.0f}). "
        f"With 16-row blocks an Italian or a Chinese article fits the budget "
        f"(c: {med('page it', c, 16) / MB:.2f}, {med('page zh-Hans', c, 16) / MB:.2f}, {med('page zh-Hant', c, 16) / MB:.2f} MB, "
        f"{med('page it', c, 16, 'blocks'):.0f}, {med('page zh-Hans', c, 16, 'blocks'):.0f} and {med('page zh-Hant', c, 16, 'blocks'):.0f} requests); "
        f"a DUC cluster still needs {med(duc, c, 16) / MB:.1f} MB in {med(duc, c, 16, 'blocks'):.0f} requests.\n"
        f"- **What would bring a DUC cluster under 12 MB**: fetching only its rows, {med(duc, c, 16, 'pieces') * DIM / MB:.2f} MB raw "
        f"(for instance multipart HTTP range requests on an uncompressed row file: {med(duc, c, 16, 'runs'):,.0f} ranges in order c, "
        "~0.1 MB of part headers; the worker would then keep rows itself rather than Cache API responses), "
        "or a smaller fixed part: the default method (BS+GS) does not use the CeRA heads; fetched after the first summary, "
        f"they would leave {BUDGET + 2.7:.1f} MB for blocks, which the median DUC cluster meets with "
        + (f"blocks of {' or '.join(str(b) for b in fits)} rows in c." if fits else "no block size measured here.") + "\n"
        f"- **Caveats**: outside English, Spanish and French the counts come from a few dev pages (3,394 to 36,378 tokens per language), "
        f"so {unseen_lo:.0%} to {unseen_hi:.0%} of a test article's pieces (median) are unseen in training and fall in the id-ordered tail; "
        "more text per language would help c most. The test pages are few (5 to 27 per language). Blocks are gzipped one by one "
        "(no shared dictionary); per-request costs (HTTP headers, round trips, Cache API entries) are not counted.")
    return "\n".join(out)


def run():
    import pickle
    cache = os.environ.get("TABLE_BLOCKS_CACHE")  # re-draw the report from a saved run
    if cache and os.path.exists(cache):
        state = pickle.load(open(cache, "rb"))
    else:
        state = main()
        if cache:
            pickle.dump(state, open(cache, "wb"))
    text = report(*state)
    print(text)
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text + "\n")
    log("wrote", OUT)


if __name__ == "__main__":
    run()
