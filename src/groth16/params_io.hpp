// Reading and writing Filecoin's `.vk` and `.params` files, byte-for-byte in bellperson's layout
// (filecoin-project/bellperson src/groth16/verifying_key.rs `VerifyingKey::write`/`read` and
// src/groth16/params.rs `Parameters::write`/`read`; spec/porep-c2-circuit.md §4.5 and
// spec/cuzk-supraseal-reference.md §2.3, which parses the same layout).
//
// Layout — no magic, no header, no padding; counts are big-endian u32; every point is
// UNCOMPRESSED in the ZCash encoding (G1 96 bytes, G2 192 bytes; ec/encoding.hpp):
//   .vk     = α₁ 96 ‖ β₁ 96 ‖ β₂ 192 ‖ γ₂ 192 ‖ δ₁ 96 ‖ δ₂ 192 ‖ u32 len(ic) ‖ ic × 96
//             (864 + 4 + 96·len(ic) bytes: 40 ic ⇒ 4,708; 328 ⇒ 32,356)
//   .params = the .vk bytes, then for each of h, l, a, b_g1 (G1) and b_g2 (G2):
//             u32 count ‖ count points.
//
// Reading (parse_* on bytes in memory, read_*_file on a memory-mapped file):
//   1. the layout is inspected first: every count is checked against the bytes that remain
//      BEFORE anything is allocated or decoded (a corrupted count cannot cause a huge
//      allocation), plus the structural rules below and "no trailing bytes";
//   2. the points are decoded in parallel (chunks on a ThreadPool), each checked for the
//      encoding flags, canonical coordinates (< p), the curve equation and — with
//      SubgroupCheck::kCheck, the default for untrusted files — the order-r subgroup; kSkip is for
//      trusted caches (bellperson's "unchecked" read; e.g. after a digest check).
//   Identity points are rejected where bellperson rejects them (every point of ic, h, l, a, b_g1,
//   b_g2) and δ₁/δ₂ (the prover rejects identity δ, spec §4.4).
//   Structural rules [cuzk's, implied by bellperson's generator]: len(ic) ≥ 1 (ONE);
//   len(h) = m − 1 with m a power of two ≥ 2; len(b_g1) = len(b_g2).
// Errors are INVALID_ARGUMENT (IO_ERROR for the file system) and name the file kind, the
// section, the index of the bad point and the reason, e.g.
//   "params: section l, point 1234: G1 uncompressed encoding: point is not on the curve";
// the *_file functions prefix the path. When several points are bad, the lowest index is named.
// A corrupted count that still fits the file is caught where the misalignment shows (this or a
// later section), since the format has no redundancy to locate it better.
// The functions are thread-safe (no shared state besides the pool, which serializes its loops).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ec/encoding.hpp"
#include "groth16/keys.hpp"
#include "util/status.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::groth16 {

// Offsets of the fixed verifying-key fields (also at the start of a .params
// file).
inline constexpr uint64_t kVkAlphaG1Offset = 0;
inline constexpr uint64_t kVkBetaG1Offset = 96;
inline constexpr uint64_t kVkBetaG2Offset = 192;
inline constexpr uint64_t kVkGammaG2Offset = 384;
inline constexpr uint64_t kVkDeltaG1Offset = 576;
inline constexpr uint64_t kVkDeltaG2Offset = 672;
inline constexpr uint64_t kVkFixedBytes = 864;  // then u32 len(ic) at this offset

enum class Section : uint8_t { kIc, kH, kL, kA, kBG1, kBG2 };
inline constexpr Section kParamsSections[] = {Section::kIc, Section::kH,   Section::kL,
                                              Section::kA,  Section::kBG1, Section::kBG2};
const char* section_name(Section s);  // "ic", "h", "l", "a", "b_g1", "b_g2"
inline constexpr uint32_t section_point_bytes(Section s) { return s == Section::kBG2 ? 192 : 96; }

enum class FileKind : uint8_t { kVerifyingKey, kParameters };
const char* file_kind_name(FileKind k);  // "vk", "params"

// One counted section of a file: where its count and its points are (byte
// offsets from the start of the file), so a loader can hand [offset, end()) to
// the GPU without decoding on the host.
struct SectionInfo {
    Section section;
    uint32_t count;
    uint64_t count_offset;  // the big-endian u32
    uint64_t offset;        // the first point
    uint64_t end() const { return offset + uint64_t{count} * section_point_bytes(section); }
};

// Counts and offsets of a whole file, validated structurally (counts fit the
// file exactly, the structural rules above), points not decoded.
struct FileLayout {
    FileKind kind;
    uint64_t file_size;
    std::vector<SectionInfo> sections;  // .vk: {ic}; .params: ic, h, l, a, b_g1, b_g2 in order
    const SectionInfo* find(Section s) const;
};

struct ReadOptions {
    ec::SubgroupCheck subgroup_check = ec::SubgroupCheck::kCheck;
    util::ThreadPool* pool = nullptr;  // nullptr: util::ThreadPool::global()
};

// ---- layout only ----
util::Result<FileLayout> inspect_vk(std::span<const uint8_t> bytes);
util::Result<FileLayout> inspect_params(std::span<const uint8_t> bytes);
util::Result<FileLayout> inspect_vk_file(const std::string& path);
util::Result<FileLayout> inspect_params_file(const std::string& path);

// ---- full reads ----
util::Result<VerifyingKey> parse_vk(std::span<const uint8_t> bytes, const ReadOptions& opts = {});
util::Result<Parameters> parse_params(std::span<const uint8_t> bytes, const ReadOptions& opts = {});
util::Result<VerifyingKey> read_vk_file(const std::string& path, const ReadOptions& opts = {});
util::Result<Parameters> read_params_file(const std::string& path, const ReadOptions& opts = {});

// Decodes the points of one section of `file` (laid out by inspect_*) into out,
// which must have exactly info.count elements of the section's group; for
// loaders that place sections themselves (e.g. into pinned memory). Errors as
// above, with `kind` naming the file.
util::Status decode_section(std::span<const uint8_t> file, FileKind kind, const SectionInfo& info,
                            std::span<G1Affine> out, const ReadOptions& opts = {});
util::Status decode_section(std::span<const uint8_t> file, FileKind kind, const SectionInfo& info,
                            std::span<G2Affine> out, const ReadOptions& opts = {});

// ---- writing (params_write.cpp) ----
// Exact sizes of the encodings.
uint64_t vk_file_size(size_t num_ic);
uint64_t params_file_size(const Parameters& params);
// In memory. Fails (INVALID_ARGUMENT) only if a vector has more than 2^32 − 1
// points.
util::Result<std::vector<uint8_t>> serialize_vk(const VerifyingKey& vk);
util::Result<std::vector<uint8_t>> serialize_params(const Parameters& params);
// To a file, streamed in chunks (never the whole file in memory): written to
// "<path>.tmp" and renamed over path when complete, so a reader never sees a
// partial file.
util::Status write_vk_file(const std::string& path, const VerifyingKey& vk);
util::Status write_params_file(const std::string& path, const Parameters& params);

}  // namespace cuzk::groth16
