// Built-in example circuits for the `cuzk` CLI, tests and benchmarks, chosen by NAME:
//   cubic     x³ + x + 5 = y with y public; witness x = 3 (so y = 35). 3 constraints.
//   random:K  a deterministic (from K alone) mix of multiplications with 3 public inputs whose
//             constraints plus input rows fill exactly 2^K rows, so the evaluation domain is
//             m = 2^K (3 ≤ K ≤ 26). Every aux variable occurs in some constraint.
//   sha256:N  knowledge of an N-byte SHA-256 preimage (0 ≤ N ≤ 65,536): the bellperson SHA-256
//             gadget over 8·N allocated bits, the digest packed into 2 public inputs
//             (gadgets/sha256_example.hpp). The preimage is N fixed pseudo-random bytes
//             (util::TestRng seeded with N), so setup and prove agree without a file.
//   porep:S   the Filecoin SDR PoRep partition circuit for sector size S (its V1_1 registered
//             proof; a registered proof name is accepted too) — shape only: its values come from
//             a C1 output (porep/circuit/c1_circuits.hpp), so it serves setup and counting.
// The circuit synthesizes into any r1cs::ConstraintSystem (values only when computes_values(),
// and never for shape_only circuits).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "ff/fr.hpp"
#include "groth16/circuit.hpp"
#include "util/status.hpp"

namespace cuzk::groth16::examples {

struct ExampleCircuit {
    std::string name;         // as given, canonical ("random:10")
    std::string file_name;    // file-name-safe form ("random_10")
    std::string description;  // one line for humans
    Circuit circuit;          // with its witness (unless shape_only)
    std::vector<ff::Fr> public_inputs;  // x_1..x_n, ONE excluded (empty when shape_only)
    bool shape_only = false;  // no witness: setup and counting only
};

// The known names, for messages: "cubic, random:K (3 <= K <= 26), sha256:N (...), porep:SIZE (...)".
std::string known_names();

// "random:10" → "random_10": every character outside [A-Za-z0-9._-] becomes '_'.
std::string file_safe_name(std::string_view name);

// Builds the circuit and computes its public inputs (one witness-only synthesis). Errors
// (kInvalidArgument) name the problem and list the known names.
util::Result<ExampleCircuit> make_example_circuit(std::string_view name);

}  // namespace cuzk::groth16::examples
