// Multi-scalar multiplication over G1 on the GPU: Σ k_i·P_i with the bases resident in device
// memory. Host C++ header (no CUDA types). The CPU msm::msm is the reference it is tested
// against (same group element; the algorithm differs in its data layout, not its mathematics).
//
// Algorithm (Pippenger with signed digits, as msm/pippenger.hpp, laid out for the GPU):
//   1. digits   — one thread per scalar computes its W signed c-bit digits (carry rule of
//                 msm::SignedDigits) and writes one (key = window·h + |d| − 1, value = point
//                 index | sign) pair per non-zero digit (zero digits get a key past every
//                 bucket). h = 2^(c−1) buckets per window.
//   2. sort     — CUB radix sort of the n·W pairs by key (only the key bits in use), which
//                 groups every bucket's points together; then each bucket's [start, end).
//   3. buckets  — each thread sums a chunk of `chunk` consecutive sorted items (±P, mixed XYZZ
//                 additions): buckets wholly inside a chunk are written directly, the pieces
//                 of buckets that span chunks are added by a second kernel. (One thread per
//                 bucket instead is unbalanced: the top window has few bits, so few buckets
//                 each holding ~n/2^(bits) points — measured 1.4 s for 2^18 at c = 14.)
//   4. windows  — each window's h buckets in segments: one thread per segment forms the
//                 running sums (weights b + 1 within the window, see msm_kernels.cu), the host
//                 adds the segment results and combines windows by Horner's rule (c doublings
//                 between windows).
// Cost: n·W mixed additions (W = ⌊255/c⌋ + 1) + 2·h·W for the running sums; the sort moves
// 8·n·W bytes a few times. Memory: bases 96 B per point (resident) + per call 32 B per scalar
// + 16·n·W bytes of pairs (two buffers) + sort scratch + 192·h·W bytes of buckets.
//
// Errors: kInvalidArgument (sizes, window), kUnavailable (no device), kResourceExhausted,
// kInternal. Thread safety: calls on different DeviceG1Bases may run concurrently.
#pragma once

#include <cstddef>
#include <span>

#include "ec/curves.hpp"
#include "ff/bigint.hpp"
#include "ff/fr.hpp"
#include "util/status.hpp"

namespace cuzk::gpu {

// The window size used when GpuMsmOptions::window_bits is 0: 13 below 2^18 points, 16 below
// 2^23, 20 above (min(CPU choice, 8) below 2^12). Chosen among the c whose top window
// (255 − c·⌊255/c⌋ bits, plus the carry) is wide — 8, 15 and 15 bits — because a narrow top
// window crowds n/2^(bits − 1) points into each of its few buckets: measured on the H200,
// 2^18 points at c = 14 (3-bit top window) took 82 ms against 33 ms for 2^19 at c = 16, and
// 2^23 at c = 19 (8 bits) 305 ms against 409 ms for twice the points at c = 20.
unsigned default_window_bits(size_t n);

struct GpuMsmOptions {
    unsigned window_bits = 0;  // c; 0 = default_window_bits(n)
    unsigned chunk = 32;       // sorted items per accumulation thread (1..4096)
    static constexpr unsigned kMaxWindowBits = 22;
};

// Milliseconds per step of the last call (CUDA events; the host part of step 4 included in
// `windows`).
struct GpuMsmTimings {
    double upload = 0, digits = 0, sort = 0, buckets = 0, windows = 0, total = 0;
};

// G1 affine bases in device memory (same layout as ec::G1Affine; the identity is (0, 0)).
class DeviceG1Bases {
   public:
    DeviceG1Bases();
    ~DeviceG1Bases();
    DeviceG1Bases(DeviceG1Bases&&) noexcept;
    DeviceG1Bases& operator=(DeviceG1Bases&&) noexcept;

    static util::Result<DeviceG1Bases> upload(std::span<const ec::G1Affine> bases);
    size_t size() const { return size_; }
    const ec::G1Affine* device_data() const;

   private:
    struct Buffer;
    Buffer* buffer_ = nullptr;
    size_t size_ = 0;
};

// Σ scalars[i]·bases[i] (canonical scalars < 2^255; scalars.size() == bases.size()).
util::Result<ec::G1Jacobian> msm_g1(const DeviceG1Bases& bases,
                                    std::span<const ff::BigInt<4>> scalars,
                                    const GpuMsmOptions& options = {},
                                    GpuMsmTimings* timings = nullptr);

// Convenience: uploads the bases, converts Fr scalars, runs msm_g1.
util::Result<ec::G1Jacobian> msm_g1(std::span<const ec::G1Affine> bases,
                                    std::span<const ff::Fr> scalars,
                                    const GpuMsmOptions& options = {});

}  // namespace cuzk::gpu
