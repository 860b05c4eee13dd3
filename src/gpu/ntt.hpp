// The number-theoretic transform over Fr on the GPU — bellperson's EvaluationDomain transforms
// (fft, ifft, coset_fft, icoset_fft; see ntt/ntt.hpp, the CPU reference it must equal bit for
// bit) on device memory. Host C++ header: no CUDA types (streams are passed as CUstream_st*,
// which is what cudaStream_t names).
//
// Algorithm. m = 2^L values, natural order in and out, in place:
//   kDif (default): decimation-in-frequency stages (natural → bit-reversed order), then the
//       bit-reversal permutation;
//   kDit: the bit-reversal permutation first, then decimation-in-time stages.
// Both are run-time choices (NttOptions) and give identical results. The L radix-2 stages are
// fused into ⌈L/10⌉ passes of at most 10 stages; each pass keeps blocks of 1,024 elements in
// shared memory, so a transform reads and writes device memory ⌈L/10⌉ + 1 times (+1 for a
// scaling). Within a pass the butterflies' twiddles come from a small table of 2^10-th roots in
// shared memory; between passes each element takes one twiddle ω'^x — from the domain's
// two-level table (2^14 and 2^(L−14) entries that stay in L2, x^e = lo[e mod 2^14]·hi[e >> 14]:
// a product per lookup), from the middle pass's own table, or for the outer pass from a table
// of all m powers of ω (NttOptions::full_twiddle_table: one lookup, no product).
//   inverse: the transform with ω⁻¹, then ×m⁻¹;  coset_forward: ×g^i, then forward;
//   coset_inverse: inverse with ω⁻¹, then ×m⁻¹·g^−i (g = 7).
// The H step's inverse-then-coset-forward pairs skip the bit reversal
// (NttOptions::bit_reversal_free).
//
// Sizes: 1 ≤ m ≤ 2^kMaxLogSize. Errors: kInvalidArgument for sizes, kUnavailable without a
// device, kResourceExhausted when device memory runs out, kInternal for other CUDA errors.
// Thread safety: a NttDomain is immutable after create(); transforms on different streams may
// run concurrently.
#pragma once

#include <cstddef>
#include <memory>
#include <span>

#include "ff/fr.hpp"
#include "util/env.hpp"
#include "util/status.hpp"

struct CUstream_st;

namespace cuzk::gpu {

enum class NttAlgorithm { kDif, kDit };

struct NttOptions {
    NttAlgorithm algorithm = NttAlgorithm::kDif;
    // The field arithmetic of the passes (products, sums, differences): 32-bit limbs with PTX
    // carry chains (gpu/mont_ptx.cuh), or the 64-bit limb code shared with the host. Same
    // results; off only for comparison.
    bool ptx_mul = true;
    // The PTX products with the sparse Montgomery reduction (DeviceFr::mul_ptx_sparse: Fr's two
    // low modulus words, 1 and 2^32 − 1, as additions on the integer ALU instead of multiply-adds
    // on the FMA pipe) in the passes and the scalings. ncu, H200, 2^27 forward: the FMA pipe is
    // what bounds the passes (77 % of its cycles active); with the sparse reduction 72 %, and the
    // passes take 16.2 / 13.4 / 12.2 against 17.9 / 14.7 / 13.5 ms. Measured (2026-12-04, ms,
    // off / on): forward 48.5 / 44.3, inverse 51.2 / 46.5, coset inverse 56.2 / 50.4; with
    // full_twiddle_table 45.9 / 42.2; the Fr product (gpu-arith) 51.8 / 65.4 G/s. Same results;
    // env CUZK_FR_SPARSE_REDUCTION=0|1.
    bool sparse_reduction = util::env_switch("CUZK_FR_SPARSE_REDUCTION", true);
    // The PTX products with one level of Karatsuba before the (sparse) reduction
    // (DeviceFr::mul_ptx_karatsuba: the double-width product in 3 half-size products, 48
    // multiply-add pairs instead of 64, for ~50 additions on the integer ALU, which the passes
    // leave 60 % idle). Takes precedence over sparse_reduction. Same results; env
    // CUZK_FR_KARATSUBA=0|1. Off: on the H200 (2026-12-05, ms, sparse / Karatsuba) 2^27 forward
    // 44.26 / 60.53, coset inverse 50.29 / 68.32, 2^26 forward 20.97 / 28.24 (two rounds alike);
    // the product alone 65.4 / 52.0 G/s — the separate double-width product and REDC lose more
    // than the 16 multiply-add pairs save.
    bool karatsuba_product = util::env_switch("CUZK_FR_KARATSUBA", false);
    // Products of the butterfly passes on the FP64 pipe (gpu/mont_fp64.cuh: 52-bit limbs as
    // doubles, the limb products by fused multiply-adds, the columns summed on the integer ALU):
    // 0 none, 1 half of them (the others sparse on the FMA pipe, so that both pipes multiply),
    // 2 all. With the sparse reduction and the passes' default shape (3 register stages, staged,
    // pass_min_blocks 0); other passes and the scalings keep the sparse product. Same results;
    // env CUZK_NTT_FP64_PRODUCTS=0|1|2. Off: on an H100 (2026-12-07) the FP64 product alone
    // runs at 51.1 G/s against the sparse one's 65.4, and chains alternating the two at 58.4 —
    // their harmonic mean, so the two pipes did not overlap: both products are bound by a
    // resource they share (issue slots or the integer ALU, which the FP64 product's 64-bit
    // column sums load). 2^27 forward 43.8 / 53.4 / 64.3 ms (0 / 1 / 2), two rounds alike.
    unsigned fp64_products = util::env_unsigned("CUZK_NTT_FP64_PRODUCTS", 0);
    // DIF's butterfly differences left unreduced before their product (u − y + p in (0, 2p) as
    // the product's word operand, which still ends fully reduced: ntt_kernels.cu,
    // lazy_difference): two carry chains instead of two chains and eight masks per nontrivial
    // butterfly (SASS of the default DIF pass: 5,208 → 5,104 instructions, LOP3 220 → 136). With
    // the sparse reduction, fp64_products 0 and the passes' default shape (as fp64_products).
    // Measured (H100, 2026-12-07, ms, off / on, two rounds alike): 2^27 forward 44.05 / 43.51,
    // inverse 47.01 / 46.56, coset forward 50.06 / 49.54, coset inverse 50.10 / 49.56. Same
    // results; env CUZK_NTT_LAZY_DIFFERENCE=0|1.
    bool lazy_difference = util::env_switch("CUZK_NTT_LAZY_DIFFERENCE", true);
    // inverse_then_coset_forward (the H step's first half) without its two bit-reversal
    // passes: the inverse runs DIF into bit-reversed order, the forward that follows runs DIT
    // from it (the scaling between them indexes its powers by the reversed position);
    // `algorithm` is then ignored there. Same results; off (env CUZK_NTT_BIT_REVERSAL_FREE=0)
    // for comparison. (Fusing coset_inverse's final reordering with its scaling was measured
    // slower on the H200 — 100.7 against 94.2 ms at 2^27 — and is not done.)
    bool bit_reversal_free = util::env_switch("CUZK_NTT_BIT_REVERSAL_FREE", true);
    // Threads per block of the butterfly passes (a power of two, 32..512; env
    // CUZK_NTT_PASS_THREADS): a block owns 2^10 elements in groups of 2^register_stages, so
    // each thread handles 2^(10 − register_stages)/threads groups per round (more threads than
    // groups are not launched). 512 (before 2026-12-02) needs 66 registers a thread, which leaves
    // one block per SM, idle at every stage's barrier; fewer threads fit several blocks.
    unsigned pass_threads = util::env_unsigned("CUZK_NTT_PASS_THREADS", 256);
    // The middle pass of three (2^21 and up) reads its inter-pass twiddles ω'^x from a table of
    // ω' itself (x < 2^(k+r), 8 MiB at 2^27, forward and inverse) instead of the domain's
    // two-level table of ω (a lookup and a product per element). Same results; off (env
    // CUZK_NTT_PASS_TABLES=0) for comparison.
    bool pass_twiddle_tables = util::env_switch("CUZK_NTT_PASS_TABLES", true);
    // The outer pass (the one whose sub-problems span the whole domain: the first of DIF, the
    // last of DIT, 2^11 and up) reads its inter-pass twiddles ω^x, x < m, from a table of all m
    // powers of ω (read backwards for ω⁻¹) instead of the two-level table: one product per
    // element less, for m·32 bytes of device memory (4 GiB at 2^27) and a lookup that goes to
    // DRAM. The table is built on the device when the domain is created with this option
    // (NttDomain::create); where it does not fit, the domain goes without it. Same results;
    // env CUZK_NTT_FULL_TWIDDLE_TABLE=0|1. H200, 2^27 (ms, off / on): forward DIF 48.54 /
    // 45.83, DIT 47.91 / 45.95, inverse 51.09 / 48.42, coset forward 56.22 / 53.52 — the
    // product saved (predicted −2.5 ms). Off by default: in a 32 GiB partition pair ntt_h fell
    // 304 → 290 ms, but with 4 GiB less device memory the H MSM of every second partition spent
    // ~110 ms outside its kernels (scratch pool regrowth) and the tail MSMs ~10 ms more, so
    // the pair was no faster. Worth it where device memory is not this tight.
    bool full_twiddle_table = util::env_switch("CUZK_NTT_FULL_TWIDDLE_TABLE", false);
    // A full table held by the caller for a stretch of work instead of by the domain: m
    // device-resident Fr, ω^e at index e, as NttDomain::fill_full_twiddles writes them (null:
    // none). Where set, the outer pass reads it (for ω⁻¹ backwards, as the domain's) whatever
    // full_twiddle_table says. Per call, not from the environment.
    const ff::Fr* full_twiddles = nullptr;
    // The H step (gpu/h_poly.hpp) takes a full table from the device's ScratchPool — the MSM's
    // pool of temporaries — for its six transforms and gives it back before the H MSM, which
    // reuses the memory; so the outer pass saves its product without the 4 GiB staying
    // resident (the reason full_twiddle_table is off). Cost: one fill of m powers per H step
    // (a product and a 32-byte write per element). Left out where the pool cannot supply the
    // memory or the domain has its own table. Same results; env CUZK_H_POOLED_TWIDDLE_TABLE.
    bool h_pooled_twiddle_table = util::env_switch("CUZK_H_POOLED_TWIDDLE_TABLE", true);
    // With the full table, DIF's outer pass asks L2 for each element's twiddle when it loads
    // the element (it reads the twiddle only after the inner DFT). Env
    // CUZK_NTT_TWIDDLE_PREFETCH=0|1. Off: 2^27 forward 46.68 ms against 45.83 without — the
    // lookups were not waiting on DRAM; the prefetches only cost issue slots.
    bool twiddle_prefetch = util::env_switch("CUZK_NTT_TWIDDLE_PREFETCH", false);
    // Butterfly stages a thread runs in registers between two trips through shared memory
    // (1..3; env CUZK_NTT_REGISTER_STAGES): each thread group holds 2^register_stages
    // elements, so a pass of k stages takes ⌈k / register_stages⌉ barriers and shared-memory
    // round trips instead of k. 1 is the radix-2 pass of 2026-12-02 and before. Same results.
    unsigned register_stages = util::env_unsigned("CUZK_NTT_REGISTER_STAGES", 3);
    // Occupancy of the passes with 3 register stages (env CUZK_NTT_PASS_MIN_BLOCKS = 0|5|6):
    // 0 bounds them to 128 registers for 4 blocks of 128 threads per SM (16 warps) with the
    // inner DFT's twiddles in shared memory; 5 or 6 bound them to at most 102 or 85 registers
    // for 5 or 6 blocks, the twiddles read through L1 (the blocks' shared memory would not fit
    // otherwise).
    // ncu, H200, 2^27 forward (2026-12-04): the 4-block passes issue an instruction every ~10
    // cycles per warp with 4 warps per scheduler — FMA pipe 38 %, issue slots 40 % busy —, so
    // more warps were expected to hide the products' latency. Measured (2^27 forward, ms, 0 /
    // 5 / 6): 48.6 / 55.2 / 61.9 — slower: ptxas gives 96 and 80 registers, the issue slots
    // stay ~35 % busy and the occupancy only reaches 31 / 37 %. Off (0). PTX arithmetic only
    // (ptx_mul); the same results.
    unsigned pass_min_blocks = util::env_unsigned("CUZK_NTT_PASS_MIN_BLOCKS", 0);
    // The butterfly passes' first register round loads its elements from device memory straight
    // into registers (all of a thread's loads in flight at once) and the last round stores
    // straight back, instead of a copy loop into shared memory before the rounds and one out
    // after them (env CUZK_NTT_DIRECT_ROUNDS=0|1). ncu, H200, 2^27 forward (2026-12-04): the
    // staged passes' warps stall on device-memory loads ~20 % of the time (the copy loop
    // waits for each element before it asks for the next) and issue at 40 % of the slots.
    // Used where each thread holds one group (pass_threads ≥ groups, as by default) with the
    // PTX arithmetic and pass_min_blocks 0. Same results. Measured (2^27 forward, ms, two rounds
    // alike): staged 48.5, direct 50.6 with 3 register stages (the long-scoreboard stalls halved,
    // but ptxas schedules the rounds' products worse), 48.2 with 2 (80 registers, 3 blocks of
    // 256 threads per SM); DIT direct 53.2 against 48.0 (its first round's loads are 256-byte
    // strided); with the sparse reduction, staged 44.3 and direct (2 stages) 44.5. Off.
    bool direct_rounds = util::env_switch("CUZK_NTT_DIRECT_ROUNDS", false);
    // The staged passes (3 register stages, sparse PTX products) move elements and table
    // twiddles between device memory and registers in 16-byte accesses (two per element instead
    // of four 8-byte ones) and batch them: the copy into shared memory asks for four elements
    // before it stores any, the copy out handles two (with their twiddle lookups) at a time, and
    // a two-level lookup always multiplies by its hi entry (1 for small exponents), so no branch
    // splits the batch. SASS (sm_90) of the pass before: one element per loop trip, each load
    // waited for before the next is asked, four LDG.E.64 per element and per table entry.
    // Pointers not 16-byte aligned get that pass. Same results; env CUZK_NTT_VECTOR_IO=0|1.
    // On since 2026-12-06: H100, 2^27 (ms, off / on, two rounds alike) forward 44.92 / 43.90,
    // inverse 47.93 / 46.89, coset inverse 51.00 / 49.97; with full_twiddle_table forward
    // 43.01 / 41.62; in 32 GiB partitions ntt_h 270 → 260 ms.
    bool vector_io = util::env_switch("CUZK_NTT_VECTOR_IO", true);
    // The bit-reversal permutation through shared-memory tiles (runs of 16 elements in both
    // directions) instead of a swap per element pair (env CUZK_NTT_TILED_BIT_REVERSE=0 for
    // comparison). Same results.
    bool tiled_bit_reverse = util::env_switch("CUZK_NTT_TILED_BIT_REVERSE", true);
    // DIF passes whose stage count k is not a multiple of the register rounds' width q run their
    // round of k mod q stages first, at the top f bits, instead of last: their last window then
    // starts at f bit 0, where a twiddle is known at compile time and the trivial ones (a
    // share 2^−b of stage b) are skipped (ntt_kernels.cu). Counted products per element with
    // q = 3 (inner stages + inter-pass twiddles + the outer pass's two-level lookup), off → on:
    // 2^20 (passes 10+10) 11.0 → 10.25, 2^21 (7+7+7) 12.0 → 10.875, 2^22 12.25 → 11.375, 2^23
    // 12.5 → 11.875, 2^24 12.75 → 12.375, 2^26 13.5 → 13.375; 2^27 (9+9+9) none. Measured
    // (H200, 2026-12-06, forward ms, off / on): 2^20 0.320 / 0.302, 2^22 1.208 / 1.137, 2^24
    // 4.861 / 4.659, 2^26 20.571 / 20.332, 2^27 43.33 / 43.28. Same results; env
    // CUZK_NTT_DIF_PARTIAL_FIRST=0|1.
    bool dif_partial_round_first = util::env_switch("CUZK_NTT_DIF_PARTIAL_FIRST", true);
    // The H step (gpu/h_poly.hpp) in six transforms instead of seven: c never goes to the coset.
    // The last step is linear, so icoset((a·b − c)/z) = (icoset(a·b) − c_coef)/z with c_coef =
    // iNTT(c); c only needs its inverse transform. Same results (exact field arithmetic); off
    // (env CUZK_H_SIX_TRANSFORMS=0) for comparison.
    bool h_six_transforms = util::env_switch("CUZK_H_SIX_TRANSFORMS", true);
};

// Twiddle and coset tables for one domain size, resident on the current device (about 2 MB;
// plus m·32 bytes with NttOptions::full_twiddle_table).
class NttDomain {
   public:
    static constexpr unsigned kMaxLogSize = 28;

    // `options` decides which tables are built (full_twiddle_table); transforms may then run
    // with any options (one asking for a table the domain lacks uses the two-level one).
    static util::Result<std::unique_ptr<NttDomain>> create(unsigned log_size,
                                                           const NttOptions& options = {});
    // Whether the full twiddle table was built (asked for, 2^11 and up, and it fit).
    bool has_full_twiddle_table() const;
    // Whether transforms of this size have an outer pass (2^11 and up), the only reader of a
    // full twiddle table.
    bool uses_full_twiddles() const;
    // ω^e for every e < m into `out` (m device-resident Fr), enqueued on `stream`: a full table
    // for NttOptions::full_twiddles.
    util::Status fill_full_twiddles(ff::Fr* out, CUstream_st* stream) const;
    ~NttDomain();
    NttDomain(const NttDomain&) = delete;
    NttDomain& operator=(const NttDomain&) = delete;

    unsigned log_size() const { return log_size_; }
    size_t size() const { return size_t{1} << log_size_; }

    // In place on `data`, m device-resident Fr (same layout as ff::Fr). Enqueued on `stream`
    // (nullptr = the default stream); asynchronous — launch errors are returned, execution
    // errors surface at the next synchronisation.
    util::Status forward(ff::Fr* data, CUstream_st* stream, const NttOptions& options = {}) const;
    util::Status inverse(ff::Fr* data, CUstream_st* stream, const NttOptions& options = {}) const;
    util::Status coset_forward(ff::Fr* data, CUstream_st* stream,
                               const NttOptions& options = {}) const;
    util::Status coset_inverse(ff::Fr* data, CUstream_st* stream,
                               const NttOptions& options = {}) const;

    // The H step's fused pieces (gpu/h_poly.hpp): the inverse transform followed by
    // coefficient i ×= g^i/m (iNTT then the coset shift, one scaling pass) and then the
    // forward transform — i.e. inverse then coset_forward, with one pass less.
    util::Status inverse_then_coset_forward(ff::Fr* data, CUstream_st* stream,
                                            const NttOptions& options = {}) const;
    // a[i] ← (a[i]·b[i] − c[i])·(g^m − 1)⁻¹ for i < m (divide_by_z_on_coset of a·b − c).
    util::Status quotient_on_coset(ff::Fr* a, const ff::Fr* b, const ff::Fr* c,
                                   CUstream_st* stream) const;

    // a[i] ← a[i]·b[i] for i < m (the coset-Lagrange H step's scalars, gpu/h_poly.hpp).
    util::Status multiply_pointwise(ff::Fr* a, const ff::Fr* b, CUstream_st* stream,
                                    const NttOptions& options = {}) const;

    // The six-transform H step's second half (NttOptions::h_six_transforms): a and b hold
    // their evaluations on the coset, c its evaluations on the domain (all natural order);
    // afterwards a holds (icoset(a·b) − iNTT(c))·(g^m − 1)⁻¹ — H's coefficients — and c is
    // clobbered. Two inverse transforms and two element-wise passes.
    util::Status h_from_coset_product(ff::Fr* a, const ff::Fr* b, ff::Fr* c, CUstream_st* stream,
                                      const NttOptions& options = {}) const;

   private:
    struct Tables;
    explicit NttDomain(unsigned log_size);
    util::Status transform(ff::Fr* data, CUstream_st* stream, bool inverse_roots,
                           const NttOptions& options, bool reorder = true) const;

    unsigned log_size_;
    std::unique_ptr<Tables> tables_;
};

// Host convenience (tests, tools): upload `a` (a power-of-two length), transform on the
// device, download into `a`. Synchronous.
util::Status ntt_forward(std::span<ff::Fr> a, const NttOptions& options = {});
util::Status ntt_inverse(std::span<ff::Fr> a, const NttOptions& options = {});
util::Status ntt_coset_forward(std::span<ff::Fr> a, const NttOptions& options = {});
util::Status ntt_coset_inverse(std::span<ff::Fr> a, const NttOptions& options = {});

}  // namespace cuzk::gpu
