#!/usr/bin/env python3
"""Issue #21 experiment: rewrite every MatMul with a constant 2-D f32 weight
as per-row dynamic int8 activations x per-output-channel symmetric int8
weights, in plain ONNX ops (Abs, ReduceMax, Div, Round, Clip, Cast,
MatMulInteger, Cast, Mul, Mul) that tract runs natively.

usage: .venv/bin/python scripts/experiments/int8_rows.py IN.onnx OUT.onnx [INDEXES]
INDEXES (comma-separated, in graph order) limits which MatMuls are rewritten;
the indexes and names are printed on stderr. Results: docs/results/int8.md.
Copy tokenizer.json next to OUT.onnx (in a muse-v3/ folder) and run
`precis bench-encoder --models DIR --layers 12` / `precis embed --models DIR`.
"""
import onnx, numpy as np, sys
from onnx import helper, numpy_helper, TensorProto
src, dst = sys.argv[1], sys.argv[2]
only = set(int(x) for x in sys.argv[3].split(",")) if len(sys.argv) > 3 else None
seen = -1
m = onnx.load(src)
g = m.graph
opset = max(o.version for o in m.opset_import if o.domain in ("", "ai.onnx"))
inits = {i.name: i for i in g.initializer}
new_nodes = []
count = 0
def const(name, arr):
    g.initializer.append(numpy_helper.from_array(arr, name))
    return name
for node in g.node:
    eligible = node.op_type == "MatMul" and node.input[1] in inits and len(inits[node.input[1]].dims) == 2 and inits[node.input[1]].data_type == TensorProto.FLOAT
    if eligible:
        seen += 1
    if eligible and (only is None or seen in only):
        print(seen, node.name, node.input[0], node.input[1], list(inits[node.input[1]].dims), file=sys.stderr)
        W = numpy_helper.to_array(inits[node.input[1]]).astype(np.float64)
        sw = np.abs(W).max(axis=0) / 127.0
        sw[sw == 0] = 1.0
        Wq = np.clip(np.round(W / sw), -127, 127).astype(np.int8)
        p = f"q{count}_"; count += 1
        x = node.input[0]
        wq = const(p + "Wq", Wq)
        swc = const(p + "sw", sw.astype(np.float32))
        tiny = const(p + "tiny", np.array(1e-30, np.float32))
        inv127 = const(p + "inv127", np.array(1/127.0, np.float32))
        lo = const(p + "lo", np.array(-127.0, np.float32)); hi = const(p + "hi", np.array(127.0, np.float32))
        if opset >= 18:
            axes = const(p + "axes", np.array([-1], np.int64))
            red = helper.make_node("ReduceMax", [p + "abs", axes], [p + "amax"], keepdims=1)
        else:
            red = helper.make_node("ReduceMax", [p + "abs"], [p + "amax"], axes=[-1], keepdims=1)
        new_nodes += [
            helper.make_node("Abs", [x], [p + "abs"]),
            red,
            helper.make_node("Mul", [p + "amax", inv127], [p + "sx0"]),
            helper.make_node("Max", [p + "sx0", tiny], [p + "sx"]),
            helper.make_node("Div", [x, p + "sx"], [p + "xs"]),
            helper.make_node("Round", [p + "xs"], [p + "xr"]),
            helper.make_node("Clip", [p + "xr", lo, hi], [p + "xc"]),
            helper.make_node("Cast", [p + "xc"], [p + "xq"], to=TensorProto.INT8),
            helper.make_node("MatMulInteger", [p + "xq", wq], [p + "yi"]),
            helper.make_node("Cast", [p + "yi"], [p + "yf"], to=TensorProto.FLOAT),
            helper.make_node("Mul", [p + "yf", p + "sx"], [p + "y1"]),
            helper.make_node("Mul", [p + "y1", swc], [node.output[0]]),
        ]
    else:
        new_nodes.append(node)
del g.node[:]
g.node.extend(new_nodes)
used = set(i for n in g.node for i in n.input)
keep = [i for i in g.initializer if i.name in used]
del g.initializer[:]; g.initializer.extend(keep)
del g.value_info[:]
onnx.save(m, dst)
print("quantized", count, "MatMuls; opset", opset)
