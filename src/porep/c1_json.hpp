// Reading and writing C1 output (SealCommitPhase1Output, see c1_types.hpp) as JSON.
//
// Two input forms are accepted:
//  - the raw C1 JSON as serde_json::to_vec writes it (filecoin-ffi seal_commit_phase1);
//  - the tool envelope {"SectorNum": i64, "Phase1Out": base64(raw C1 JSON), "SectorSize": u64}
//    (lotus cmd/lotus-bench Commit2In; Go encodes []byte as standard base64 with padding; curio's
//    cuzk uses the same envelope). parse_c1_file tells them apart by the "Phase1Out" member.
//
// write_c1_json produces exactly serde_json's compact output for the Rust types: fields in
// declaration order, externally tagged enums ({"StackedDrg2KiBV1": ...}, {"Single": ...}),
// domains as arrays of 32 decimal numbers, Column's PhantomData as "_h":null.
//
// Every error is INVALID_ARGUMENT (OUT_OF_RANGE for size/depth limits) and names the JSON path and
// what is wrong, e.g. "C1: vanilla_proofs.StackedDrg2KiBV1[0][1].comm_d_proofs.data.Single.root:
// expected an array of 32 bytes, found an array of 31". Unknown members are ignored (as serde
// does); missing ones are errors. After decoding, validate_c1 checks the shape.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "porep/c1_types.hpp"
#include "util/json.hpp"
#include "util/status.hpp"

namespace cuzk::porep {

struct C1Envelope {
    int64_t sector_num = 0;
    uint64_t sector_size = 0;
};

struct C1File {
    SealCommitPhase1Output c1;
    std::optional<C1Envelope> envelope;  // set when the input was the envelope form
};

struct C1ParseOptions {
    util::json::ParseOptions json;  // size and depth limits
    C1ValidateOptions validate;
};

// Raw C1 JSON only. Takes the text over (no copy of a large document).
util::Result<SealCommitPhase1Output> parse_c1_json(std::string text,
                                                   const C1ParseOptions& options = {});
// Raw C1 JSON or the envelope, detected automatically. The envelope's SectorSize must match the
// registered proof's sector size.
util::Result<C1File> parse_c1_file(std::string text, const C1ParseOptions& options = {});
// Decodes an already parsed raw C1 document (then validates it).
util::Result<SealCommitPhase1Output> decode_c1(util::json::Value root,
                                               const C1ValidateOptions& options = {});

// serde_json::to_vec form of the raw C1 JSON.
std::string write_c1_json(const SealCommitPhase1Output& c1);
// The envelope form, as Go's encoding/json writes Commit2In.
std::string write_c1_envelope(const SealCommitPhase1Output& c1, int64_t sector_num);

}  // namespace cuzk::porep
