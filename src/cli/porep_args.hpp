// The registered proof a porep command works on, from its options: `--sector-size S` (its V1_1
// proof by default) and/or a proof name option (`--registered-proof` or `--proof`: a name or an
// id; with both given, they must agree). Errors name the option.
#pragma once

#include <string_view>

#include "cli/args.hpp"
#include "porep/registered_proof.hpp"
#include "util/status.hpp"

namespace cuzk::cli {

util::Result<porep::RegisteredSealProof> registered_proof_from_args(const Args& args,
                                                                    std::string_view proof_option);

}  // namespace cuzk::cli
