#include "cli/porep_args.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace cuzk::cli {

util::Result<porep::RegisteredSealProof> registered_proof_from_args(
    const Args& args, std::string_view proof_option) {
    std::optional<uint64_t> size;
    if (args.has("--sector-size")) {
        auto s = porep::parse_sector_size(args.get("--sector-size"));
        if (!s.ok()) return util::invalid_argument("--sector-size: " + s.status().message());
        size = *s;
    }
    if (args.has(proof_option)) {
        auto p = porep::parse_registered_seal_proof(args.get(proof_option));
        if (!p.ok())
            return util::invalid_argument(std::string(proof_option) + ": " + p.status().message());
        if (size && porep::seal_proof_info(*p).sector_size != *size)
            return util::invalid_argument(std::string(proof_option) +
                                          " is for another sector size than --sector-size");
        return *p;
    }
    if (!size)
        return util::invalid_argument("give --sector-size (or " + std::string(proof_option) + ")");
    return porep::find_seal_proof(*size, porep::ApiVersion::kV1_1_0);
}

}  // namespace cuzk::cli
