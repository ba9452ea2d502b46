//! A wasm SIMD f32 matrix-multiply kernel for tract, registered ahead of
//! tract's own 8x8 one for every f32 matrix-matrix product (the encoder's
//! time in the browser is almost all matmul).
//!
//! Why 4x8: V8 on x86-64 allocates 15 SIMD registers, and LLVM hoists a
//! k-step's A broadcasts ahead of their multiply-adds, so a step keeps
//! MR x 2 accumulators, MR broadcasts, the two B vectors and a product
//! live. tract's 8x8 tile (16 accumulators) spills on every step; 4x8 needs
//! exactly 15. Measured in Chromium on the encoder benchmark (one thread,
//! same machine): 8x8 1.25-1.45 s, 6x8 1.65 s, 5x8 1.8-2.2 s, 4x8 0.85-1.15 s
//! (onnxruntime-web 0.9-1.0 s on the same batches). A is broadcast straight
//! from memory (`v128.load32_splat`, one instruction).
//!
//! With `+relaxed-simd` the multiply-adds would be fused; that measured no
//! faster and not every browser has it, so the build stays on plain SIMD.

use std::arch::wasm32::*;
use std::sync::LazyLock;
use tract_linalg::isa::{Arch, IsaSet};
use tract_linalg::mmm::{DynKernel, FusedKerSpec, Query, Suitable};
use tract_linalg::mmm_routines::MmmRoutine;
use tract_linalg::mmm_tiers::MmmTier;
use tract_linalg::pack::Packing;
use tract_onnx::prelude::DatumType;

/// Rows of A (and of the C tile) per kernel call.
const MR: usize = 4;
/// Columns of B (and of the C tile): two vectors of four.
const NR: usize = 8;
const NAME: &str = "precis_wasm_f32_4x8";

/// One C tile: `acc[row][half]`, columns 0-3 and 4-7 of a row.
type Tile = [[v128; 2]; MR];

static KERNEL: LazyLock<DynKernel<MR, NR, f32>> = LazyLock::new(|| {
    let mut kernel = DynKernel::new(NAME, kernel_4x8, f32::packing(MR), f32::packing(NR));
    // A kernel written for this architecture: tract prefers those to its
    // portable Rust ones, and only then asks the tiers (below) which one.
    kernel.arch = Some(Arch::Wasm32Simd128);
    // Preferred over tract's kernels where no tier answers: a matmul whose
    // width is only known at run time (the centroid heads' sentence count).
    kernel.boost = || 1;
    kernel
});

inventory::submit! {
    MmmRoutine { make: || KERNEL.mmm() }
}

inventory::submit! {
    MmmTier {
        arch: Some(Arch::Wasm32Simd128),
        // Above tract's own wasm tier (precedence 1).
        precedence: 2,
        name: "precis-wasm",
        applies: |_| true,
        preferred,
    }
}

/// Every f32 matrix-matrix product; matrix-vector products (n = 1) stay with
/// tract's GEMV kernels.
fn preferred(_: &IsaSet, accumulator: DatumType, query: &Query, _: &[Suitable]) -> Option<&'static str> {
    (accumulator == DatumType::F32 && query.n != Some(1)).then_some(NAME)
}

/// Whether tract would run this kernel for a plain f32 matmul of this shape
/// (the encoder checks it once at load: an unregistered kernel would be a
/// silent 1.5x slowdown, not an error).
pub fn selected_for(m: usize, k: usize, n: usize) -> bool {
    let dispatch = tract_linalg::MmmDispatch::native();
    let query = Query::plain(DatumType::F32, Some(m), Some(k), Some(n));
    dispatch.pick(&query).is_some_and(|(mmm, _, _)| mmm.name() == NAME)
}

#[inline(always)]
fn madd(acc: v128, a: v128, b: v128) -> v128 {
    #[cfg(target_feature = "relaxed-simd")]
    {
        f32x4_relaxed_madd(a, b, acc)
    }
    #[cfg(not(target_feature = "relaxed-simd"))]
    {
        f32x4_add(acc, f32x4_mul(a, b))
    }
}

#[inline(always)]
fn each(tile: &mut Tile, f: impl Fn(v128) -> v128) {
    tile.iter_mut().flatten().for_each(|v| *v = f(*v));
}

/// `f(row value, acc)` with one value per row of the tile.
#[inline(always)]
unsafe fn per_row(tile: &mut Tile, rows: *const f32, f: impl Fn(v128, v128) -> v128) {
    for (r, row) in tile.iter_mut().enumerate() {
        let s = f32x4_splat(unsafe { *rows.add(r) });
        row.iter_mut().for_each(|v| *v = f(s, *v));
    }
}

/// `f(column values, acc)` with one value per column of the tile.
#[inline(always)]
unsafe fn per_col(tile: &mut Tile, cols: *const f32, f: impl Fn(v128, v128) -> v128) {
    let cols = cols as *const v128;
    let halves = unsafe { [v128_load(cols), v128_load(cols.add(1))] };
    for row in tile.iter_mut() {
        row.iter_mut().zip(halves).for_each(|(v, c)| *v = f(c, *v));
    }
}

/// The C tile's element (row, col) in an output store's layout.
#[inline(always)]
unsafe fn element(tile: &tract_linalg::mmm::OutputStoreKer, row: usize, col: usize) -> *mut f32 {
    unsafe { tile.ptr.offset(tile.row_byte_stride * row as isize + tile.col_byte_stride * col as isize) as *mut f32 }
}

/// Runs tract's fused op list on one 4x8 tile (semantics of tract-linalg's
/// wasm kernels, operand order included).
unsafe fn kernel_4x8(spec: &[FusedKerSpec<f32>]) -> isize {
    let mut acc: Tile = [[f32x4_splat(0.0); 2]; MR];
    unsafe {
        for op in spec {
            match *op {
                FusedKerSpec::Done => break,
                FusedKerSpec::Clear => acc = [[f32x4_splat(0.0); 2]; MR],
                FusedKerSpec::LoadTile(_cols, rows) => {
                    let p = rows as *const v128;
                    for (i, v) in acc.iter_mut().flatten().enumerate() {
                        *v = v128_load(p.add(i));
                    }
                }
                FusedKerSpec::ScalarMin(a) => each(&mut acc, |v| f32x4_min(f32x4_splat(a), v)),
                FusedKerSpec::ScalarMax(a) => each(&mut acc, |v| f32x4_max(f32x4_splat(a), v)),
                FusedKerSpec::ScalarAdd(a) => each(&mut acc, |v| f32x4_add(f32x4_splat(a), v)),
                FusedKerSpec::ScalarMul(a) => each(&mut acc, |v| f32x4_mul(f32x4_splat(a), v)),
                FusedKerSpec::ScalarSub(a) => each(&mut acc, |v| f32x4_sub(f32x4_splat(a), v)),
                FusedKerSpec::ScalarSubF(a) => each(&mut acc, |v| f32x4_sub(v, f32x4_splat(a))),
                FusedKerSpec::LeakyRelu(a) => each(&mut acc, |v| {
                    v128_bitselect(v, f32x4_mul(f32x4_splat(a), v), f32x4_gt(v, f32x4_splat(0.0)))
                }),
                FusedKerSpec::PerRowMin(rows) => per_row(&mut acc, rows, |s, v| f32x4_min(s, v)),
                FusedKerSpec::PerRowMax(rows) => per_row(&mut acc, rows, |s, v| f32x4_max(s, v)),
                FusedKerSpec::PerRowAdd(rows) => per_row(&mut acc, rows, |s, v| f32x4_add(s, v)),
                FusedKerSpec::PerRowMul(rows) => per_row(&mut acc, rows, |s, v| f32x4_mul(s, v)),
                FusedKerSpec::PerRowSub(rows) => per_row(&mut acc, rows, |s, v| f32x4_sub(s, v)),
                FusedKerSpec::PerRowSubF(rows) => per_row(&mut acc, rows, |s, v| f32x4_sub(v, s)),
                FusedKerSpec::PerColMin(cols) => per_col(&mut acc, cols, |s, v| f32x4_min(s, v)),
                FusedKerSpec::PerColMax(cols) => per_col(&mut acc, cols, |s, v| f32x4_max(s, v)),
                FusedKerSpec::PerColAdd(cols) => per_col(&mut acc, cols, |s, v| f32x4_add(s, v)),
                FusedKerSpec::PerColMul(cols) => per_col(&mut acc, cols, |s, v| f32x4_mul(s, v)),
                FusedKerSpec::PerColSub(cols) => per_col(&mut acc, cols, |s, v| f32x4_sub(s, v)),
                FusedKerSpec::PerColSubF(cols) => per_col(&mut acc, cols, |c, v| f32x4_sub(v, c)),
                FusedKerSpec::QScale(shift, policy, mult) => {
                    let scale = tract_linalg::Scaler::from_fuse_params(shift, policy, mult).scale;
                    each(&mut acc, |v| f32x4_mul(f32x4_splat(scale), v))
                }
                FusedKerSpec::RoundingShiftRight(shift, _) => {
                    each(&mut acc, |v| f32x4_mul(f32x4_splat(2f32.powi(-(shift as i32))), v))
                }
                FusedKerSpec::ShiftLeft(shift) => each(&mut acc, |v| f32x4_mul(f32x4_splat(2f32.powi(shift as i32)), v)),
                FusedKerSpec::AddUnicast(tile) => {
                    for (r, row) in acc.iter_mut().enumerate() {
                        for (h, v) in row.iter_mut().enumerate() {
                            let at = |c: usize| *element(&tile, r, 4 * h + c);
                            *v = f32x4_add(f32x4(at(0), at(1), at(2), at(3)), *v);
                        }
                    }
                }
                FusedKerSpec::AddRowColProducts(rows, cols) => {
                    let cols = cols as *const v128;
                    let (c0, c1) = (v128_load(cols), v128_load(cols.add(1)));
                    for (r, row) in acc.iter_mut().enumerate() {
                        let s = f32x4_splat(*rows.add(r));
                        row[0] = madd(row[0], s, c0);
                        row[1] = madd(row[1], s, c1);
                    }
                }
                FusedKerSpec::Store(tile) => {
                    for (r, row) in acc.iter().enumerate() {
                        if tile.col_byte_stride == 4 {
                            let p = element(&tile, r, 0) as *mut v128;
                            v128_store(p, row[0]);
                            v128_store(p.add(1), row[1]);
                        } else {
                            for (h, v) in row.iter().enumerate() {
                                *element(&tile, r, 4 * h) = f32x4_extract_lane::<0>(*v);
                                *element(&tile, r, 4 * h + 1) = f32x4_extract_lane::<1>(*v);
                                *element(&tile, r, 4 * h + 2) = f32x4_extract_lane::<2>(*v);
                                *element(&tile, r, 4 * h + 3) = f32x4_extract_lane::<3>(*v);
                            }
                        }
                    }
                }
                FusedKerSpec::AddMatMul { k, pa, pb, packing: _ } => add_mat_mul(&mut acc, k, pa as *const f32, pb as *const v128),
            }
        }
    }
    0
}

/// acc += A·B over `k`: A packed k-major with MR values per step, B with NR.
#[inline(always)]
unsafe fn add_mat_mul(acc: &mut Tile, k: usize, a: *const f32, b: *const v128) {
    // Locals rather than the array, so that the compiler keeps all the
    // accumulators in registers across the loop.
    macro_rules! rows {
        ($($r:literal => $lo:ident $hi:ident),*) => {{
            $(let [mut $lo, mut $hi] = acc[$r];)*
            unsafe {
                for i in 0..k {
                    let a = a.add(MR * i);
                    let b0 = v128_load(b.add(2 * i));
                    let b1 = v128_load(b.add(2 * i + 1));
                    $(
                        let s = v128_load32_splat(a.add($r) as *const u32);
                        $lo = madd($lo, s, b0);
                        $hi = madd($hi, s, b1);
                    )*
                }
            }
            $(acc[$r] = [$lo, $hi];)*
        }};
    }
    rows!(0 => c00 c01, 1 => c10 c11, 2 => c20 c21, 3 => c30 c31)
}

/// Checks [`kernel_4x8`] against a scalar model of tract's fused ops: every
/// op on a random tile, matrix products with an odd depth, and loads and
/// stores through strided (non-contiguous) tiles. The encoder only reaches a
/// few of these ops (bias, ReLU, residual add, contiguous stores); other
/// models run by tract (the centroid heads, border tiles) reach more. Run by
/// the browser parity test (tests/browser/encoder-parity.mjs).
pub fn self_check() -> Result<usize, String> {
    use tract_linalg::mmm::OutputStoreKer;
    let mut seed = 12u32;
    let mut random = move |n: usize| -> Vec<f32> {
        (0..n)
            .map(|_| {
                seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                (seed >> 8) as f32 / (1u32 << 24) as f32 * 4.0 - 2.0
            })
            .collect()
    };
    // A tile as the kernel stores it, and the scalar model's tile.
    type Model = [[f32; NR]; MR];
    let run = |ops: &[FusedKerSpec<f32>]| -> Model {
        let mut out = [[0f32; NR]; MR];
        let store = OutputStoreKer { ptr: out.as_mut_ptr() as *mut u8, row_byte_stride: (NR * 4) as isize, col_byte_stride: 4, item_size: 4 };
        let mut all = ops.to_vec();
        all.extend([FusedKerSpec::Store(store), FusedKerSpec::Done]);
        unsafe { kernel_4x8(&all) };
        out
    };
    let start = random(MR * NR);
    let model_start: Model = std::array::from_fn(|r| std::array::from_fn(|c| start[r * NR + c]));
    let (rows, cols) = (random(MR), random(NR));
    let mut checked = 0;
    let mut expect = |name: &str, got: Model, want: Model| -> Result<(), String> {
        checked += 1;
        for r in 0..MR {
            for c in 0..NR {
                let (g, w) = (got[r][c], want[r][c]);
                if (g - w).abs() > 1e-5 * (1.0 + w.abs()) {
                    return Err(format!("{name}: tile[{r}][{c}] = {g}, expected {w}"));
                }
            }
        }
        Ok(())
    };
    let load = FusedKerSpec::LoadTile(std::ptr::null(), start.as_ptr());
    let map = |f: &dyn Fn(usize, usize, f32) -> f32| -> Model {
        std::array::from_fn(|r| std::array::from_fn(|c| f(r, c, model_start[r][c])))
    };
    expect("load tile", run(&[load]), model_start)?;
    expect("clear", run(&[load, FusedKerSpec::Clear]), [[0.0; NR]; MR])?;
    let s = 0.75f32;
    type Bin = fn(f32, f32) -> f32;
    let bins: [(&str, Bin); 6] = [
        ("min", f32::min),
        ("max", f32::max),
        ("add", |a, b| a + b),
        ("mul", |a, b| a * b),
        ("sub", |a, b| a - b),
        ("sub flipped", |a, b| b - a),
    ];
    for (i, (name, f)) in bins.iter().enumerate() {
        let (scalar, per_row, per_col) = match i {
            0 => (FusedKerSpec::ScalarMin(s), FusedKerSpec::PerRowMin(rows.as_ptr()), FusedKerSpec::PerColMin(cols.as_ptr())),
            1 => (FusedKerSpec::ScalarMax(s), FusedKerSpec::PerRowMax(rows.as_ptr()), FusedKerSpec::PerColMax(cols.as_ptr())),
            2 => (FusedKerSpec::ScalarAdd(s), FusedKerSpec::PerRowAdd(rows.as_ptr()), FusedKerSpec::PerColAdd(cols.as_ptr())),
            3 => (FusedKerSpec::ScalarMul(s), FusedKerSpec::PerRowMul(rows.as_ptr()), FusedKerSpec::PerColMul(cols.as_ptr())),
            4 => (FusedKerSpec::ScalarSub(s), FusedKerSpec::PerRowSub(rows.as_ptr()), FusedKerSpec::PerColSub(cols.as_ptr())),
            _ => (FusedKerSpec::ScalarSubF(s), FusedKerSpec::PerRowSubF(rows.as_ptr()), FusedKerSpec::PerColSubF(cols.as_ptr())),
        };
        // tract's convention: op(operand, accumulator).
        expect(&format!("scalar {name}"), run(&[load, scalar]), map(&|_, _, v| f(s, v)))?;
        expect(&format!("per-row {name}"), run(&[load, per_row]), map(&|r, _, v| f(rows[r], v)))?;
        expect(&format!("per-column {name}"), run(&[load, per_col]), map(&|_, c, v| f(cols[c], v)))?;
    }
    expect("leaky relu", run(&[load, FusedKerSpec::LeakyRelu(0.1)]), map(&|_, _, v| if v > 0.0 { v } else { 0.1 * v }))?;
    expect(
        "row-column products",
        run(&[load, FusedKerSpec::AddRowColProducts(rows.as_ptr(), cols.as_ptr())]),
        map(&|r, c, v| v + rows[r] * cols[c]),
    )?;
    // A strided tile (column-major with a gap) to add and to store into.
    let (row_stride, col_stride) = (1usize, MR + 3);
    let other = random(col_stride * NR);
    let strided = |ptr: *mut u8| OutputStoreKer { ptr, row_byte_stride: (row_stride * 4) as isize, col_byte_stride: (col_stride * 4) as isize, item_size: 4 };
    expect(
        "add unicast (strided)",
        run(&[load, FusedKerSpec::AddUnicast(strided(other.as_ptr() as *mut u8))]),
        map(&|r, c, v| v + other[r * row_stride + c * col_stride]),
    )?;
    let mut stored = vec![f32::NAN; col_stride * NR];
    unsafe { kernel_4x8(&[load, FusedKerSpec::Store(strided(stored.as_mut_ptr() as *mut u8)), FusedKerSpec::Done]) };
    expect("store (strided)", std::array::from_fn(|r| std::array::from_fn(|c| stored[r * row_stride + c * col_stride])), model_start)?;
    for k in [1, 7, 64] {
        let (a, b) = (random(k * MR), random(k * NR));
        let product = FusedKerSpec::AddMatMul { k, pa: a.as_ptr() as *const u8, pb: b.as_ptr() as *const u8, packing: 0 };
        let want = map(&|r, c, v| v + (0..k).map(|i| a[i * MR + r] * b[i * NR + c]).sum::<f32>());
        expect(&format!("matrix product, k = {k}"), run(&[load, product]), want)?;
    }
    Ok(checked)
}
