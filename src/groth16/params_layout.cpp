// Structural inspection of .vk/.params files: counts and offsets, checked
// against the file size before anything is decoded or allocated. See
// params_io.hpp for the layout.
#include <string>

#include "groth16/params_io.hpp"
#include "util/mapped_file.hpp"

namespace cuzk::groth16 {
namespace {

using util::invalid_argument;
using util::Result;
using util::Status;

uint32_t load_be32(const uint8_t* p) {
    return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

struct FixedField {
    const char* name;
    uint64_t offset;
    uint64_t bytes;
};
constexpr FixedField kFixedFields[] = {
    {"alpha_g1", kVkAlphaG1Offset, 96}, {"beta_g1", kVkBetaG1Offset, 96},
    {"beta_g2", kVkBetaG2Offset, 192},  {"gamma_g2", kVkGammaG2Offset, 192},
    {"delta_g1", kVkDeltaG1Offset, 96}, {"delta_g2", kVkDeltaG2Offset, 192},
};

std::string prefix(FileKind kind) {
    std::string s = file_kind_name(kind);
    s += ": ";
    return s;
}

// Rules every bellperson-generated key satisfies; a corrupted count is usually
// caught here or by the size checks.
Status check_count_rules(FileKind kind, Section s, uint32_t count, uint32_t b_g1_count) {
    std::string msg = prefix(kind);
    msg += "section ";
    msg += section_name(s);
    msg += ": count ";
    msg += std::to_string(count);
    if (s == Section::kIc && count == 0) {
        msg += " (a verifying key has at least one input point, for ONE)";
        return invalid_argument(std::move(msg));
    }
    if (s == Section::kH) {
        const uint64_t m = uint64_t{count} + 1;
        if (count == 0 || (m & (m - 1)) != 0) {
            msg += " is not 2^k - 1 with k >= 1 (h has domain size - 1 points)";
            return invalid_argument(std::move(msg));
        }
    }
    if (s == Section::kBG2 && count != b_g1_count) {
        msg += " differs from section b_g1's count ";
        msg += std::to_string(b_g1_count);
        msg += " (they share one index set)";
        return invalid_argument(std::move(msg));
    }
    return Status();
}

Result<FileLayout> inspect(std::span<const uint8_t> bytes, FileKind kind) {
    const uint64_t size = bytes.size();
    if (size < kVkFixedBytes) {
        const char* field = "delta_g2";
        for (const auto& f : kFixedFields) {
            if (size < f.offset + f.bytes) {
                field = f.name;
                break;
            }
        }
        std::string msg = prefix(kind);
        msg += "truncated in field ";
        msg += field;
        msg += ": the file has ";
        msg += std::to_string(size);
        msg += " bytes, the fixed verifying-key fields need ";
        msg += std::to_string(kVkFixedBytes);
        return invalid_argument(std::move(msg));
    }
    FileLayout layout{kind, size, {}};
    const size_t num_sections = kind == FileKind::kVerifyingKey ? 1 : std::size(kParamsSections);
    uint64_t pos = kVkFixedBytes;
    uint32_t b_g1_count = 0;
    for (size_t i = 0; i < num_sections; ++i) {
        const Section s = kParamsSections[i];
        std::string where = prefix(kind);
        where += "section ";
        where += section_name(s);
        if (size - pos < 4) {
            where += ": truncated before its count (offset ";
            where += std::to_string(pos);
            where += ", file size ";
            where += std::to_string(size);
            where += ")";
            return invalid_argument(std::move(where));
        }
        const uint32_t count = load_be32(bytes.data() + pos);
        const uint64_t need = uint64_t{count} * section_point_bytes(s);
        const uint64_t remain = size - pos - 4;
        if (need > remain) {
            where += ": count ";
            where += std::to_string(count);
            where += " at offset ";
            where += std::to_string(pos);
            where += " needs ";
            where += std::to_string(need);
            where += " bytes of points but only ";
            where += std::to_string(remain);
            where +=
                " remain (truncated file, or a corrupted count here or in an "
                "earlier section)";
            return invalid_argument(std::move(where));
        }
        CUZK_RETURN_IF_ERROR(check_count_rules(kind, s, count, b_g1_count));
        if (s == Section::kBG1) b_g1_count = count;
        layout.sections.push_back(SectionInfo{s, count, pos, pos + 4});
        pos += 4 + need;
    }
    if (pos != size) {
        std::string msg = prefix(kind);
        msg += std::to_string(size - pos);
        msg += " trailing bytes after section ";
        msg += section_name(layout.sections.back().section);
        msg += " (it ends at offset ";
        msg += std::to_string(pos);
        msg += "; a corrupted count, or not a ";
        msg += file_kind_name(kind);
        msg += " file)";
        return invalid_argument(std::move(msg));
    }
    return layout;
}

template <class Fn>
auto with_mapped(const std::string& path, Fn fn) -> decltype(fn(std::span<const uint8_t>())) {
    auto file = util::MappedFile::open(path);
    if (!file.ok()) return file.status();
    auto result = fn(file->bytes());
    if (result.ok()) return result;
    std::string msg = path;
    msg += ": ";
    msg += result.status().message();
    return Status(result.status().code(), std::move(msg));
}

}  // namespace

const char* section_name(Section s) {
    switch (s) {
        case Section::kIc:
            return "ic";
        case Section::kH:
            return "h";
        case Section::kL:
            return "l";
        case Section::kA:
            return "a";
        case Section::kBG1:
            return "b_g1";
        case Section::kBG2:
            return "b_g2";
    }
    return "?";
}

const char* file_kind_name(FileKind k) { return k == FileKind::kVerifyingKey ? "vk" : "params"; }

const SectionInfo* FileLayout::find(Section s) const {
    for (const auto& info : sections)
        if (info.section == s) return &info;
    return nullptr;
}

Result<FileLayout> inspect_vk(std::span<const uint8_t> bytes) {
    return inspect(bytes, FileKind::kVerifyingKey);
}
Result<FileLayout> inspect_params(std::span<const uint8_t> bytes) {
    return inspect(bytes, FileKind::kParameters);
}
Result<FileLayout> inspect_vk_file(const std::string& path) {
    return with_mapped(path, [](std::span<const uint8_t> b) { return inspect_vk(b); });
}
Result<FileLayout> inspect_params_file(const std::string& path) {
    return with_mapped(path, [](std::span<const uint8_t> b) { return inspect_params(b); });
}
Result<VerifyingKey> read_vk_file(const std::string& path, const ReadOptions& opts) {
    return with_mapped(path, [&](std::span<const uint8_t> b) { return parse_vk(b, opts); });
}
Result<Parameters> read_params_file(const std::string& path, const ReadOptions& opts) {
    return with_mapped(path, [&](std::span<const uint8_t> b) { return parse_params(b, opts); });
}

}  // namespace cuzk::groth16
