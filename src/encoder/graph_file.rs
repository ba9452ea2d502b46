//! The encoder's graph as tract holds it once typed and decluttered, in a
//! file of our own (`encoder-int8.graph`, issue #43 part 2), so that the app
//! does not rebuild it at every page load.
//!
//! Reading the ONNX file, typing its graph and decluttering it costs a few
//! milliseconds natively, but WebKit runs this once-per-load code in its
//! slowest tiers: 1.35 s of its 2.8 s of "model ready" (docs/speed.md). This
//! file holds the decluttered graph node by node, each op with its
//! parameters, so that reading it only wires the nodes again: no ONNX
//! protobuf, no type inference, no decluttering. The int8 weights are kept
//! unpacked and packed at load for the running machine's kernel, so the
//! same file serves wasm and native code.
//!
//! It knows the ops the decluttered int8 encoder has, and no others: a
//! graph with another op is refused when the file is written (by
//! `models/build.py`, through `precis app-files`), never at load.
//! The plans cut from it are the ONNX file's: embeddings bit-identical
//! (`tests` below, and `tests/encoder_parity.rs`).
//!
//! Layout: `PRECISG1`, the header's length (u32, little-endian), the header
//! (JSON: symbols, nodes, tensors), then the tensors' bytes, little-endian;
//! an i16 tensor as two planes, its low bytes then its high ones (the
//! 10-bit weights' high bytes are a few small values: gzipped, the planes
//! are 1.87 MB where the interleaved values were 2.08).

use anyhow::{bail, ensure, Context, Result};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;
use tract_onnx::prelude::*;
use tract_onnx::tract_core::ops::array::{
    Gather, MultiBroadcastTo, Range, ScatterElements, ScatterReduction, Slice, TypedConcat,
};
use tract_onnx::tract_core::ops::array::CumSum;
use tract_onnx::tract_core::ops::binary::{BinMiniOp, TypedBinOp};
use tract_onnx::tract_core::ops::cast::Cast;
use tract_onnx::tract_core::ops::change_axes::AxisOp;
use tract_onnx::tract_core::ops::einsum::EinSum;
use tract_onnx::tract_core::ops::element_wise::ElementWiseOp;
use tract_onnx::tract_core::ops::konst::Const;
use tract_onnx::tract_core::ops::logic::{CompEq, CompGT, CompLT, Iff};
use tract_onnx::tract_core::ops::math;
use tract_onnx::tract_core::ops::nn::{Reduce, Reducer, RmsNorm};
use tract_onnx::tract_core::ops::source::TypedSource;

use super::int8::{Dequantize, Int8Product, QuantizeRows};
use tract_onnx::tract_hir::infer::Factoid;

const MAGIC: &[u8; 8] = b"PRECISG1";

/// True for the bytes of a graph file (and not of an ONNX model).
pub fn is_graph_file(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

#[derive(Serialize, Deserialize)]
struct Header {
    /// The symbolic sizes' names, and what is asserted of them.
    symbols: Vec<String>,
    assertions: Vec<String>,
    /// In the graph's order: every node's inputs come before it.
    nodes: Vec<NodeSpec>,
    inputs: Vec<usize>,
    outputs: Vec<(usize, usize)>,
    tensors: Vec<TensorSpec>,
}

#[derive(Serialize, Deserialize)]
struct NodeSpec {
    name: String,
    op: OpSpec,
    /// (node, output) pairs.
    inputs: Vec<(usize, usize)>,
}

/// A symbolic size, as tract's `TDim`, symbols by name.
#[derive(Serialize, Deserialize, Clone)]
enum Dim {
    Val(i64),
    Sym(String),
    Add(Vec<Dim>),
    Mul(Vec<Dim>),
    MulInt(i64, Box<Dim>),
    Div(Box<Dim>, u64),
    Min(Vec<Dim>),
    Max(Vec<Dim>),
}

#[derive(Serialize, Deserialize)]
enum OpSpec {
    Source { datum: Datum, shape: Vec<Dim> },
    Const { tensor: usize },
    Slice { axis: usize, start: Dim, end: Dim },
    Binary { op: String },
    ElementWise { op: String },
    AddAxis { axis: usize },
    RemoveAxis { axis: usize },
    Reshape { at: usize, from: Vec<Dim>, to: Vec<Dim> },
    Cast { to: Datum },
    Iff,
    Gather { axis: usize },
    ReduceSum { axes: Vec<usize> },
    RmsNorm { axis: usize, eps: usize },
    Concat { axis: usize },
    Range { len: Dim },
    BroadcastTo { shape: Vec<Dim> },
    Scatter { axis: usize },
    CumSum { axis: usize, exclusive: bool, reverse: bool },
    EinSum { axes: String, datum: Datum },
    QuantizeRows { wide: bool },
    Int8Product { weights: usize, wide: bool },
    Dequantize { has_bias: bool, relu: bool },
}

/// The element types the graph's tensors and casts use.
#[derive(Serialize, Deserialize, Clone, Copy, PartialEq, Debug)]
enum Datum {
    Bool,
    U8,
    I8,
    I16,
    I32,
    I64,
    F32,
    TDim,
}

#[derive(Serialize, Deserialize)]
enum TensorSpec {
    /// Numbers: `bytes` bytes at `offset` of the data after the header.
    Raw { datum: Datum, shape: Vec<usize>, offset: usize, bytes: usize },
    /// Symbolic sizes, written out.
    Dims { shape: Vec<usize>, values: Vec<Dim> },
}

impl Datum {
    fn of(dt: DatumType) -> Result<Datum> {
        Ok(match dt {
            DatumType::Bool => Datum::Bool,
            DatumType::U8 => Datum::U8,
            DatumType::I8 => Datum::I8,
            DatumType::I16 => Datum::I16,
            DatumType::I32 => Datum::I32,
            DatumType::I64 => Datum::I64,
            DatumType::F32 => Datum::F32,
            DatumType::TDim => Datum::TDim,
            other => bail!("the graph file has no element type {other:?}"),
        })
    }

    fn datum_type(self) -> DatumType {
        match self {
            Datum::Bool => DatumType::Bool,
            Datum::U8 => DatumType::U8,
            Datum::I8 => DatumType::I8,
            Datum::I16 => DatumType::I16,
            Datum::I32 => DatumType::I32,
            Datum::I64 => DatumType::I64,
            Datum::F32 => DatumType::F32,
            Datum::TDim => DatumType::TDim,
        }
    }
}

impl Dim {
    fn of(dim: &TDim) -> Result<Dim> {
        let all = |dims: &[TDim]| dims.iter().map(Dim::of).collect::<Result<Vec<_>>>();
        Ok(match dim {
            TDim::Val(v) => Dim::Val(*v),
            TDim::Sym(s) => Dim::Sym(s.to_string()),
            TDim::Add(terms) => Dim::Add(all(terms)?),
            TDim::Mul(terms) => Dim::Mul(all(terms)?),
            TDim::MulInt(k, term) => Dim::MulInt(*k, Box::new(Dim::of(term)?)),
            TDim::Div(term, d) => Dim::Div(Box::new(Dim::of(term)?), *d),
            TDim::Min(terms) => Dim::Min(all(terms)?),
            TDim::Max(terms) => Dim::Max(all(terms)?),
            other => bail!("the graph file has no size of the form {other:?}"),
        })
    }

    fn to_tdim(&self, symbols: &HashMap<String, Symbol>) -> Result<TDim> {
        let all = |dims: &[Dim]| dims.iter().map(|d| d.to_tdim(symbols)).collect::<Result<Vec<_>>>();
        Ok(match self {
            Dim::Val(v) => TDim::Val(*v),
            Dim::Sym(name) => TDim::Sym(symbols.get(name).with_context(|| format!("undeclared symbol {name}"))?.clone()),
            Dim::Add(terms) => TDim::Add(all(terms)?),
            Dim::Mul(terms) => TDim::Mul(all(terms)?),
            Dim::MulInt(k, term) => TDim::MulInt(*k, Box::new(term.to_tdim(symbols)?)),
            Dim::Div(term, d) => TDim::Div(Box::new(term.to_tdim(symbols)?), *d),
            Dim::Min(terms) => TDim::Min(all(terms)?),
            Dim::Max(terms) => TDim::Max(all(terms)?),
        })
    }
}

fn dims_of(dims: &[TDim]) -> Result<Vec<Dim>> {
    dims.iter().map(Dim::of).collect()
}

fn tdims(dims: &[Dim], symbols: &HashMap<String, Symbol>) -> Result<TVec<TDim>> {
    dims.iter().map(|d| d.to_tdim(symbols)).collect()
}

/// Binary ops by tract's name for them; all are plain (no parameters).
fn binary_op(name: &str) -> Result<Box<dyn BinMiniOp>> {
    Ok(match name {
        "Add" => Box::new(math::Add),
        "Sub" => Box::new(math::Sub),
        "Mul" => Box::new(math::Mul),
        "Max" => Box::new(math::Max),
        "Min" => Box::new(math::Min),
        "Rem" => Box::new(math::Rem),
        "ShiftLeft" => Box::new(math::ShiftLeft),
        "And" => Box::new(tract_onnx::tract_core::ops::logic::And),
        "LT" => Box::new(CompLT),
        "GT" => Box::new(CompGT),
        "Eq" => Box::new(CompEq),
        other => bail!("the graph file has no binary op {other}"),
    })
}

fn element_wise_op(name: &str) -> Result<ElementWiseOp> {
    Ok(match name {
        "Rsqrt" => math::rsqrt(),
        "Tanh" => math::tanh(),
        "Square" => math::square(),
        other => bail!("the graph file has no element-wise op {other}"),
    })
}

/// The file's bytes for a graph typed and decluttered from `onnx` (the
/// int8 encoder), with the int8 weights as the ONNX file has them.
pub fn write(onnx: &[u8]) -> Result<Vec<u8>> {
    let model = super::onnx_reader::read(onnx, "encoder-int8.onnx")?;
    let weights = int8_weights(&model)?;
    let typed = model.into_typed()?.into_decluttered()?;
    write_typed(&typed, weights)
}

/// The file's bytes for `typed`, with `weights` the int8 products' weight
/// matrices by node name.
fn write_typed(typed: &TypedModel, weights: HashMap<String, Arc<Tensor>>) -> Result<Vec<u8>> {
    Writer { weights, tensors: vec![], data: vec![] }.file(typed)
}

/// Each int8 product's weight matrix, by the product's node name: the
/// typed graph holds them packed for this machine's kernel only.
fn int8_weights(model: &InferenceModel) -> Result<HashMap<String, Arc<Tensor>>> {
    let mut weights = HashMap::new();
    for node in model.nodes() {
        if node.op.name().contains("Int8Product") || node.op.name().contains("WideProduct") {
            let fact = model.outlet_fact(node.inputs[1])?;
            let w = fact.value.concretize().with_context(|| format!("{}: weights are not a constant", node.name))?;
            weights.insert(node.name.clone(), w);
        }
    }
    Ok(weights)
}

struct Writer {
    weights: HashMap<String, Arc<Tensor>>,
    tensors: Vec<TensorSpec>,
    data: Vec<u8>,
}

impl Writer {
    fn file(mut self, typed: &TypedModel) -> Result<Vec<u8>> {
        let mut nodes = vec![];
        for node in typed.nodes() {
            let inputs: Vec<(usize, usize)> = node.inputs.iter().map(|o| (o.node, o.slot)).collect();
            ensure!(inputs.iter().all(|&(from, _)| from < node.id), "{}: the graph is not in order", node.name);
            let op = self.op(node).with_context(|| format!("node {} ({})", node.name, node.op.name()))?;
            nodes.push(NodeSpec { name: node.name.clone(), op, inputs });
        }
        let header = Header {
            symbols: typed.symbols.all_symbols().iter().map(|s| s.to_string()).collect(),
            assertions: typed.symbols.all_assertions().iter().map(|a| a.to_string()).collect(),
            nodes,
            inputs: typed.input_outlets()?.iter().map(|o| o.node).collect(),
            outputs: typed.output_outlets()?.iter().map(|o| (o.node, o.slot)).collect(),
            tensors: self.tensors,
        };
        let json = serde_json::to_vec(&header)?;
        let mut file = Vec::with_capacity(MAGIC.len() + 4 + json.len() + self.data.len());
        file.extend_from_slice(MAGIC);
        file.extend_from_slice(&(json.len() as u32).to_le_bytes());
        file.extend_from_slice(&json);
        file.extend_from_slice(&self.data);
        Ok(file)
    }

    fn tensor(&mut self, tensor: &Tensor) -> Result<usize> {
        let datum = Datum::of(tensor.datum_type())?;
        let shape = tensor.shape().to_vec();
        let spec = if datum == Datum::TDim {
            let values = tensor.try_as_plain_ram()?.as_slice::<TDim>()?.iter().map(Dim::of).collect::<Result<_>>()?;
            TensorSpec::Dims { shape, values }
        } else {
            let plain = tensor.try_as_plain_ram()?;
            let bytes = plain.as_bytes();
            let offset = self.data.len();
            if datum == Datum::I16 {
                self.data.extend(bytes.iter().step_by(2).chain(bytes.iter().skip(1).step_by(2)));
            } else {
                self.data.extend_from_slice(bytes);
            }
            TensorSpec::Raw { datum, shape, offset, bytes: bytes.len() }
        };
        self.tensors.push(spec);
        Ok(self.tensors.len() - 1)
    }

    fn op(&mut self, node: &TypedNode) -> Result<OpSpec> {
        let op = node.op.as_op();
        if let Some(source) = op.downcast_ref::<TypedSource>() {
            return Ok(OpSpec::Source { datum: Datum::of(source.fact.datum_type)?, shape: dims_of(source.fact.shape.dims())? });
        }
        if let Some(konst) = op.downcast_ref::<Const>() {
            ensure!(konst.exotic_fact().is_none(), "a constant with an exotic fact");
            return Ok(OpSpec::Const { tensor: self.tensor(konst.val())? });
        }
        if let Some(slice) = op.downcast_ref::<Slice>() {
            return Ok(OpSpec::Slice { axis: slice.axis, start: Dim::of(&slice.start)?, end: Dim::of(&slice.end)? });
        }
        if let Some(TypedBinOp(mini, None)) = op.downcast_ref::<TypedBinOp>() {
            binary_op(mini.name())?;
            return Ok(OpSpec::Binary { op: mini.name().to_string() });
        }
        if let Some(ElementWiseOp(mini, None)) = op.downcast_ref::<ElementWiseOp>() {
            element_wise_op(&mini.name())?;
            return Ok(OpSpec::ElementWise { op: mini.name() });
        }
        if let Some(axis_op) = op.downcast_ref::<AxisOp>() {
            return Ok(match axis_op {
                AxisOp::Add(axis) => OpSpec::AddAxis { axis: *axis },
                AxisOp::Rm(axis) => OpSpec::RemoveAxis { axis: *axis },
                AxisOp::Reshape(at, from, to) => OpSpec::Reshape { at: *at, from: dims_of(from)?, to: dims_of(to)? },
                other => bail!("axis op {other:?}"),
            });
        }
        if let Some(cast) = op.downcast_ref::<Cast>() {
            return Ok(OpSpec::Cast { to: Datum::of(cast.to)? });
        }
        if op.downcast_ref::<Iff>().is_some() {
            return Ok(OpSpec::Iff);
        }
        if let Some(Gather { axis, output_type: None }) = op.downcast_ref::<Gather>() {
            return Ok(OpSpec::Gather { axis: *axis });
        }
        if let Some(Reduce { axes, reducer: Reducer::Sum }) = op.downcast_ref::<Reduce>() {
            return Ok(OpSpec::ReduceSum { axes: axes.to_vec() });
        }
        if let Some(norm) = op.downcast_ref::<RmsNorm>() {
            return Ok(OpSpec::RmsNorm { axis: norm.axis, eps: self.tensor(&norm.eps)? });
        }
        if let Some(concat) = op.downcast_ref::<TypedConcat>() {
            return Ok(OpSpec::Concat { axis: concat.axis });
        }
        if op.downcast_ref::<Range>().is_some() {
            // Range's length is private; its output is a vector of that length.
            return Ok(OpSpec::Range { len: Dim::of(&node.outputs[0].fact.shape[0])? });
        }
        if let Some(broadcast) = op.downcast_ref::<MultiBroadcastTo>() {
            return Ok(OpSpec::BroadcastTo { shape: dims_of(broadcast.shape.dims())? });
        }
        if let Some(ScatterElements { axis, reduction: ScatterReduction::None }) = op.downcast_ref::<ScatterElements>() {
            return Ok(OpSpec::Scatter { axis: *axis });
        }
        if let Some(cumsum) = op.downcast_ref::<CumSum>() {
            return Ok(OpSpec::CumSum { axis: cumsum.axis, exclusive: cumsum.exclusive, reverse: cumsum.reverse });
        }
        if let Some(einsum) = op.downcast_ref::<EinSum>() {
            ensure!(einsum.q_params.is_none(), "a quantized EinSum");
            return Ok(OpSpec::EinSum { axes: einsum.axes.to_string(), datum: Datum::of(einsum.operating_dt)? });
        }
        if let Some(quantize) = op.downcast_ref::<QuantizeRows>() {
            return Ok(OpSpec::QuantizeRows { wide: quantize.wide });
        }
        if let Some(dequantize) = op.downcast_ref::<Dequantize>() {
            return Ok(OpSpec::Dequantize { has_bias: dequantize.has_bias, relu: dequantize.relu });
        }
        if let Some(product) = op.downcast_ref::<Int8Product>() {
            ensure!(product.is_packed(), "an int8 product whose weights are not a constant");
            let w = self.weights.get(&node.name).cloned().context("no int8 weights of this name in the ONNX model")?;
            return Ok(OpSpec::Int8Product { weights: self.tensor(&w)?, wide: product.wide() });
        }
        bail!("the graph file has no op {:?}", node.op)
    }
}

/// The graph of a file [`write`] wrote, typed and decluttered as it was.
pub fn read(bytes: &[u8]) -> Result<TypedModel> {
    ensure!(is_graph_file(bytes) && bytes.len() >= 12, "not a Précis graph file");
    let length = u32::from_le_bytes(bytes[8..12].try_into()?) as usize;
    let header_end = 12usize.checked_add(length).filter(|&end| end <= bytes.len()).context("the graph file is cut short")?;
    let header: Header = serde_json::from_slice(&bytes[12..header_end]).context("the graph file's header")?;
    Reader { header: &header, data: &bytes[header_end..], symbols: HashMap::new() }.model()
}

struct Reader<'a> {
    header: &'a Header,
    data: &'a [u8],
    symbols: HashMap<String, Symbol>,
}

impl Reader<'_> {
    fn model(mut self) -> Result<TypedModel> {
        let mut model = TypedModel::default();
        for name in &self.header.symbols {
            self.symbols.insert(name.clone(), model.symbols.sym(name));
        }
        for assertion in &self.header.assertions {
            model.symbols.add_assertion(assertion)?;
        }
        let mut outlets: Vec<TVec<OutletId>> = Vec::with_capacity(self.header.nodes.len());
        for node in &self.header.nodes {
            let inputs = node
                .inputs
                .iter()
                .map(|&(from, slot)| outlets.get(from).and_then(|o| o.get(slot)).copied())
                .collect::<Option<Vec<OutletId>>>()
                .with_context(|| format!("{}: an input that comes later", node.name))?;
            let wired = self.wire(&mut model, node, &inputs).with_context(|| format!("node {}", node.name))?;
            outlets.push(wired);
        }
        let outlet = |node: usize, slot: usize| outlets.get(node).and_then(|o| o.get(slot)).copied();
        let inputs = self.header.inputs.iter().map(|&n| outlet(n, 0)).collect::<Option<Vec<_>>>().context("inputs")?;
        let outputs = self.header.outputs.iter().map(|&(n, s)| outlet(n, s)).collect::<Option<Vec<_>>>().context("outputs")?;
        model.set_input_outlets(&inputs)?;
        model.select_output_outlets(&outputs)?;
        Ok(model)
    }

    fn tensor(&self, index: usize) -> Result<Tensor> {
        match self.header.tensors.get(index).context("no such tensor")? {
            TensorSpec::Raw { datum, shape, offset, bytes } => {
                let end = offset.checked_add(*bytes).filter(|&end| end <= self.data.len()).context("a tensor past the end")?;
                let content = &self.data[*offset..end];
                if *datum == Datum::I16 {
                    ensure!(content.len().is_multiple_of(2), "an i16 tensor of an odd number of bytes");
                    let (low, high) = content.split_at(content.len() / 2);
                    let values: Vec<i16> = low.iter().zip(high).map(|(&l, &h)| i16::from_le_bytes([l, h])).collect();
                    return Ok(Tensor::from_shape(shape, &values)?);
                }
                // Any other byte in a bool is undefined behaviour.
                ensure!(*datum != Datum::Bool || content.iter().all(|&b| b <= 1), "a bool tensor with other values");
                // Safety: the length is checked against the shape, and every
                // bit pattern is a value of the other types.
                Ok(unsafe { Tensor::from_raw_dt(datum.datum_type(), shape, content)? })
            }
            TensorSpec::Dims { shape, values } => {
                let values = tdims(values, &self.symbols)?;
                Ok(tract_onnx::tract_core::ndarray::ArrayD::from_shape_vec(shape.as_slice(), values.to_vec())?.into())
            }
        }
    }

    fn wire(&self, model: &mut TypedModel, node: &NodeSpec, inputs: &[OutletId]) -> Result<TVec<OutletId>> {
        let name = node.name.as_str();
        let dim = |d: &Dim| d.to_tdim(&self.symbols);
        let wired = match &node.op {
            OpSpec::Source { datum, shape } => {
                let fact = datum.datum_type().fact(ShapeFact::from_dims(tdims(shape, &self.symbols)?));
                tvec!(model.add_source(name, fact)?)
            }
            OpSpec::Const { tensor } => model.wire_node(name, Const::new(Arc::new(self.tensor(*tensor)?))?, inputs)?,
            OpSpec::Slice { axis, start, end } => {
                model.wire_node(name, Slice { axis: *axis, start: dim(start)?, end: dim(end)? }, inputs)?
            }
            OpSpec::Binary { op } => model.wire_node(name, TypedBinOp(binary_op(op)?, None), inputs)?,
            OpSpec::ElementWise { op } => model.wire_node(name, element_wise_op(op)?, inputs)?,
            OpSpec::AddAxis { axis } => model.wire_node(name, AxisOp::Add(*axis), inputs)?,
            OpSpec::RemoveAxis { axis } => model.wire_node(name, AxisOp::Rm(*axis), inputs)?,
            OpSpec::Reshape { at, from, to } => model.wire_node(
                name,
                AxisOp::Reshape(*at, tdims(from, &self.symbols)?, tdims(to, &self.symbols)?),
                inputs,
            )?,
            OpSpec::Cast { to } => model.wire_node(name, Cast { to: to.datum_type() }, inputs)?,
            OpSpec::Iff => model.wire_node(name, Iff, inputs)?,
            OpSpec::Gather { axis } => model.wire_node(name, Gather { axis: *axis, output_type: None }, inputs)?,
            OpSpec::ReduceSum { axes } => {
                model.wire_node(name, Reduce { axes: axes.iter().copied().collect(), reducer: Reducer::Sum }, inputs)?
            }
            OpSpec::RmsNorm { axis, eps } => {
                model.wire_node(name, RmsNorm { axis: *axis, eps: Arc::new(self.tensor(*eps)?) }, inputs)?
            }
            OpSpec::Concat { axis } => model.wire_node(name, TypedConcat { axis: *axis }, inputs)?,
            OpSpec::Range { len } => model.wire_node(name, Range::new(dim(len)?), inputs)?,
            OpSpec::BroadcastTo { shape } => {
                model.wire_node(name, MultiBroadcastTo { shape: ShapeFact::from_dims(tdims(shape, &self.symbols)?) }, inputs)?
            }
            OpSpec::Scatter { axis } => {
                model.wire_node(name, ScatterElements { axis: *axis, reduction: ScatterReduction::None }, inputs)?
            }
            OpSpec::CumSum { axis, exclusive, reverse } => {
                model.wire_node(name, CumSum { axis: *axis, exclusive: *exclusive, reverse: *reverse }, inputs)?
            }
            OpSpec::EinSum { axes, datum } => {
                let axes = axes.parse().with_context(|| format!("EinSum axes {axes}"))?;
                model.wire_node(name, EinSum::new(axes, datum.datum_type()), inputs)?
            }
            OpSpec::QuantizeRows { wide } => model.wire_node(name, QuantizeRows { wide: *wide }, inputs)?,
            OpSpec::Dequantize { has_bias, relu } => {
                model.wire_node(name, Dequantize { has_bias: *has_bias, relu: *relu }, inputs)?
            }
            OpSpec::Int8Product { weights, wide } => {
                let product = Int8Product::packed_tensor(&self.tensor(*weights)?, *wide)?;
                model.wire_node(name, product, inputs)?
            }
        };
        Ok(wired)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A graph with symbolic sizes and one node of most kinds the encoder
    /// has, the int8 product between its two glue ops included.
    fn small_graph() -> Result<(TypedModel, HashMap<String, Arc<Tensor>>)> {
        let mut model = TypedModel::default();
        let n = TDim::Sym(model.symbols.sym("N"));
        let x = model.add_source("x", f32::fact([n.clone(), 4.into()]))?;
        let w: Vec<i16> = vec![1, -2, 3, 4, -5, 6, 7, 8, -9, 10, 11, -500];
        let weights = Arc::new(tract_onnx::tract_core::ndarray::Array2::from_shape_vec((4, 3), w.clone())?.into_tensor());
        let q = model.wire_node("q", QuantizeRows { wide: true }, &[x])?;
        let p = model.wire_node("p", Int8Product::packed(&w, 4, 3, true)?, &[q[0]])?;
        let scales = model.add_const("scales", tensor1(&[0.5f32, 0.25, 1.0]))?;
        let d = model.wire_node("d", Dequantize { has_bias: false, relu: true }, &[p[0], q[1], scales])?;
        let t = model.wire_node("t", math::tanh(), &d)?;
        let e = model.add_const("e", tensor2(&[[1f32, 0.], [0., 2.], [1., 1.]]))?;
        let m = model.wire_node("m", EinSum::new("mk,kn->mn".parse()?, DatumType::F32), &[t[0], e])?;
        let c = model.wire_node("c", CumSum { axis: 0, exclusive: false, reverse: false }, &m)?;
        let s = model.wire_node("s", Reduce { axes: tvec![1], reducer: Reducer::Sum }, &c)?;
        let r = model.wire_node("r", AxisOp::Reshape(0, tvec![n.clone(), 1.into()], tvec![n.clone()]), &s)?;
        let sl = model.wire_node("sl", Slice { axis: 0, start: 1.into(), end: n.clone() }, &r)?;
        let added = model.wire_node("added", TypedBinOp(Box::new(math::Add), None), &[sl[0], sl[0]])?;
        model.select_output_outlets(&added)?;
        Ok((model, HashMap::from([("p".to_string(), weights)])))
    }

    fn run(model: TypedModel, x: Tensor) -> Result<Vec<f32>> {
        let plan = model.into_optimized()?.into_runnable()?;
        let outputs = plan.run(tvec!(x.into_tvalue()))?;
        Ok(outputs[0].try_as_plain_ram()?.as_slice::<f32>()?.to_vec())
    }

    #[test]
    fn a_graph_reads_back_node_for_node_and_runs_the_same() -> Result<()> {
        let (model, weights) = small_graph()?;
        let file = write_typed(&model, weights)?;
        let read_back = read(&file)?;
        let describe = |m: &TypedModel| -> Vec<String> {
            m.nodes().iter().map(|n| format!("{} {:?} {:?} {:?}", n.name, n.op, n.inputs, n.outputs[0].fact.shape)).collect()
        };
        assert_eq!(describe(&read_back), describe(&model));
        let x = tensor2(&[[0.5f32, -1., 2., 0.25], [1., 1., -1., 3.], [0., 0.5, 0.5, -2.]]);
        let (expected, got) = (run(model, x.clone())?, run(read_back, x)?);
        assert_eq!(got.len(), 2);
        assert_eq!(got, expected);
        Ok(())
    }

    #[test]
    fn a_damaged_file_is_refused_with_a_reason() -> Result<()> {
        let (model, weights) = small_graph()?;
        let file = write_typed(&model, weights)?;
        let message = |bytes: &[u8]| format!("{:#}", read(bytes).err().expect("an error"));
        assert!(message(b"PRECISG1").contains("not a Précis graph file"));
        assert!(message(b"\x08ONNX...").contains("not a Précis graph file"));
        assert!(message(&file[..40]).contains("cut short"));
        assert!(message(&file[..file.len() - 3]).contains("past the end"), "{}", message(&file[..file.len() - 3]));
        Ok(())
    }

    #[test]
    fn an_op_the_file_does_not_know_is_named_when_written() -> Result<()> {
        let (mut model, weights) = small_graph()?;
        let output = model.output_outlets()?[0];
        let sigmoid = model.wire_node("sigmoid", tract_onnx::tract_core::ops::nn::sigmoid(), &[output])?;
        model.select_output_outlets(&sigmoid)?;
        let error = format!("{:#}", write_typed(&model, weights).err().expect("an error"));
        assert!(error.contains("node sigmoid") && error.contains("no element-wise op Sigmoid"), "{error}");
        Ok(())
    }
}
