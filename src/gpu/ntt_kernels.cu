// NTT kernels over Fr: fused radix-2 butterfly passes in shared memory, the bit-reversal
// permutation and scaling by powers (coset shifts, 1/m). Launch plans are in ntt.cpp.
#include "gpu/ntt_launch.hpp"
#include "gpu/vector_access.cuh"

#include <type_traits>

namespace cuzk::gpu::detail {

namespace {

constexpr unsigned kMaxBlockElements = 1u << kPassLogElements;

// The field arithmetic on the chosen path (FieldArith, from NttOptions::ptx_mul,
// sparse_reduction, karatsuba_product and fp64_products): 32-bit PTX (products with or without
// the sparse reduction, Karatsuba ones, or FP64-pipe ones — see mul_slot) or 64-bit limbs.
template <FieldArith kA>
struct Arith {
    static constexpr bool kIsPtx = kA != FieldArith::kWide;
    static constexpr auto mul = kA == FieldArith::kPtxSparse || kA == FieldArith::kHybridFp64 ||
                                        kA == FieldArith::kPtxSparseLazyDifference
                                    ? &DeviceFr::mul_ptx_sparse
                                : kA == FieldArith::kFp64         ? &DeviceFr::mul_fp64
                                : kA == FieldArith::kPtxKaratsuba ? &DeviceFr::mul_ptx_karatsuba
                                : kIsPtx                          ? &DeviceFr::mul_ptx
                                                                  : &DeviceFr::mul_wide;
    static constexpr auto add = kIsPtx ? &DeviceFr::add_ptx : &DeviceFr::add_wide;
    static constexpr auto sub = kIsPtx ? &DeviceFr::sub_ptx : &DeviceFr::sub_wide;
};
template <FieldArith kA>
__device__ __forceinline__ DeviceFr mul(const DeviceFr& a, const DeviceFr& b) {
    return Arith<kA>::mul(a, b);
}
// The product in slot `slot` of a thread's unrolled code (a constant once unrolled):
// kHybridFp64 runs the odd slots on the FP64 pipe (DeviceFr::mul_fp64) and the even ones on the
// FMA pipe (the sparse product), so that both pipes multiply; other arithmetics ignore it.
template <FieldArith kA>
__device__ __forceinline__ DeviceFr mul_slot(const DeviceFr& a, const DeviceFr& b, unsigned slot) {
    if constexpr (kA == FieldArith::kHybridFp64) {
        if (slot & 1u) return DeviceFr::mul_fp64(a, b);
    }
    return mul<kA>(a, b);
}
template <FieldArith kA>
__device__ __forceinline__ DeviceFr add(const DeviceFr& a, const DeviceFr& b) {
    return Arith<kA>::add(a, b);
}
template <FieldArith kA>
__device__ __forceinline__ DeviceFr sub(const DeviceFr& a, const DeviceFr& b) {
    return Arith<kA>::sub(a, b);
}

// DIF's butterfly difference for its product, unreduced (kPtxSparseLazyDifference): u − y + p,
// in (0, 2p) for u, y < p, in two carry chains (u + p < 2p < 2^256, then − y ≥ 1, neither
// wraps) instead of the reduced difference's chain, mask and conditional addition of p. Only
// as the word operand b of the PTX product (detail::mont_mul_ptx): with a < p its running value
// stays below a + p < 2p whatever b's words, and the last one below a·b/2^256 + p < (2p/2^256
// + 1)·p < 2p for Fr (p < 0.46·2^256), so the one conditional subtraction still ends fully
// reduced — the same product as of the reduced difference.
__device__ __forceinline__ DeviceFr lazy_difference(const DeviceFr& u, const DeviceFr& y) {
#if defined(__CUDA_ARCH__)
    constexpr int n = static_cast<int>(2 * DeviceFr::kLimbs);
    const DeviceFr p = DeviceFr::constant<ff::FrParams::kMont.modulus>();
    uint32_t a[n], b[n], q[n], s[n];
    split_words<DeviceFr::kLimbs>(a, u.limb);
    split_words<DeviceFr::kLimbs>(b, y.limb);
    split_words<DeviceFr::kLimbs>(q, p.limb);
    (void)ptx_chain<n, false>(s, a, q, 0);
    (void)ptx_chain<n, true>(s, s, b, 0);
    DeviceFr r;
#pragma unroll
    for (size_t i = 0; i < DeviceFr::kLimbs; ++i)
        r.limb[i] = (static_cast<uint64_t>(s[2 * i + 1]) << 32) | s[2 * i];
    return r;
#else
    return u - y;  // the host pass of this device-only code (the PTX helpers are device code)
#endif
}

// Where x^e is read: e, or (2^b − e) mod 2^b for a table with negate_bits = b.
__device__ __forceinline__ uint64_t table_exponent(PowerTable t, uint64_t e) {
    return t.negate_bits > 0 ? (uint64_t{0} - e) & ((uint64_t{1} << t.negate_bits) - 1) : e;
}

template <FieldArith kA>
__device__ DeviceFr power(PowerTable t, uint64_t e) {
    e = table_exponent(t, e);
    const uint64_t hi = e >> t.lo_bits;
    const DeviceFr lo = t.lo[e & ((uint64_t{1} << t.lo_bits) - 1)];
    return hi == 0 ? lo : mul<kA>(lo, t.hi[hi]);
}

// One block owns 2^eb elements (eb = min(log_n, kPassLogElements)), split as local index
// e = (hl, f, ll): ll the low t bits (t = min(r, eb − k) lanes, consecutive in memory), f the
// k-bit butterfly field, hl the remaining high bits. Global index of e in block `blk`:
//   (((blk_high << hl_bits) | hl) << (k + r)) | (f << r) | ((blk_lane << t) | ll),
// blk_lane = blk mod 2^(r − t), blk_high = blk >> (r − t). Every index is owned by exactly one
// (block, e), and a block's butterflies only pair its own elements.
//
// A pass is one radix-2^k step of Cooley–Tukey over sub-problems of size 2^(k+r) (n = n1·2^r +
// n2 with n1 = f < 2^k, n2 = lane < 2^r):
//   X[k1 + 2^k·k2] = Σ_{n2} ω'^(n2·k1) · (Σ_{n1} x[n1·2^r + n2]·ω_{2^k}^(n1·k1)) · ω_{2^r}^(n2·k2),
// ω' = ω_{2^(k+r)} = ω^(2^(log_n − k − r)). DIF: the inner 2^k-point DFT over f (bit-reversed
// output, so position f holds k1 = rev_k(f)), then × ω'^(lane·rev_k(f)). DIT (bit-reversed
// input): × ω'^(lane·rev_k(f)) first, then the inner DFT. ω'^x is read from `tw` at
// x·2^twiddle_shift: the domain's table of ω (shift log_n − k − r), or a table of ω' itself
// (shift 0; then x < 2^(k+r) needs no product). The inter-pass twiddle (none when r = 0) costs
// one table lookup and product per element.
//
// The inner DFT's stage on f bit b pairs f and f | 2^b with the twiddle ω_{2^(b+1)}^(f mod 2^b)
// (1 when f mod 2^b = 0), read from w_small[j] = ω_{2^k}^j, j < 2^(k−1), in shared memory. The
// k stages run in rounds of up to kQ: a thread group holds the 2^kQ elements that differ in kQ
// consecutive f bits (the round's window), loads them into registers, runs the round's stages
// on them there and stores them back — one barrier and one shared-memory round trip per kQ
// stages. DIF takes windows from the top f bits down, DIT from the bottom up. In a window
// starting at f bit 0 the twiddle depends on the register index alone, so the trivial ones
// (f mod 2^b = 0, a share 2^−b of stage b's pairs) are skipped at compile time; elsewhere they
// depend on the group's f bits under the window and are multiplied like the others. When kQ
// does not divide k, one round runs only k mod kQ stages: DIT's last, in the window at the top
// bits (overlapping bits already done); DIF's first, in the window at the top bits, so that its
// later windows are whole and the last starts at f bit 0 (dif_partial_first; without it DIF's
// partial round comes last, in the window at f bit 0 overlapping [1, kQ), and stages 1 .. kQ − 1
// lose their skips: for k = 10, kQ = 3, 0.375 products per element and pass). Requires kQ ≤ k.
// Staged (kDirect false): the block copies its elements from device memory into shared memory
// (one loop over e), runs every round between shared-memory copies, and copies them back.
// Direct (kDirect, one group per thread): the first round loads its group straight from device
// memory into registers — all 2^kQ loads in flight at once, where the staged copy waits for
// each — and the last round stores straight to device memory; the rounds between go through
// shared memory as before. That saves two shared-memory round trips and two barriers a pass,
// and the inter-pass twiddles are applied as the first round loads (DIT) or the last stores
// (DIF).
// Bounds: at most one thread per group (2^(10 − kQ)); with kQ = 3, 128 registers so that 4
// blocks of 128 threads fit an SM (unbounded, ptxas takes 164 and 3 fit); direct with kQ = 2,
// 3 blocks of 256 threads (80 registers; unbounded, ptxas takes 88 and 2 fit).
// prefetch_twiddles (DIF with a one-level table): the load asks L2 for each element's
// inter-pass twiddle, which the store reads after the inner DFT.
// kMinBlocks (NttOptions::pass_min_blocks; 0: the bounds above): with kQ = 3, blocks per SM the
// registers are bounded for (5: at most 102 registers, 6: at most 85; ptxas takes 96 and 80);
// the inner DFT's twiddles are then read from `roots` through L1 instead of shared memory, so
// that the blocks' shared memory fits.
// kVecIo (NttOptions::vector_io; staged, kQ = 3): the copies between device and shared memory
// in 16-byte accesses, four elements a loop trip without twiddles and two with them; each trip
// asks for all its loads (elements, twiddle table entries) before it uses any. A two-level
// lookup then multiplies by its hi entry whatever the exponent (hi[0] = 1), so that no
// per-element branch splits the trip; the prefetch is not done.

// One round's window: its lowest f bit wlo, the window bits [ilo, ihi) whose stages run now,
// and pos, the window's lowest bit in the local index.
struct RoundWindow {
    unsigned wlo, ilo, ihi, pos, todo;
};

// dif_partial_first: DIF's round of k mod kQ stages first (see the file comment above).
template <bool kDif, unsigned kQ>
__device__ __forceinline__ RoundWindow round_window(unsigned k, unsigned t, unsigned done,
                                                    bool dif_partial_first) {
    RoundWindow w;
    w.todo = (k - done < kQ) ? k - done : kQ;
    if (kDif && dif_partial_first) {
        // k ≥ kQ, and after the first round k − done is a multiple of kQ: every window is whole.
        if (done == 0 && k % kQ != 0) w.todo = k % kQ;
        w.wlo = k - done - kQ;
        w.ihi = kQ;
        w.ilo = kQ - w.todo;
    } else if (kDif) {
        w.wlo = (k - done >= kQ) ? k - done - kQ : 0;
        w.ihi = k - done - w.wlo;
        w.ilo = w.ihi - w.todo;
    } else {
        w.wlo = (done + kQ <= k) ? done : k - kQ;
        w.ilo = done - w.wlo;
        w.ihi = w.ilo + w.todo;
    }
    w.pos = t + w.wlo;
    return w;
}

// The local index of group g's element 0 in a round whose window starts at local bit pos; its
// element x is base | (x << pos).
template <unsigned kQ>
__device__ __forceinline__ unsigned group_base(unsigned g, unsigned pos) {
    return ((g >> pos) << (pos + kQ)) | (g & ((1u << pos) - 1));
}

// The round's stages on the group's registers v (see above); f_below: the group's f bits under
// the window; w_small(j) = ω_{2^k}^j.
template <bool kDif, FieldArith kA, unsigned kQ, class Roots>
__device__ __forceinline__ void round_stages(DeviceFr (&v)[1u << kQ], const RoundWindow& w,
                                             unsigned k, unsigned f_below, Roots w_small) {
    constexpr unsigned kWidth = 1u << kQ;
#pragma unroll
    for (unsigned step = 0; step < kQ; ++step) {
        const unsigned i = kDif ? kQ - 1 - step : step;  // the window bit of this stage
        if (i < w.ilo || i >= w.ihi) continue;
        const unsigned b = w.wlo + i;
#pragma unroll
        for (unsigned x = 0; x < kWidth; ++x) {
            if ((x >> i) & 1u) continue;
            const unsigned x1 = x | (1u << i);
            const unsigned x_low = x & ((1u << i) - 1);  // f bits [wlo, b) of the pair
            const DeviceFr u = v[x];
            const DeviceFr y = v[x1];
            if (x_low == 0 && w.wlo == 0) {  // the twiddle is ω^0 = 1
                v[x] = add<kA>(u, y);
                v[x1] = sub<kA>(u, y);
                continue;
            }
            const DeviceFr tw = w_small((f_below | (x_low << w.wlo)) << (k - 1 - b));
            // mul_slot's slot: a register-index bit other than i, the highest (half the
            // pairs of a stage, and of the nontrivial ones in the window at f bit 0).
            const unsigned slot = kQ < 2 ? 0 : (x >> (i == kQ - 1 ? kQ - 2 : kQ - 1)) & 1u;
            if (kDif && kA == FieldArith::kPtxSparseLazyDifference) {
                v[x] = add<kA>(u, y);
                v[x1] = mul<kA>(tw, lazy_difference(u, y));  // the lazy value as the word operand
            } else if (kDif) {
                v[x] = add<kA>(u, y);
                v[x1] = mul_slot<kA>(sub<kA>(u, y), tw, slot);
            } else {
                const DeviceFr yw = mul_slot<kA>(y, tw, slot);
                v[x] = add<kA>(u, yw);
                v[x1] = sub<kA>(u, yw);
            }
        }
    }
}

template <bool kDif, FieldArith kA, unsigned kQ, unsigned kMinBlocks = 0, bool kDirect = false,
          bool kVecIo = false>
__global__ void __launch_bounds__(kMaxBlockElements >> kQ,
                                  kMinBlocks != 0 ? kMinBlocks
                                                  : (kQ == 3 ? 4 : (kQ == 2 && kDirect ? 3 : 1)))
    ntt_pass_kernel(DeviceFr* data, unsigned log_n, unsigned r, unsigned k, PowerTable tw,
                    unsigned twiddle_shift, const DeviceFr* roots, unsigned kmax,
                    bool prefetch_twiddles, bool dif_partial_first) {
    constexpr unsigned kWidth = 1u << kQ;
    constexpr bool kSharedRoots = kMinBlocks == 0;
    __shared__ DeviceFr s[kMaxBlockElements];
    __shared__ DeviceFr w_shared[kSharedRoots ? kMaxBlockElements / 2 : 1];
    // w_small[j] = ω_{2^k}^j: from shared memory, or straight from `roots`.
    auto w_small = [&](unsigned j) -> DeviceFr {
        if constexpr (kSharedRoots) return w_shared[j];
        else return roots[j << (kmax - k)];
    };
    const unsigned eb = log_n < kPassLogElements ? log_n : kPassLogElements;
    const unsigned t = (r < eb - k) ? r : eb - k;
    const unsigned hl_bits = eb - k - t;
    const uint64_t blk = blockIdx.x;
    const uint64_t blk_lane = blk & ((uint64_t{1} << (r - t)) - 1);
    const uint64_t blk_high = blk >> (r - t);

    if constexpr (kSharedRoots) {
        for (unsigned j = threadIdx.x; j < (1u << (k - 1)); j += blockDim.x)
            w_shared[j] = roots[j << (kmax - k)];
    }

    auto global_index = [&](unsigned e) -> uint64_t {
        const uint64_t ll = e & ((1u << t) - 1);
        const uint64_t f = (e >> t) & ((1u << k) - 1);
        const uint64_t hl = e >> (t + k);
        return (((blk_high << hl_bits) | hl) << (k + r)) | (f << r) | ((blk_lane << t) | ll);
    };
    // The exponent of ω'^(lane·rev_k(f)) in `tw` for local element e (only used when r > 0).
    auto inter_pass_exponent = [&](unsigned e) -> uint64_t {
        const uint64_t f = (e >> t) & ((1u << k) - 1);
        const uint64_t lane = (blk_lane << t) | (e & ((1u << t) - 1));
        const uint64_t rev_f = __brevll(f) >> (64 - k);
        return (lane * rev_f) << twiddle_shift;
    };
    auto inter_pass_twiddle = [&](unsigned e) -> DeviceFr {
        return power<kA>(tw, inter_pass_exponent(e));
    };
    // Element e as it comes from device memory (DIT's twiddle applied), and as it goes back
    // (DIF's).
    auto load = [&](unsigned e) -> DeviceFr {
        DeviceFr x = data[global_index(e)];
        if (!kDif && r > 0) x = mul<kA>(x, inter_pass_twiddle(e));
        if (kDif && r > 0 && prefetch_twiddles)
            asm volatile("prefetch.global.L2 [%0];" ::"l"(
                tw.lo + table_exponent(tw, inter_pass_exponent(e))));
        return x;
    };
    auto store = [&](unsigned e, DeviceFr x) {
        if (kDif && r > 0) x = mul<kA>(x, inter_pass_twiddle(e));
        data[global_index(e)] = x;
    };
    // kVecIo's copies (see above). Element e + u·blockDim.x is trip e's u-th; 2^eb is a
    // multiple of 8·blockDim.x (one thread per group of 8 at most), so every trip is whole.
    const bool tw_with_hi = r > 0 && tw.negate_bits == 0 && r + k + twiddle_shift > tw.lo_bits;
    auto twiddles16 = [&](unsigned e, DeviceFr (&out)[2]) {
        DeviceFr hi[2];
#pragma unroll
        for (unsigned u = 0; u < 2; ++u) {
            const uint64_t x = table_exponent(tw, inter_pass_exponent(e + u * blockDim.x));
            out[u] = load16(tw.lo + (x & ((uint64_t{1} << tw.lo_bits) - 1)));
            if (tw_with_hi) hi[u] = load16(tw.hi + (x >> tw.lo_bits));
        }
        if (tw_with_hi) {
#pragma unroll
            for (unsigned u = 0; u < 2; ++u) out[u] = mul_slot<kA>(out[u], hi[u], u);
        }
    };
    auto copy_in16 = [&]() {
        if (kDif || r == 0) {
            for (unsigned e = threadIdx.x; e < (1u << eb); e += 4 * blockDim.x) {
                DeviceFr x[4];
#pragma unroll
                for (unsigned u = 0; u < 4; ++u)
                    x[u] = load16(data + global_index(e + u * blockDim.x));
#pragma unroll
                for (unsigned u = 0; u < 4; ++u) s[e + u * blockDim.x] = x[u];
            }
        } else {
            for (unsigned e = threadIdx.x; e < (1u << eb); e += 2 * blockDim.x) {
                DeviceFr x[2], w[2];
#pragma unroll
                for (unsigned u = 0; u < 2; ++u)
                    x[u] = load16(data + global_index(e + u * blockDim.x));
                twiddles16(e, w);
#pragma unroll
                for (unsigned u = 0; u < 2; ++u)
                    s[e + u * blockDim.x] = mul_slot<kA>(x[u], w[u], u + 1);
            }
        }
    };
    auto copy_out16 = [&]() {
        if (!kDif || r == 0) {
            for (unsigned e = threadIdx.x; e < (1u << eb); e += 4 * blockDim.x) {
#pragma unroll
                for (unsigned u = 0; u < 4; ++u)
                    store16(data + global_index(e + u * blockDim.x), s[e + u * blockDim.x]);
            }
        } else {
            for (unsigned e = threadIdx.x; e < (1u << eb); e += 2 * blockDim.x) {
                DeviceFr w[2];
                twiddles16(e, w);
#pragma unroll
                for (unsigned u = 0; u < 2; ++u)
                    store16(data + global_index(e + u * blockDim.x),
                            mul_slot<kA>(s[e + u * blockDim.x], w[u], u + 1));
            }
        }
    };
    auto f_below = [&](const RoundWindow& w, unsigned base) {
        return (base >> t) & ((1u << w.wlo) - 1);  // f bits under the window
    };

    if constexpr (kDirect) {
        // One group per thread (the launcher's condition), so every thread runs every round.
        const unsigned g = threadIdx.x;
        for (unsigned done = 0; done < k;) {
            const RoundWindow w = round_window<kDif, kQ>(k, t, done, dif_partial_first);
            const unsigned base = group_base<kQ>(g, w.pos);
            DeviceFr v[kWidth];
            if (done == 0) {
#pragma unroll
                for (unsigned x = 0; x < kWidth; ++x) v[x] = load(base | (x << w.pos));
            }
            __syncthreads();  // the roots (first round) or the previous round's stores
            if (done != 0) {
#pragma unroll
                for (unsigned x = 0; x < kWidth; ++x) v[x] = s[base | (x << w.pos)];
            }
            round_stages<kDif, kA, kQ>(v, w, k, f_below(w, base), w_small);
            if (done + w.todo == k) {
#pragma unroll
                for (unsigned x = 0; x < kWidth; ++x) store(base | (x << w.pos), v[x]);
            } else {
#pragma unroll
                for (unsigned x = 0; x < kWidth; ++x) s[base | (x << w.pos)] = v[x];
            }
            done += w.todo;
        }
    } else {
        if constexpr (kVecIo) {
            copy_in16();
        } else {
            for (unsigned e = threadIdx.x; e < (1u << eb); e += blockDim.x) s[e] = load(e);
        }
        const unsigned groups = 1u << (eb - kQ);
        for (unsigned done = 0; done < k;) {
            const RoundWindow w = round_window<kDif, kQ>(k, t, done, dif_partial_first);
            __syncthreads();
            for (unsigned g = threadIdx.x; g < groups; g += blockDim.x) {
                const unsigned base = group_base<kQ>(g, w.pos);
                DeviceFr v[kWidth];
#pragma unroll
                for (unsigned x = 0; x < kWidth; ++x) v[x] = s[base | (x << w.pos)];
                round_stages<kDif, kA, kQ>(v, w, k, f_below(w, base), w_small);
#pragma unroll
                for (unsigned x = 0; x < kWidth; ++x) s[base | (x << w.pos)] = v[x];
            }
            done += w.todo;
        }
        __syncthreads();
        if constexpr (kVecIo) {
            copy_out16();
        } else {
            for (unsigned e = threadIdx.x; e < (1u << eb); e += blockDim.x) store(e, s[e]);
        }
    }
}

template <FieldArith kA>
__global__ void fill_powers_kernel(DeviceFr* out, size_t n, PowerTable powers) {
    const size_t stride = size_t{gridDim.x} * blockDim.x;
    for (size_t e = size_t{blockIdx.x} * blockDim.x + threadIdx.x; e < n; e += stride)
        out[e] = power<kA>(powers, e);
}

__global__ void bit_reverse_kernel(DeviceFr* data, unsigned log_n) {
    const uint64_t n = uint64_t{1} << log_n;
    const uint64_t stride = uint64_t{gridDim.x} * blockDim.x;
    for (uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride) {
        const uint64_t j = __brevll(i) >> (64 - log_n);
        if (i < j) {
            const DeviceFr x = data[i];
            data[i] = data[j];
            data[j] = x;
        }
    }
}

// The same permutation in tiles, for log_n ≥ 2·kRevTileBits: index i = (a, m, b) with a its
// high and b its low kRevTileBits bits and m the middle ones, so rev(i) = (rev(b), rev(m),
// rev(a)) and tile m = {(a, m, b)} maps onto tile rev(m). The block of m swaps tiles m and
// rev(m) through shared memory (m < rev(m)), or transposes its own (m = rev(m)); the block of
// m > rev(m) has nothing to do. Global accesses run along b: 2^kRevTileBits consecutive
// elements. Shared memory holds a tile as rows a of 8-byte words, element (a, b) at words
// 4b .. 4b + 3 of row a, rows padded by one word: reading it transposed (rows rev(b)) is then
// free of bank conflicts, as is writing it in order.
constexpr unsigned kRevTileBits = 4;
constexpr unsigned kRevSide = 1u << kRevTileBits;
constexpr unsigned kRevRowWords = 4 * kRevSide + 1;
constexpr unsigned kRevTileWords = 4 * kRevSide * kRevSide;
constexpr unsigned kRevThreads = 256;

__global__ void __launch_bounds__(kRevThreads)
    bit_reverse_tiled_kernel(DeviceFr* data, unsigned log_n) {
    __shared__ uint2 tiles[2][kRevSide * kRevRowWords];
    const unsigned mid_bits = log_n - 2 * kRevTileBits;
    const uint64_t m = blockIdx.x;
    const uint64_t m_rev = mid_bits == 0 ? 0 : __brevll(m) >> (64 - mid_bits);
    if (m > m_rev) return;
    uint2* words = reinterpret_cast<uint2*>(data);
    // Word w of a tile: element (a, b) = (w >> (kRevTileBits + 2), (w >> 2) mod side), word w mod 4.
    auto global_word = [&](uint64_t mm, unsigned w) -> uint64_t {
        const uint64_t a = w >> (kRevTileBits + 2);
        const uint64_t b = (w >> 2) & (kRevSide - 1);
        const uint64_t index = (a << (log_n - kRevTileBits)) | (mm << kRevTileBits) | b;
        return index * 4 + (w & 3);
    };
    auto shared_word = [](unsigned a, unsigned b, unsigned h) { return a * kRevRowWords + 4 * b + h; };
    const unsigned tiles_here = m == m_rev ? 1 : 2;
    for (unsigned tile = 0; tile < tiles_here; ++tile)
        for (unsigned w = threadIdx.x; w < kRevTileWords; w += kRevThreads)
            tiles[tile][shared_word(w >> (kRevTileBits + 2), (w >> 2) & (kRevSide - 1), w & 3)] =
                words[global_word(tile == 0 ? m : m_rev, w)];
    __syncthreads();
    // Position (a, m', b) receives element (rev(b), rev(m'), rev(a)): tile m' gets from tile rev(m').
    for (unsigned tile = 0; tile < tiles_here; ++tile)
        for (unsigned w = threadIdx.x; w < kRevTileWords; w += kRevThreads) {
            const unsigned a = w >> (kRevTileBits + 2);
            const unsigned b = (w >> 2) & (kRevSide - 1);
            const unsigned rev_a = __brev(a) >> (32 - kRevTileBits);
            const unsigned rev_b = __brev(b) >> (32 - kRevTileBits);
            const unsigned source = tiles_here == 1 ? 0 : 1 - tile;
            words[global_word(tile == 0 ? m : m_rev, w)] =
                tiles[source][shared_word(rev_b, rev_a, w & 3)];
        }
}

// c·x^e (c alone without a table).
template <FieldArith kA>
__device__ __forceinline__ DeviceFr scale_factor(DeviceFr c, PowerTable powers, uint64_t e) {
    return powers.lo != nullptr ? mul<kA>(c, power<kA>(powers, e)) : c;
}

// Position i holds element rev(i) when reversed_log > 0 (the exponent follows the element).
template <FieldArith kA>
__global__ void scale_by_powers_kernel(DeviceFr* data, size_t n, DeviceFr c, PowerTable powers,
                                       unsigned reversed_log) {
    const size_t stride = size_t{gridDim.x} * blockDim.x;
    for (size_t i = size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride) {
        const uint64_t e = reversed_log > 0 ? __brevll(i) >> (64 - reversed_log) : i;
        data[i] = mul<kA>(data[i], scale_factor<kA>(c, powers, e));
    }
}

// data[i] ← (data[i]·x^e − other[i])·c, e as in scale_by_powers_kernel.
template <FieldArith kA>
__global__ void scale_by_powers_minus_kernel(DeviceFr* data, const DeviceFr* other, size_t n,
                                             DeviceFr c, PowerTable powers,
                                             unsigned reversed_log) {
    const size_t stride = size_t{gridDim.x} * blockDim.x;
    for (size_t i = size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride) {
        const uint64_t e = reversed_log > 0 ? __brevll(i) >> (64 - reversed_log) : i;
        const DeviceFr shifted = mul<kA>(data[i], power<kA>(powers, e));
        data[i] = mul<kA>(sub<kA>(shifted, other[i]), c);
    }
}

template <FieldArith kA>
__global__ void product_kernel(DeviceFr* a, const DeviceFr* b, size_t n) {
    const size_t stride = size_t{gridDim.x} * blockDim.x;
    for (size_t i = size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride)
        a[i] = mul<kA>(a[i], b[i]);
}

__global__ void quotient_kernel(DeviceFr* a, const DeviceFr* b, const DeviceFr* c, size_t n,
                                DeviceFr z_inv) {
    const size_t stride = size_t{gridDim.x} * blockDim.x;
    for (size_t i = size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride)
        a[i] = (a[i] * b[i] - c[i]) * z_inv;
}

constexpr unsigned kBlock = 256;

unsigned grid_for(size_t n) {
    const size_t blocks = (n + kBlock - 1) / kBlock;
    return static_cast<unsigned>(blocks < (size_t{1} << 16) ? blocks : (size_t{1} << 16));
}

}  // namespace

namespace {

using PassKernel = void (*)(DeviceFr*, unsigned, unsigned, unsigned, PowerTable, unsigned,
                            const DeviceFr*, unsigned, bool, bool);

template <bool kDif, FieldArith kA>
PassKernel pass_kernel(unsigned register_stages, unsigned min_blocks, bool direct, bool vec) {
    if constexpr (default_pass_shape_only(kA)) {
        // Only the default pass shape (launch_ntt_pass falls back to kPtxSparse otherwise).
        (void)register_stages, (void)min_blocks, (void)direct;
        return vec ? ntt_pass_kernel<kDif, kA, 3, 0, false, true> : ntt_pass_kernel<kDif, kA, 3>;
    }
    if constexpr (kA == FieldArith::kPtxSparse) {  // vector I/O: the default pass's variant
        if (vec && register_stages == 3 && min_blocks == 0 && !direct)
            return ntt_pass_kernel<kDif, kA, 3, 0, false, true>;
    }
    if constexpr (kA != FieldArith::kWide) {  // direct and bounded: PTX arithmetic only
        if (direct && min_blocks == 0) {
            switch (register_stages) {
                case 1: return ntt_pass_kernel<kDif, kA, 1, 0, true>;
                case 2: return ntt_pass_kernel<kDif, kA, 2, 0, true>;
                default: return ntt_pass_kernel<kDif, kA, 3, 0, true>;
            }
        }
    }
    switch (register_stages) {
        case 1: return ntt_pass_kernel<kDif, kA, 1>;
        case 2: return ntt_pass_kernel<kDif, kA, 2>;
        default:
            if constexpr (kA != FieldArith::kWide) {
                if (min_blocks == 5) return ntt_pass_kernel<kDif, kA, 3, 5>;
                if (min_blocks == 6) return ntt_pass_kernel<kDif, kA, 3, 6>;
            }
            return ntt_pass_kernel<kDif, kA, 3>;
    }
}

// The pass kernel of arithmetic kA for a run-time algorithm (DIF or DIT).
template <FieldArith kA>
PassKernel pass_kernel_for(bool dif, unsigned register_stages, unsigned min_blocks, bool direct,
                           bool vec) {
    return dif ? pass_kernel<true, kA>(register_stages, min_blocks, direct, vec)
               : pass_kernel<false, kA>(register_stages, min_blocks, direct, vec);
}

// f(std::integral_constant<FieldArith, a>{}) for a run-time a: where a FieldArith becomes a
// template argument.
template <class F>
auto with_arith(FieldArith a, F&& f) {
    using A = FieldArith;
    switch (a) {
        case A::kWide: return f(std::integral_constant<A, A::kWide>{});
        case A::kPtx: return f(std::integral_constant<A, A::kPtx>{});
        case A::kPtxKaratsuba: return f(std::integral_constant<A, A::kPtxKaratsuba>{});
        case A::kFp64: return f(std::integral_constant<A, A::kFp64>{});
        case A::kHybridFp64: return f(std::integral_constant<A, A::kHybridFp64>{});
        case A::kPtxSparseLazyDifference:
            return f(std::integral_constant<A, A::kPtxSparseLazyDifference>{});
        default: return f(std::integral_constant<A, A::kPtxSparse>{});
    }
}

// The instantiation of a kernel template K<FieldArith> for a run-time choice; the arithmetics
// of the butterfly passes' default shape only (default_pass_shape_only) take kPtxSparse.
template <template <FieldArith> class K>
auto for_arith(FieldArith a) {
    switch (a) {
        case FieldArith::kWide: return K<FieldArith::kWide>::kernel;
        case FieldArith::kPtx: return K<FieldArith::kPtx>::kernel;
        case FieldArith::kPtxKaratsuba: return K<FieldArith::kPtxKaratsuba>::kernel;
        default: return K<FieldArith::kPtxSparse>::kernel;
    }
}
template <FieldArith kA>
struct ScaleByPowers {
    static constexpr auto kernel = scale_by_powers_kernel<kA>;
};
template <FieldArith kA>
struct ScaleByPowersMinus {
    static constexpr auto kernel = scale_by_powers_minus_kernel<kA>;
};
template <FieldArith kA>
struct Product {
    static constexpr auto kernel = product_kernel<kA>;
};

}  // namespace

cudaError_t launch_ntt_pass(DeviceFr* data, unsigned log_n, unsigned r, unsigned k, bool dif,
                            FieldArith arith, PowerTable twiddles, unsigned twiddle_shift,
                            const DeviceFr* roots, unsigned threads, unsigned register_stages,
                            bool prefetch_twiddles, unsigned min_blocks, bool direct_rounds,
                            bool vector_io, bool dif_partial_first, cudaStream_t stream) {
    const unsigned eb = log_n < kPassLogElements ? log_n : kPassLogElements;
    if (k == 0 || k > eb || r + k > log_n) return cudaErrorInvalidValue;
    if (threads < 32 || threads > kMaxBlockElements / 2 || (threads & (threads - 1)) != 0)
        return cudaErrorInvalidValue;
    if (register_stages == 0 || register_stages > kMaxRegisterStages) return cudaErrorInvalidValue;
    if (prefetch_twiddles && (!dif || twiddles.hi != nullptr)) return cudaErrorInvalidValue;
    if (min_blocks != 0 && min_blocks != 5 && min_blocks != 6) return cudaErrorInvalidValue;
    const unsigned q = register_stages < k ? register_stages : k;
    const unsigned kmax = eb;
    const unsigned blocks = 1u << (log_n - eb);
    const unsigned groups = 1u << (eb - q);
    if (threads > groups) threads = groups;
    const unsigned mb = min_blocks;
    const bool direct = direct_rounds && threads == groups;  // one group per thread
    const bool vec = vector_io && !prefetch_twiddles && aligned16(data) && aligned16(twiddles.lo) &&
                     (twiddles.hi == nullptr || aligned16(twiddles.hi));
    if (default_pass_shape_only(arith) && (q != 3 || mb != 0 || direct))
        arith = FieldArith::kPtxSparse;
    const PassKernel kernel = with_arith(arith, [&](auto a) {
        return pass_kernel_for<decltype(a)::value>(dif, q, mb, direct, vec);
    });
    kernel<<<blocks, threads, 0, stream>>>(data, log_n, r, k, twiddles, twiddle_shift, roots,
                                           kmax, prefetch_twiddles, dif_partial_first);
    return cudaGetLastError();
}

cudaError_t launch_fill_powers(DeviceFr* out, size_t n, PowerTable powers, cudaStream_t stream) {
    if (n == 0) return cudaSuccess;
    fill_powers_kernel<FieldArith::kPtx><<<grid_for(n), kBlock, 0, stream>>>(out, n, powers);
    return cudaGetLastError();
}

cudaError_t launch_bit_reverse(DeviceFr* data, unsigned log_n, bool tiled, cudaStream_t stream) {
    if (log_n == 0) return cudaSuccess;
    if (tiled && log_n >= 2 * kRevTileBits) {
        bit_reverse_tiled_kernel<<<1u << (log_n - 2 * kRevTileBits), kRevThreads, 0, stream>>>(
            data, log_n);
    } else {
        bit_reverse_kernel<<<grid_for(size_t{1} << log_n), kBlock, 0, stream>>>(data, log_n);
    }
    return cudaGetLastError();
}

cudaError_t launch_scale_by_powers(DeviceFr* data, size_t n, DeviceFr c, PowerTable powers,
                                   FieldArith arith, cudaStream_t stream, unsigned reversed_log) {
    if (n == 0) return cudaSuccess;
    if (reversed_log > 0 && n != (size_t{1} << reversed_log)) return cudaErrorInvalidValue;
    const auto kernel = for_arith<ScaleByPowers>(arith);
    kernel<<<grid_for(n), kBlock, 0, stream>>>(data, n, c, powers, reversed_log);
    return cudaGetLastError();
}

cudaError_t launch_scale_by_powers_minus(DeviceFr* data, const DeviceFr* other, size_t n,
                                         DeviceFr c, PowerTable powers, FieldArith arith,
                                         cudaStream_t stream, unsigned reversed_log) {
    if (n == 0) return cudaSuccess;
    if (powers.lo == nullptr) return cudaErrorInvalidValue;
    if (reversed_log > 0 && n != (size_t{1} << reversed_log)) return cudaErrorInvalidValue;
    const auto kernel = for_arith<ScaleByPowersMinus>(arith);
    kernel<<<grid_for(n), kBlock, 0, stream>>>(data, other, n, c, powers, reversed_log);
    return cudaGetLastError();
}

cudaError_t launch_product(DeviceFr* a, const DeviceFr* b, size_t n, FieldArith arith,
                           cudaStream_t stream) {
    if (n == 0) return cudaSuccess;
    const auto kernel = for_arith<Product>(arith);
    kernel<<<grid_for(n), kBlock, 0, stream>>>(a, b, n);
    return cudaGetLastError();
}

cudaError_t launch_quotient(DeviceFr* a, const DeviceFr* b, const DeviceFr* c, size_t n,
                            DeviceFr z_inv, cudaStream_t stream) {
    if (n == 0) return cudaSuccess;
    quotient_kernel<<<grid_for(n), kBlock, 0, stream>>>(a, b, c, n, z_inv);
    return cudaGetLastError();
}

}  // namespace cuzk::gpu::detail
