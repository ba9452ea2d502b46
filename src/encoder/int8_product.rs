//! The int8 product where tract has no fast integer kernel: `x_q · W_q`
//! (int8 × int8 → int32) for the int8 encoder's `MatMulInteger` nodes
//! (issue #21). In wasm tract has no integer SIMD kernel at all; on x86-64
//! without AVX-512 VNNI its `avx2_mmm_i32_8x8` ran the encoder's products
//! at 0.5 G multiply-adds/s (AMD EPYC Zen 3: the int8 encoder 33× slower
//! than f32), so there the AVX2 tile below runs them. With AVX-512 VNNI
//! the `vnni` tile runs them: on an AMD EPYC (Zen 4) it reaches about 200 G
//! multiply-adds/s, where tract's `avx512vnni_mmm_i32_8x8` and its packing
//! of x made the whole int8 pass 1.25× slower (docs/results/int8.md).
//!
//! Why pairs of depth: wasm SIMD128's `i32x4.dot_i16x8_s` multiplies eight
//! i16 pairs and adds each two neighbours, so one instruction gives four
//! columns two steps of depth (8 multiply-adds, where f32 needs a multiply
//! and an add for 4). Both operands are repacked so that the two depth steps
//! sit side by side: W per block of 8 columns, x per block of 4 rows, the
//! x pair of a row loaded and broadcast in one instruction. The 4 × 8 tile
//! keeps 8 accumulators, 2 W vectors and the broadcast in registers (V8
//! allocates 15 on x86-64; see wasm_matmul.rs). Sums stay exact: |x_q|,
//! |W_q| ≤ 127, so 2,048 steps of depth reach 2^25 at most.
//!
//! x may also be wide: 12-bit activations held in i16 (|x_q| ≤ 2047), and
//! so may W: 10-bit weights (|W_q| ≤ 511). Issue #43: 8-bit activations
//! were most of the int8 encoder's ROUGE cost, 8-bit weights the rest
//! (docs/results/int8.md). The pairs tile widens both to i16 anyway, so
//! there wide values cost nothing; 2,048 steps of depth reach
//! 2,047 · 511 · 2,048 < 2^31 at most, still exact. The VNNI byte tile
//! takes narrow x and W only; wide ones go through `vnni_pairs`, the same
//! 8 × 32 tile with `vpdpwssd` (i16 pairs), as many multiply-adds per
//! instruction as a wide x through the byte tile twice.

/// Rows of x per tile.
const ROWS: usize = 4;
/// Columns of W per tile.
const COLUMNS: usize = 8;

/// The largest |W_q| the sums stay exact for, with |x_q| ≤ 2047 and up to
/// 2,048 steps of depth (10-bit weights).
pub const LARGEST_WEIGHT: i16 = 511;

/// W as this machine's tile reads it, packed once per weight matrix (the
/// encoder's weights are constants: `int8::Int8Product` packs them when the
/// model is planned, not on every batch).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PackedWeights {
    k: usize,
    n: usize,
    layout: Layout,
}

#[derive(Clone, PartialEq, Eq, Hash)]
enum Layout {
    /// Pairs of depth steps as i16, by blocks of 8 columns: the wasm tile,
    /// the AVX2 one and the portable model.
    Pairs(Vec<i16>),
    /// Quads of depth steps as i8, by blocks of 16 columns, and each
    /// column's sum: the AVX-512 VNNI tile (see `vnni`), for int8 x and W.
    #[cfg(target_arch = "x86_64")]
    Quads { packed: Vec<i8>, column_sums: Vec<i32> },
    /// Pairs of depth steps as i16, by blocks of 16 columns: the AVX-512
    /// VNNI tile for wide x or W (see `vnni_pairs`).
    #[cfg(target_arch = "x86_64")]
    WidePairs(Vec<i16>),
}

impl std::fmt::Debug for PackedWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PackedWeights({} × {} for {})", self.k, self.n, kernel_name())
    }
}

impl PackedWeights {
    /// `w [k × n]`, row-major, packed for [`kernel_name`]'s tile and for x
    /// of type `X`; refused when a weight is beyond [`LARGEST_WEIGHT`],
    /// where the i32 sums could wrap (a model's error, not a panic).
    pub fn new<X: Activation>(w: &[i16], k: usize, n: usize) -> Result<Self, String> {
        assert_eq!(w.len(), k * n, "int8 product: W is not {k} × {n}");
        if w.iter().any(|v| v.abs() > LARGEST_WEIGHT) {
            return Err(format!("int8 product: a weight beyond ±{LARGEST_WEIGHT}"));
        }
        #[cfg(target_arch = "x86_64")]
        if vnni::available() {
            let narrow_w = w.iter().all(|v| v.abs() <= 127);
            if X::LARGEST <= 127 && narrow_w {
                let bytes: Vec<i8> = w.iter().map(|&v| v as i8).collect();
                let (packed, column_sums) = vnni::pack(&bytes, k, n);
                return Ok(Self { k, n, layout: Layout::Quads { packed, column_sums } });
            }
            return Ok(Self { k, n, layout: Layout::WidePairs(vnni_pairs::pack(w, k, n)) });
        }
        Ok(Self { k, n, layout: Layout::Pairs(pack_columns(w, k, n)) })
    }

    /// Columns of the product.
    pub fn columns(&self) -> usize {
        self.n
    }

    /// The tile these weights are packed for, as `bench-encoder --layers` names it.
    pub fn kernel(&self) -> &'static str {
        match self.layout {
            #[cfg(target_arch = "x86_64")]
            Layout::WidePairs(_) => "precis_avx512vnni_i16_8x32",
            _ => kernel_name(),
        }
    }

    /// `out[m × n] = x[m × k] · W`, row-major; the sums are exact.
    pub fn product<X: Activation>(&self, x: &[X], m: usize, out: &mut [i32]) {
        let (k, n) = (self.k, self.n);
        assert!(x.len() == m * k && out.len() == m * n, "int8 product: shapes do not match");
        match &self.layout {
            Layout::Pairs(packed) => pairs_product(x, packed, m, k, n, out),
            #[cfg(target_arch = "x86_64")]
            Layout::Quads { packed, column_sums } => {
                let x = X::bytes(x).expect("int8 product: W packed for int8 x, given wide x");
                vnni::product(x, packed, column_sums, m, k, n, out)
            }
            #[cfg(target_arch = "x86_64")]
            Layout::WidePairs(packed) => vnni_pairs::product(&X::wide(x), packed, m, k, n, out),
        }
    }
}

/// `out[m × n] = x[m × k] · w[k × n]`, all row-major; refused as
/// [`PackedWeights::new`] refuses.
pub fn product<X: Activation>(x: &[X], w: &[i16], m: usize, k: usize, n: usize, out: &mut [i32]) -> Result<(), String> {
    PackedWeights::new::<X>(w, k, n)?.product(x, m, out);
    Ok(())
}

/// The activations a product takes: int8, or 12-bit ones in i16 (wide).
pub trait Activation: Copy + Into<i16> + 'static {
    /// The largest |x| the sums stay exact for (up to 2,048 steps of depth).
    const LARGEST: i16;

    /// Packs four whole rows (as [`pack_rows`]) with SIMD where this build
    /// has it; false when it did not.
    fn pack_four_rows(rows: &[Self], k: usize, packed: &mut [i16]) -> bool;

    /// x as bytes, for the VNNI byte tile: int8 x only.
    #[cfg(target_arch = "x86_64")]
    fn bytes(x: &[Self]) -> Option<&[i8]>;

    /// x as i16, for the VNNI i16 tile (a copy only for int8 x).
    #[cfg(target_arch = "x86_64")]
    fn wide(x: &[Self]) -> std::borrow::Cow<'_, [i16]>;
}

impl Activation for i8 {
    const LARGEST: i16 = 127;

    fn pack_four_rows(rows: &[i8], k: usize, packed: &mut [i16]) -> bool {
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return simd_packed(rows, k, packed, simd::pack_four_rows);
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        no_simd_packing(rows, k, packed)
    }

    #[cfg(target_arch = "x86_64")]
    fn bytes(x: &[i8]) -> Option<&[i8]> {
        Some(x)
    }

    #[cfg(target_arch = "x86_64")]
    fn wide(x: &[i8]) -> std::borrow::Cow<'_, [i16]> {
        x.iter().map(|&v| v as i16).collect()
    }
}

/// Four whole rows of `k` (a multiple of 8) packed by `pack`, a SIMD128
/// routine of [`simd`]; false (nothing done) for other shapes.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn simd_packed<X>(rows: &[X], k: usize, packed: &mut [i16], pack: unsafe fn(*const X, usize, *mut i16)) -> bool {
    if rows.len() != ROWS * k || !k.is_multiple_of(8) {
        return false;
    }
    assert!(packed.len() >= k * ROWS);
    // SAFETY: four whole rows of `k` values are read, `k · 4` i16 written.
    unsafe { pack(rows.as_ptr(), k, packed.as_mut_ptr()) };
    true
}

/// Without SIMD128 the scalar loop of [`pack_rows`] packs every shape.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn no_simd_packing<X>(_: &[X], _: usize, _: &mut [i16]) -> bool {
    false
}

impl Activation for i16 {
    const LARGEST: i16 = 2047;

    fn pack_four_rows(rows: &[i16], k: usize, packed: &mut [i16]) -> bool {
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return simd_packed(rows, k, packed, simd::pack_four_wide_rows);
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        no_simd_packing(rows, k, packed)
    }

    #[cfg(target_arch = "x86_64")]
    fn bytes(_: &[i16]) -> Option<&[i8]> {
        None
    }

    #[cfg(target_arch = "x86_64")]
    fn wide(x: &[i16]) -> std::borrow::Cow<'_, [i16]> {
        x.into()
    }
}

fn pairs_product<X: Activation>(x: &[X], packed_w: &[i16], m: usize, k: usize, n: usize, out: &mut [i32]) {
    let pairs = k.div_ceil(2);
    let blocks: Vec<&[i16]> = packed_w.chunks_exact(pairs * COLUMNS * 2).collect();
    let mut packed_x = vec![0i16; pairs * ROWS * 2];
    let two_tiles = two_tiles_kernel();
    for first_row in (0..m).step_by(ROWS) {
        let rows = ROWS.min(m - first_row);
        pack_rows(&x[first_row * k..(first_row + rows) * k], k, &mut packed_x);
        let mut write = |block: usize, tile: &Tile| {
            let first_column = block * COLUMNS;
            let columns = COLUMNS.min(n - first_column);
            for (r, tile_row) in tile.iter().enumerate().take(rows) {
                let start = (first_row + r) * n + first_column;
                out[start..start + columns].copy_from_slice(&tile_row[..columns]);
            }
        };
        let mut block = 0;
        if let Some(two_tiles) = two_tiles {
            while block + 1 < blocks.len() {
                let [left, right] = two_tiles(&packed_x, blocks[block], blocks[block + 1], pairs);
                write(block, &left);
                write(block + 1, &right);
                block += 2;
            }
        }
        for (block, columns_w) in blocks.iter().enumerate().skip(block) {
            write(block, &tile(&packed_x, columns_w, pairs));
        }
    }
}

/// Two neighbouring blocks of columns at once, where a vector holds 8 i32
/// (AVX2): one 4 × 16 tile.
type TwoTiles = fn(&[i16], &[i16], &[i16], usize) -> [Tile; 2];

#[cfg(target_arch = "x86_64")]
fn two_tiles_kernel() -> Option<TwoTiles> {
    std::is_x86_feature_detected!("avx2").then_some(avx2::two_tiles as TwoTiles)
}

#[cfg(not(target_arch = "x86_64"))]
fn two_tiles_kernel() -> Option<TwoTiles> {
    None
}

/// The tile [`product`] runs on this machine, as `bench-encoder --layers` names it.
pub fn kernel_name() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    if vnni::available() {
        return "precis_avx512vnni_i8_8x32";
    }
    if two_tiles_kernel().is_some() {
        "precis_avx2_i8_4x16"
    } else if cfg!(all(target_arch = "wasm32", target_feature = "simd128")) {
        "precis_wasm_i8_4x8"
    } else {
        "precis_portable_i8_4x8"
    }
}

/// Whether [`product`] runs faster than tract's own integer kernels here:
/// in wasm, where tract has none; on x86-64 with AVX-512 VNNI, where our
/// 8 × 32 tile outruns tract's 8 × 8 one (docs/results/int8.md); and with
/// AVX2 alone (see the module's comment).
pub fn outruns_tract() -> bool {
    #[cfg(target_arch = "x86_64")]
    let faster = two_tiles_kernel().is_some();
    #[cfg(not(target_arch = "x86_64"))]
    let faster = cfg!(target_arch = "wasm32");
    faster
}

/// W by blocks of 8 columns; within a block, for each pair of depth steps,
/// column by column: `w[2p][c], w[2p + 1][c]`. Zeros pad the last block and
/// an odd depth.
fn pack_columns(w: &[i16], k: usize, n: usize) -> Vec<i16> {
    let pairs = k.div_ceil(2);
    let at = |row: usize, column: usize| if row < k && column < n { w[row * n + column] } else { 0 };
    let mut packed = Vec::with_capacity(n.div_ceil(COLUMNS) * pairs * COLUMNS * 2);
    for first_column in (0..n).step_by(COLUMNS) {
        for p in 0..pairs {
            for column in first_column..first_column + COLUMNS {
                packed.extend([at(2 * p, column), at(2 * p + 1, column)]);
            }
        }
    }
    packed
}

/// Up to 4 rows of x (`rows.len() / k` of them): for each pair of depth
/// steps, row by row: `x[r][2p], x[r][2p + 1]`. Zeros pad missing rows.
fn pack_rows<X: Activation>(rows: &[X], k: usize, packed: &mut [i16]) {
    if X::pack_four_rows(rows, k, packed) {
        return;
    }
    packed.fill(0);
    for (r, row) in rows.chunks_exact(k).enumerate() {
        for (i, &value) in row.iter().enumerate() {
            packed[(i / 2) * ROWS * 2 + r * 2 + i % 2] = value.into();
        }
    }
}

type Tile = [[i32; COLUMNS]; ROWS];

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn tile(x: &[i16], w: &[i16], pairs: usize) -> Tile {
    assert!(x.len() >= pairs * ROWS * 2 && w.len() >= pairs * COLUMNS * 2);
    // SAFETY: the lengths are checked just above; every load reads within them.
    unsafe { simd::tile(x.as_ptr(), w.as_ptr(), pairs) }
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn tile(x: &[i16], w: &[i16], pairs: usize) -> Tile {
    tile_portable(x, w, pairs)
}

/// The model the SIMD tile is checked against (and the tile off wasm).
fn tile_portable(x: &[i16], w: &[i16], pairs: usize) -> Tile {
    let mut tile = [[0i32; COLUMNS]; ROWS];
    for p in 0..pairs {
        let (x, w) = (&x[p * ROWS * 2..][..ROWS * 2], &w[p * COLUMNS * 2..][..COLUMNS * 2]);
        for (r, tile_row) in tile.iter_mut().enumerate() {
            for (c, sum) in tile_row.iter_mut().enumerate() {
                *sum += x[2 * r] as i32 * w[2 * c] as i32 + x[2 * r + 1] as i32 * w[2 * c + 1] as i32;
            }
        }
    }
    tile
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd {
    use super::{Tile, COLUMNS, ROWS};
    use std::arch::wasm32::*;

    /// Four rows of x, 8 depth steps at a time: each row's 8 bytes widened
    /// to i16 are 4 pairs (one i32 lane each), and a 4 × 4 transpose of the
    /// lanes gives, per pair, the 4 rows side by side, where the scalar loop
    /// below stores element by element (with W packed once, the int8 pass in
    /// Chromium went from 2.27 to 2.14 s, docs/results/int8.md).
    pub unsafe fn pack_four_rows(rows: *const i8, k: usize, packed: *mut i16) {
        for depth in (0..k).step_by(8) {
            let [a0, a1, a2, a3] = [0, 1, 2, 3].map(|r| unsafe { i16x8_load_extend_i8x8(rows.add(r * k + depth)) });
            store_pairs(a0, a1, a2, a3, unsafe { packed.add(depth * ROWS) });
        }
    }

    /// [`pack_four_rows`] for wide rows: each row's 8 i16 are loaded as
    /// they are instead of widened from bytes.
    pub unsafe fn pack_four_wide_rows(rows: *const i16, k: usize, packed: *mut i16) {
        for depth in (0..k).step_by(8) {
            let [a0, a1, a2, a3] = [0, 1, 2, 3].map(|r| unsafe { v128_load(rows.add(r * k + depth) as *const v128) });
            store_pairs(a0, a1, a2, a3, unsafe { packed.add(depth * ROWS) });
        }
    }

    /// Four rows' 8 depth steps, as i16, stored pair by pair with the 4
    /// rows side by side: a 4 × 4 transpose of the i32 lanes.
    #[inline(always)]
    fn store_pairs(a0: v128, a1: v128, a2: v128, a3: v128, packed: *mut i16) {
        let (t0, t1) = (i32x4_shuffle::<0, 4, 1, 5>(a0, a1), i32x4_shuffle::<2, 6, 3, 7>(a0, a1));
        let (t2, t3) = (i32x4_shuffle::<0, 4, 1, 5>(a2, a3), i32x4_shuffle::<2, 6, 3, 7>(a2, a3));
        let pairs = [
            i32x4_shuffle::<0, 1, 4, 5>(t0, t2),
            i32x4_shuffle::<2, 3, 6, 7>(t0, t2),
            i32x4_shuffle::<0, 1, 4, 5>(t1, t3),
            i32x4_shuffle::<2, 3, 6, 7>(t1, t3),
        ];
        let to = packed as *mut v128;
        for (j, pair) in pairs.into_iter().enumerate() {
            // SAFETY: the caller's `packed` holds 32 i16 from here.
            unsafe { v128_store(to.add(j), pair) };
        }
    }

    /// One 4 × 8 tile over `pairs` pairs of depth steps.
    pub unsafe fn tile(x: *const i16, w: *const i16, pairs: usize) -> Tile {
        // Locals rather than an array, so that the accumulators stay in registers.
        macro_rules! rows {
            ($($r:literal => $lo:ident $hi:ident),*) => {{
                $(let (mut $lo, mut $hi) = (i32x4_splat(0), i32x4_splat(0));)*
                for p in 0..pairs {
                    let w = unsafe { w.add(p * COLUMNS * 2) } as *const v128;
                    let (w0, w1) = unsafe { (v128_load(w), v128_load(w.add(1))) };
                    $(
                        let pair = unsafe { v128_load32_splat(x.add(p * ROWS * 2 + 2 * $r) as *const u32) };
                        $lo = i32x4_add($lo, i32x4_dot_i16x8(pair, w0));
                        $hi = i32x4_add($hi, i32x4_dot_i16x8(pair, w1));
                    )*
                }
                let mut tile = [[0i32; COLUMNS]; ROWS];
                $(
                    unsafe {
                        v128_store(tile[$r].as_mut_ptr() as *mut v128, $lo);
                        v128_store(tile[$r].as_mut_ptr().add(4) as *mut v128, $hi);
                    }
                )*
                tile
            }};
        }
        rows!(0 => c00 c01, 1 => c10 c11, 2 => c20 c21, 3 => c30 c31)
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{Tile, COLUMNS, ROWS};
    use std::arch::x86_64::*;

    /// Blocks `left` and `right` of packed W against 4 packed rows of x.
    pub fn two_tiles(x: &[i16], left: &[i16], right: &[i16], pairs: usize) -> [Tile; 2] {
        assert!(x.len() >= pairs * ROWS * 2 && left.len() >= pairs * COLUMNS * 2 && right.len() >= pairs * COLUMNS * 2);
        assert!(std::is_x86_feature_detected!("avx2"));
        // SAFETY: the lengths and AVX2 are checked just above.
        unsafe { kernel(x.as_ptr(), left.as_ptr(), right.as_ptr(), pairs) }
    }

    /// `_mm256_madd_epi16` is the 256-bit `i32x4.dot_i16x8_s`: one load
    /// holds a pair of depth steps for a block's 8 columns; 8 accumulators,
    /// 2 W vectors and a broadcast fit the 16 registers.
    #[target_feature(enable = "avx2")]
    unsafe fn kernel(x: *const i16, left: *const i16, right: *const i16, pairs: usize) -> [Tile; 2] {
        macro_rules! rows {
            ($($r:literal => $lo:ident $hi:ident),*) => {{
                $(let (mut $lo, mut $hi) = (_mm256_setzero_si256(), _mm256_setzero_si256());)*
                for p in 0..pairs {
                    let (w0, w1) = unsafe {
                        (
                            _mm256_loadu_si256(left.add(p * COLUMNS * 2) as *const __m256i),
                            _mm256_loadu_si256(right.add(p * COLUMNS * 2) as *const __m256i),
                        )
                    };
                    $(
                        let pair = _mm256_set1_epi32(unsafe { (x.add(p * ROWS * 2 + 2 * $r) as *const i32).read_unaligned() });
                        $lo = _mm256_add_epi32($lo, _mm256_madd_epi16(pair, w0));
                        $hi = _mm256_add_epi32($hi, _mm256_madd_epi16(pair, w1));
                    )*
                }
                let mut tiles = [[[0i32; COLUMNS]; ROWS]; 2];
                $(
                    unsafe {
                        _mm256_storeu_si256(tiles[0][$r].as_mut_ptr() as *mut __m256i, $lo);
                        _mm256_storeu_si256(tiles[1][$r].as_mut_ptr() as *mut __m256i, $hi);
                    }
                )*
                tiles
            }};
        }
        rows!(0 => c00 c01, 1 => c10 c11, 2 => c20 c21, 3 => c30 c31)
    }
}

/// AVX-512 VNNI: `vpdpbusd` multiplies 4 unsigned bytes by 4 signed ones
/// and adds the 4 products to an i32 lane, 64 multiply-adds per
/// instruction. x is signed, so its bytes go in as `x + 128` (a flip of the
/// top bit) and each column's `128 · Σ_k W[k][c]` comes off at the end:
/// exact, since no step saturates (4 · 255 · 127 per lane and step).
///
/// The tile is 8 rows × 32 columns: 16 accumulators, 2 W vectors and the
/// broadcast row, of 32 registers. tract's own VNNI kernel is 8 × 8 and
/// packs x afresh for every product; here x only gets its top bits
/// flipped, and W is packed once.
#[cfg(target_arch = "x86_64")]
mod vnni {
    use std::arch::x86_64::*;

    /// Columns per block (one vector of 16 i32) and rows per tile.
    pub(super) const BLOCK: usize = 16;
    pub(super) const ROWS: usize = 8;

    pub fn available() -> bool {
        std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vnni")
    }

    /// W by blocks of 16 columns (an even number of blocks, zeros padding),
    /// each block quad by quad: `w[4q..4q + 4][c]` for its 16 columns; and
    /// each column's sum.
    pub fn pack(w: &[i8], k: usize, n: usize) -> (Vec<i8>, Vec<i32>) {
        let quads = k.div_ceil(4);
        let blocks = n.div_ceil(2 * BLOCK) * 2;
        let mut packed = vec![0i8; blocks * quads * 4 * BLOCK];
        for (row, w_row) in w.chunks_exact(n).enumerate() {
            let (quad, depth) = (row / 4, row % 4);
            for (column, &value) in w_row.iter().enumerate() {
                let (block, lane) = (column / BLOCK, column % BLOCK);
                packed[((block * quads + quad) * BLOCK + lane) * 4 + depth] = value;
            }
        }
        let mut column_sums = vec![0i32; blocks * BLOCK];
        for w_row in w.chunks_exact(n) {
            for (sum, &value) in column_sums.iter_mut().zip(w_row) {
                *sum += value as i32;
            }
        }
        (packed, column_sums)
    }

    pub fn product(x: &[i8], packed: &[i8], column_sums: &[i32], m: usize, k: usize, n: usize, out: &mut [i32]) {
        let quads = k.div_ceil(4);
        assert!(available() && packed.len().is_multiple_of(2 * BLOCK * quads * 4) && column_sums.len() * quads * 4 == packed.len());
        assert!(x.len() == m * k && out.len() == m * n);
        // x + 128 as bytes, each row padded to whole quads and the rows to
        // whole tiles (the padding meets zero weights or is never stored).
        let stride = quads * 4;
        let mut shifted = vec![0u8; m.div_ceil(ROWS) * ROWS * stride];
        for (to, from) in shifted.chunks_exact_mut(stride).zip(x.chunks_exact(k)) {
            for (byte, &value) in to.iter_mut().zip(from) {
                *byte = value as u8 ^ 0x80;
            }
        }
        // SAFETY: AVX-512 F, BW and VNNI are checked above, and the kernel
        // reads within `shifted`, `packed` and `column_sums` by their sizes.
        unsafe { product_tiles(&shifted, stride, packed, column_sums, m, n, out) }
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    unsafe fn product_tiles(x: &[u8], stride: usize, packed: &[i8], column_sums: &[i32], m: usize, n: usize, out: &mut [i32]) {
        let quads = stride / 4;
        let block_bytes = quads * 4 * BLOCK;
        for first_row in (0..m).step_by(ROWS) {
            let rows = ROWS.min(m - first_row);
            let x_tile = unsafe { x.as_ptr().add(first_row * stride) };
            for (pair, blocks) in packed.chunks_exact(2 * block_bytes).enumerate() {
                let (left, right) = blocks.split_at(block_bytes);
                let tile = unsafe { tile(x_tile, stride, left.as_ptr(), right.as_ptr(), quads) };
                let exact = |sums, first_column: usize| {
                    let offsets = unsafe { _mm512_loadu_si512(column_sums.as_ptr().add(first_column) as *const _) };
                    _mm512_sub_epi32(sums, _mm512_slli_epi32::<7>(offsets))
                };
                unsafe { store_tile(&tile, rows, first_row, 2 * pair * BLOCK, n, out, exact) };
            }
        }
    }

    /// A tile's sums, `rows` of its rows, into `out` (n columns) from row
    /// `first_row` and column `first_column` (its left block's first), each
    /// block of 16 columns through `finish(sums, its first column)` and cut
    /// at column n.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    pub(super) unsafe fn store_tile(
        tile: &[[__m512i; 2]; ROWS],
        rows: usize,
        first_row: usize,
        first_column: usize,
        n: usize,
        out: &mut [i32],
        finish: impl Fn(__m512i, usize) -> __m512i,
    ) {
        for (r, tile_row) in tile.iter().enumerate().take(rows) {
            for (half, &sums) in tile_row.iter().enumerate() {
                let first_column = first_column + half * BLOCK;
                if first_column >= n {
                    break;
                }
                let mut lanes = [0i32; BLOCK];
                unsafe { _mm512_storeu_si512(lanes.as_mut_ptr() as *mut _, finish(sums, first_column)) };
                let columns = BLOCK.min(n - first_column);
                let start = (first_row + r) * n + first_column;
                out[start..start + columns].copy_from_slice(&lanes[..columns]);
            }
        }
    }

    /// 8 rows of shifted x (`stride` bytes apart) against two blocks of W.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    #[inline]
    unsafe fn tile(x: *const u8, stride: usize, left: *const i8, right: *const i8, quads: usize) -> [[__m512i; 2]; ROWS] {
        let mut sums = [[_mm512_setzero_si512(); 2]; ROWS];
        for q in 0..quads {
            let (w0, w1) = unsafe {
                (
                    _mm512_loadu_si512(left.add(q * 4 * BLOCK) as *const _),
                    _mm512_loadu_si512(right.add(q * 4 * BLOCK) as *const _),
                )
            };
            for (r, row) in sums.iter_mut().enumerate() {
                let quad = unsafe { (x.add(r * stride + 4 * q) as *const i32).read_unaligned() };
                let broadcast = _mm512_set1_epi32(quad);
                row[0] = _mm512_dpbusd_epi32(row[0], broadcast, w0);
                row[1] = _mm512_dpbusd_epi32(row[1], broadcast, w1);
            }
        }
        sums
    }
}

/// AVX-512 VNNI for wide values: `vpdpwssd` multiplies 2 i16 pairs and
/// adds both products to an i32 lane, 32 multiply-adds per instruction
/// (half of `vpdpbusd`'s 64, which a wide x needs twice). No shift or
/// column sums: x is signed as it is. Exact, as the pairs tile: the lanes
/// wrap, and no sum reaches 2^31 (see the module's comment).
///
/// The tile is the byte tile's, 8 rows × 32 columns; x needs no packing,
/// since a row's two neighbouring depth steps are one i32 to broadcast.
#[cfg(target_arch = "x86_64")]
mod vnni_pairs {
    use super::vnni::{store_tile, BLOCK, ROWS};
    use std::arch::x86_64::*;

    /// W by blocks of 16 columns (an even number of blocks, zeros padding),
    /// each block pair by pair: `w[2p][c], w[2p + 1][c]` for its 16 columns.
    pub fn pack(w: &[i16], k: usize, n: usize) -> Vec<i16> {
        let pairs = k.div_ceil(2);
        let blocks = n.div_ceil(2 * BLOCK) * 2;
        let mut packed = vec![0i16; blocks * pairs * 2 * BLOCK];
        for (row, w_row) in w.chunks_exact(n).enumerate() {
            let (pair, depth) = (row / 2, row % 2);
            for (column, &value) in w_row.iter().enumerate() {
                let (block, lane) = (column / BLOCK, column % BLOCK);
                packed[((block * pairs + pair) * BLOCK + lane) * 2 + depth] = value;
            }
        }
        packed
    }

    pub fn product(x: &[i16], packed: &[i16], m: usize, k: usize, n: usize, out: &mut [i32]) {
        let pairs = k.div_ceil(2);
        assert!(super::vnni::available() && packed.len().is_multiple_of(2 * BLOCK * pairs * 2) && packed.len() >= n * pairs * 2);
        assert!(x.len() == m * k && out.len() == m * n);
        // Whole tiles of rows are read in place when the depth is even; the
        // rest (the last rows, or every row of an odd depth) is copied,
        // each row padded to whole pairs and the rows to a whole tile (the
        // padding meets zero weights or is never stored).
        let in_place = if k.is_multiple_of(2) { m / ROWS * ROWS } else { 0 };
        // SAFETY (both calls): AVX-512 F, BW and VNNI are checked above, and
        // the kernel reads whole tiles of rows within `x` or `rest` and
        // `packed` by their sizes.
        unsafe { product_tiles(&x[..in_place * k], k, packed, in_place, n, &mut out[..in_place * n]) };
        if in_place < m {
            let (stride, left) = (pairs * 2, m - in_place);
            let mut rest = vec![0i16; left.div_ceil(ROWS) * ROWS * stride];
            for (to, from) in rest.chunks_exact_mut(stride).zip(x[in_place * k..].chunks_exact(k)) {
                to[..k].copy_from_slice(from);
            }
            unsafe { product_tiles(&rest, stride, packed, left, n, &mut out[in_place * n..]) };
        }
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    unsafe fn product_tiles(x: &[i16], stride: usize, packed: &[i16], m: usize, n: usize, out: &mut [i32]) {
        let pairs = stride / 2;
        let block_values = pairs * 2 * BLOCK;
        for first_row in (0..m).step_by(ROWS) {
            let rows = ROWS.min(m - first_row);
            let x_tile = unsafe { x.as_ptr().add(first_row * stride) };
            for (pair_of_blocks, blocks) in packed.chunks_exact(2 * block_values).enumerate() {
                let (left, right) = blocks.split_at(block_values);
                let tile = unsafe { tile(x_tile, stride, left.as_ptr(), right.as_ptr(), pairs) };
                unsafe { store_tile(&tile, rows, first_row, 2 * pair_of_blocks * BLOCK, n, out, |sums, _| sums) };
            }
        }
    }

    /// 8 rows of x (`stride` i16 apart) against two blocks of W.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    #[inline]
    unsafe fn tile(x: *const i16, stride: usize, left: *const i16, right: *const i16, pairs: usize) -> [[__m512i; 2]; ROWS] {
        let mut sums = [[_mm512_setzero_si512(); 2]; ROWS];
        for p in 0..pairs {
            let (w0, w1) = unsafe {
                (
                    _mm512_loadu_si512(left.add(p * 2 * BLOCK) as *const _),
                    _mm512_loadu_si512(right.add(p * 2 * BLOCK) as *const _),
                )
            };
            for (r, row) in sums.iter_mut().enumerate() {
                let pair = unsafe { (x.add(r * stride + 2 * p) as *const i32).read_unaligned() };
                let broadcast = _mm512_set1_epi32(pair);
                row[0] = _mm512_dpwssd_epi32(row[0], broadcast, w0);
                row[1] = _mm512_dpwssd_epi32(row[1], broadcast, w1);
            }
        }
        sums
    }
}

/// The SIMD tile against [`tile_portable`], and whole products against
/// a plain triple loop, on odd sizes; run by the browser parity test
/// (through `checkMatmulKernel`) where the SIMD path is the one compiled.
// Called by the browser tests' build only (check_int8_product).
#[cfg_attr(not(all(target_arch = "wasm32", feature = "encoder-api")), allow(dead_code))]
pub fn self_check() -> Result<usize, String> {
    let mut seed = 7u32;
    let mut random = move |count: usize, largest: i16| -> Vec<i16> {
        (0..count)
            .map(|_| {
                seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                ((seed >> 8) % (2 * largest as u32 + 1)) as i16 - largest
            })
            .collect()
    };
    let mut checked = 0;
    for (m, k, n) in [(1, 1, 1), (4, 2, 8), (5, 7, 9), (13, 64, 17), (9, 1280, 24)] {
        let w = random(k * n, 127);
        let x: Vec<i8> = random(m * k, 127).into_iter().map(|v| v as i8).collect();
        check_product(&x, &w, m, k, n)?;
        check_product(&random(m * k, i16::LARGEST), &w, m, k, n)?;
        check_product(&random(m * k, i16::LARGEST), &random(k * n, LARGEST_WEIGHT), m, k, n)?;
        checked += 1;
    }
    Ok(checked)
}

/// One product of [`self_check`] against a plain triple loop, and its
/// first tile's SIMD kernels against [`tile_portable`].
fn check_product<X: Activation + std::fmt::Debug>(x: &[X], w: &[i16], m: usize, k: usize, n: usize) -> Result<(), String> {
    let largest_w = w.iter().map(|v| v.abs()).max().unwrap_or(0);
    let what = format!("{m}×{k}×{n}, |x| ≤ {}, |W| ≤ {largest_w}", X::LARGEST);
    let mut got = vec![0i32; m * n];
    product(x, w, m, k, n, &mut got)?;
    for row in 0..m {
        for column in 0..n {
            let want: i32 = (0..k).map(|i| Into::<i16>::into(x[row * k + i]) as i32 * w[i * n + column] as i32).sum();
            if got[row * n + column] != want {
                return Err(format!("{what}: [{row}][{column}] = {}, expected {want}", got[row * n + column]));
            }
        }
    }
    let pairs = k.div_ceil(2);
    let mut packed_x = vec![0i16; pairs * ROWS * 2];
    pack_rows(&x[..ROWS.min(m) * k], k, &mut packed_x);
    let packed_w = pack_columns(w, k, n);
    if tile(&packed_x, &packed_w, pairs) != tile_portable(&packed_x, &packed_w, pairs) {
        return Err(format!("{what}: the SIMD tile differs from its model"));
    }
    let blocks: Vec<&[i16]> = packed_w.chunks_exact(pairs * COLUMNS * 2).collect();
    if let (Some(two_tiles), &[left, right, ..]) = (two_tiles_kernel(), &blocks[..]) {
        if two_tiles(&packed_x, left, right, pairs) != [tile_portable(&packed_x, left, pairs), tile_portable(&packed_x, right, pairs)] {
            return Err(format!("{what}: the two-tile kernel differs from its model"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    /// Both layouts, whichever this machine's `product` picks: the pairs
    /// (wasm, AVX2, portable) and, with AVX-512 VNNI, the quads.
    #[test]
    fn both_layouts_give_the_plain_product() {
        let (m, k, n) = (11, 36, 40);
        let x: Vec<i8> = (0..m * k).map(|i| ((i * 37 % 255) as i32 - 127) as i8).collect();
        let w: Vec<i16> = (0..k * n).map(|i| (i * 91 % 255) as i16 - 127).collect();
        let want: Vec<i32> = (0..m * n)
            .map(|cell| (0..k).map(|i| x[cell / n * k + i] as i32 * w[i * n + cell % n] as i32).sum())
            .collect();
        let mut pairs = vec![0; m * n];
        super::pairs_product(&x, &super::pack_columns(&w, k, n), m, k, n, &mut pairs);
        assert_eq!(pairs, want);
        let mut picked = vec![0; m * n];
        let packed = super::PackedWeights::new::<i8>(&w, k, n).unwrap();
        packed.product(&x, m, &mut picked);
        assert_eq!(picked, want, "{}", packed.kernel());
    }

    /// Wide x and 10-bit W, whichever tile this machine's `product` picks
    /// (with AVX-512 VNNI, the i16 pairs one), against the plain product.
    #[test]
    fn wide_rows_and_weights_give_the_plain_product() {
        let (m, k, n) = (19, 70, 45);
        let x: Vec<i16> = (0..m * k).map(|i| (i * 389 % 4095) as i16 - 2047).collect();
        let w: Vec<i16> = (0..k * n).map(|i| (i * 151 % 1023) as i16 - 511).collect();
        let want: Vec<i32> = (0..m * n)
            .map(|cell| (0..k).map(|i| x[cell / n * k + i] as i32 * w[i * n + cell % n] as i32).sum())
            .collect();
        let mut got = vec![0; m * n];
        let packed = super::PackedWeights::new::<i16>(&w, k, n).unwrap();
        packed.product(&x, m, &mut got);
        assert_eq!(got, want, "{}", packed.kernel());
    }

    #[test]
    fn products_are_exact_on_odd_sizes_and_extreme_values() {
        assert_eq!(super::self_check(), Ok(5));
        let (x, w) = (vec![-127i8; 3 * 2048], vec![-127i16; 2048 * 9]);
        let mut out = vec![0; 27];
        super::product(&x, &w, 3, 2048, 9, &mut out).unwrap();
        assert!(out.iter().all(|&v| v == 127 * 127 * 2048));
        let wide = vec![-2047i16; 3 * 2048];
        super::product(&wide, &w, 3, 2048, 9, &mut out).unwrap();
        assert!(out.iter().all(|&v| v == 2047 * 127 * 2048));
        // The largest sum: 2,047 · 511 · 2,048 = 2,142,242,816 < 2^31.
        let wide_w = vec![-super::LARGEST_WEIGHT; 2048 * 9];
        super::product(&wide, &wide_w, 3, 2048, 9, &mut out).unwrap();
        assert!(out.iter().all(|&v| v == 2047 * 511 * 2048));
    }
}
