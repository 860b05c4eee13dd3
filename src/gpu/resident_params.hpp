// A Groth16 .params file resident for the prover: loaded once, kept across proofs.
//
// load(path): the file is memory-mapped and inspected (groth16::inspect_params: every count
// checked against the file size before anything is allocated); the verifying key (α, β, γ, δ,
// ic) is decoded onto the host; the five query sections h, l, a, b_g1 (G1) and b_g2 (G2) are
// decoded in chunks — each chunk's points in parallel on a util::ThreadPool, with the same
// checks as groth16::read_params_file (encoding flags, canonical coordinates, curve equation,
// optional subgroup check, identity rejected) — and placed:
//   kDevice     one cudaMalloc per section; chunks are decoded into one half of a pinned staging
//               buffer (from a PinnedPool, reused across loads) while the other half's
//               cudaMemcpyAsync runs, so decoding chunk k+1 overlaps uploading chunk k;
//   kPinnedHost decoded straight into mapped pinned host memory (cudaHostAllocMapped): kernels
//               read it over the bus — the fallback when the device is too small;
//   kAuto       kDevice when cudaMemGetInfo's free memory ≥ resident bytes + margin, else
//               kPinnedHost.
// Representation: each section is a contiguous array of ec::G1Affine / ec::G2Affine (Fp limbs
// little-endian, Montgomery form; identity (0, 0) — never present here), the layout of
// groth16::Parameters and of gpu::DeviceG1Bases, at a device-accessible address (section()).
// A section with no points has a null pointer. Sections are immutable after load; the object
// frees them on destruction.
//
// With options.coset_bases_file, h and l are read from that file instead (see the option).
// Errors (util::Status) name the file and the section/field and point, as read_params_file
// does: "<path>: params: section l, point 12: G1 uncompressed encoding: point is not on the
// curve"; IO_ERROR for the file system; kResourceExhausted when memory cannot be had;
// kUnavailable without a device. Nothing is left allocated after a failed load.
// Thread safety: load() calls may run concurrently (the decode loops share the pool, which
// serializes them); a loaded object is read-only and may be shared between threads.
// Host C++ header (no CUDA types).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ec/curves.hpp"
#include "ec/encoding.hpp"
#include "groth16/coset_bases.hpp"
#include "groth16/keys.hpp"
#include "groth16/params_io.hpp"
#include "groth16/prover_parts.hpp"
#include "util/status.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::gpu {

class PinnedPool;

enum class Placement : uint8_t { kAuto, kDevice, kPinnedHost };
const char* placement_name(Placement p);  // "auto", "device", "pinned-host"

// A device-accessible array (device memory or mapped pinned host memory).
template <class P>
struct DeviceSpan {
    const P* data = nullptr;
    size_t size = 0;
    size_t size_bytes() const { return size * sizeof(P); }
};

// Reported after each chunk: the section being loaded and the totals so far.
struct LoadProgress {
    groth16::Section section;
    uint64_t section_points_done = 0;
    uint64_t section_points = 0;
    uint64_t bytes_done = 0;   // resident bytes placed so far, all sections
    uint64_t bytes_total = 0;  // resident bytes of all five sections
};

struct ResidentLoadOptions {
    ec::SubgroupCheck subgroup_check = ec::SubgroupCheck::kCheck;
    Placement placement = Placement::kAuto;
    uint64_t device_margin_bytes = uint64_t{2} << 30;   // kAuto keeps this much free
    size_t staging_chunk_bytes = size_t{64} << 20;      // per staging half (at least one point)
    std::function<void(const LoadProgress&)> progress;  // called on the loading thread
    util::ThreadPool* pool = nullptr;                   // nullptr: util::ThreadPool::global()
    PinnedPool* staging = nullptr;                      // nullptr: PinnedPool::global()
    // A file of converted H bases made from this .params file (groth16/coset_bases_file.hpp):
    // h, l and the inputs' C points come from it instead of the file's monomial h and l — copied
    // as they lie, checked by its digests, its source (the file's verifying key and size) and
    // counts — and the set is coset-Lagrange. Errors name the converted file. Empty: none.
    std::string coset_bases_file;
};

// Milliseconds per step of a load, and its throughput.
struct ResidentLoadTimings {
    double map_ms = 0;       // mmap + inspect
    double vk_ms = 0;        // verifying key decode
    double allocate_ms = 0;  // section memory (+ staging)
    double decode_ms = 0;    // decoding chunks (host, parallel)
    double wait_ms = 0;      // waiting for uploads (not hidden behind decoding)
    double total_ms = 0;
    uint64_t file_bytes = 0;
    uint64_t resident_bytes = 0;
    double gb_per_s = 0;  // file_bytes / total, 10^9 bytes per second
    Placement placement = Placement::kAuto;
};

// Bytes the five sections occupy when resident (sizeof(G1Affine) / sizeof(G2Affine) per point).
uint64_t params_resident_bytes(const groth16::FileLayout& layout);

class ResidentParams {
   public:
    static util::Result<ResidentParams> load(const std::string& path,
                                             const ResidentLoadOptions& options = {},
                                             ResidentLoadTimings* timings = nullptr);

    // An empty set with storage for these point counts (h, l, a, b_g1, b_g2 — the order of the
    // accessors below) at `placement` (kAuto decides as load() does), the points unwritten: for
    // generators (gpu/resident_setup.hpp) that fill the sections through writable_g1() /
    // writable_b_g2() before the object is shared. `label` is reported as path().
    static util::Result<ResidentParams> allocate(std::string label, groth16::VerifyingKey vk,
                                                 const std::array<uint64_t, 5>& counts,
                                                 Placement placement = Placement::kAuto,
                                                 uint64_t device_margin_bytes = uint64_t{2} << 30);

    ResidentParams();
    ~ResidentParams();
    ResidentParams(ResidentParams&&) noexcept;
    ResidentParams& operator=(ResidentParams&&) noexcept;

    const std::string& path() const { return path_; }
    const groth16::VerifyingKey& vk() const { return vk_; }
    Placement placement() const { return placement_; }  // kDevice or kPinnedHost
    uint64_t resident_bytes() const { return resident_bytes_; }
    uint64_t device_bytes() const { return placement_ == Placement::kDevice ? resident_bytes_ : 0; }

    DeviceSpan<ec::G1Affine> h() const { return g1_[0]; }
    DeviceSpan<ec::G1Affine> l() const { return g1_[1]; }
    DeviceSpan<ec::G1Affine> a() const { return g1_[2]; }
    DeviceSpan<ec::G1Affine> b_g1() const { return g1_[3]; }
    DeviceSpan<ec::G2Affine> b_g2() const { return b_g2_; }
    // h, l, a or b_g1; an empty span for the others.
    DeviceSpan<ec::G1Affine> g1_section(groth16::Section s) const;

    // The H bases (groth16/coset_bases.hpp): kMonomial, a .params file's (h: m − 1 points), or
    // kCosetLagrange, derived (h: the m bases Q, l with C folded in, and the inputs' C points
    // in c_input(), on the host — one per input, ONE first; empty for kMonomial).
    groth16::HBasis h_basis() const { return h_basis_; }
    const std::vector<ec::G1Affine>& c_input() const { return c_input_; }
    size_t domain_size() const {
        return h_basis_ == groth16::HBasis::kCosetLagrange ? h().size : h().size + 1;
    }
    size_t num_aux() const { return l().size; }
    // The counts as a parameter file's (h: domain_size() − 1 whatever the basis).
    groth16::ParamsShape shape() const;

    // Copies a section back to the host (tests, diagnostics); synchronous.
    util::Result<std::vector<ec::G1Affine>> download_g1(groth16::Section s) const;
    util::Result<std::vector<ec::G2Affine>> download_b_g2() const;

    // Device-accessible writable section pointers (null for an empty section); generators only.
    ec::G1Affine* writable_g1(groth16::Section s);
    ec::G2Affine* writable_b_g2();
    // Replaces G1 section `s` by storage for `count` points at the same placement, unwritten (the
    // old points are freed first); generators only (the coset-Lagrange conversion grows h by one).
    // Returns the writable pointer (null for count 0). On error the section is empty.
    util::Result<ec::G1Affine*> reallocate_g1(groth16::Section s, uint64_t count);
    // Declares the sections coset-Lagrange bases (h holds m points), with the inputs' C points;
    // generators only. Errors: c_input not one per ic point (kInvalidArgument).
    util::Status set_coset_lagrange(std::vector<ec::G1Affine> c_input);

   private:
    struct Storage;
    static util::Result<Placement> choose_placement(Placement requested, uint64_t resident_bytes,
                                                    uint64_t device_margin_bytes);
    util::Status allocate_sections(const std::array<uint64_t, 5>& counts);

    std::string path_;
    groth16::VerifyingKey vk_;
    Placement placement_ = Placement::kAuto;
    uint64_t resident_bytes_ = 0;
    groth16::HBasis h_basis_ = groth16::HBasis::kMonomial;
    std::vector<ec::G1Affine> c_input_;
    std::unique_ptr<Storage> storage_;
    DeviceSpan<ec::G1Affine> g1_[4];
    DeviceSpan<ec::G2Affine> b_g2_;
};

}  // namespace cuzk::gpu
