// GPU prover against the CPU prover: with the same r, s the proof bytes must be identical, for
// the cubic circuit, random circuits (field-valued witnesses), a mostly-bit circuit (unit
// scalars: the batch-addition path) and the 2 KiB PoRep circuit on a sealed sector; the proofs
// verify; a bad witness is refused with the CPU prover's message. The compiled-circuit path
// (options.compiled, prove_gpu_witnesses) likewise, see the section at the end. Skips without
// a device.
#include "gpu/prover.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "gpu/device.hpp"
#include "gpu/resident_setup.hpp"
#include "groth16/compiled_circuit.hpp"
#include "groth16/example_circuits.hpp"
#include "groth16/params_io.hpp"
#include "groth16/proof_io.hpp"
#include "groth16/prover_parts.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "porep/circuit/c1_circuits.hpp"
#include "porep/seal.hpp"
#include "porep/synthetic_c1.hpp"
#include "r1cs/shape_recorder.hpp"
#include "r1cs/test_circuits.hpp"
#include "r1cs/witness_only.hpp"
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

// The same toxic waste as make_keys, the host set monomial (the CPU prover's) and the resident
// one generated on the GPU with coset-Lagrange H bases (groth16/coset_bases.hpp).
Keys make_coset_keys(const groth16::Circuit& circuit) {
    auto params = groth16::generate_parameters(circuit, groth16::ToxicWaste::from_seed(5));
    EXPECT_TRUE(params.ok()) << params.status().to_string();
    r1cs::ShapeRecorder shape;
    EXPECT_TRUE(circuit(shape).ok());
    shape.finish();
    auto scalars = groth16::compute_parameter_scalars(shape, groth16::ToxicWaste::from_seed(5),
                                                      nullptr, nullptr,
                                                      groth16::HBasis::kCosetLagrange);
    EXPECT_TRUE(scalars.ok()) << scalars.status().to_string();
    auto resident = generate_resident_params(*scalars);
    EXPECT_TRUE(resident.ok()) << resident.status().to_string();
    EXPECT_EQ(resident->h_basis(), groth16::HBasis::kCosetLagrange);
    EXPECT_EQ(resident->domain_size(), params->domain_size());
    EXPECT_EQ(resident->h().size, params->domain_size());
    EXPECT_EQ(resident->vk(), params->vk);
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
                              "tail_msm", "b_g2", "split_msms", "proof_assembly", "total"}) {
        EXPECT_GT(t.get(phase), 0.0) << what << ": phase " << phase << " not timed";
    }
    std::printf("%s:", what);
    for (const auto& [phase, ms] : t.entries()) std::printf(" %s %.1f", phase.c_str(), ms);
    std::printf(" (ms)\n");

    // The same proofs from assignments synthesized here (the engine's path), with the H MSM
    // split as the others (h_msm_direct off; prove_gpu above ran it direct, the default) and
    // the L, A, B_G1, B_G2 MSMs run the other way (one after another, or at once).
    std::vector<std::unique_ptr<r1cs::ProvingAssignment>> owned;
    std::vector<r1cs::ProvingAssignment*> pas;
    const auto shape = groth16::ParamsShape::of(keys.host);
    for (size_t k = 0; k < circuits.size(); ++k) {
        owned.push_back(std::make_unique<r1cs::ProvingAssignment>(
            groth16::presized_assignment_options(shape)));
        ASSERT_TRUE(groth16::synthesize_into(circuits[k], *owned.back(), k).ok());
        pas.push_back(owned.back().get());
    }
    GpuProverOptions split_h;
    split_h.h_msm_direct = false;
    split_h.concurrent_split_msms = !opt.concurrent_split_msms;
    auto from_assignments = prove_gpu_assignments(keys.resident, pas, rs, split_h);
    ASSERT_TRUE(from_assignments.ok()) << from_assignments.status().to_string();
    for (size_t k = 0; k < cpu->size(); ++k) {
        EXPECT_EQ(groth16::serialize_proof((*from_assignments)[k]),
                  groth16::serialize_proof((*cpu)[k]))
            << what << " circuit " << k << " (prove_gpu_assignments, H MSM split)";
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


// ---- the compiled-circuit path: options.compiled (prove_gpu) and prove_gpu_witnesses ----
// Same proofs as the CPU prover's, byte for byte, with the same r, s: for the example circuits,
// one, three and five different witnesses of one shape in one call (mul_chain: a mix-up of the
// upload slots would show) and three 2 KiB PoRep partition circuits (synthetic C1s); with the
// upload overlap on and off; through prove_gpu (witnesses made inside) and prove_gpu_witnesses
// (witnesses made here with WitnessOnly). Refused: witnesses of the wrong size, no
// DeviceCircuit, a DeviceCircuit of another circuit, a wrong witness (naming its circuit and
// row) when check_satisfied is on; with it off, the CPU's unchecked proofs, the wrong
// witness's not verifying (so the check matters).

struct Compiled {
    std::unique_ptr<groth16::CompiledCircuit> host;
    std::unique_ptr<DeviceCircuit> device;
};

Compiled compile_to_device(const groth16::Circuit& blank) {
    Compiled c;
    auto cc = groth16::CompiledCircuit::compile(blank);
    EXPECT_TRUE(cc.ok()) << cc.status().to_string();
    if (!cc.ok()) return c;
    c.host = std::move(*cc);
    auto dc = DeviceCircuit::upload(*c.host);
    EXPECT_TRUE(dc.ok()) << dc.status().to_string();
    if (dc.ok()) c.device = std::move(*dc);
    return c;
}

Witness make_witness(const groth16::Circuit& circuit) {
    r1cs::WitnessOnly w;
    const util::Status st = circuit(w);
    EXPECT_TRUE(st.ok()) << st.to_string();
    return Witness{w.take_inputs(), w.take_aux()};
}

std::vector<Witness> make_witnesses(const std::vector<groth16::Circuit>& circuits) {
    std::vector<Witness> ws;
    for (const auto& c : circuits) ws.push_back(make_witness(c));
    return ws;
}

std::vector<Witness*> pointers(std::vector<Witness>& ws) {
    std::vector<Witness*> p;
    for (Witness& w : ws) p.push_back(&w);
    return p;
}

std::vector<groth16::ProverRandomness> seeded_randomness(size_t n) {
    std::vector<groth16::ProverRandomness> rs;
    for (size_t k = 0; k < n; ++k) rs.push_back(groth16::ProverRandomness::from_seed(1900 + k));
    return rs;
}

void expect_compiled_identical(const Keys& keys, const groth16::Circuit& blank,
                               const std::vector<groth16::Circuit>& circuits,
                               const std::vector<std::vector<ff::Fr>>& inputs,
                               const std::string& what) {
    const Compiled compiled = compile_to_device(blank);
    ASSERT_NE(compiled.device, nullptr);
    const auto rs = seeded_randomness(circuits.size());
    auto cpu = groth16::prove(keys.host, circuits, rs);
    ASSERT_TRUE(cpu.ok()) << cpu.status().to_string();
    const auto pvk = groth16::prepare_verifying_key(keys.host.vk);

    auto expect_same = [&](const util::Result<std::vector<groth16::Proof>>& gpu,
                           const std::string& how) {
        ASSERT_TRUE(gpu.ok()) << what << ", " << how << ": " << gpu.status().to_string();
        ASSERT_EQ(gpu->size(), cpu->size()) << what << ", " << how;
        for (size_t k = 0; k < cpu->size(); ++k) {
            EXPECT_EQ(groth16::serialize_proof((*gpu)[k]), groth16::serialize_proof((*cpu)[k]))
                << what << ", " << how << ": circuit " << k;
        }
        auto valid = groth16::batch_verify(pvk, *gpu, inputs);
        ASSERT_TRUE(valid.ok()) << valid.status().to_string();
        EXPECT_TRUE(*valid) << what << ", " << how;
    };

    // Every way of ordering the work: the overlaps on, the split MSMs concurrent and started
    // after the H MSM or beside the H transforms; everything in sequence; and the lean memory
    // plan, which must turn the overlaps asked for off (one z slot, split MSMs in sequence) —
    // or, with lean_overlap_h2d, keep the upload overlap (two z slots) but not the split one.
    using Overlap = GpuProverOptions::SplitOverlap;
    using Plan = GpuProverOptions::MemoryPlan;
    struct Way {
        bool overlap;
        Overlap split;
        Plan plan;
        bool lean_overlap;
        const char* name;
    };
    const Way ways[] = {
        {true, Overlap::kAfterH, Plan::kFull, false,
         " (overlap on, concurrent split MSMs after H)"},
        {true, Overlap::kWithNtt, Plan::kFull, false,
         " (overlap on, concurrent split MSMs beside the H NTTs)"},
        {false, Overlap::kWithNtt, Plan::kFull, false, " (overlap off, split MSMs in sequence)"},
        {true, Overlap::kWithNtt, Plan::kLean, false, " (overlaps asked for, lean memory plan)"},
        {true, Overlap::kWithNtt, Plan::kLean, true,
         " (overlaps asked for, lean memory plan keeping the upload overlap)"}};
    for (const Way& way : ways) {
        const bool overlap = way.overlap;
        GpuProverOptions opt;
        opt.compiled = compiled.device.get();
        opt.overlap_h2d = overlap;
        opt.concurrent_split_msms = overlap;
        opt.split_overlap = way.split;  // ignored when the split MSMs are not concurrent
        opt.memory_plan = way.plan;
        opt.lean_overlap_h2d = way.lean_overlap;
        opt.synthesis_workers = 2;
        const std::string suffix = way.name;

        util::PhaseTimes t;
        util::TraceRecorder trace;
        opt.trace = &trace;
        expect_same(prove_gpu(keys.resident, circuits, rs, opt, &t), "prove_gpu compiled" + suffix);
        opt.trace = nullptr;
        for (const char* phase : {"h2d", "spmv", "ntt_h", "msm_h", "split_msms", "total"})
            EXPECT_GT(t.get(phase), 0.0) << what << suffix << ": phase " << phase << " not timed";
        if (way.plan == Plan::kLean) {
            // Lean: every circuit's split MSMs start after its H MSM has ended, although the
            // options asked for them beside the H transforms.
            std::vector<double> h_ends, split_starts;
            for (const util::TraceEvent& e : trace.events()) {
                if (e.name == "msm_h") h_ends.push_back(e.start_us + e.duration_us);
                if (e.name == "split_msms") split_starts.push_back(e.start_us);
            }
            std::sort(h_ends.begin(), h_ends.end());
            std::sort(split_starts.begin(), split_starts.end());
            ASSERT_EQ(h_ends.size(), circuits.size()) << what << suffix;
            ASSERT_EQ(split_starts.size(), circuits.size()) << what << suffix;
            for (size_t k = 0; k < circuits.size(); ++k)
                EXPECT_GE(split_starts[k], h_ends[k]) << what << suffix << ": circuit " << k;
        }
        std::printf("%s compiled%s:", what.c_str(), suffix.c_str());
        for (const auto& [phase, ms] : t.entries()) std::printf(" %s %.1f", phase.c_str(), ms);
        std::printf(" (ms)\n");

        std::vector<Witness> ws = make_witnesses(circuits);
        expect_same(prove_gpu_witnesses(keys.resident, pointers(ws), rs, opt),
                    "prove_gpu_witnesses" + suffix);
    }
}

TEST_F(GpuProverTest, CompiledPathExampleCircuitsMatchTheCpu) {
    for (const char* name : {"cubic", "random:10", "sha256:1"}) {
        auto ex = groth16::examples::make_example_circuit(name);
        ASSERT_TRUE(ex.ok());
        const Keys keys = make_keys(ex->circuit, ex->file_name + "_compiled");
        expect_compiled_identical(keys, ex->circuit, {ex->circuit, ex->circuit, ex->circuit},
                                  {ex->public_inputs, ex->public_inputs, ex->public_inputs}, name);
    }
}

// mul_chain(x, n): aux x, v_1..v_n (v_k = x^(k+1)), one public input x^(n+1).
constexpr size_t kChain = 50;
groth16::Circuit chain_circuit(uint64_t x, long perturb = -1) {
    return [x, perturb](r1cs::ConstraintSystem& cs) {
        return r1cs::testing::mul_chain(cs, ff::Fr::from_u64(x), kChain, perturb);
    };
}
std::vector<ff::Fr> chain_inputs(uint64_t x) {
    return {ff::Fr::from_u64(x).pow(uint64_t{kChain + 1})};
}

TEST_F(GpuProverTest, CompiledPathDistinctWitnessesMatchTheCpu) {
    const Keys keys = make_keys(chain_circuit(1), "chain_compiled");
    expect_compiled_identical(
        keys, chain_circuit(1), {chain_circuit(3), chain_circuit(5), chain_circuit(7)},
        {chain_inputs(3), chain_inputs(5), chain_inputs(7)}, "mul_chain x = 3, 5, 7");
    // One circuit (nothing to upload ahead) and five (each upload slot reused twice).
    expect_compiled_identical(keys, chain_circuit(1), {chain_circuit(9)}, {chain_inputs(9)},
                              "mul_chain x = 9");
    std::vector<groth16::Circuit> five;
    std::vector<std::vector<ff::Fr>> five_inputs;
    for (uint64_t x : {uint64_t{2}, uint64_t{4}, uint64_t{6}, uint64_t{8}, uint64_t{10}}) {
        five.push_back(chain_circuit(x));
        five_inputs.push_back(chain_inputs(x));
    }
    expect_compiled_identical(keys, chain_circuit(1), five, five_inputs, "mul_chain x = 2..10");
}

// The first partition of a synthetic 2 KiB C1 per seed: its circuit and public inputs.
void synthetic_two_kib_partitions(std::initializer_list<uint64_t> seeds,
                                  std::vector<groth16::Circuit>& circuits,
                                  std::vector<std::vector<ff::Fr>>& inputs) {
    for (uint64_t seed : seeds) {
        porep::SyntheticC1Inputs in;
        in.proof = porep::RegisteredSealProof::kStackedDrg2KiBV1_1;
        in.rng_seed = seed;
        auto c1 = porep::generate_synthetic_c1(in);
        ASSERT_TRUE(c1.ok()) << c1.status().to_string();
        auto pc = porep::circuits_from_c1(c1->c1);
        ASSERT_TRUE(pc.ok()) << pc.status().to_string();
        ASSERT_FALSE(pc->circuits.empty());
        circuits.push_back(pc->circuits[0]);
        inputs.push_back(pc->public_inputs[0]);
    }
}

TEST_F(GpuProverTest, CompiledPathPorepTwoKiBMatchesTheCpu) {
    std::vector<groth16::Circuit> circuits;
    std::vector<std::vector<ff::Fr>> inputs;
    synthetic_two_kib_partitions({7, 8, 9}, circuits, inputs);
    ASSERT_FALSE(HasFatalFailure());
    auto blank = porep::blank_stacked_circuit(porep::RegisteredSealProof::kStackedDrg2KiBV1_1);
    ASSERT_TRUE(blank.ok());
    const Keys keys = make_keys(*blank, "porep_2KiB_compiled");
    expect_compiled_identical(keys, *blank, circuits, inputs, "porep 2KiB");
}

TEST_F(GpuProverTest, CompiledPathRefusesBadWitnesses) {
    const Keys keys = make_keys(chain_circuit(1), "chain_refuse");
    const Compiled compiled = compile_to_device(chain_circuit(1));
    ASSERT_NE(compiled.device, nullptr);
    const std::vector<groth16::Circuit> good{chain_circuit(3), chain_circuit(5), chain_circuit(7)};
    const auto rs = seeded_randomness(good.size());
    GpuProverOptions opt;
    opt.compiled = compiled.device.get();

    {  // an aux vector one short
        std::vector<Witness> ws = make_witnesses(good);
        ws[1].aux.pop_back();
        auto got = prove_gpu_witnesses(keys.resident, pointers(ws), rs, opt);
        ASSERT_FALSE(got.ok());
        EXPECT_EQ(got.status().code(), util::StatusCode::kInvalidArgument)
            << got.status().to_string();
    }
    {  // an input too many
        std::vector<Witness> ws = make_witnesses(good);
        ws[2].inputs.push_back(ff::Fr::one());
        auto got = prove_gpu_witnesses(keys.resident, pointers(ws), rs, opt);
        ASSERT_FALSE(got.ok());
        EXPECT_EQ(got.status().code(), util::StatusCode::kInvalidArgument)
            << got.status().to_string();
    }
    {  // no DeviceCircuit
        std::vector<Witness> ws = make_witnesses(good);
        GpuProverOptions none;
        auto got = prove_gpu_witnesses(keys.resident, pointers(ws), rs, none);
        ASSERT_FALSE(got.ok());
        EXPECT_EQ(got.status().code(), util::StatusCode::kInvalidArgument)
            << got.status().to_string();
    }
    {  // a DeviceCircuit of another circuit (cubic), for witnesses and for circuits
        auto cubic = groth16::examples::make_example_circuit("cubic");
        ASSERT_TRUE(cubic.ok());
        const Compiled other = compile_to_device(cubic->circuit);
        ASSERT_NE(other.device, nullptr);
        GpuProverOptions wrong = opt;
        wrong.compiled = other.device.get();
        std::vector<Witness> ws = make_witnesses(good);
        EXPECT_FALSE(prove_gpu_witnesses(keys.resident, pointers(ws), rs, wrong).ok());
        EXPECT_FALSE(prove_gpu(keys.resident, good, rs, wrong).ok());
    }

    // One aux value changed (v_30 = x^31 off by one): the row the CPU finds first.
    constexpr size_t kBadAux = 30;
    std::vector<Witness> bad = make_witnesses(good);
    bad[1].aux[kBadAux] += ff::Fr::one();
    std::vector<ff::Fr> a, b, c;
    ASSERT_TRUE(compiled.host->shape().multiply(bad[1].inputs, bad[1].aux, a, b, c).ok());
    size_t bad_row = a.size();
    for (size_t r = 0; r < a.size() && bad_row == a.size(); ++r)
        if (!(a[r] * b[r] == c[r])) bad_row = r;
    ASSERT_EQ(bad_row, kBadAux - 1);  // the row whose C is v_30
    auto expect_names_the_row = [&](const util::Status& st, const char* how) {
        EXPECT_EQ(st.code(), util::StatusCode::kInvalidArgument) << how << ": " << st.to_string();
        const std::string m = st.message();
        EXPECT_NE(m.find("circuit 1"), std::string::npos) << how << ": " << m;
        EXPECT_NE(m.find(std::to_string(bad_row)), std::string::npos) << how << ": " << m;
        EXPECT_NE(m.find("satisf"), std::string::npos) << how << ": " << m;
    };
    using Plan = GpuProverOptions::MemoryPlan;
    for (const Plan plan : {Plan::kFull, Plan::kLean}) {
        // (lean: the error returns while b and c are still taken from the pool)
        GpuProverOptions planned = opt;
        planned.memory_plan = plan;
        std::vector<Witness> ws = bad;
        auto got = prove_gpu_witnesses(keys.resident, pointers(ws), rs, planned);
        ASSERT_FALSE(got.ok());
        expect_names_the_row(got.status(), plan == Plan::kLean ? "prove_gpu_witnesses, lean"
                                                               : "prove_gpu_witnesses");
    }
    {  // the same through prove_gpu: the circuit allocates aux 30 off by one
        const std::vector<groth16::Circuit> circuits{chain_circuit(3), chain_circuit(5, kBadAux),
                                                     chain_circuit(7)};
        auto got = prove_gpu(keys.resident, circuits, rs, opt);
        ASSERT_FALSE(got.ok());
        expect_names_the_row(got.status(), "prove_gpu compiled");
    }
    {  // the check off: the CPU's proofs (also unchecked), and the bad one does not verify
        GpuProverOptions unchecked = opt;
        unchecked.check_satisfied = false;
        std::vector<Witness> ws = bad;
        auto got = prove_gpu_witnesses(keys.resident, pointers(ws), rs, unchecked);
        ASSERT_TRUE(got.ok()) << got.status().to_string();
        ASSERT_EQ(got->size(), 3u);
        // bad[1] is exactly chain_circuit(5, kBadAux)'s witness (only v_30 is off).
        const std::vector<groth16::Circuit> circuits{chain_circuit(3), chain_circuit(5, kBadAux),
                                                     chain_circuit(7)};
        groth16::ProverOptions cpu_unchecked;
        cpu_unchecked.check_satisfied = false;
        auto cpu = groth16::prove(keys.host, circuits, rs, cpu_unchecked);
        ASSERT_TRUE(cpu.ok()) << cpu.status().to_string();
        for (size_t k = 0; k < 3; ++k) {
            EXPECT_EQ(groth16::serialize_proof((*got)[k]), groth16::serialize_proof((*cpu)[k]))
                << "unchecked, circuit " << k;
        }
        const auto pvk = groth16::prepare_verifying_key(keys.host.vk);
        const uint64_t xs[3] = {3, 5, 7};
        for (size_t k = 0; k < 3; ++k) {
            const std::vector<ff::Fr> in = chain_inputs(xs[k]);
            auto valid = groth16::verify(pvk, (*got)[k], in);
            ASSERT_TRUE(valid.ok());
            EXPECT_EQ(*valid, k != 1) << "circuit " << k;
        }
    }
}

// Coset-Lagrange H bases (a GPU-generated set whose H step takes four transforms, C folded
// into L): the same proofs as the CPU prover over the monomial file, synthesis and assignment
// paths (example circuits; sha256 packs its digest into inputs through C) and the compiled path
// in every ordering (PoRep 2 KiB, whose public inputs are packed through C too).
TEST_F(GpuProverTest, CosetLagrangeBasesMatchTheCpu) {
    for (const char* name : {"cubic", "random:10", "sha256:3"}) {
        auto ex = groth16::examples::make_example_circuit(name);
        ASSERT_TRUE(ex.ok());
        const Keys keys = make_coset_keys(ex->circuit);
        expect_identical(keys, {ex->circuit, ex->circuit},
                         {ex->public_inputs, ex->public_inputs},
                         (std::string(name) + " coset-Lagrange").c_str());
        expect_compiled_identical(keys, ex->circuit, {ex->circuit, ex->circuit},
                                  {ex->public_inputs, ex->public_inputs},
                                  std::string(name) + " coset-Lagrange");
    }
}

TEST_F(GpuProverTest, CosetLagrangeBasesPorepTwoKiBMatchesTheCpu) {
    std::vector<groth16::Circuit> circuits;
    std::vector<std::vector<ff::Fr>> inputs;
    synthetic_two_kib_partitions({17, 18}, circuits, inputs);
    ASSERT_FALSE(HasFatalFailure());
    auto blank = porep::blank_stacked_circuit(porep::RegisteredSealProof::kStackedDrg2KiBV1_1);
    ASSERT_TRUE(blank.ok());
    const Keys keys = make_coset_keys(*blank);
    bool some_input_point = false;
    for (const ec::G1Affine& p : keys.resident.c_input())
        some_input_point = some_input_point || !p.is_identity();
    EXPECT_TRUE(some_input_point) << "PoRep packs its public inputs through C";
    expect_compiled_identical(keys, *blank, circuits, inputs, "porep 2KiB coset-Lagrange");
}

}  // namespace
}  // namespace cuzk::gpu
