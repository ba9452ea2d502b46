"""The inference graph of a CeRA / CeRAI head, written op by op (not traced
from PyTorch) so that the browser does as little work per sentence as the
model allows. Used by train.py's export; `python models/cera/lean.py HEAD.onnx`
rewrites an exported head in place.

The traced graph spent almost half its time in Chromium outside the one
matrix product that matters (the score layer, N x 512 x H): it re-normalized
the rows, ran LayerNorm as five passes, added the positional embeddings to
every row, pooled with an N x N document-equality matrix, and weighted the
rows twice. Here, exactly the same function:

- the caller normalizes and standardizes each row in the one pass over the
  embeddings it makes anyway (LayerNorm without its affine part: x_hat),
  and hands CeRAI the plain mean (graph_inputs; src/centroid/cera.rs);
- LayerNorm's gain and bias, the positional embeddings and the score
  layer's bias are folded into the weights and a small table indexed by
  position: W_s(g * x_hat + b + P[pos]) + b_s = (W_s g) x_hat + T[pos];
- the pooled half of the first MLP layer is a product of the per-document
  mean weights (input `weights`, computed by the caller) with x_hat, and
  with the position table of W_p;
- the attention's weighted sum of the layer-normed rows is one product
  a x_hat, then g * . + b (the weights sum to 1);

The graph stores the same float16 weights as the trained model; the folded
constants are computed by ops on them, which tract evaluates once at load.

Contract: inputs `rows` f32 [N, 512] (each embedding L2-normalized, then
standardized to mean 0 and variance 1 with LayerNorm's epsilon 1e-5),
`positions` i64 [N], `weights` f32 [N] (1 / (documents x sentences of the
row's document), summing to 1), and for CeRAI `mean` f32 [512] (the mean of
the normalized embeddings); outputs as before: `centroid` [512],
`attention` [N], and for CeRAI `alpha` [512], `attention_centroid` [512].
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

DIM = 512
LN_EPS = 1e-5
OPSET = 17


class Graph:
    """A small builder: constants as initializers (float16 when large, cast
    back to float32 by a Cast node tract folds), nodes named after outputs."""

    def __init__(self):
        self.nodes, self.inits = [], []

    def const(self, name, value, dtype=np.float32):
        value = np.asarray(value, dtype=dtype)
        if dtype == np.float32 and value.size >= 1024:
            self.inits.append(numpy_helper.from_array(value.astype(np.float16), name + "_f16"))
            self.op("Cast", [name + "_f16"], name, to=TensorProto.FLOAT)
        else:
            self.inits.append(numpy_helper.from_array(value, name))
        return name

    def op(self, kind, inputs, output, **attrs):
        self.nodes.append(helper.make_node(kind, inputs, [output], name=output, **attrs))
        return output


def build(params, interpolation):
    """params: the head's PyTorch state dict as float32 numpy arrays (keys
    without the `head.` prefix: ln_in.weight, pos.weight,
    score_sentence.weight [H, d], ...). Returns the ONNX model."""
    g = Graph()
    p = lambda key: np.asarray(params[key], dtype=np.float32)
    hidden = p("score_sentence.weight").shape[0]
    positions = p("pos.weight").shape[0]

    gain, bias = g.const("ln_in.weight", p("ln_in.weight")), g.const("ln_in.bias", p("ln_in.bias"))
    w_s = g.const("score_sentence.weight", p("score_sentence.weight"))  # [H, d]
    w_p = g.const("score_pooled.weight", p("score_pooled.weight"))  # [H, d]
    pos = g.const("pos.weight", p("pos.weight"))  # [35, d]
    # Folded constants (evaluated once by tract): (W g)^T [d, H] for x_hat,
    # and per position the rest of the pre-activation: (P + b) W_s^T + b_s
    # + b W_p^T (the pooled half's bias: the weights sum to 1).
    g.op("Transpose", [w_s], "w_s_t", perm=[1, 0])
    g.op("Transpose", [w_p], "w_p_t", perm=[1, 0])
    g.op("Unsqueeze", [gain, g.const("axis1", [1], np.int64)], "gain_col")
    g.op("Mul", ["w_s_t", "gain_col"], "w_s_gain")
    g.op("Mul", ["w_p_t", "gain_col"], "w_p_gain")
    g.op("Add", [pos, bias], "pos_biased")
    g.op("MatMul", ["pos_biased", "w_s_t"], "pos_score")
    g.op("MatMul", [g.op("Unsqueeze", [bias, g.const("axis0", [0], np.int64)], "bias_row"), "w_p_t"], "bias_pooled")
    g.op("Add", ["pos_score", g.const("score_sentence.bias", p("score_sentence.bias"))], "pos_score_b")
    g.op("Add", ["pos_score_b", "bias_pooled"], "pos_table")  # [35, H]
    g.op("MatMul", [pos, "w_p_t"], "pos_pooled_table")  # [35, H]

    x_hat = "rows"  # LayerNorm without its affine part, done by the caller

    # Pre-activation of the score MLP: sentence half, position table, pooled half.
    g.op("Min", ["positions", g.const("last_position", [positions - 1], np.int64)], "pos_index")
    g.op("MatMul", [x_hat, "w_s_gain"], "sentence_part")  # [N, H]: the one large product
    g.op("Gather", ["pos_table", "pos_index"], "position_part", axis=0)
    g.op("Unsqueeze", ["weights", "axis0"], "weights_row")  # [1, N]
    g.op("MatMul", ["weights_row", x_hat], "pooled_x")  # [1, d]
    g.op("MatMul", ["pooled_x", "w_p_gain"], "pooled_part_x")
    g.op("Gather", ["pos_pooled_table", "pos_index"], "pos_pooled_rows", axis=0)
    g.op("MatMul", ["weights_row", "pos_pooled_rows"], "pooled_part_pos")  # [1, H]
    g.op("Add", ["pooled_part_x", "pooled_part_pos"], "pooled_part")
    g.op("Add", ["sentence_part", "position_part"], "pre_rows")
    g.op("Add", ["pre_rows", "pooled_part"], "pre")
    g.op("Tanh", ["pre"], "hidden")
    g.op("Transpose", [g.const("score.1.weight", p("score.1.weight").reshape(1, hidden))], "score_col", perm=[1, 0])
    g.op("MatMul", ["hidden", "score_col"], "scores_col")  # [N, 1]
    g.op("Squeeze", ["scores_col", "axis1"], "scores_raw")
    # The output bias does not change the softmax; kept so the file holds every weight.
    g.op("Add", ["scores_raw", g.const("score.1.bias", p("score.1.bias").reshape(1))], "scores")
    g.op("Softmax", ["scores"], "attention", axis=0)

    # h = sum_k a_k (g * x_hat_k + b) = g * (a x_hat) + b; then LayerNorm, Linear.
    g.op("MatMul", [g.op("Unsqueeze", ["attention", "axis0"], "attention_row"), x_hat], "attended_x")
    g.op("Add", [g.op("Mul", ["attended_x", gain], "attended_gain"), bias], "attended")
    g.op("LayerNormalization", ["attended", g.const("ln_out.weight", p("ln_out.weight")),
                                g.const("ln_out.bias", p("ln_out.bias"))], "attended_norm", axis=-1, epsilon=LN_EPS)
    out_w = g.const("out.weight", p("out.weight"))
    g.op("Gemm", ["attended_norm", out_w, g.const("out.bias", p("out.bias"))], "c_attn_row", transB=1)
    outputs = ["centroid", "attention"]
    if not interpolation:
        g.op("Squeeze", ["c_attn_row", "axis0"], "centroid")
    else:
        g.op("Unsqueeze", ["mean", "axis0"], "mean_row")
        g.op("Concat", ["c_attn_row", "mean_row"], "alpha_in", axis=1)
        g.op("Gemm", ["alpha_in", g.const("alpha.0.weight", p("alpha.0.weight")),
                      g.const("alpha.0.bias", p("alpha.0.bias"))], "alpha_pre0", transB=1)
        g.op("Gemm", [g.op("Relu", ["alpha_pre0"], "alpha_hidden"), g.const("alpha.2.weight", p("alpha.2.weight")),
                      g.const("alpha.2.bias", p("alpha.2.bias"))], "alpha_pre", transB=1)
        g.op("Sigmoid", ["alpha_pre"], "alpha_row")
        # alpha c + (1 - alpha) mean = mean + alpha (c - mean)
        g.op("Sub", ["c_attn_row", "mean_row"], "attn_minus_mean")
        g.op("Add", ["mean_row", g.op("Mul", ["alpha_row", "attn_minus_mean"], "alpha_step")], "centroid_row")
        g.op("Squeeze", ["centroid_row", "axis0"], "centroid")
        g.op("Squeeze", ["alpha_row", "axis0"], "alpha")
        g.op("Squeeze", ["c_attn_row", "axis0"], "attention_centroid")
        outputs += ["alpha", "attention_centroid"]

    n = "n"
    graph = helper.make_graph(
        g.nodes, "cerai" if interpolation else "cera",
        [helper.make_tensor_value_info("rows", TensorProto.FLOAT, [n, DIM]),
         helper.make_tensor_value_info("positions", TensorProto.INT64, [n]),
         helper.make_tensor_value_info("weights", TensorProto.FLOAT, [n])]
        + ([helper.make_tensor_value_info("mean", TensorProto.FLOAT, [DIM])] if interpolation else []),
        [helper.make_tensor_value_info("centroid", TensorProto.FLOAT, [DIM]),
         helper.make_tensor_value_info("attention", TensorProto.FLOAT, [n])]
        + [helper.make_tensor_value_info(name, TensorProto.FLOAT, [DIM]) for name in outputs[2:]],
        g.inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="precis")
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def graph_inputs(embeddings, positions, documents, interpolation):
    """What the graph takes for one cluster, as src/centroid/cera.rs
    prepares it: each embedding L2-normalized then standardized (LayerNorm
    without gain and bias), the positions, the mean-pool weights and, for
    CeRAI, the plain mean of the normalized embeddings."""
    x = np.asarray(embeddings, dtype=np.float32)
    x = x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-8)
    centred = x - x.mean(1, keepdims=True)
    rows = centred / np.sqrt((centred ** 2).mean(1, keepdims=True) + LN_EPS)
    inputs = {"rows": rows.astype(np.float32), "positions": np.asarray(positions, dtype=np.int64),
              "weights": document_weights(documents)}
    if interpolation:
        inputs["mean"] = x.mean(0).astype(np.float32)
    return inputs


def document_weights(documents):
    """The per-document mean weights the graph takes: every document counts
    the same, every sentence the same within its document."""
    documents = np.asarray(documents)
    _, inverse, counts = np.unique(documents, return_inverse=True, return_counts=True)
    return (1.0 / (len(counts) * counts[inverse])).astype(np.float32)


def read_params(path):
    """The state dict (float32 numpy, keys without `head.`) of a head file:
    a graph of this module (initializers named after the weights) or one
    traced by torch.onnx before it (initializers head.*, and the Linear
    layers on [1, N, d] inputs as MatMuls with anonymous transposed
    weights). Helper constants of the graph come along; callers pick the
    keys they know."""
    graph = onnx.load(str(path)).graph
    values = {i.name.removesuffix("_f16"): numpy_helper.to_array(i).astype(np.float32) for i in graph.initializer}
    if not any(k.startswith("head.") for k in values):
        return values
    params = {k.removeprefix("head."): v for k, v in values.items() if k.startswith("head.")}
    for node in graph.node:
        if node.op_type == "MatMul" and node.input[1] in values:
            params[node.output[0].split("/")[-2] + ".weight"] = values[node.input[1]].T
    return params


if __name__ == "__main__":
    for path in sys.argv[1:]:
        params = read_params(path)
        onnx.save(build(params, "alpha.0.weight" in params), path)
        print(f"{path}: rewritten as the lean graph")
