//! The int8 encoder's two glue ops (issue #21). Between them tract runs the
//! product itself (`MatMulInteger`: int8 × int8 → int32, on its VNNI kernels
//! natively):
//!
//! - `PrecisQuantizeRows` turns an f32 activation into int8, each row with
//!   its own scale (max |x| / 127), so a row's result never depends on the
//!   other sentences of its batch (a per-tensor scale let the padding
//!   sentences' NaN rows take the whole batch over);
//! - `PrecisDequantize` turns the int32 product back into f32: row scale ×
//!   the weight's per-column scale, plus the bias, then ReLU if asked.
//!
//! With `bits = 12`, `PrecisQuantizeRows` gives wide rows instead: i16 with
//! max |x| / 2047 as the scale, which `PrecisWideProduct` multiplies by
//! 10-bit weights (i16, |W| ≤ 511; the build's). The int8 encoder's ROUGE
//! cost against f32 came mostly from its 8-bit activations and the rest
//! from its 8-bit weights (docs/results/int8.md), and our product widens x
//! and W to i16 anyway, so in wasm the wider values cost nothing.
//!
//! Written as plain ONNX ops (Abs, ReduceMax, Div, Round, Clip, Cast, Cast,
//! Mul, Mul) the same work took nine passes over the data, and cost more
//! than the int8 products saved (docs/results/int8.md); here it is one pass
//! each way. `models/build.py` writes the model that uses them.

use tract_onnx::model::{OnnxOpRegister, ParsingContext};
use tract_onnx::pb::NodeProto;
use tract_onnx::prelude::*;
use tract_onnx::tract_hir::internal::*;

use super::int8_product::{Activation, PackedWeights};

/// Registers both ops with the ONNX reader, under the names the model uses;
/// where tract's integer kernels are slow or missing, also our integer
/// product for `MatMulInteger` (see `int8_product`).
pub fn register(ops: &mut OnnxOpRegister) {
    ops.insert("PrecisQuantizeRows", read_quantize_rows);
    ops.insert("PrecisDequantize", read_dequantize);
    ops.insert("PrecisWideProduct", read_wide_product);
    if super::int8_product::outruns_tract() {
        ops.insert("MatMulInteger", read_int8_product);
    }
}

/// A row of zeros gets this scale instead of 0, as the reference script does.
const SMALLEST_SCALE: f32 = 1e-30;

/// f32 → int8 per row: `(q, scale)` with `x ≈ q · scale`; when `wide`,
/// q is i16 with |q| ≤ 2047.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct QuantizeRows {
    pub wide: bool,
}

/// int32 product → f32: `acc · row_scale · column_scale + bias`, then ReLU
/// when `relu`. Inputs: the product, the row scales, the column scales and,
/// when `has_bias`, the bias.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Dequantize {
    pub has_bias: bool,
    pub relu: bool,
}

fn read_quantize_rows(_: &ParsingContext, node: &NodeProto) -> TractResult<(Box<dyn InferenceOp>, Vec<String>)> {
    let wide = match node.get_attr_opt::<i64>("bits")?.unwrap_or(8) {
        8 => false,
        12 => true,
        bits => bail!("PrecisQuantizeRows: {bits} bits (8 or 12)"),
    };
    Ok((expand(QuantizeRows { wide }), vec![]))
}

/// The datum type of a quantized row.
fn row_type(wide: bool) -> DatumType {
    if wide {
        i16::datum_type()
    } else {
        i8::datum_type()
    }
}

fn read_dequantize(_: &ParsingContext, node: &NodeProto) -> TractResult<(Box<dyn InferenceOp>, Vec<String>)> {
    let relu = node.get_attr_opt::<i64>("relu")?.unwrap_or(0) != 0;
    let has_bias = node.input.len() == 4;
    Ok((expand(Dequantize { has_bias, relu }), vec![]))
}

/// Each op, read from the model, stands for itself in the typed graph; its
/// `Expansion` only tells the ONNX reader how types and shapes follow.
macro_rules! stands_for_itself {
    () => {
        fn name(&self) -> StaticName {
            Op::name(self)
        }

        fn wire(&self, prefix: &str, model: &mut TypedModel, inputs: &[OutletId]) -> TractResult<TVec<OutletId>> {
            model.wire_node(prefix, self.clone(), inputs)
        }
    };
}

impl Expansion for QuantizeRows {
    stands_for_itself!();

    fn nboutputs(&self) -> TractResult<usize> {
        Ok(2)
    }

    fn rules<'r, 'p: 'r, 's: 'r>(&'s self, s: &mut Solver<'r>, inputs: &'p [TensorProxy], outputs: &'p [TensorProxy]) -> InferenceResult {
        check_input_arity(inputs, 1)?;
        check_output_arity(outputs, 2)?;
        s.equals(&inputs[0].datum_type, f32::datum_type())?;
        s.equals(&outputs[0].datum_type, row_type(self.wide))?;
        s.equals(&outputs[1].datum_type, f32::datum_type())?;
        s.equals(&outputs[0].shape, &inputs[0].shape)?;
        s.equals(&outputs[1].rank, &inputs[0].rank)?;
        s.given(&inputs[0].shape, move |s, shape| s.equals(&outputs[1].shape, scale_shape(&shape)))
    }
}

impl Expansion for Dequantize {
    stands_for_itself!();

    fn rules<'r, 'p: 'r, 's: 'r>(&'s self, s: &mut Solver<'r>, inputs: &'p [TensorProxy], outputs: &'p [TensorProxy]) -> InferenceResult {
        check_input_arity(inputs, 3 + self.has_bias as usize)?;
        check_output_arity(outputs, 1)?;
        s.equals(&inputs[0].datum_type, i32::datum_type())?;
        s.equals(&outputs[0].datum_type, f32::datum_type())?;
        s.equals(&outputs[0].shape, &inputs[0].shape)
    }
}

/// `MatMulInteger` without zero points, `x [m, k] · w [k, n]`, by
/// [`super::int8_product`]; or, when `wide`, `PrecisWideProduct`: the same
/// with x and W in i16 (|x| ≤ 2047, |W| ≤ 511). W, a constant of the
/// model, is packed once when the model is planned; then x is the op's
/// only input.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Int8Product {
    weights: Option<std::sync::Arc<PackedWeights>>,
    wide: bool,
}

impl Int8Product {
    /// The product by `w [k × n]` (row-major), packed now for this machine's
    /// kernel; `wide` for i16 rows and weights (the graph file's products).
    pub fn packed(w: &[i16], k: usize, n: usize, wide: bool) -> TractResult<Self> {
        Ok(Int8Product { weights: Some(std::sync::Arc::new(packed_weights(w, k, n, wide)?)), wide })
    }

    /// The product by `w`, a tensor of the op's weight type (i16 when wide,
    /// else i8).
    pub fn packed_tensor(w: &Tensor, wide: bool) -> TractResult<Self> {
        let (k, n) = (w.shape()[0], w.shape()[1]);
        Self::packed(&weight_values(w, wide)?, k, n, wide)
    }

    /// Whether its weights are packed in the op (a constant of the model).
    pub fn is_packed(&self) -> bool {
        self.weights.is_some()
    }

    pub fn wide(&self) -> bool {
        self.wide
    }
}

/// W packed for the rows the op takes: i16 when wide, else i8.
fn packed_weights(w: &[i16], k: usize, n: usize, wide: bool) -> TractResult<PackedWeights> {
    let packed = if wide { PackedWeights::new::<i16>(w, k, n) } else { PackedWeights::new::<i8>(w, k, n) };
    packed.map_err(|reason| anyhow!(reason))
}

/// A weight tensor's values: [k, n] of i16 (wide) or i8.
fn weight_values(w: &Tensor, wide: bool) -> TractResult<Vec<i16>> {
    ensure!(w.rank() == 2 && w.datum_type() == weight_type(wide), "int8 product: W of {:?} {:?}", w.datum_type(), w.shape());
    let plain = w.try_as_plain_ram()?;
    Ok(if wide { plain.as_slice::<i16>()?.to_vec() } else { plain.as_slice::<i8>()?.iter().map(|&v| v as i16).collect() })
}

/// `PrecisWideProduct`'s weights have 10 bits (i16), `MatMulInteger`'s 8.
fn weight_type(wide: bool) -> DatumType {
    if wide { i16::datum_type() } else { i8::datum_type() }
}

fn read_int8_product(_: &ParsingContext, node: &NodeProto) -> TractResult<(Box<dyn InferenceOp>, Vec<String>)> {
    ensure!(node.input.len() == 2, "MatMulInteger with zero points: the int8 encoder has none");
    Ok((expand(Int8Product::default()), vec![]))
}

fn read_wide_product(_: &ParsingContext, node: &NodeProto) -> TractResult<(Box<dyn InferenceOp>, Vec<String>)> {
    ensure!(node.input.len() == 2, "PrecisWideProduct takes x and W");
    Ok((expand(Int8Product { weights: None, wide: true }), vec![]))
}

impl Expansion for Int8Product {
    fn name(&self) -> StaticName {
        Op::name(self)
    }

    fn wire(&self, prefix: &str, model: &mut TypedModel, inputs: &[OutletId]) -> TractResult<TVec<OutletId>> {
        let Some(w) = model.outlet_fact(inputs[1])?.konst.clone() else {
            return model.wire_node(prefix, self.clone(), inputs);
        };
        model.wire_node(prefix, Int8Product::packed_tensor(&w, self.wide)?, &inputs[..1])
    }

    fn rules<'r, 'p: 'r, 's: 'r>(&'s self, s: &mut Solver<'r>, inputs: &'p [TensorProxy], outputs: &'p [TensorProxy]) -> InferenceResult {
        check_input_arity(inputs, 2)?;
        check_output_arity(outputs, 1)?;
        s.equals(&inputs[0].datum_type, row_type(self.wide))?;
        s.equals(&inputs[1].datum_type, weight_type(self.wide))?;
        s.equals(&outputs[0].datum_type, i32::datum_type())?;
        s.equals(&inputs[0].rank, 2)?;
        s.equals(&inputs[1].rank, 2)?;
        s.equals(&outputs[0].rank, 2)?;
        s.equals(&inputs[0].shape[1], &inputs[1].shape[0])?;
        s.equals(&outputs[0].shape[0], &inputs[0].shape[0])?;
        s.equals(&outputs[0].shape[1], &inputs[1].shape[1])
    }
}

impl Op for Int8Product {
    fn name(&self) -> StaticName {
        "PrecisInt8Product".into()
    }

    /// In tract's form ("Mult: … with [kernel]"), for `bench-encoder --layers`.
    fn info(&self) -> TractResult<Vec<String>> {
        let (x, w) = if self.wide { ("int12", "int10") } else { ("int8", "int8") };
        let kernel = self.weights.as_ref().map_or(super::int8_product::kernel_name(), |weights| weights.kernel());
        Ok(vec![format!("Mult: {x} × {w} with [{kernel}]")])
    }
    op_as_typed_op!();
}

impl EvalOp for Int8Product {
    op_out_of_plan!();

    fn eval(&self, _: &EvalContext, inputs: TVec<TValue>) -> TractResult<TVec<TValue>> {
        let x = &inputs[0];
        let packed_now;
        let weights = match (&self.weights, inputs.get(1)) {
            (Some(weights), _) => weights.as_ref(),
            (None, Some(w)) => {
                packed_now = packed_weights(&weight_values(w, self.wide)?, w.shape()[0], w.shape()[1], self.wide)?;
                &packed_now
            }
            (None, None) => bail!("PrecisInt8Product without weights"),
        };
        let m = x.shape()[0];
        let mut out = unsafe { Tensor::uninitialized::<i32>(&[m, weights.columns()])? };
        {
            let x = x.try_as_plain_ram()?;
            let mut out = out.try_as_plain_ram_mut()?;
            if self.wide {
                weights.product(x.as_slice::<i16>()?, m, out.as_slice_mut::<i32>()?);
            } else {
                weights.product(x.as_slice::<i8>()?, m, out.as_slice_mut::<i32>()?);
            }
        }
        Ok(tvec!(out.into_tvalue()))
    }
}

impl TypedOp for Int8Product {
    as_op!();

    fn output_facts(&self, inputs: &[&TypedFact]) -> TractResult<TVec<TypedFact>> {
        let columns = match &self.weights {
            Some(weights) => weights.columns().into(),
            None => inputs[1].shape[1].clone(),
        };
        Ok(tvec!(i32::fact([inputs[0].shape[0].clone(), columns])))
    }
}

/// A tensor's shape with its last axis (the one a row scale covers) made 1.
fn scale_shape<D: Clone + From<usize>>(shape: &[D]) -> TVec<D> {
    let mut shape: TVec<D> = shape.into();
    if let Some(last) = shape.last_mut() {
        *last = 1usize.into();
    }
    shape
}

impl Op for QuantizeRows {
    fn name(&self) -> StaticName {
        "PrecisQuantizeRows".into()
    }
    op_as_typed_op!();
}

impl EvalOp for QuantizeRows {
    op_out_of_plan!();

    fn eval(&self, _: &EvalContext, inputs: TVec<TValue>) -> TractResult<TVec<TValue>> {
        let x = args_1!(inputs);
        let width = *x.shape().last().context("PrecisQuantizeRows: a scalar has no rows")?;
        let mut quantized = unsafe { Tensor::uninitialized_dt(row_type(self.wide), x.shape())? };
        let mut scales = unsafe { Tensor::uninitialized::<f32>(&scale_shape(x.shape()))? };
        {
            let values = x.try_as_plain_ram()?;
            let mut quantized = quantized.try_as_plain_ram_mut()?;
            let mut scales = scales.try_as_plain_ram_mut()?;
            let (values, scales) = (values.as_slice::<f32>()?, scales.as_slice_mut::<f32>()?);
            if self.wide {
                quantize_rows(values, width, quantized.as_slice_mut::<i16>()?, scales);
            } else {
                quantize_rows(values, width, quantized.as_slice_mut::<i8>()?, scales);
            }
        }
        Ok(tvec!(quantized.into_tvalue(), scales.into_tvalue()))
    }
}

impl TypedOp for QuantizeRows {
    as_op!();

    fn output_facts(&self, inputs: &[&TypedFact]) -> TractResult<TVec<TypedFact>> {
        let shape = inputs[0].shape.to_tvec();
        Ok(tvec!(row_type(self.wide).fact(&*shape), f32::fact(&*scale_shape(&shape))))
    }
}

impl Op for Dequantize {
    fn name(&self) -> StaticName {
        "PrecisDequantize".into()
    }
    op_as_typed_op!();
}

impl EvalOp for Dequantize {
    op_out_of_plan!();

    fn eval(&self, _: &EvalContext, inputs: TVec<TValue>) -> TractResult<TVec<TValue>> {
        let products = &inputs[0];
        let width = *products.shape().last().context("PrecisDequantize: a scalar has no rows")?;
        let mut output = unsafe { Tensor::uninitialized::<f32>(products.shape())? };
        {
            let products = products.try_as_plain_ram()?;
            let row_scales = inputs[1].try_as_plain_ram()?;
            let column_scales = inputs[2].try_as_plain_ram()?;
            let bias = if self.has_bias { Some(inputs[3].try_as_plain_ram()?) } else { None };
            let zeros;
            let bias = match &bias {
                Some(bias) => bias.as_slice::<f32>()?,
                None => {
                    zeros = vec![0f32; width];
                    &zeros[..]
                }
            };
            let columns = Columns { scales: column_scales.as_slice::<f32>()?, bias };
            ensure!(columns.scales.len() == width && bias.len() == width, "PrecisDequantize: {width} columns, {} scales, {} biases", columns.scales.len(), bias.len());
            let mut output = output.try_as_plain_ram_mut()?;
            dequantize_rows(products.as_slice::<i32>()?, row_scales.as_slice::<f32>()?, &columns, self.relu, output.as_slice_mut::<f32>()?);
        }
        Ok(tvec!(output.into_tvalue()))
    }
}

impl TypedOp for Dequantize {
    as_op!();

    fn output_facts(&self, inputs: &[&TypedFact]) -> TractResult<TVec<TypedFact>> {
        Ok(tvec!(f32::fact(&*inputs[0].shape.to_tvec())))
    }
}

/// What every row of a product shares: the weight's per-column scales and
/// the layer's bias.
struct Columns<'a> {
    scales: &'a [f32],
    bias: &'a [f32],
}

/// Adding 1.5 · 2^23 to |x| < 2^22 leaves round-half-to-even(x) in the low
/// bits of the float (ONNX's Round), with no rounding instruction: the loop
/// vectorizes on plain SSE2 and wasm SIMD128 too.
const ROUNDER: f32 = 12_582_912.0;

/// What a row quantizes to: int8, or 12 bits held in i16 (wide).
pub trait RowCode: Activation + Default {
    /// `rounded`, already within ±[`Activation::LARGEST`], as this type.
    fn from_rounded(rounded: i32) -> Self;
    /// One row, by this build's row kernel: `out` = round(row / scale);
    /// returns the scale.
    fn quantize_row(row: &[f32], out: &mut [Self]) -> f32;
}

impl RowCode for i8 {
    fn from_rounded(rounded: i32) -> i8 {
        rounded as i8
    }
    fn quantize_row(row: &[f32], out: &mut [i8]) -> f32 {
        row_kernels::quantize_row(row, out)
    }
}

impl RowCode for i16 {
    fn from_rounded(rounded: i32) -> i16 {
        rounded as i16
    }
    fn quantize_row(row: &[f32], out: &mut [i16]) -> f32 {
        row_kernels::quantize_wide_row(row, out)
    }
}

fn quantize_rows<Q: RowCode>(values: &[f32], width: usize, quantized: &mut [Q], scales: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { quantize_rows_avx2(values, width, quantized, scales) };
    }
    quantize_rows_portable(values, width, quantized, scales)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn quantize_rows_avx2<Q: RowCode>(values: &[f32], width: usize, quantized: &mut [Q], scales: &mut [f32]) {
    quantize_rows_portable(values, width, quantized, scales)
}

#[inline(always)]
fn quantize_rows_portable<Q: RowCode>(values: &[f32], width: usize, quantized: &mut [Q], scales: &mut [f32]) {
    if width == 0 {
        return;
    }
    let rows = values.chunks_exact(width).zip(quantized.chunks_exact_mut(width));
    for ((row, out), scale) in rows.zip(scales.iter_mut()) {
        *scale = Q::quantize_row(row, out);
    }
}

/// `x / scale` (given as `inverse` = 1 / scale) rounded half to even.
#[inline(always)]
fn quantized<Q: RowCode>(x: f32, inverse: f32) -> Q {
    Q::from_rounded(((x * inverse + ROUNDER).to_bits() as i32).wrapping_sub(ROUNDER.to_bits() as i32))
}

/// A row's scale: its largest |x| over the code's largest value.
#[inline(always)]
fn row_scale<Q: RowCode>(largest: f32) -> f32 {
    (largest / Q::LARGEST as f32).max(SMALLEST_SCALE)
}

/// One row: `out` = round(row / scale); returns the scale.
#[inline(always)]
fn quantize_row_scalar<Q: RowCode>(row: &[f32], out: &mut [Q]) -> f32 {
    // The largest |x| as bits: for non-negative floats their order is the
    // integers' order, and an integer max vectorizes everywhere.
    let largest = f32::from_bits(row.iter().fold(0u32, |largest, x| largest.max(x.to_bits() & 0x7fff_ffff)));
    let scale = row_scale::<Q>(largest);
    let inverse = 1.0 / scale;
    for (q, x) in out.iter_mut().zip(row) {
        *q = quantized(*x, inverse);
    }
    scale
}

/// One row of a product: `out = acc · row_scale · column scale + bias`,
/// floored at `floor` (-inf, or 0 for a ReLU).
#[inline(always)]
fn dequantize_row_scalar(products: &[i32], row_scale: f32, columns: &Columns, floor: f32, out: &mut [f32]) {
    let cells = out.iter_mut().zip(products).zip(columns.scales).zip(columns.bias);
    for (((y, &acc), &column_scale), &bias) in cells {
        let value = acc as f32 * (row_scale * column_scale) + bias;
        // Compared rather than `f32::max`, which differs from SIMD max on NaN
        // and so would not vectorize.
        *y = if value > floor { value } else { floor };
    }
}

/// The row loops: natively the scalar ones, which the compiler vectorizes;
/// in wasm written with SIMD128, since the app's wasm is built at
/// `opt-level = "z"`, which does not vectorize loops.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
mod row_kernels {
    pub(super) use super::{
        dequantize_row_scalar as dequantize_row, quantize_row_scalar as quantize_row, quantize_row_scalar as quantize_wide_row,
    };
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod row_kernels {
    use super::{dequantize_row_scalar, quantized, row_scale, Columns, RowCode, ROUNDER};
    use std::arch::wasm32::*;

    /// The row's scale for code `Q`: its largest |x| over the code's largest value.
    #[inline(always)]
    fn scale_of<Q: RowCode>(row: &[f32]) -> f32 {
        let mut largest = u32x4_splat(0);
        let quads = row.chunks_exact(4);
        let rest = quads.remainder();
        for quad in quads {
            // SAFETY: a chunk of 4 floats is 16 readable bytes.
            let values = unsafe { v128_load(quad.as_ptr() as *const v128) };
            largest = u32x4_max(largest, v128_and(values, u32x4_splat(0x7fff_ffff)));
        }
        let lanes = [u32x4_extract_lane::<0>(largest), u32x4_extract_lane::<1>(largest), u32x4_extract_lane::<2>(largest), u32x4_extract_lane::<3>(largest)];
        let largest = lanes.into_iter().chain(rest.iter().map(|x| x.to_bits() & 0x7fff_ffff)).fold(0, u32::max);
        row_scale::<Q>(f32::from_bits(largest))
    }

    /// 4 floats from `at`, divided by the scale (times `inverse`) and
    /// rounded half to even, as i32 lanes.
    #[inline(always)]
    unsafe fn rounded(at: *const f32, inverse: v128) -> v128 {
        let offset = i32x4_splat(ROUNDER.to_bits() as i32);
        i32x4_sub(f32x4_add(f32x4_mul(unsafe { v128_load(at as *const v128) }, inverse), f32x4_splat(ROUNDER)), offset)
    }

    /// The rest of a row past `done`, scalar.
    fn finish_row<Q: RowCode>(row: &[f32], out: &mut [Q], done: usize, scale: f32) {
        let inverse = 1.0 / scale;
        for (q, x) in out[done..].iter_mut().zip(&row[done..]) {
            *q = quantized(*x, inverse);
        }
    }

    pub fn quantize_row(row: &[f32], out: &mut [i8]) -> f32 {
        let scale = scale_of::<i8>(row);
        let inverse = f32x4_splat(1.0 / scale);
        let blocks = row.len() / 16;
        for block in 0..blocks {
            // SAFETY: each call reads 4 floats of a 16-float block inside `row`.
            let at = unsafe { row.as_ptr().add(16 * block) };
            // |values| ≤ 127, so the saturating narrowings only narrow.
            let low = unsafe { i16x8_narrow_i32x4(rounded(at, inverse), rounded(at.add(4), inverse)) };
            let high = unsafe { i16x8_narrow_i32x4(rounded(at.add(8), inverse), rounded(at.add(12), inverse)) };
            // SAFETY: `out` is as long as `row`, so the block's 16 bytes are inside it.
            unsafe { v128_store(out.as_mut_ptr().add(16 * block) as *mut v128, i8x16_narrow_i16x8(low, high)) };
        }
        finish_row(row, out, 16 * blocks, scale);
        scale
    }

    pub fn quantize_wide_row(row: &[f32], out: &mut [i16]) -> f32 {
        let scale = scale_of::<i16>(row);
        let inverse = f32x4_splat(1.0 / scale);
        let blocks = row.len() / 8;
        for block in 0..blocks {
            // SAFETY: each call reads 4 floats of an 8-float block inside `row`.
            let at = unsafe { row.as_ptr().add(8 * block) };
            // |values| ≤ 2047, so the saturating narrowing only narrows.
            let values = unsafe { i16x8_narrow_i32x4(rounded(at, inverse), rounded(at.add(4), inverse)) };
            // SAFETY: `out` is as long as `row`, so the block's 8 i16 are inside it.
            unsafe { v128_store(out.as_mut_ptr().add(8 * block) as *mut v128, values) };
        }
        finish_row(row, out, 8 * blocks, scale);
        scale
    }

    pub fn dequantize_row(products: &[i32], row_scale: f32, columns: &Columns, floor: f32, out: &mut [f32]) {
        let (row_scale_4, floor_4) = (f32x4_splat(row_scale), f32x4_splat(floor));
        let quads = products.len() / 4;
        for quad in 0..quads {
            // SAFETY: products, scales, bias and out are all `width` long.
            unsafe {
                let acc = f32x4_convert_i32x4(v128_load(products.as_ptr().add(4 * quad) as *const v128));
                let scale = f32x4_mul(row_scale_4, v128_load(columns.scales.as_ptr().add(4 * quad) as *const v128));
                let value = f32x4_add(f32x4_mul(acc, scale), v128_load(columns.bias.as_ptr().add(4 * quad) as *const v128));
                v128_store(out.as_mut_ptr().add(4 * quad) as *mut v128, f32x4_pmax(floor_4, value));
            }
        }
        let done = 4 * quads;
        let rest = Columns { scales: &columns.scales[done..], bias: &columns.bias[done..] };
        dequantize_row_scalar(&products[done..], row_scale, &rest, floor, &mut out[done..]);
    }
}

fn dequantize_rows(products: &[i32], row_scales: &[f32], columns: &Columns, relu: bool, out: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { dequantize_rows_avx2(products, row_scales, columns, relu, out) };
    }
    dequantize_rows_portable(products, row_scales, columns, relu, out)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn dequantize_rows_avx2(products: &[i32], row_scales: &[f32], columns: &Columns, relu: bool, out: &mut [f32]) {
    dequantize_rows_portable(products, row_scales, columns, relu, out)
}

#[inline(always)]
fn dequantize_rows_portable(products: &[i32], row_scales: &[f32], columns: &Columns, relu: bool, out: &mut [f32]) {
    let width = columns.scales.len();
    if width == 0 {
        return;
    }
    let floor = if relu { 0.0 } else { f32::NEG_INFINITY };
    for ((row, out), &row_scale) in products.chunks_exact(width).zip(out.chunks_exact_mut(width)).zip(row_scales) {
        row_kernels::dequantize_row(row, row_scale, columns, floor, out);
    }
}

/// The row kernels against the scalar ones on rows of every length up to
/// 40 (SIMD blocks and their remainders); run by the browser parity test,
/// where the SIMD ones are compiled.
// Called by the browser tests' build only (check_int8_product).
#[cfg_attr(not(all(target_arch = "wasm32", feature = "encoder-api")), allow(dead_code))]
pub fn self_check() -> Result<usize, String> {
    let mut checked = 0;
    for width in 1..=40usize {
        let row: Vec<f32> = (0..width).map(|i| ((i * 37 + width * 11) % 23) as f32 * 0.37 - 4.1).collect();
        let (mut simd, mut scalar) = (vec![0i8; width], vec![0i8; width]);
        let (a, b) = (row_kernels::quantize_row(&row, &mut simd), quantize_row_scalar(&row, &mut scalar));
        if a != b || simd != scalar {
            return Err(format!("quantize_row, width {width}: {a} {simd:?} vs {b} {scalar:?}"));
        }
        let (mut simd, mut scalar) = (vec![0i16; width], vec![0i16; width]);
        let (a, b) = (row_kernels::quantize_wide_row(&row, &mut simd), quantize_row_scalar(&row, &mut scalar));
        if a != b || simd != scalar {
            return Err(format!("quantize_wide_row, width {width}: {a} {simd:?} vs {b} {scalar:?}"));
        }
        let products: Vec<i32> = (0..width as i32).map(|i| i * 977 - 9_000).collect();
        let scales: Vec<f32> = (0..width).map(|i| 0.001 * (i + 1) as f32).collect();
        let bias: Vec<f32> = (0..width).map(|i| i as f32 * 0.5 - 3.0).collect();
        let columns = Columns { scales: &scales, bias: &bias };
        for floor in [f32::NEG_INFINITY, 0.0] {
            let (mut simd, mut scalar) = (vec![0f32; width], vec![0f32; width]);
            row_kernels::dequantize_row(&products, 0.75, &columns, floor, &mut simd);
            dequantize_row_scalar(&products, 0.75, &columns, floor, &mut scalar);
            if simd != scalar {
                return Err(format!("dequantize_row, width {width}, floor {floor}: {simd:?} vs {scalar:?}"));
            }
        }
        checked += 1;
    }
    Ok(checked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_row_gets_its_own_scale_and_rounds_half_to_even() {
        // Row 1: max 127 → scale 1, so values round as they are (2.5 → 2,
        // 3.5 → 4, -0.5 → -0). Row 2: max 31.75 → scale 0.25 (x · 4: -4.5,
        // 0.5, 1.5). Row 3: zeros.
        let values = [127.0, 2.5, 3.5, -0.5, /**/ 31.75, -1.125, 0.125, 0.375, /**/ 0.0, 0.0, 0.0, 0.0];
        let (mut quantized, mut scales) = ([0i8; 12], [0f32; 3]);
        quantize_rows(&values, 4, &mut quantized, &mut scales);
        assert_eq!(quantized, [127, 2, 4, 0, 127, -4, 0, 2, 0, 0, 0, 0]);
        assert_eq!(scales, [1.0, 0.25, SMALLEST_SCALE]);
    }

    #[test]
    fn a_row_never_saturates_past_127() {
        let values: Vec<f32> = (0..300).map(|i| (i as f32 * 0.731).sin() * 3.3).collect();
        let (mut quantized, mut scales) = (vec![0i8; 300], vec![0f32; 3]);
        quantize_rows(&values, 100, &mut quantized, &mut scales);
        for (row, (q, scale)) in values.chunks(100).zip(quantized.chunks(100).zip(&scales)) {
            assert!(q.iter().any(|&v| v.abs() == 127));
            for (x, q) in row.iter().zip(q) {
                assert!((x - *q as f32 * scale).abs() <= scale * 0.5 + 1e-6, "{x} vs {q} × {scale}");
            }
        }
    }

    #[test]
    fn a_wide_row_has_2047_levels_each_side() {
        // max 2047 → scale 1 (2.5 → 2, -1000.5 → -1000); max 4094 → scale 2.
        let values = [2047.0, 2.5, -1000.5, 0.0, /**/ -4094.0, 3.0, 1.0, 4093.0];
        let (mut quantized, mut scales) = ([0i16; 8], [0f32; 2]);
        quantize_rows(&values, 4, &mut quantized, &mut scales);
        assert_eq!(quantized, [2047, 2, -1000, 0, -2047, 2, 0, 2046]);
        assert_eq!(scales, [1.0, 2.0]);
    }

    #[test]
    fn the_row_kernels_agree_with_the_scalar_ones() {
        assert_eq!(self_check(), Ok(40));
    }

    /// A weight the i32 sums cannot hold is the model's error, named.
    #[test]
    fn a_weight_beyond_10_bits_is_refused() {
        let ok = tensor2(&[[511i16, -511], [3, 4]]);
        assert!(Int8Product::packed_tensor(&ok, true).is_ok());
        let beyond = tensor2(&[[512i16, 0], [3, 4]]);
        let error = Int8Product::packed_tensor(&beyond, true).unwrap_err().to_string();
        assert!(error.contains("beyond"), "{error}");
        assert!(Int8Product::packed_tensor(&tensor2(&[[1i8, 2]]), true).is_err(), "i8 weights for a wide product");
    }

    #[test]
    fn products_come_back_scaled_by_row_and_column_with_bias_and_relu() {
        let products = [10, -20, 30, -40];
        let columns = Columns { scales: &[0.5, 2.0], bias: &[1.0, -1.0] };
        let mut out = [0f32; 4];
        dequantize_rows(&products, &[1.0, 0.25], &columns, false, &mut out);
        assert_eq!(out, [6.0, -41.0, 4.75, -21.0]);
        dequantize_rows(&products, &[1.0, 0.25], &columns, true, &mut out);
        assert_eq!(out, [6.0, 0.0, 4.75, 0.0]);
    }
}
