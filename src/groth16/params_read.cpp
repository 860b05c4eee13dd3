// Decoding of .vk/.params files after inspection: points decoded in parallel
// chunks, the first (lowest-index) bad point reported. See params_io.hpp for
// the layout and the rules.
#include <algorithm>
#include <atomic>
#include <limits>
#include <mutex>
#include <string>
#include <type_traits>

#include "groth16/params_io.hpp"

namespace cuzk::groth16 {
namespace {

using util::invalid_argument;
using util::Result;
using util::Status;

util::Result<G1Affine> decode_point(std::span<const uint8_t> b, ec::SubgroupCheck c, G1Affine*) {
    return ec::g1_decode(b, c);
}
util::Result<G2Affine> decode_point(std::span<const uint8_t> b, ec::SubgroupCheck c, G2Affine*) {
    return ec::g2_decode(b, c);
}
template <class P>
constexpr size_t kUncompressedBytes = std::is_same_v<P, G1Affine> ? 96 : 192;

util::ThreadPool& pool_of(const ReadOptions& opts) {
    return opts.pool != nullptr ? *opts.pool : util::ThreadPool::global();
}

// "<kind>: section <s>, point <i>: <reason>"
std::string point_error(FileKind kind, Section s, size_t index, const std::string& reason) {
    std::string msg = file_kind_name(kind);
    msg += ": section ";
    msg += section_name(s);
    msg += ", point ";
    msg += std::to_string(index);
    msg += ": ";
    msg += reason;
    return msg;
}

// Decodes one point; identity is always rejected in the counted sections.
template <class P>
Status decode_one(std::span<const uint8_t> bytes, ec::SubgroupCheck check, P& out) {
    auto p = decode_point(bytes, check, static_cast<P*>(nullptr));
    if (!p.ok()) return p.status();
    if (p->is_identity()) return invalid_argument("point at infinity (not allowed here)");
    out = *p;
    return Status();
}

template <class P>
Status decode_section_impl(std::span<const uint8_t> file, FileKind kind, const SectionInfo& info,
                           std::span<P> out, const ReadOptions& opts) {
    constexpr size_t kStride = kUncompressedBytes<P>;
    if (section_point_bytes(info.section) != kStride || out.size() != info.count ||
        info.end() > file.size()) {
        return util::internal_error(
            point_error(kind, info.section, 0, "decode_section called with a mismatched layout"));
    }
    const uint8_t* base = file.data() + info.offset;
    std::atomic<size_t> first_bad{std::numeric_limits<size_t>::max()};
    std::mutex mutex;
    Status bad;
    pool_of(opts).parallel_ranges(
        info.count,
        [&](size_t begin, size_t end) {
            for (size_t i = begin; i < end; ++i) {
                if (i > first_bad.load(std::memory_order_relaxed)) return;
                Status st = decode_one<P>(std::span<const uint8_t>(base + i * kStride, kStride),
                                          opts.subgroup_check, out[i]);
                if (st.ok()) continue;
                std::lock_guard lock(mutex);
                if (i < first_bad.load(std::memory_order_relaxed)) {
                    first_bad.store(i, std::memory_order_relaxed);
                    bad = Status(st.code(), point_error(kind, info.section, i, st.message()));
                }
                return;
            }
        },
        8);
    return bad;
}

// One of the fixed verifying-key fields; `nonzero` rejects the identity (δ).
template <class P>
Status decode_field(std::span<const uint8_t> file, FileKind kind, const char* name, uint64_t offset,
                    bool nonzero, ec::SubgroupCheck check, P& out) {
    constexpr size_t kStride = kUncompressedBytes<P>;
    auto p = decode_point(file.subspan(offset, kStride), check, static_cast<P*>(nullptr));
    std::string msg = file_kind_name(kind);
    msg += ": field ";
    msg += name;
    msg += ": ";
    if (!p.ok()) {
        msg += p.status().message();
        return Status(p.status().code(), std::move(msg));
    }
    if (nonzero && p->is_identity()) {
        msg += "point at infinity (an identity delta makes the key unusable)";
        return invalid_argument(std::move(msg));
    }
    out = *p;
    return Status();
}

Status decode_vk(std::span<const uint8_t> file, const FileLayout& layout, const ReadOptions& opts,
                 VerifyingKey& vk) {
    const FileKind k = layout.kind;
    const auto c = opts.subgroup_check;
    CUZK_RETURN_IF_ERROR(
        decode_field(file, k, "alpha_g1", kVkAlphaG1Offset, false, c, vk.alpha_g1));
    CUZK_RETURN_IF_ERROR(decode_field(file, k, "beta_g1", kVkBetaG1Offset, false, c, vk.beta_g1));
    CUZK_RETURN_IF_ERROR(decode_field(file, k, "beta_g2", kVkBetaG2Offset, false, c, vk.beta_g2));
    CUZK_RETURN_IF_ERROR(
        decode_field(file, k, "gamma_g2", kVkGammaG2Offset, false, c, vk.gamma_g2));
    CUZK_RETURN_IF_ERROR(decode_field(file, k, "delta_g1", kVkDeltaG1Offset, true, c, vk.delta_g1));
    CUZK_RETURN_IF_ERROR(decode_field(file, k, "delta_g2", kVkDeltaG2Offset, true, c, vk.delta_g2));
    const SectionInfo& ic = layout.sections.front();
    vk.ic.resize(ic.count);
    return decode_section(file, k, ic, std::span<G1Affine>(vk.ic), opts);
}

template <class P>
Status decode_into(std::span<const uint8_t> file, const FileLayout& layout, Section s,
                   const ReadOptions& opts, std::vector<P>& out) {
    const SectionInfo& info = *layout.find(s);
    out.resize(info.count);
    return decode_section(file, layout.kind, info, std::span<P>(out), opts);
}

}  // namespace

Status decode_section(std::span<const uint8_t> file, FileKind kind, const SectionInfo& info,
                      std::span<G1Affine> out, const ReadOptions& opts) {
    return decode_section_impl(file, kind, info, out, opts);
}
Status decode_section(std::span<const uint8_t> file, FileKind kind, const SectionInfo& info,
                      std::span<G2Affine> out, const ReadOptions& opts) {
    return decode_section_impl(file, kind, info, out, opts);
}

Result<VerifyingKey> parse_vk(std::span<const uint8_t> bytes, const ReadOptions& opts) {
    auto layout = inspect_vk(bytes);
    if (!layout.ok()) return layout.status();
    VerifyingKey vk;
    CUZK_RETURN_IF_ERROR(decode_vk(bytes, *layout, opts, vk));
    return vk;
}

Result<Parameters> parse_params(std::span<const uint8_t> bytes, const ReadOptions& opts) {
    auto layout = inspect_params(bytes);
    if (!layout.ok()) return layout.status();
    Parameters params;
    CUZK_RETURN_IF_ERROR(decode_vk(bytes, *layout, opts, params.vk));
    CUZK_RETURN_IF_ERROR(decode_into(bytes, *layout, Section::kH, opts, params.h));
    CUZK_RETURN_IF_ERROR(decode_into(bytes, *layout, Section::kL, opts, params.l));
    CUZK_RETURN_IF_ERROR(decode_into(bytes, *layout, Section::kA, opts, params.a));
    CUZK_RETURN_IF_ERROR(decode_into(bytes, *layout, Section::kBG1, opts, params.b_g1));
    CUZK_RETURN_IF_ERROR(decode_into(bytes, *layout, Section::kBG2, opts, params.b_g2));
    return params;
}

}  // namespace cuzk::groth16
