// NTT kernels over Fr: fused radix-2 butterfly passes in shared memory, the bit-reversal
// permutation and scaling by powers (coset shifts, 1/m). Launch plans are in ntt.cpp.
#include "gpu/ntt_launch.hpp"

namespace cuzk::gpu::detail {

namespace {

constexpr unsigned kMaxBlockElements = 1u << kPassLogElements;

// The field arithmetic on the chosen path (NttOptions::ptx_mul): 32-bit PTX or 64-bit limbs.
template <bool kPtx>
struct Arith {
    static constexpr auto mul = kPtx ? &DeviceFr::mul_ptx : &DeviceFr::mul_wide;
    static constexpr auto add = kPtx ? &DeviceFr::add_ptx : &DeviceFr::add_wide;
    static constexpr auto sub = kPtx ? &DeviceFr::sub_ptx : &DeviceFr::sub_wide;
};
template <bool kPtx>
__device__ __forceinline__ DeviceFr mul(const DeviceFr& a, const DeviceFr& b) {
    return Arith<kPtx>::mul(a, b);
}
template <bool kPtx>
__device__ __forceinline__ DeviceFr add(const DeviceFr& a, const DeviceFr& b) {
    return Arith<kPtx>::add(a, b);
}
template <bool kPtx>
__device__ __forceinline__ DeviceFr sub(const DeviceFr& a, const DeviceFr& b) {
    return Arith<kPtx>::sub(a, b);
}

template <bool kPtx>
__device__ DeviceFr power(PowerTable t, uint64_t e) {
    const uint64_t hi = e >> t.lo_bits;
    const DeviceFr lo = t.lo[e & ((uint64_t{1} << t.lo_bits) - 1)];
    return hi == 0 ? lo : mul<kPtx>(lo, t.hi[hi]);
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
// (shift 0; then x < 2^(k+r) needs no product). The inner DFT's twiddles are
// 2^k-th roots of unity, read from a table of 2^(kmax−1) entries in shared memory; the
// inter-pass twiddle (none when r = 0) costs one table lookup and product per element.
template <bool kDif, bool kPtx>
__global__ void ntt_pass_kernel(DeviceFr* data, unsigned log_n, unsigned r, unsigned k,
                                PowerTable tw, unsigned twiddle_shift, const DeviceFr* roots,
                                unsigned kmax) {
    __shared__ DeviceFr s[kMaxBlockElements];
    __shared__ DeviceFr w_small[kMaxBlockElements / 2];
    const unsigned eb = log_n < kPassLogElements ? log_n : kPassLogElements;
    const unsigned t = (r < eb - k) ? r : eb - k;
    const unsigned hl_bits = eb - k - t;
    const uint64_t blk = blockIdx.x;
    const uint64_t blk_lane = blk & ((uint64_t{1} << (r - t)) - 1);
    const uint64_t blk_high = blk >> (r - t);
    const unsigned half = 1u << (eb - 1);

    for (unsigned j = threadIdx.x; j < (1u << (kmax - 1)); j += blockDim.x) w_small[j] = roots[j];

    auto global_index = [&](unsigned e) -> uint64_t {
        const uint64_t ll = e & ((1u << t) - 1);
        const uint64_t f = (e >> t) & ((1u << k) - 1);
        const uint64_t hl = e >> (t + k);
        return (((blk_high << hl_bits) | hl) << (k + r)) | (f << r) | ((blk_lane << t) | ll);
    };
    // ω'^(lane·rev_k(f)) for local element e (only called when r > 0).
    auto inter_pass_twiddle = [&](unsigned e) -> DeviceFr {
        const uint64_t f = (e >> t) & ((1u << k) - 1);
        const uint64_t lane = (blk_lane << t) | (e & ((1u << t) - 1));
        const uint64_t rev_f = __brevll(f) >> (64 - k);
        return power<kPtx>(tw, (lane * rev_f) << twiddle_shift);
    };

    for (unsigned e = threadIdx.x; e < (1u << eb); e += blockDim.x) {
        DeviceFr x = data[global_index(e)];
        if (!kDif && r > 0) x = mul<kPtx>(x, inter_pass_twiddle(e));
        s[e] = x;
    }

    for (unsigned step = 0; step < k; ++step) {
        const unsigned b = kDif ? k - 1 - step : step;
        __syncthreads();
        for (unsigned j = threadIdx.x; j < half; j += blockDim.x) {
            const unsigned pos = t + b;
            const unsigned e0 = ((j >> pos) << (pos + 1)) | (j & ((1u << pos) - 1));
            const unsigned e1 = e0 | (1u << pos);
            const unsigned f = (e0 >> t) & ((1u << k) - 1);
            const DeviceFr u = s[e0];
            const DeviceFr v = s[e1];
            if (b == 0) {  // the twiddle is ω^0 = 1
                s[e0] = add<kPtx>(u, v);
                s[e1] = sub<kPtx>(u, v);
                continue;
            }
            const DeviceFr w = w_small[(f & ((1u << b) - 1)) << (kmax - 1 - b)];
            if (kDif) {
                s[e0] = add<kPtx>(u, v);
                s[e1] = mul<kPtx>(sub<kPtx>(u, v), w);
            } else {
                const DeviceFr vw = mul<kPtx>(v, w);
                s[e0] = add<kPtx>(u, vw);
                s[e1] = sub<kPtx>(u, vw);
            }
        }
    }
    __syncthreads();
    for (unsigned e = threadIdx.x; e < (1u << eb); e += blockDim.x) {
        DeviceFr x = s[e];
        if (kDif && r > 0) x = mul<kPtx>(x, inter_pass_twiddle(e));
        data[global_index(e)] = x;
    }
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

// c·x^e (c alone without a table).
template <bool kPtx>
__device__ __forceinline__ DeviceFr scale_factor(DeviceFr c, PowerTable powers, uint64_t e) {
    return powers.lo != nullptr ? mul<kPtx>(c, power<kPtx>(powers, e)) : c;
}

// Position i holds element rev(i) when reversed_log > 0 (the exponent follows the element).
template <bool kPtx>
__global__ void scale_by_powers_kernel(DeviceFr* data, size_t n, DeviceFr c, PowerTable powers,
                                       unsigned reversed_log) {
    const size_t stride = size_t{gridDim.x} * blockDim.x;
    for (size_t i = size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride) {
        const uint64_t e = reversed_log > 0 ? __brevll(i) >> (64 - reversed_log) : i;
        data[i] = mul<kPtx>(data[i], scale_factor<kPtx>(c, powers, e));
    }
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

cudaError_t launch_ntt_pass(DeviceFr* data, unsigned log_n, unsigned r, unsigned k, bool dif,
                            bool ptx, PowerTable twiddles, unsigned twiddle_shift,
                            const DeviceFr* roots, unsigned threads, cudaStream_t stream) {
    const unsigned eb = log_n < kPassLogElements ? log_n : kPassLogElements;
    if (k == 0 || k > eb || r + k > log_n) return cudaErrorInvalidValue;
    if (threads < 32 || threads > kMaxBlockElements / 2 || (threads & (threads - 1)) != 0)
        return cudaErrorInvalidValue;
    const unsigned kmax = eb;
    const unsigned blocks = 1u << (log_n - eb);
    const unsigned butterflies = eb == 0 ? 1 : (1u << (eb - 1));
    if (threads > butterflies) threads = butterflies;
    auto kernel = dif ? (ptx ? ntt_pass_kernel<true, true> : ntt_pass_kernel<true, false>)
                      : (ptx ? ntt_pass_kernel<false, true> : ntt_pass_kernel<false, false>);
    kernel<<<blocks, threads, 0, stream>>>(data, log_n, r, k, twiddles, twiddle_shift, roots,
                                           kmax);
    return cudaGetLastError();
}

cudaError_t launch_bit_reverse(DeviceFr* data, unsigned log_n, cudaStream_t stream) {
    if (log_n == 0) return cudaSuccess;
    bit_reverse_kernel<<<grid_for(size_t{1} << log_n), kBlock, 0, stream>>>(data, log_n);
    return cudaGetLastError();
}

cudaError_t launch_scale_by_powers(DeviceFr* data, size_t n, DeviceFr c, PowerTable powers,
                                   bool ptx, cudaStream_t stream, unsigned reversed_log) {
    if (n == 0) return cudaSuccess;
    if (reversed_log > 0 && n != (size_t{1} << reversed_log)) return cudaErrorInvalidValue;
    auto kernel = ptx ? scale_by_powers_kernel<true> : scale_by_powers_kernel<false>;
    kernel<<<grid_for(n), kBlock, 0, stream>>>(data, n, c, powers, reversed_log);
    return cudaGetLastError();
}

cudaError_t launch_quotient(DeviceFr* a, const DeviceFr* b, const DeviceFr* c, size_t n,
                            DeviceFr z_inv, cudaStream_t stream) {
    if (n == 0) return cudaSuccess;
    quotient_kernel<<<grid_for(n), kBlock, 0, stream>>>(a, b, c, n, z_inv);
    return cudaGetLastError();
}

}  // namespace cuzk::gpu::detail
