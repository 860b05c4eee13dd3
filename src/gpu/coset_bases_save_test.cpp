// Converted H bases saved from a resident set and loaded back (gpu/coset_bases_save.hpp,
// ResidentLoadOptions::coset_bases_file): a parameter file large enough that h and l span
// several digest blocks and staging chunks is loaded, given "converted" sections (random points:
// what is tested is that the bytes saved are the bytes loaded, not the conversion), saved, and
// loaded with them on the device (one block per staging chunk) and in pinned host memory; the
// other sections still come from the .params file. A damaged file, another parameter file's
// converted bases and a monomial set's save are refused. Skips itself without a usable device.
#include "gpu/coset_bases_save.hpp"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <vector>

#include "groth16/coset_bases_file.hpp"
#include "groth16/params_io.hpp"
#include "groth16/test_keys.hpp"
#include "gpu/device.hpp"
#include "gpu/params_test_files.hpp"

namespace cuzk::gpu {
namespace {

using groth16::Section;

// h of 2^16 − 1 points (the converted h: 2^16, two digest blocks), l of 2.5 blocks.
constexpr size_t kDomain = size_t{1} << 16;
constexpr size_t kAux = groth16::kCosetBasesBlockPoints * 5 / 2;

// A .params file with random points (cheap ones for the big sections), written once per seed.
std::string big_params_file(uint64_t seed) {
    groth16::Parameters p = groth16::testing::random_parameters({3, 1, 1, 5, 4}, seed);
    util::TestRng rng(seed * 7 + 1);
    p.h = groth16::testing::cheap_g1_points(kDomain - 1, rng);
    p.l = groth16::testing::cheap_g1_points(kAux, rng);
    const std::string path = testing::temp_file("clb_" + std::to_string(::getpid()) + "_" +
                                                std::to_string(seed) + ".params");
    EXPECT_TRUE(groth16::write_params_file(path, p).ok());
    return path;
}

template <class P>
bool same(const util::Result<std::vector<P>>& got, const std::vector<P>& want) {
    return got.ok() && got->size() == want.size() &&
           std::memcmp(got->data(), want.data(), want.size() * sizeof(P)) == 0;
}

class CosetBasesSaveTest : public ::testing::Test {
   protected:
    void SetUp() override {
        if (device_count() == 0)
            GTEST_SKIP() << "no usable CUDA device (" << check_device_available().to_string()
                         << "); converted-bases save test skipped";
        path_ = big_params_file(1);
        saved_ = path_ + ".coset-lagrange";
        util::TestRng rng(99);
        h_ = groth16::testing::cheap_g1_points(kDomain, rng);
        l_ = groth16::testing::cheap_g1_points(kAux, rng);
        c_ = groth16::testing::cheap_g1_points(3, rng);
    }
    void TearDown() override {
        std::filesystem::remove(path_);
        std::filesystem::remove(saved_);
    }

    static ResidentLoadOptions options(Placement placement) {
        ResidentLoadOptions o;
        o.placement = placement;
        o.subgroup_check = ec::SubgroupCheck::kSkip;
        o.staging_chunk_bytes = 1;  // one digest block per chunk: both staging halves in turn
        return o;
    }

    // The file's set with h, l and c_input replaced by the test's "converted" points, saved.
    void save() {
        auto rp = ResidentParams::load(path_, options(Placement::kDevice));
        ASSERT_TRUE(rp.ok()) << rp.status().to_string();
        auto h = rp->reallocate_g1(Section::kH, kDomain);
        ASSERT_TRUE(h.ok());
        ASSERT_EQ(cudaMemcpy(*h, h_.data(), kDomain * sizeof(ec::G1Affine),
                             cudaMemcpyHostToDevice),
                  cudaSuccess);
        ASSERT_EQ(cudaMemcpy(rp->writable_g1(Section::kL), l_.data(), kAux * sizeof(ec::G1Affine),
                             cudaMemcpyHostToDevice),
                  cudaSuccess);
        ASSERT_TRUE(rp->set_coset_lagrange(c_).ok());
        const util::Status st = save_coset_bases(*rp, saved_);
        ASSERT_TRUE(st.ok()) << st.to_string();
    }

    std::string path_, saved_;
    std::vector<ec::G1Affine> h_, l_, c_;
};

TEST_F(CosetBasesSaveTest, SavedBasesLoadBackOnTheDeviceAndInPinnedMemory) {
    save();
    auto file = groth16::read_params_file(path_, {ec::SubgroupCheck::kSkip});
    ASSERT_TRUE(file.ok());
    for (Placement placement : {Placement::kDevice, Placement::kPinnedHost}) {
        SCOPED_TRACE(placement_name(placement));
        ResidentLoadOptions o = options(placement);
        o.coset_bases_file = saved_;
        auto rp = ResidentParams::load(path_, o);
        ASSERT_TRUE(rp.ok()) << rp.status().to_string();
        EXPECT_EQ(rp->placement(), placement);
        EXPECT_EQ(rp->h_basis(), groth16::HBasis::kCosetLagrange);
        EXPECT_EQ(rp->domain_size(), kDomain);
        EXPECT_TRUE(same(rp->download_g1(Section::kH), h_));
        EXPECT_TRUE(same(rp->download_g1(Section::kL), l_));
        EXPECT_TRUE(rp->c_input() == c_);
        EXPECT_TRUE(same(rp->download_g1(Section::kA), file->a));
        EXPECT_TRUE(same(rp->download_g1(Section::kBG1), file->b_g1));
        EXPECT_TRUE(same(rp->download_b_g2(), file->b_g2));
        EXPECT_TRUE(rp->vk() == file->vk);
        EXPECT_EQ(rp->resident_bytes(), 96 * (kDomain + kAux + 5 + 4) + 192 * 4);
    }
}

TEST_F(CosetBasesSaveTest, DamagedOrForeignFilesAreRefusedNamingThem) {
    save();
    auto refused = [&](const std::string& params, const char* words) {
        ResidentLoadOptions o = options(Placement::kDevice);
        o.coset_bases_file = saved_;
        auto rp = ResidentParams::load(params, o);
        ASSERT_FALSE(rp.ok()) << words;
        EXPECT_EQ(rp.status().code(), util::StatusCode::kInvalidArgument);
        EXPECT_NE(rp.status().message().find(saved_), std::string::npos) << rp.status().message();
        EXPECT_NE(rp.status().message().find(words), std::string::npos) << rp.status().message();
    };
    // Another parameter file of the same counts.
    const std::string other = big_params_file(2);
    refused(other, "another parameter file");
    std::filesystem::remove(other);
    // A bit of l flipped (the last chunk of l: found after every section was placed).
    std::vector<uint8_t> b = testing::read_bytes(saved_);
    b[groth16::kCosetBasesHeaderBytes + 96 * (kDomain + kAux - 1) + 17] ^= 4;
    testing::write_bytes(saved_, b);
    refused(path_, "digest does not match");
    // Truncated.
    b.resize(b.size() - 1);
    testing::write_bytes(saved_, b);
    refused(path_, "truncated");
    // A monomial set is not saved.
    auto monomial = ResidentParams::load(path_, options(Placement::kDevice));
    ASSERT_TRUE(monomial.ok());
    const util::Status st = save_coset_bases(*monomial, saved_ + ".x");
    EXPECT_EQ(st.code(), util::StatusCode::kInvalidArgument);
    EXPECT_FALSE(std::filesystem::exists(saved_ + ".x"));
}

TEST(CosetBasesPath, IsTheFileNameInTheDirectory) {
    EXPECT_EQ(coset_bases_path("/var/cache/cuzk", "/params/v28-porep.params"),
              "/var/cache/cuzk/v28-porep.params.coset-lagrange");
}

}  // namespace
}  // namespace cuzk::gpu
