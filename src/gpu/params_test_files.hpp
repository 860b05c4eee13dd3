// Test helper (header only, for src/gpu tests): small real .params files, made by the test
// ceremony groth16::generate_parameters for the built-in "random:K" circuits (domain 2^K) and
// written with groth16::write_params_file, once per process and K; and byte-level edits of them.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "groth16/example_circuits.hpp"
#include "groth16/params_io.hpp"
#include "groth16/setup.hpp"

namespace cuzk::gpu::testing {

inline std::string temp_file(const std::string& name) {
    return ::testing::TempDir() + "cuzk_gpu_" + name;
}

// The path of a parameter file for random:K made with toxic waste from `seed` (empty on failure,
// with a test failure recorded).
inline std::string params_file(unsigned k, uint64_t seed = 1) {
    static std::map<std::pair<unsigned, uint64_t>, std::string> made;
    auto key = std::make_pair(k, seed);
    if (auto it = made.find(key); it != made.end()) return it->second;
    std::string name = "random:";
    name += std::to_string(k);
    auto circuit = groth16::examples::make_example_circuit(name);
    EXPECT_TRUE(circuit.ok()) << circuit.status().to_string();
    if (!circuit.ok()) return "";
    auto params =
        groth16::generate_parameters(circuit->circuit, groth16::ToxicWaste::from_seed(seed));
    EXPECT_TRUE(params.ok()) << params.status().to_string();
    if (!params.ok()) return "";
    std::string path = temp_file("random_");
    path += std::to_string(k);
    path += "_";
    path += std::to_string(seed);
    path += ".params";
    const util::Status st = groth16::write_params_file(path, *params);
    EXPECT_TRUE(st.ok()) << st.to_string();
    if (!st.ok()) return "";
    made[key] = path;
    return path;
}

inline std::vector<uint8_t> read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

inline void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
}

}  // namespace cuzk::gpu::testing
