// The GPU's coset-Lagrange conversion of a monomial parameter set (coset_convert.hpp) against
// the host: its split multiplication (each window form) against ec::mul on random and edge-case
// scalars and points;
// whole conversions against groth16::derive_coset_lagrange_sections (the host's transforms over
// G1) with ranges and partial-sum levels made small enough to take every path; a larger set
// against the points that the GPU setup makes from the toxic waste directly (closed forms, no
// transform), and proofs from the converted set byte-identical to the CPU prover's over the
// monomial file. Skips without a device.
#include "gpu/coset_convert.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "gpu/coset_convert_launch.hpp"
#include "gpu/cuda_status.hpp"
#include "gpu/device.hpp"
#include "gpu/prover.hpp"
#include "gpu/resident_setup.hpp"
#include "groth16/coset_bases.hpp"
#include "groth16/example_circuits.hpp"
#include "groth16/proof_io.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "util/rng.hpp"

namespace cuzk::gpu {
namespace {

using ec::G1Affine;
using ec::G1Jacobian;
using ff::Fr;
using groth16::Section;

class CosetConvertTest : public ::testing::Test {
   protected:
    void SetUp() override {
        if (device_count() == 0)
            GTEST_SKIP() << "no usable CUDA device (" << check_device_available().to_string()
                         << "); coset conversion test skipped";
    }
};

TEST_F(CosetConvertTest, SplitMultiplicationMatchesHost) {
    util::TestRng rng(71);
    const Fr x2 = Fr::from_u64(ff::kBlsX) * Fr::from_u64(ff::kBlsX);
    Fr two_128 = Fr::one();
    for (int i = 0; i < 128; ++i) two_128 = two_128 + two_128;
    std::vector<Fr> scalars = {Fr::zero(), Fr::one(), -Fr::one(), Fr::from_u64(2),
                               Fr::from_u64(15), Fr::from_u64(16), x2, x2 - Fr::one(),
                               x2 + Fr::one(), two_128, two_128 - Fr::one(), -x2};
    while (scalars.size() < 300) scalars.push_back(Fr::random(rng));
    std::vector<G1Affine> points(scalars.size());
    const G1Jacobian g = G1Jacobian::from_affine(ec::kG1Generator);
    for (size_t i = 0; i < points.size(); ++i) {
        if (i % 37 == 5) points[i] = G1Affine::identity();
        else if (i % 11 == 3) points[i] = points[i - 1];  // repeated points
        else points[i] = ec::mul(g, Fr::random(rng)).to_affine();
    }
    std::vector<detail::DeviceSigmaSplit> k(scalars.size());
    for (size_t i = 0; i < scalars.size(); ++i) {
        const ec::SigmaSplit s = ec::split_by_x_squared(scalars[i]);
        k[i] = {{s.k1.limb[0], s.k1.limb[1]}, {s.k2.limb[0], s.k2.limb[1]}};
    }
    const size_t n = scalars.size();
    auto p_dev = DeviceBuffer::allocate(n * sizeof(G1Affine));
    auto k_dev = DeviceBuffer::allocate(n * sizeof(detail::DeviceSigmaSplit));
    auto out_dev = DeviceBuffer::allocate(n * sizeof(G1Jacobian));
    auto aff_dev = DeviceBuffer::allocate(n * sizeof(G1Affine));
    ASSERT_TRUE(p_dev.ok() && k_dev.ok() && out_dev.ok() && aff_dev.ok());
    ASSERT_TRUE(p_dev->upload(points.data(), n * sizeof(G1Affine)).ok());
    ASSERT_TRUE(k_dev->upload(k.data(), n * sizeof(detail::DeviceSigmaSplit)).ok());
    DeviceFp beta;
    std::memcpy(static_cast<void*>(&beta), &ec::sigma_beta(), sizeof(beta));
    auto* out = static_cast<DeviceG1Jacobian*>(out_dev->data());
    std::vector<G1Affine> want(n);
    for (size_t i = 0; i < n; ++i)
        want[i] = ec::mul(G1Jacobian::from_affine(points[i]), scalars[i]).to_affine();
    for (MulWindow form : {MulWindow::kUnsigned4, MulWindow::kSigned3, MulWindow::kSigned4,
                           MulWindow::kUnsigned4TwoBlocks, MulWindow::kSigned4TwoBlocks}) {
        ASSERT_EQ(detail::launch_scale_points(
                      form, static_cast<const DeviceG1Affine*>(p_dev->data()),
                      static_cast<const detail::DeviceSigmaSplit*>(k_dev->data()), n, beta, out,
                      nullptr),
                  cudaSuccess);
        ASSERT_EQ(detail::launch_normalize_g1(
                      out, n, static_cast<DeviceG1Affine*>(aff_dev->data()), nullptr),
                  cudaSuccess);
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        std::vector<G1Affine> got(n);
        ASSERT_TRUE(aff_dev->download(got.data(), n * sizeof(G1Affine)).ok());
        for (size_t i = 0; i < n; ++i)
            ASSERT_TRUE(got[i] == want[i]) << mul_window_name(form) << " point " << i;
    }
}

struct MonomialSet {
    groth16::Parameters host;
    r1cs::ShapeRecorder shape;
    ResidentParams resident;  // the same points, made by the GPU setup
};

// s: fresh (ShapeRecorder does not move).
void make_monomial_set(const groth16::Circuit& circuit, uint64_t seed, MonomialSet& s) {
    const auto toxic = groth16::ToxicWaste::from_seed(seed);
    auto params = groth16::generate_parameters(circuit, toxic);
    EXPECT_TRUE(params.ok()) << params.status().to_string();
    s.host = std::move(*params);
    EXPECT_TRUE(circuit(s.shape).ok());
    s.shape.finish();
    auto scalars = groth16::compute_parameter_scalars(s.shape, toxic);
    EXPECT_TRUE(scalars.ok()) << scalars.status().to_string();
    GpuSetupOptions opt;
    opt.placement = Placement::kDevice;
    auto resident = generate_resident_params(*scalars, opt);
    EXPECT_TRUE(resident.ok()) << resident.status().to_string();
    s.resident = std::move(*resident);
}

// A circuit whose C has long columns (the example circuits' have at most two entries per
// column): row i is w_i · ONE = hub + i·ONE, so hub's and ONE's columns of C have 40 entries
// each, and column sums at one entry per thread need several partial-sum levels.
util::Status hub_circuit(r1cs::ConstraintSystem& cs) {
    const bool values = cs.computes_values();
    const Fr hub_value = Fr::from_u64(3);
    auto hub = cs.alloc(r1cs::Name("hub", 0),
                        values ? std::optional<Fr>(hub_value) : std::nullopt);
    if (!hub.ok()) return hub.status();
    for (uint64_t i = 0; i < 40; ++i) {
        auto w = cs.alloc(r1cs::Name("w ", i),
                          values ? std::optional<Fr>(hub_value + Fr::from_u64(i)) : std::nullopt);
        if (!w.ok()) return w.status();
        r1cs::LC c(*hub);
        c += Fr::from_u64(i) * r1cs::Variable::one();
        cs.enforce(r1cs::Name("row ", i), r1cs::LC(*w), r1cs::LC(r1cs::Variable::one()), c);
    }
    return util::Status();
}

TEST_F(CosetConvertTest, ConversionMatchesTheHostDerivation) {
    struct Case {
        const char* circuit;
        size_t chunk_points;
        unsigned entries_per_thread;
        MulWindow window;
    } cases[] = {{"cubic", 1 << 20, 64, MulWindow::kUnsigned4},
                 // one column per range, partial sums one by one
                 {"cubic", 1, 1, MulWindow::kSigned4},
                 {"random:7", 5, 2, MulWindow::kSigned3},
                 {"random:9", 1 << 20, 3, MulWindow::kUnsigned4},
                 {"random:9", 1 << 20, 64, MulWindow::kUnsigned4TwoBlocks},
                 {"random:7", 1 << 20, 64, MulWindow::kSigned4TwoBlocks},
                 {"sha256:0", 1000, 4, MulWindow::kSigned3},
                 {"sha256:0", 1 << 20, 1, MulWindow::kUnsigned4},
                 // one entry per thread on columns of 40 C entries: partial-sum levels
                 {"hub", 1 << 20, 1, MulWindow::kUnsigned4},
                 {"hub", 7, 1, MulWindow::kSigned4}};
    for (const Case& c : cases) {
        const std::string what = std::string(c.circuit) + " chunk " +
                                 std::to_string(c.chunk_points) + " per thread " +
                                 std::to_string(c.entries_per_thread) + " windows " +
                                 mul_window_name(c.window);
        groth16::Circuit circuit = hub_circuit;
        if (std::string(c.circuit) != "hub") {
            auto ex = groth16::examples::make_example_circuit(c.circuit);
            ASSERT_TRUE(ex.ok());
            circuit = ex->circuit;
        }
        MonomialSet set;
        make_monomial_set(circuit, 9, set);
        ASSERT_FALSE(HasFailure()) << what;
        if (std::string(c.circuit) == "hub") {
            // The case is only worth its name if some column of C has several entries.
            const r1cs::CsrColumns cols =
                r1cs::group_by_column(set.shape.c(), set.shape.num_columns());
            uint64_t longest = 0;
            for (size_t i = 0; i + 1 < cols.offset.size(); ++i)
                longest = std::max(longest, cols.offset[i + 1] - cols.offset[i]);
            EXPECT_GE(longest, 40u) << what;
        }
        auto want = groth16::derive_coset_lagrange_sections(set.host, set.shape);
        ASSERT_TRUE(want.ok()) << want.status().to_string();
        CosetConvertOptions opt;
        opt.chunk_points = c.chunk_points;
        opt.entries_per_thread = c.entries_per_thread;
        opt.mul_window = c.window;
        const util::Status st = convert_params_to_coset_lagrange(set.resident, set.shape, opt);
        ASSERT_TRUE(st.ok()) << what << ": " << st.to_string();
        EXPECT_EQ(set.resident.h_basis(), groth16::HBasis::kCosetLagrange);
        EXPECT_EQ(set.resident.domain_size(), set.host.domain_size()) << what;
        EXPECT_TRUE(*set.resident.download_g1(Section::kH) == want->h) << what;
        EXPECT_TRUE(*set.resident.download_g1(Section::kL) == want->l) << what;
        EXPECT_TRUE(set.resident.c_input() == want->c_input) << what;
        // The other sections are untouched.
        EXPECT_TRUE(*set.resident.download_g1(Section::kA) == set.host.a) << what;
        EXPECT_TRUE(*set.resident.download_b_g2() == set.host.b_g2) << what;
    }
}

// A set of 2^12 rows: the conversion equals the set made from τ directly (closed forms), and the
// converted set proves byte-identically to the CPU prover over the monomial parameters.
TEST_F(CosetConvertTest, ConversionEqualsTheTauDerivedSetAndProves) {
    auto ex = groth16::examples::make_example_circuit("random:12");
    ASSERT_TRUE(ex.ok());
    MonomialSet set;
    make_monomial_set(ex->circuit, 13, set);
    ASSERT_FALSE(HasFailure());
    auto scalars = groth16::compute_parameter_scalars(set.shape, groth16::ToxicWaste::from_seed(13),
                                                      nullptr, nullptr,
                                                      groth16::HBasis::kCosetLagrange);
    ASSERT_TRUE(scalars.ok()) << scalars.status().to_string();
    auto direct = generate_resident_params(*scalars);
    ASSERT_TRUE(direct.ok()) << direct.status().to_string();
    CosetConvertOptions opt;
    opt.chunk_points = 1000;  // several scale chunks and column ranges
    std::vector<std::string> steps;
    opt.progress = [&](const char* step, uint64_t done, uint64_t total) {
        EXPECT_LE(done, total);
        if (steps.empty() || steps.back() != step) steps.push_back(step);
    };
    ASSERT_TRUE(convert_params_to_coset_lagrange(set.resident, set.shape, opt).ok());
    EXPECT_EQ(steps, (std::vector<std::string>{"r", "s", "q"}));
    EXPECT_TRUE(*set.resident.download_g1(Section::kH) == *direct->download_g1(Section::kH));
    EXPECT_TRUE(*set.resident.download_g1(Section::kL) == *direct->download_g1(Section::kL));
    EXPECT_TRUE(set.resident.c_input() == direct->c_input());
    EXPECT_EQ(set.resident.shape().h, direct->shape().h);
    EXPECT_EQ(set.resident.resident_bytes(), direct->resident_bytes());

    const auto r = groth16::ProverRandomness::from_seed(77);
    auto cpu = groth16::prove(set.host, std::span<const groth16::Circuit>(&ex->circuit, 1),
                              std::span<const groth16::ProverRandomness>(&r, 1));
    ASSERT_TRUE(cpu.ok()) << cpu.status().to_string();
    auto gpu = prove_gpu(set.resident, std::span<const groth16::Circuit>(&ex->circuit, 1),
                         std::span<const groth16::ProverRandomness>(&r, 1));
    ASSERT_TRUE(gpu.ok()) << gpu.status().to_string();
    EXPECT_EQ(groth16::serialize_proof((*gpu)[0]), groth16::serialize_proof((*cpu)[0]));
    auto ok = groth16::verify(groth16::prepare_verifying_key(set.host.vk), (*gpu)[0],
                              ex->public_inputs);
    ASSERT_TRUE(ok.ok());
    EXPECT_TRUE(*ok);
}

TEST_F(CosetConvertTest, RefusesSetsThatDoNotFit) {
    auto cubic = groth16::examples::make_example_circuit("cubic");
    auto other = groth16::examples::make_example_circuit("random:5");
    ASSERT_TRUE(cubic.ok() && other.ok());
    MonomialSet set;
    make_monomial_set(cubic->circuit, 3, set);
    ASSERT_FALSE(HasFailure());
    r1cs::ShapeRecorder unfinished;
    EXPECT_EQ(convert_params_to_coset_lagrange(set.resident, unfinished).code(),
              util::StatusCode::kInvalidArgument);
    r1cs::ShapeRecorder wrong;
    ASSERT_TRUE(other->circuit(wrong).ok());
    wrong.finish();
    const util::Status st = convert_params_to_coset_lagrange(set.resident, wrong);
    EXPECT_EQ(st.code(), util::StatusCode::kInvalidArgument);
    EXPECT_NE(st.message().find("does not fit"), std::string::npos) << st.message();
    EXPECT_EQ(set.resident.h_basis(), groth16::HBasis::kMonomial);  // untouched
    ASSERT_TRUE(convert_params_to_coset_lagrange(set.resident, set.shape).ok());
    const util::Status again = convert_params_to_coset_lagrange(set.resident, set.shape);
    EXPECT_EQ(again.code(), util::StatusCode::kInvalidArgument);
    EXPECT_NE(again.message().find("not monomial"), std::string::npos) << again.message();
}

}  // namespace
}  // namespace cuzk::gpu
