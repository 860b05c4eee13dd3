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
// scaling). Twiddles ω^e (e < m/2) come from two tables of 2^14 and 2^(L−15) entries that stay
// in L2 (x^e = lo[e mod 2^14]·hi[e >> 14]): one extra product per butterfly instead of a
// 2^(L−1)-entry table (2 GiB at L = 27) read once per butterfly.
//   inverse: the transform with ω⁻¹, then ×m⁻¹;  coset_forward: ×g^i, then forward;
//   coset_inverse: inverse with ω⁻¹, then ×m⁻¹·g^−i (g = 7).
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
#include "util/status.hpp"

struct CUstream_st;

namespace cuzk::gpu {

enum class NttAlgorithm { kDif, kDit };

struct NttOptions {
    NttAlgorithm algorithm = NttAlgorithm::kDif;
    // The field product: 32-bit limbs with PTX carry chains (gpu/mont_ptx.cuh), or the 64-bit
    // limb code shared with the host. Same results; off only for comparison.
    bool ptx_mul = true;
};

// Twiddle and coset tables for one domain size, resident on the current device (about 2 MB).
class NttDomain {
   public:
    static constexpr unsigned kMaxLogSize = 28;

    static util::Result<std::unique_ptr<NttDomain>> create(unsigned log_size);
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

   private:
    struct Tables;
    explicit NttDomain(unsigned log_size);
    util::Status transform(ff::Fr* data, CUstream_st* stream, bool inverse_roots,
                           const NttOptions& options) const;

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
