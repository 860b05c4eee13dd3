// ResidentParams against groth16::read_params_file (the host reader is the oracle): real
// parameter files from the test ceremony are loaded resident — on the device through the
// staging buffer (one chunk and many small chunks), into pinned host memory (forced, and chosen
// by kAuto when the margin cannot be met), with and without the subgroup check — and every
// section is copied back and compared byte for byte; truncated and corrupted files must fail
// with exactly the reader's error (code and message: path, section, point index). Skips itself
// without a usable CUDA device.
#include "gpu/resident_params.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "gpu/device.hpp"
#include "gpu/params_test_files.hpp"
#include "gpu/pinned_pool.hpp"

namespace cuzk::gpu {
namespace {

using groth16::Section;
using testing::params_file;
using testing::read_bytes;
using testing::temp_file;
using testing::write_bytes;

class ResidentParamsTest : public ::testing::Test {
   protected:
    void SetUp() override {
        if (device_count() == 0) {
            GTEST_SKIP() << "no usable CUDA device (" << check_device_available().to_string()
                         << "); resident parameters test skipped";
        }
    }
};

template <class P>
void expect_same_bytes(const util::Result<std::vector<P>>& got, const std::vector<P>& want,
                       const char* what) {
    ASSERT_TRUE(got.ok()) << what << ": " << got.status().to_string();
    ASSERT_EQ(got->size(), want.size()) << what;
    if (want.empty()) return;
    EXPECT_EQ(std::memcmp(got->data(), want.data(), want.size() * sizeof(P)), 0) << what;
}

void expect_same_as_reader(const ResidentParams& rp, const groth16::Parameters& want) {
    EXPECT_TRUE(rp.vk() == want.vk);
    expect_same_bytes(rp.download_g1(Section::kH), want.h, "h");
    expect_same_bytes(rp.download_g1(Section::kL), want.l, "l");
    expect_same_bytes(rp.download_g1(Section::kA), want.a, "a");
    expect_same_bytes(rp.download_g1(Section::kBG1), want.b_g1, "b_g1");
    expect_same_bytes(rp.download_b_g2(), want.b_g2, "b_g2");
    EXPECT_EQ(rp.domain_size(), want.h.size() + 1);
    EXPECT_EQ(rp.num_aux(), want.l.size());
    const uint64_t bytes = 96 * (want.h.size() + want.l.size() + want.a.size() + want.b_g1.size()) +
                           192 * want.b_g2.size();
    EXPECT_EQ(rp.resident_bytes(), bytes);
    EXPECT_EQ(rp.device_bytes(), rp.placement() == Placement::kDevice ? bytes : 0);
}

groth16::Parameters reference(const std::string& path) {
    auto p = groth16::read_params_file(path);
    EXPECT_TRUE(p.ok()) << p.status().to_string();
    return p.ok() ? std::move(*p) : groth16::Parameters{};
}

// Host only (runs without a device): the test files exist, read back, and have the points the
// damage cases below edit.
TEST(ResidentParamsFiles, AreLargeEnoughForTheDamageCases) {
    const std::string path = params_file(6);
    ASSERT_FALSE(path.empty());
    auto layout = groth16::inspect_params_file(path);
    ASSERT_TRUE(layout.ok()) << layout.status().to_string();
    EXPECT_EQ(layout->find(Section::kH)->count, 63u);
    EXPECT_GT(layout->find(Section::kL)->count, 40u);
    EXPECT_GT(layout->find(Section::kA)->count, 3u);
    EXPECT_GT(layout->find(Section::kBG1)->count, 7u);
    EXPECT_GT(layout->find(Section::kIc)->count, 1u);
    EXPECT_TRUE(groth16::read_params_file(path).ok());
}

TEST_F(ResidentParamsTest, DeviceSectionsMatchTheReaderByteForByte) {
    const std::string path = params_file(8);
    ASSERT_FALSE(path.empty());
    const groth16::Parameters want = reference(path);
    ASSERT_EQ(want.h.size(), 255u);
    // Default chunks (the whole file in one), ~10 G1 points per chunk, one G2 point per chunk.
    for (size_t chunk : {size_t{64} << 20, size_t{1000}, size_t{1}}) {
        SCOPED_TRACE(chunk);
        ResidentLoadOptions options;
        options.placement = Placement::kDevice;
        options.staging_chunk_bytes = chunk;
        ResidentLoadTimings timings;
        auto rp = ResidentParams::load(path, options, &timings);
        ASSERT_TRUE(rp.ok()) << rp.status().to_string();
        EXPECT_EQ(rp->placement(), Placement::kDevice);
        EXPECT_EQ(rp->path(), path);
        expect_same_as_reader(*rp, want);
        EXPECT_EQ(timings.file_bytes, read_bytes(path).size());
        EXPECT_EQ(timings.resident_bytes, rp->resident_bytes());
        EXPECT_GT(timings.gb_per_s, 0.0);
        EXPECT_EQ(timings.placement, Placement::kDevice);
        EXPECT_NE(rp->h().data, nullptr);
        EXPECT_NE(rp->b_g2().data, nullptr);
    }
}

TEST_F(ResidentParamsTest, PinnedHostPlacementGivesTheSameBytes) {
    const std::string path = params_file(7);
    ASSERT_FALSE(path.empty());
    const groth16::Parameters want = reference(path);
    ResidentLoadOptions options;
    options.placement = Placement::kPinnedHost;
    options.staging_chunk_bytes = 2000;
    auto rp = ResidentParams::load(path, options);
    ASSERT_TRUE(rp.ok()) << rp.status().to_string();
    EXPECT_EQ(rp->placement(), Placement::kPinnedHost);
    expect_same_as_reader(*rp, want);

    // kAuto falls back to pinned host memory when the device cannot keep the margin free.
    ResidentLoadOptions automatic;
    automatic.device_margin_bytes = uint64_t{1} << 60;
    auto fallback = ResidentParams::load(path, automatic);
    ASSERT_TRUE(fallback.ok()) << fallback.status().to_string();
    EXPECT_EQ(fallback->placement(), Placement::kPinnedHost);
    expect_same_as_reader(*fallback, want);

    // ... and uses the device when it fits.
    ResidentLoadOptions fits;
    fits.device_margin_bytes = 0;
    auto device = ResidentParams::load(path, fits);
    ASSERT_TRUE(device.ok()) << device.status().to_string();
    EXPECT_EQ(device->placement(), Placement::kDevice);
    expect_same_as_reader(*device, want);
}

TEST_F(ResidentParamsTest, SubgroupCheckOffGivesTheSameBytes) {
    const std::string path = params_file(6);
    ASSERT_FALSE(path.empty());
    const groth16::Parameters want = reference(path);
    for (Placement placement : {Placement::kDevice, Placement::kPinnedHost}) {
        ResidentLoadOptions options;
        options.placement = placement;
        options.subgroup_check = ec::SubgroupCheck::kSkip;
        options.staging_chunk_bytes = 3000;
        auto rp = ResidentParams::load(path, options);
        ASSERT_TRUE(rp.ok()) << rp.status().to_string();
        expect_same_as_reader(*rp, want);
    }
}

TEST_F(ResidentParamsTest, ProgressCoversEverySectionInOrder) {
    const std::string path = params_file(6);
    ASSERT_FALSE(path.empty());
    const groth16::Parameters want = reference(path);
    std::vector<LoadProgress> seen;
    ResidentLoadOptions options;
    options.placement = Placement::kDevice;
    options.staging_chunk_bytes = 960;  // rounded up to 1024: 10 G1 / 5 G2 points per chunk
    options.progress = [&](const LoadProgress& p) { seen.push_back(p); };
    auto rp = ResidentParams::load(path, options);
    ASSERT_TRUE(rp.ok()) << rp.status().to_string();
    ASSERT_FALSE(seen.empty());
    const Section order[] = {Section::kH, Section::kL, Section::kA, Section::kBG1, Section::kBG2};
    const size_t counts[] = {want.h.size(), want.l.size(), want.a.size(), want.b_g1.size(),
                             want.b_g2.size()};
    size_t expected_reports = 0;  // one per chunk: ⌈count / points per chunk⌉
    for (size_t k = 0; k < 5; ++k) {
        const size_t per_chunk = k == 4 ? 5 : 10;
        expected_reports += (counts[k] + per_chunk - 1) / per_chunk;
    }
    EXPECT_EQ(seen.size(), expected_reports);
    size_t k = 0;
    uint64_t last_bytes = 0;
    for (size_t i = 0; i < seen.size(); ++i) {
        while (k < 5 && seen[i].section != order[k]) ++k;
        ASSERT_LT(k, 5u) << "sections out of order at report " << i;
        EXPECT_EQ(seen[i].section_points, counts[k]);
        EXPECT_GT(seen[i].bytes_done, last_bytes);
        last_bytes = seen[i].bytes_done;
        EXPECT_EQ(seen[i].bytes_total, rp->resident_bytes());
        const bool section_end = i + 1 == seen.size() || seen[i + 1].section != seen[i].section;
        if (section_end) {
            EXPECT_EQ(seen[i].section_points_done, counts[k]);
        }
    }
    EXPECT_EQ(last_bytes, rp->resident_bytes());
}

// Loading must fail with exactly what the host reader says (both prefix the path).
void expect_same_error(const std::string& path, Placement placement, size_t chunk) {
    auto want = groth16::read_params_file(path);
    ASSERT_FALSE(want.ok()) << "the reader accepted the damaged file";
    ResidentLoadOptions options;
    options.placement = placement;
    options.staging_chunk_bytes = chunk;
    auto got = ResidentParams::load(path, options);
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.status().code(), want.status().code());
    EXPECT_EQ(got.status().message(), want.status().message());
    EXPECT_NE(got.status().message().find(path), std::string::npos);
}

TEST_F(ResidentParamsTest, TruncatedFilesFailLikeTheReader) {
    const std::string path = params_file(5);
    ASSERT_FALSE(path.empty());
    const std::vector<uint8_t> bytes = read_bytes(path);
    auto layout = groth16::inspect_params_file(path);
    ASSERT_TRUE(layout.ok());
    const std::string cut = temp_file("truncated.params");
    std::vector<size_t> lengths = {
        0, 1, 100, 863, 864, 866, 868, bytes.size() - 1, bytes.size() - 192, bytes.size() - 193};
    for (const auto& info : layout->sections) {
        lengths.push_back(info.count_offset + 2);
        lengths.push_back(info.offset + 50);
    }
    for (size_t n : lengths) {
        SCOPED_TRACE(n);
        write_bytes(cut, std::vector<uint8_t>(bytes.begin(), bytes.begin() + n));
        expect_same_error(cut, Placement::kDevice, 1000);
    }
    std::vector<uint8_t> longer = bytes;
    longer.push_back(0);
    write_bytes(cut, longer);
    expect_same_error(cut, Placement::kDevice, 1000);

    auto missing = ResidentParams::load(temp_file("no_such_file.params"));
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.status().code(), util::StatusCode::kIoError);
    EXPECT_NE(missing.status().message().find("no_such_file.params"), std::string::npos);
}

TEST_F(ResidentParamsTest, CorruptedPointsFailLikeTheReader) {
    const std::string path = params_file(6);
    ASSERT_FALSE(path.empty());
    const std::vector<uint8_t> bytes = read_bytes(path);
    auto layout = groth16::inspect_params_file(path);
    ASSERT_TRUE(layout.ok());
    const std::string bad = temp_file("corrupted.params");
    struct Damage {
        Section section;
        size_t point;
        size_t byte;  // within the point
        uint8_t xor_mask;
    };
    const Damage cases[] = {
        {Section::kH, 0, 95, 1},      // y changed: not on the curve
        {Section::kH, 37, 95, 1},     // a later chunk
        {Section::kL, 12, 50, 0x10},  // x changed
        {Section::kA, 3, 0, 0x40},    // infinity flag on a non-zero encoding
        {Section::kBG1, 5, 0, 0x80},  // compression flag
        {Section::kBG2, 7, 191, 1},  {Section::kIc, 1, 95, 1},
    };
    for (const Damage& d : cases) {
        const groth16::SectionInfo* info = layout->find(d.section);
        ASSERT_NE(info, nullptr);
        ASSERT_LT(d.point, info->count);
        SCOPED_TRACE(std::string(groth16::section_name(d.section)) + " point " +
                     std::to_string(d.point));
        std::vector<uint8_t> damaged = bytes;
        damaged[info->offset + d.point * groth16::section_point_bytes(d.section) + d.byte] ^=
            d.xor_mask;
        write_bytes(bad, damaged);
        expect_same_error(bad, Placement::kDevice, 1000);
        expect_same_error(bad, Placement::kPinnedHost, 1000);
        expect_same_error(bad, Placement::kDevice, 64 << 20);
    }
    // Two bad points in different chunks: the lower index is named.
    {
        const groth16::SectionInfo* l = layout->find(Section::kL);
        std::vector<uint8_t> damaged = bytes;
        damaged[l->offset + 40 * 96 + 95] ^= 1;
        damaged[l->offset + 3 * 96 + 95] ^= 1;
        write_bytes(bad, damaged);
        expect_same_error(bad, Placement::kDevice, 1000);
    }
    // A verifying-key field.
    {
        std::vector<uint8_t> damaged = bytes;
        damaged[groth16::kVkDeltaG1Offset + 95] ^= 1;
        write_bytes(bad, damaged);
        expect_same_error(bad, Placement::kDevice, 1000);
    }
}

TEST_F(ResidentParamsTest, StagingBufferIsReusedAcrossLoads) {
    const std::string path = params_file(6);
    ASSERT_FALSE(path.empty());
    PinnedPool pool;
    ResidentLoadOptions options;
    options.placement = Placement::kDevice;
    options.staging = &pool;
    options.staging_chunk_bytes = 4096;
    for (int i = 0; i < 3; ++i) {
        auto rp = ResidentParams::load(path, options);
        ASSERT_TRUE(rp.ok()) << rp.status().to_string();
    }
    EXPECT_EQ(pool.allocations(), 1u);
    EXPECT_EQ(pool.idle_buffers(), 1u);
}

}  // namespace
}  // namespace cuzk::gpu
