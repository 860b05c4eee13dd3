// A file of converted H bases: the sections of a parameter set that the coset-Lagrange conversion
// replaces (groth16/coset_bases.hpp: h = the m bases Q, l = L − S, the inputs' C points), kept on
// disk so that a parameter file is converted once per machine rather than once per process and
// device (the conversion takes minutes at 32 GiB; reading this file, seconds). The sections the
// conversion leaves alone (a, b_g1, b_g2, the verifying key) still come from the .params file.
//
// Layout (cuzk's own; little-endian integers; a cache, not an exchange format):
//   0     8 bytes  magic "cuzk-clb"
//   8     u32      version (kCosetBasesFileVersion)
//   12    u32      header bytes (kCosetBasesHeaderBytes: the payload starts there)
//   16    32 bytes source: SHA-256 of the source .params file's verifying-key prefix (its bytes up
//                  to the end of ic: α, β, γ, δ and ic are drawn afresh by every setup, so they
//                  name the parameter set)
//   48    u64      the source file's size in bytes
//   56    u64      m, the domain size (points of h)
//   64    u64      aux (points of l)
//   72    u64      inputs (points of c_input; ONE first)
//   80    u64      block points (kCosetBasesBlockPoints)
//   88    32 bytes payload digest: SHA-256 of the concatenated SHA-256 digests of the payload's
//                  blocks (each section cut into blocks of `block points` points from its start,
//                  the last one shorter), h's blocks, then l's, then c_input's
//   120   32 bytes header digest: SHA-256 of bytes [0, 120)
//   152   zeros up to the header bytes
//   then  h, l, c_input: each point an ec::G1Affine as it lies in memory (x then y, each Fp's
//         six 64-bit limbs little-endian in Montgomery form: 96 bytes), no gaps.
// The points are the device's own representation, so a load is a copy with no decoding or
// curve checks; the digests catch a damaged or truncated file, and a change of representation
// must bump the version.
//
// Writing (CosetBasesWriter): the directory is created if missing; the payload goes to
// "<path>.tmp.<pid>.<n>", the header last, then
// the file is renamed over <path>, so a reader never sees a half-written file under its name.
// Errors are util::Status naming the path: IO_ERROR for the file system, INVALID_ARGUMENT for a
// file that is not one of these, is of another version, or whose digests or counts disagree
// (the loader then converts again and overwrites it).
// Thread safety: a writer or a PayloadDigest is used by one thread at a time (its pool runs the
// block hashes in parallel); the free functions are pure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>

#include "ec/curves.hpp"
#include "util/sha256.hpp"
#include "util/status.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::groth16 {

inline constexpr uint32_t kCosetBasesFileVersion = 1;
inline constexpr uint32_t kCosetBasesHeaderBytes = 4096;
inline constexpr uint64_t kCosetBasesBlockPoints = uint64_t{1} << 15;  // 3 MiB of points

struct CosetBasesHeader {
    util::Sha256Digest source{};  // of the .params file's verifying-key prefix
    uint64_t source_bytes = 0;
    uint64_t domain = 0;  // m
    uint64_t aux = 0;
    uint64_t inputs = 0;
    util::Sha256Digest payload{};

    uint64_t payload_points() const { return domain + aux + inputs; }
    uint64_t file_bytes() const;  // header bytes + 96 per point
    bool operator==(const CosetBasesHeader&) const = default;
};

// The source fields of a .params file in memory: the SHA-256 of its verifying-key prefix and its
// size (errors: groth16::inspect_params').
util::Result<CosetBasesHeader> coset_bases_source(std::span<const uint8_t> params_file);

// Encodes / decodes the header's kCosetBasesHeaderBytes bytes. decode checks the magic, the
// version, the header size and digest, the block size, and that the counts fit (m a power of two,
// inputs ≥ 1); messages name what differs ("coset bases file: version 7, expected 1").
void encode_coset_bases_header(const CosetBasesHeader& h, std::span<uint8_t> out);
util::Result<CosetBasesHeader> decode_coset_bases_header(std::span<const uint8_t> in);

// The header of a whole file in memory (mapped), checked: decoded as above, the file's size equal
// to file_bytes() (else "truncated"), and the source and counts equal to `expected`'s (source,
// source_bytes, domain, aux, inputs: a file made from another parameter set, or a set of other
// counts, is refused naming what differs). The payload digest is the reader's to check.
util::Result<CosetBasesHeader> open_coset_bases(std::span<const uint8_t> file,
                                                const CosetBasesHeader& expected);
// Section 0 (h), 1 (l) or 2 (c_input) of a file open_coset_bases accepted.
std::span<const ec::G1Affine> coset_bases_section(std::span<const uint8_t> file,
                                                  const CosetBasesHeader& h, unsigned section);

// The payload digest, fed in order with runs of whole blocks of one section (a run may end with
// the section's last, shorter block; the next section starts a new block). The blocks of one
// update are hashed in parallel on the pool.
class PayloadDigest {
   public:
    explicit PayloadDigest(util::ThreadPool* pool = nullptr);
    // `points` must start a block of the current section; `section_end`: it ends the section
    // (else its size must be a multiple of kCosetBasesBlockPoints). kInvalidArgument otherwise.
    // With copy_to, each block is first copied there (copy_to[i] = points[i]) and hashed from
    // the copy: a reader's copy and check in one parallel pass.
    util::Status update(std::span<const ec::G1Affine> points, bool section_end,
                        ec::G1Affine* copy_to = nullptr);
    util::Sha256Digest final();

   private:
    util::ThreadPool* pool_;
    util::Sha256 outer_;
};

// The points per chunk for streaming a section: chunk_bytes worth, rounded down to whole blocks
// (at least one block).
uint64_t coset_bases_chunk_points(size_t chunk_bytes);

class CosetBasesWriter {
   public:
    // Opens "<path>.tmp.<pid>.<n>" for writing the payload of a file with these counts
    // (header.payload is computed, the rest taken as given).
    static util::Result<CosetBasesWriter> create(const std::string& path,
                                                 const CosetBasesHeader& header,
                                                 util::ThreadPool* pool = nullptr);
    CosetBasesWriter(CosetBasesWriter&&) noexcept;
    CosetBasesWriter& operator=(CosetBasesWriter&&) noexcept;
    ~CosetBasesWriter();  // an unfinished file is removed

    // Appends points of h, then l, then c_input, in runs as PayloadDigest::update takes them;
    // a section's last run must say so. kInvalidArgument past a section's count.
    util::Status append(std::span<const ec::G1Affine> points, bool section_end);
    // Checks that every point came, writes the header, flushes, renames over the path.
    util::Status finish();

   private:
    CosetBasesWriter() = default;
    void discard();  // closes and removes an unfinished temporary
    util::Status io_error(const char* what) const;
    std::string path_, tmp_;
    std::FILE* file_ = nullptr;
    CosetBasesHeader header_;
    uint64_t written_ = 0;
    unsigned section_ = 0;  // 0 h, 1 l, 2 c_input, 3 done
    uint64_t section_done_ = 0;
    PayloadDigest digest_;
};

}  // namespace cuzk::groth16
