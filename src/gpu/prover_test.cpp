// GPU prover against the CPU prover: with the same r, s the proof bytes must be identical, for
// the cubic circuit, random circuits (field-valued witnesses), a mostly-bit circuit (unit
// scalars: the batch-addition path) and the 2 KiB PoRep circuit on a sealed sector; the proofs
// verify; a bad witness is refused with the CPU prover's message. Skips without a device.
#include "gpu/prover.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "gpu/device.hpp"
#include "groth16/example_circuits.hpp"
#include "groth16/params_io.hpp"
#include "groth16/proof_io.hpp"
#include "groth16/prover_parts.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "porep/circuit/c1_circuits.hpp"
#include "porep/seal.hpp"
#include "util/rng.hpp"

namespace cuzk::gpu {
namespace {

class GpuProverTest : public ::testing::Test {
   protected:
    void SetUp() override {
        if (device_count() == 0)
            GTEST_SKIP() << "no usable CUDA device (" << check_device_available().to_string()
                         << "); GPU prover test skipped";
    }
};

std::string temp_path(const std::string& name) {
    return (std::filesystem::temp_directory_path() / ("cuzk_gpu_prover_" + name)).string();
}

// Parameters for `circuit` written to a file and loaded resident.
struct Keys {
    groth16::Parameters host;
    ResidentParams resident;
};
Keys make_keys(const groth16::Circuit& circuit, const std::string& name) {
    auto params = groth16::generate_parameters(circuit, groth16::ToxicWaste::from_seed(5));
    EXPECT_TRUE(params.ok()) << params.status().to_string();
    const std::string path = temp_path(name + ".params");
    EXPECT_TRUE(groth16::write_params_file(path, *params).ok());
    ResidentLoadOptions lo;
    lo.subgroup_check = ec::SubgroupCheck::kSkip;
    auto resident = ResidentParams::load(path, lo);
    EXPECT_TRUE(resident.ok()) << resident.status().to_string();
    std::filesystem::remove(path);
    return Keys{std::move(*params), std::move(*resident)};
}

void expect_identical(const Keys& keys, const std::vector<groth16::Circuit>& circuits,
                      const std::vector<std::vector<ff::Fr>>& inputs, const char* what) {
    std::vector<groth16::ProverRandomness> rs;
    for (size_t k = 0; k < circuits.size(); ++k)
        rs.push_back(groth16::ProverRandomness::from_seed(900 + k));
    auto cpu = groth16::prove(keys.host, circuits, rs);
    ASSERT_TRUE(cpu.ok()) << cpu.status().to_string();
    util::PhaseTimes t;
    GpuProverOptions opt;
    opt.synthesis_workers = circuits.size() > 1 ? 2 : 1;
    auto gpu = prove_gpu(keys.resident, circuits, rs, opt, &t);
    ASSERT_TRUE(gpu.ok()) << what << ": " << gpu.status().to_string();
    ASSERT_EQ(gpu->size(), cpu->size());
    for (size_t k = 0; k < cpu->size(); ++k) {
        EXPECT_EQ(groth16::serialize_proof((*gpu)[k]), groth16::serialize_proof((*cpu)[k]))
            << what << " circuit " << k;
    }
    const auto pvk = groth16::prepare_verifying_key(keys.host.vk);
    auto valid = groth16::batch_verify(pvk, *gpu, inputs);
    ASSERT_TRUE(valid.ok());
    EXPECT_TRUE(*valid) << what;
    for (const char* phase : {"synthesis", "h2d", "ntt_h", "msm_h", "prep_msm", "batch_addition",
                              "tail_msm", "b_g2", "proof_assembly", "total"}) {
        EXPECT_GT(t.get(phase), 0.0) << what << ": phase " << phase << " not timed";
    }
    std::printf("%s:", what);
    for (const auto& [phase, ms] : t.entries()) std::printf(" %s %.1f", phase.c_str(), ms);
    std::printf(" (ms)\n");

    // The same proofs from assignments synthesized here (the engine's path).
    std::vector<std::unique_ptr<r1cs::ProvingAssignment>> owned;
    std::vector<r1cs::ProvingAssignment*> pas;
    const auto shape = groth16::ParamsShape::of(keys.host);
    for (size_t k = 0; k < circuits.size(); ++k) {
        owned.push_back(std::make_unique<r1cs::ProvingAssignment>(
            groth16::presized_assignment_options(shape)));
        ASSERT_TRUE(groth16::synthesize_into(circuits[k], *owned.back(), k).ok());
        pas.push_back(owned.back().get());
    }
    auto from_assignments = prove_gpu_assignments(keys.resident, pas, rs);
    ASSERT_TRUE(from_assignments.ok()) << from_assignments.status().to_string();
    for (size_t k = 0; k < cpu->size(); ++k) {
        EXPECT_EQ(groth16::serialize_proof((*from_assignments)[k]),
                  groth16::serialize_proof((*cpu)[k]))
            << what << " circuit " << k << " (prove_gpu_assignments)";
    }
}

TEST_F(GpuProverTest, ExampleCircuitsMatchTheCpu) {
    for (const char* name : {"cubic", "random:10", "random:14", "sha256:3"}) {
        auto ex = groth16::examples::make_example_circuit(name);
        ASSERT_TRUE(ex.ok());
        const Keys keys = make_keys(ex->circuit, ex->file_name);
        expect_identical(keys, {ex->circuit, ex->circuit, ex->circuit},
                         {ex->public_inputs, ex->public_inputs, ex->public_inputs}, name);
    }
}

TEST_F(GpuProverTest, PorepTwoKiBMatchesTheCpu) {
    porep::SealInputs in;
    in.unsealed.resize(2032);
    util::TestRng rng(77);
    for (auto& b : in.unsealed) b = static_cast<uint8_t>(rng.next_u64());
    auto sealed = porep::seal_sector(in);
    ASSERT_TRUE(sealed.ok()) << sealed.status().to_string();
    auto pc = porep::circuits_from_c1(sealed->c1);
    ASSERT_TRUE(pc.ok()) << pc.status().to_string();
    auto blank = porep::blank_stacked_circuit(pc->proof);
    ASSERT_TRUE(blank.ok());
    const Keys keys = make_keys(*blank, "porep_2KiB");
    std::vector<groth16::Circuit> circuits(pc->circuits.begin(), pc->circuits.end());
    expect_identical(keys, circuits, pc->public_inputs, "porep 2KiB");
}

TEST_F(GpuProverTest, MismatchedCircuitIsRefused) {
    auto ex = groth16::examples::make_example_circuit("cubic");
    ASSERT_TRUE(ex.ok());
    const Keys keys = make_keys(ex->circuit, "cubic_bad");
    const groth16::Circuit bad = [](r1cs::ConstraintSystem& cs) -> util::Status {
        auto x = cs.alloc("x", ff::Fr::from_u64(3));
        if (!x.ok()) return x.status();
        auto y = cs.alloc("y", ff::Fr::from_u64(10));  // not x²
        if (!y.ok()) return y.status();
        cs.enforce("square", *x, *x, *y);
        return util::Status();
    };
    const groth16::ProverRandomness r = groth16::ProverRandomness::from_seed(1);
    auto got = prove_gpu(keys.resident, std::span<const groth16::Circuit>(&bad, 1),
                         std::span<const groth16::ProverRandomness>(&r, 1));
    EXPECT_FALSE(got.ok());
}

}  // namespace
}  // namespace cuzk::gpu
