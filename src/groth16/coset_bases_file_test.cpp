// The converted-H-bases file (groth16/coset_bases_file.hpp): written in runs, read back, and
// every way a file can be refused — another source, other counts, a damaged header or payload,
// a truncated file, an unfinished write.
#include "groth16/coset_bases_file.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "groth16/params_io.hpp"
#include "groth16/test_keys.hpp"
#include "util/mapped_file.hpp"
#include "util/rng.hpp"

namespace cuzk::groth16 {
namespace {

namespace fs = std::filesystem;

// Points with random limbs: the file stores bytes; whether they are on the curve is not its
// business (the digests are).
std::vector<ec::G1Affine> random_points(size_t n, util::TestRng& rng) {
    std::vector<ec::G1Affine> v(n);
    auto* words = reinterpret_cast<uint64_t*>(v.data());
    for (size_t i = 0; i < n * sizeof(ec::G1Affine) / 8; ++i) words[i] = rng.next_u64();
    return v;
}

struct Sections {
    std::vector<ec::G1Affine> h, l, c;
};

class CosetBasesFileTest : public ::testing::Test {
   protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("cuzk_clb_test_" + std::to_string(::getpid()) + "_" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(dir_);
        util::TestRng rng(0xc05e7);
        // h of 2^16 points (two whole blocks), l of 2.5 blocks, three inputs.
        sections_.h = random_points(uint64_t{1} << 16, rng);
        sections_.l = random_points(kCosetBasesBlockPoints * 5 / 2, rng);
        sections_.c = random_points(3, rng);
        header_.source.fill(0x5a);
        header_.source_bytes = 123456789;
        header_.domain = sections_.h.size();
        header_.aux = sections_.l.size();
        header_.inputs = sections_.c.size();
    }
    void TearDown() override { fs::remove_all(dir_); }

    std::string path() const { return (dir_ / "set.params.coset-lagrange").string(); }

    // Writes the file: h one block per run, l in a run of two blocks and the rest, c at once.
    void write() {
        auto w = CosetBasesWriter::create(path(), header_);
        ASSERT_TRUE(w.ok()) << w.status().message();
        const uint64_t b = kCosetBasesBlockPoints;
        for (uint64_t i = 0; i < sections_.h.size(); i += b)
            ASSERT_TRUE(w->append(std::span(sections_.h).subspan(i, b),
                                  i + b == sections_.h.size())
                            .ok());
        ASSERT_TRUE(w->append(std::span(sections_.l).first(2 * b), false).ok());
        ASSERT_TRUE(w->append(std::span(sections_.l).subspan(2 * b), true).ok());
        ASSERT_TRUE(w->append(sections_.c, true).ok());
        util::Status st = w->finish();
        ASSERT_TRUE(st.ok()) << st.message();
    }

    std::vector<uint8_t> read_bytes() const {
        std::ifstream in(path(), std::ios::binary);
        return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
    }
    void write_bytes(const std::vector<uint8_t>& b) const {
        std::ofstream out(path(), std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
    }

    // The payload digest of a file's sections, each fed whole.
    static util::Sha256Digest digest_of(std::span<const uint8_t> file, const CosetBasesHeader& h) {
        PayloadDigest d;
        for (unsigned s = 0; s < 3; ++s) EXPECT_TRUE(d.update(coset_bases_section(file, h, s), true).ok());
        return d.final();
    }

    fs::path dir_;
    Sections sections_;
    CosetBasesHeader header_;
};

bool same_points(std::span<const ec::G1Affine> a, const std::vector<ec::G1Affine>& b) {
    return a.size() == b.size() &&
           std::memcmp(a.data(), b.data(), b.size() * sizeof(ec::G1Affine)) == 0;
}

TEST_F(CosetBasesFileTest, WrittenInRunsReadsBackWithItsDigest) {
    write();
    auto file = util::MappedFile::open(path());
    ASSERT_TRUE(file.ok());
    EXPECT_EQ(file->size(), header_.file_bytes());
    auto h = open_coset_bases(file->bytes(), header_);
    ASSERT_TRUE(h.ok()) << h.status().message();
    EXPECT_TRUE(same_points(coset_bases_section(file->bytes(), *h, 0), sections_.h));
    EXPECT_TRUE(same_points(coset_bases_section(file->bytes(), *h, 1), sections_.l));
    EXPECT_TRUE(same_points(coset_bases_section(file->bytes(), *h, 2), sections_.c));
    // The digest does not depend on how the runs were cut, and it covers every point.
    EXPECT_EQ(digest_of(file->bytes(), *h), h->payload);
    Sections changed = sections_;
    changed.l.back().x.limb[0] ^= 1;
    PayloadDigest d;
    ASSERT_TRUE(d.update(changed.h, true).ok());
    ASSERT_TRUE(d.update(changed.l, true).ok());
    ASSERT_TRUE(d.update(changed.c, true).ok());
    EXPECT_NE(d.final(), h->payload);
    // No temporary left beside it.
    size_t files = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_)) ++files;
    EXPECT_EQ(files, 1u);
}

TEST_F(CosetBasesFileTest, ADamagedPayloadFailsTheDigest) {
    write();
    std::vector<uint8_t> b = read_bytes();
    b[kCosetBasesHeaderBytes + 96 * 70000 + 5] ^= 0x10;  // a byte of l
    write_bytes(b);
    auto file = util::MappedFile::open(path());
    ASSERT_TRUE(file.ok());
    auto h = open_coset_bases(file->bytes(), header_);
    ASSERT_TRUE(h.ok());  // the header is intact
    EXPECT_NE(digest_of(file->bytes(), *h), h->payload);
}

TEST_F(CosetBasesFileTest, RefusalsNameWhatDiffers) {
    write();
    const std::vector<uint8_t> good = read_bytes();
    auto refused = [&](const std::vector<uint8_t>& b, const CosetBasesHeader& expected,
                       const char* words) {
        auto h = open_coset_bases(b, expected);
        ASSERT_FALSE(h.ok()) << words;
        EXPECT_EQ(h.status().code(), util::StatusCode::kInvalidArgument);
        EXPECT_NE(h.status().message().find(words), std::string::npos) << h.status().message();
    };
    CosetBasesHeader other = header_;
    other.source[7] ^= 1;
    refused(good, other, "another parameter file");
    other = header_;
    other.source_bytes += 1;
    refused(good, other, "another parameter file");
    other = header_;
    other.aux -= 1;
    refused(good, other, "counts differ");
    std::vector<uint8_t> b(good.begin(), good.end() - 96);
    refused(b, header_, "truncated");
    b.assign(good.begin(), good.begin() + 100);
    refused(b, header_, "shorter than its header");
    b = good;
    b[0] = 'X';
    refused(b, header_, "magic");
    b = good;
    b[8] = 2;  // version 2
    refused(b, header_, "version 2, expected 1");
    b = good;
    b[60] ^= 1;  // the domain, without its digest updated
    refused(b, header_, "header's digest");
}

TEST_F(CosetBasesFileTest, TheSourceIsTheVerifyingKey) {
    const Parameters p1 = testing::random_parameters({3, 7, 5, 6, 6}, 1);
    const Parameters p2 = testing::random_parameters({3, 7, 5, 6, 6}, 2);
    auto b1 = serialize_params(p1), b2 = serialize_params(p2);
    ASSERT_TRUE(b1.ok() && b2.ok());
    auto s1 = coset_bases_source(*b1), s1again = coset_bases_source(*b1),
         s2 = coset_bases_source(*b2);
    ASSERT_TRUE(s1.ok() && s1again.ok() && s2.ok());
    EXPECT_EQ(s1->source, s1again->source);
    EXPECT_NE(s1->source, s2->source);
    EXPECT_EQ(s1->source_bytes, b1->size());
    // A change past the verifying key (a point of h) keeps the source digest.
    std::vector<uint8_t> changed = *b1;
    changed[vk_file_size(3) + 4 + 10] ^= 1;
    EXPECT_EQ(coset_bases_source(changed)->source, s1->source);
    std::vector<uint8_t> junk(100, 1);
    EXPECT_FALSE(coset_bases_source(junk).ok());
}

TEST_F(CosetBasesFileTest, AnUnfinishedWriteLeavesNothing) {
    {
        auto w = CosetBasesWriter::create(path(), header_);
        ASSERT_TRUE(w.ok());
        ASSERT_TRUE(w->append(sections_.h, true).ok());
        // Past l's count, and a section's end that is short of it.
        std::vector<ec::G1Affine> too_many(sections_.l.size() + 1);
        EXPECT_FALSE(w->append(too_many, true).ok());
        EXPECT_FALSE(w->append(std::span(sections_.l).first(kCosetBasesBlockPoints), true).ok());
        // A run inside a section that is not whole blocks.
        EXPECT_FALSE(w->append(std::span(sections_.l).first(5), false).ok());
        EXPECT_FALSE(w->finish().ok());
    }
    EXPECT_FALSE(fs::exists(path()));
    EXPECT_TRUE(fs::is_empty(dir_));
    // A missing directory is made; one under a plain file cannot be.
    auto made = CosetBasesWriter::create((dir_ / "new" / "dir" / "f").string(), header_);
    ASSERT_TRUE(made.ok()) << made.status().message();
    EXPECT_TRUE(fs::is_directory(dir_ / "new" / "dir"));
    std::ofstream(dir_ / "plain") << "x";
    auto w = CosetBasesWriter::create((dir_ / "plain" / "dir" / "f").string(), header_);
    ASSERT_FALSE(w.ok());
    EXPECT_EQ(w.status().code(), util::StatusCode::kIoError);
    EXPECT_NE(w.status().message().find("plain"), std::string::npos) << w.status().message();
}

TEST(CosetBasesChunks, WholeBlocks) {
    EXPECT_EQ(coset_bases_chunk_points(1), kCosetBasesBlockPoints);
    EXPECT_EQ(coset_bases_chunk_points(size_t{64} << 20), 21 * kCosetBasesBlockPoints);
}

}  // namespace
}  // namespace cuzk::groth16
