#include "porep/registered_proof.hpp"

#include <cctype>
#include <charconv>

namespace cuzk::porep {

namespace {

constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = 1024 * kKiB;
constexpr uint64_t kGiB = 1024 * kMiB;

constexpr uint64_t kSupportedSizes[] = {2 * kKiB, 8 * kMiB, 512 * kMiB, 32 * kGiB, 64 * kGiB};

using P = RegisteredSealProof;
using V = ApiVersion;
using F = ApiFeature;

constexpr TreeShape kBase{8, 0, 0};
constexpr TreeShape kSub8{8, 8, 0};
constexpr TreeShape kTop2{8, 8, 2};

// Rows in registered-proof-id order (the index equals the id).
constexpr SealProofInfo kTable[kNumRegisteredSealProofs] = {
    {P::kStackedDrg2KiBV1, "StackedDrg2KiBV1", 2 * kKiB, V::kV1_0_0, F::kNone, 2, 1, 2, kBase},
    {P::kStackedDrg8MiBV1, "StackedDrg8MiBV1", 8 * kMiB, V::kV1_0_0, F::kNone, 2, 1, 2, kBase},
    {P::kStackedDrg512MiBV1, "StackedDrg512MiBV1", 512 * kMiB, V::kV1_0_0, F::kNone, 2, 1, 2,
     kBase},
    {P::kStackedDrg32GiBV1, "StackedDrg32GiBV1", 32 * kGiB, V::kV1_0_0, F::kNone, 11, 10, 18,
     kSub8},
    {P::kStackedDrg64GiBV1, "StackedDrg64GiBV1", 64 * kGiB, V::kV1_0_0, F::kNone, 11, 10, 18,
     kTop2},
    {P::kStackedDrg2KiBV1_1, "StackedDrg2KiBV1_1", 2 * kKiB, V::kV1_1_0, F::kNone, 2, 1, 2, kBase},
    {P::kStackedDrg8MiBV1_1, "StackedDrg8MiBV1_1", 8 * kMiB, V::kV1_1_0, F::kNone, 2, 1, 2, kBase},
    {P::kStackedDrg512MiBV1_1, "StackedDrg512MiBV1_1", 512 * kMiB, V::kV1_1_0, F::kNone, 2, 1, 2,
     kBase},
    {P::kStackedDrg32GiBV1_1, "StackedDrg32GiBV1_1", 32 * kGiB, V::kV1_1_0, F::kNone, 11, 10, 18,
     kSub8},
    {P::kStackedDrg64GiBV1_1, "StackedDrg64GiBV1_1", 64 * kGiB, V::kV1_1_0, F::kNone, 11, 10, 18,
     kTop2},
    {P::kStackedDrg2KiBV1_1_Feat_SyntheticPoRep, "StackedDrg2KiBV1_1_Feat_SyntheticPoRep", 2 * kKiB,
     V::kV1_1_0, F::kSyntheticPoRep, 2, 1, 2, kBase},
    {P::kStackedDrg8MiBV1_1_Feat_SyntheticPoRep, "StackedDrg8MiBV1_1_Feat_SyntheticPoRep", 8 * kMiB,
     V::kV1_1_0, F::kSyntheticPoRep, 2, 1, 2, kBase},
    {P::kStackedDrg512MiBV1_1_Feat_SyntheticPoRep, "StackedDrg512MiBV1_1_Feat_SyntheticPoRep",
     512 * kMiB, V::kV1_1_0, F::kSyntheticPoRep, 2, 1, 2, kBase},
    {P::kStackedDrg32GiBV1_1_Feat_SyntheticPoRep, "StackedDrg32GiBV1_1_Feat_SyntheticPoRep",
     32 * kGiB, V::kV1_1_0, F::kSyntheticPoRep, 11, 10, 18, kSub8},
    {P::kStackedDrg64GiBV1_1_Feat_SyntheticPoRep, "StackedDrg64GiBV1_1_Feat_SyntheticPoRep",
     64 * kGiB, V::kV1_1_0, F::kSyntheticPoRep, 11, 10, 18, kTop2},
    {P::kStackedDrg2KiBV1_2_Feat_NonInteractivePoRep, "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep",
     2 * kKiB, V::kV1_2_0, F::kNonInteractivePoRep, 2, 13, 2, kBase},
    {P::kStackedDrg8MiBV1_2_Feat_NonInteractivePoRep, "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep",
     8 * kMiB, V::kV1_2_0, F::kNonInteractivePoRep, 2, 13, 2, kBase},
    {P::kStackedDrg512MiBV1_2_Feat_NonInteractivePoRep,
     "StackedDrg512MiBV1_2_Feat_NonInteractivePoRep", 512 * kMiB, V::kV1_2_0,
     F::kNonInteractivePoRep, 2, 13, 2, kBase},
    {P::kStackedDrg32GiBV1_2_Feat_NonInteractivePoRep,
     "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep", 32 * kGiB, V::kV1_2_0, F::kNonInteractivePoRep,
     11, 126, 18, kSub8},
    {P::kStackedDrg64GiBV1_2_Feat_NonInteractivePoRep,
     "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep", 64 * kGiB, V::kV1_2_0, F::kNonInteractivePoRep,
     11, 126, 18, kTop2},
};

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(a[i])) !=
            std::tolower(static_cast<unsigned char>(b[i]))) {
            return false;
        }
    }
    return true;
}

std::string supported_sizes_list() {
    std::string s;
    for (uint64_t size : kSupportedSizes) {
        if (!s.empty()) s += ", ";
        s += sector_size_name(size);
    }
    return s;
}

}  // namespace

const char* api_version_name(ApiVersion v) {
    switch (v) {
        case ApiVersion::kV1_0_0:
            return "1.0.0";
        case ApiVersion::kV1_1_0:
            return "1.1.0";
        case ApiVersion::kV1_2_0:
            return "1.2.0";
    }
    return "?";
}

util::Result<ApiVersion> parse_api_version(std::string_view text) {
    std::string norm;
    for (char c : text) {
        if (c == '_') c = '.';
        if (c == 'v' || c == 'V') continue;
        norm += c;
    }
    if (norm == "1.0.0") return ApiVersion::kV1_0_0;
    if (norm == "1.1.0") return ApiVersion::kV1_1_0;
    if (norm == "1.2.0") return ApiVersion::kV1_2_0;
    std::string msg = "unknown PoRep api version '";
    msg += text;
    msg += "' (expected 1.0.0, 1.1.0 or 1.2.0)";
    return util::invalid_argument(std::move(msg));
}

PoRepId SealProofInfo::porep_id() const {
    PoRepId id{};
    const uint64_t value = this->id();
    for (int i = 0; i < 8; ++i) id[i] = static_cast<uint8_t>(value >> (8 * i));
    // Bytes 8..16: the nonce, 0 for every registered proof (registry.rs `nonce()`).
    return id;
}

uint64_t SealProofInfo::base_tree_count() const {
    uint64_t count = 1;
    if (shape.sub != 0) count *= shape.sub;
    if (shape.top != 0) count *= shape.top;
    return count;
}

const SealProofInfo& seal_proof_info(RegisteredSealProof proof) {
    return kTable[static_cast<size_t>(proof)];
}

std::span<const SealProofInfo> all_seal_proofs() { return kTable; }

util::Result<RegisteredSealProof> parse_registered_seal_proof(std::string_view text) {
    for (const SealProofInfo& info : kTable) {
        if (iequals(text, info.name)) return info.proof;
    }
    uint64_t id = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, id);
    if (!text.empty() && ec == std::errc() && ptr == end) {
        if (id < kNumRegisteredSealProofs) return static_cast<RegisteredSealProof>(id);
        std::string msg = "registered seal proof id ";
        msg += std::to_string(id);
        msg += " out of range (0..19)";
        return util::out_of_range(std::move(msg));
    }
    std::string msg = "unknown registered seal proof '";
    msg += text;
    msg += "'; expected a name such as StackedDrg2KiBV1_1 or StackedDrg32GiBV1_1 or an id 0..19";
    return util::invalid_argument(std::move(msg));
}

util::Result<RegisteredSealProof> find_seal_proof(uint64_t sector_size, ApiVersion version,
                                                  ApiFeature feature) {
    for (const SealProofInfo& info : kTable) {
        if (info.sector_size == sector_size && info.api_version == version &&
            info.feature == feature) {
            return info.proof;
        }
    }
    std::string msg = "no registered seal proof for sector size ";
    msg += sector_size_name(sector_size);
    msg += " with api version ";
    msg += api_version_name(version);
    msg += feature == ApiFeature::kNone ? "" : " and the requested feature";
    return util::invalid_argument(std::move(msg));
}

util::Result<RegisteredSealProof> seal_proof_from_porep_id(const PoRepId& porep_id) {
    for (const SealProofInfo& info : kTable) {
        if (info.porep_id() == porep_id) return info.proof;
    }
    return util::invalid_argument("porep_id does not belong to a registered seal proof");
}

util::Result<uint64_t> parse_sector_size(std::string_view text) {
    uint64_t number = 0;
    const char* begin = text.data();
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(begin, end, number);
    if (text.empty() || ec != std::errc() || ptr == begin) {
        std::string msg = "sector size '";
        msg += text;
        msg += "' is not a number with an optional unit (KiB, MiB, GiB)";
        return util::invalid_argument(std::move(msg));
    }
    const std::string_view unit(ptr, static_cast<size_t>(end - ptr));
    uint64_t scale = 1;
    if (unit.empty() || iequals(unit, "b")) {
        scale = 1;
    } else if (iequals(unit, "kib")) {
        scale = kKiB;
    } else if (iequals(unit, "mib")) {
        scale = kMiB;
    } else if (iequals(unit, "gib")) {
        scale = kGiB;
    } else {
        std::string msg = "sector size '";
        msg += text;
        msg += "' has an unknown unit (use KiB, MiB, GiB or a byte count)";
        return util::invalid_argument(std::move(msg));
    }
    if (number > (uint64_t{1} << 40) / scale) {
        std::string msg = "sector size '";
        msg += text;
        msg += "' is too large; supported: ";
        msg += supported_sizes_list();
        return util::out_of_range(std::move(msg));
    }
    const uint64_t bytes = number * scale;
    for (uint64_t size : kSupportedSizes) {
        if (size == bytes) return bytes;
    }
    std::string msg = "unsupported sector size '";
    msg += text;
    msg += "'; supported: ";
    msg += supported_sizes_list();
    return util::invalid_argument(std::move(msg));
}

std::string sector_size_name(uint64_t sector_size) {
    std::string out;
    if (sector_size >= kGiB && sector_size % kGiB == 0) {
        out = std::to_string(sector_size / kGiB);
        out += "GiB";
    } else if (sector_size >= kMiB && sector_size % kMiB == 0) {
        out = std::to_string(sector_size / kMiB);
        out += "MiB";
    } else if (sector_size >= kKiB && sector_size % kKiB == 0) {
        out = std::to_string(sector_size / kKiB);
        out += "KiB";
    } else {
        out = std::to_string(sector_size);
    }
    return out;
}

}  // namespace cuzk::porep
