// Synthetic C1 outputs: they pass the out-of-circuit verifier (which recomputes
// every label with SHA-256, every path with Poseidon and the challenges from
// replica_id and seed), survive the JSON round trip, are deterministic in their
// seed, and with zero data carry the published all-zero comm_d. The 32 GiB run
// is opt-in (CUZK_SYNTHETIC_32G=1) and prints time and memory.
#include "porep/synthetic_c1.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdlib>

#include "porep/c1_json.hpp"
#include "porep/vanilla_proof.hpp"
#include "util/hex.hpp"
#include "util/timer.hpp"

namespace cuzk::porep {
namespace {

TEST(SyntheticC1, SmallSizesVerify) {
    for (RegisteredSealProof p :
         {RegisteredSealProof::kStackedDrg2KiBV1_1, RegisteredSealProof::kStackedDrg2KiBV1,
          RegisteredSealProof::kStackedDrg8MiBV1_1, RegisteredSealProof::kStackedDrg512MiBV1_1}) {
        SyntheticC1Inputs in;
        in.proof = p;
        in.rng_seed = 17;
        auto out = generate_synthetic_c1(in);
        ASSERT_TRUE(out.ok()) << out.status().to_string();
        util::Status st = verify_c1(out->c1);
        EXPECT_TRUE(st.ok()) << seal_proof_info(p).name << ": " << st.to_string();
        C1VerifyOptions opt;
        opt.prover_id = out->prover_id;
        opt.sector_id = in.sector_id;
        EXPECT_TRUE(verify_c1(out->c1, opt).ok());
        auto back = parse_c1_json(write_c1_json(out->c1));
        ASSERT_TRUE(back.ok()) << back.status().to_string();
        EXPECT_EQ(*back, out->c1);
        EXPECT_TRUE(verify_c1(*back).ok());
    }
}

TEST(SyntheticC1, DeterministicAndSeedSensitive) {
    SyntheticC1Inputs in;
    in.proof = RegisteredSealProof::kStackedDrg2KiBV1_1;
    in.rng_seed = 1;
    auto a = generate_synthetic_c1(in);
    auto b = generate_synthetic_c1(in);
    in.rng_seed = 2;
    auto c = generate_synthetic_c1(in);
    ASSERT_TRUE(a.ok() && b.ok() && c.ok());
    EXPECT_EQ(a->c1, b->c1);
    EXPECT_NE(a->c1.comm_r, c->c1.comm_r);
}

TEST(SyntheticC1, ZeroDataGivesThePublishedCommD) {
    SyntheticC1Inputs in;
    in.proof = RegisteredSealProof::kStackedDrg2KiBV1_1;
    in.zero_data = true;
    auto out = generate_synthetic_c1(in);
    ASSERT_TRUE(out.ok());
    EXPECT_EQ(util::to_hex(out->c1.comm_d),
              "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833");
    EXPECT_TRUE(verify_c1(out->c1).ok());
}

TEST(SyntheticC1, TamperedLabelFails) {
    SyntheticC1Inputs in;
    in.proof = RegisteredSealProof::kStackedDrg8MiBV1_1;
    auto out = generate_synthetic_c1(in);
    ASSERT_TRUE(out.ok());
    auto c1 = out->c1;
    c1.vanilla_proofs[0][0].labeling_proofs[0].parents[0][3] ^= 1;
    EXPECT_EQ(verify_c1(c1).message(),
              "partition 0 challenge 0: labeling proof layer 1: label does not match its parents");
}

TEST(SyntheticC1, NonInteractiveModesRejected) {
    SyntheticC1Inputs in;
    in.proof = RegisteredSealProof::kStackedDrg32GiBV1_1_Feat_SyntheticPoRep;
    EXPECT_FALSE(generate_synthetic_c1(in).ok());
}

TEST(SyntheticC1, LargeSizes) {
    if (std::getenv("CUZK_SYNTHETIC_32G") == nullptr) {
        GTEST_SKIP() << "set CUZK_SYNTHETIC_32G=1 to generate 32 GiB and 64 GiB C1s";
    }
    for (RegisteredSealProof p :
         {RegisteredSealProof::kStackedDrg32GiBV1_1, RegisteredSealProof::kStackedDrg64GiBV1_1}) {
        SyntheticC1Inputs in;
        in.proof = p;
        util::Stopwatch sw;
        auto out = generate_synthetic_c1(in);
        const double gen_ms = sw.elapsed_ms();
        ASSERT_TRUE(out.ok()) << out.status().to_string();
        sw.reset();
        util::Status st = verify_c1(out->c1);
        const double verify_ms = sw.elapsed_ms();
        EXPECT_TRUE(st.ok()) << st.to_string();
        const std::string json = write_c1_json(out->c1);
        rusage ru{};
        getrusage(RUSAGE_SELF, &ru);
        std::printf(
            "%s: generate %.0f ms, verify %.0f ms, %llu touched nodes, JSON %zu bytes, peak RSS "
            "%ld MiB\n",
            seal_proof_info(p).name, gen_ms, verify_ms,
            static_cast<unsigned long long>(out->touched_nodes), json.size(), ru.ru_maxrss / 1024);
        EXPECT_EQ(out->c1.vanilla_proofs.size(), 10u);
        EXPECT_EQ(out->c1.vanilla_proofs[0].size(), 18u);
    }
}

}  // namespace
}  // namespace cuzk::porep
