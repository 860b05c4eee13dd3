// .vk/.params reader and writer: round trips, exact sizes, layout inspection,
// and rejection of truncated files, corrupted counts, bad points, identity
// points and points outside the subgroup.
#include "groth16/params_io.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "groth16/test_keys.hpp"
#include "util/mapped_file.hpp"

namespace cuzk::groth16 {
namespace {

using ec::SubgroupCheck;
using testing::KeySizes;
using testing::random_parameters;

const Parameters& medium_params() {
    static const Parameters p = random_parameters({40, 255, 300, 280, 150}, 1);
    return p;
}
const Parameters& small_params() {
    static const Parameters p = random_parameters({2, 3, 4, 3, 2}, 2);
    return p;
}
std::vector<uint8_t> bytes_of(const Parameters& p) {
    auto b = serialize_params(p);
    EXPECT_TRUE(b.ok()) << b.status().to_string();
    return *b;
}
ReadOptions with_check(SubgroupCheck c) { return ReadOptions{c, nullptr}; }
bool contains(const std::string& s, const std::string& what) {
    return s.find(what) != std::string::npos;
}
std::string temp_path(const std::string& name) { return ::testing::TempDir() + "cuzk_g16_" + name; }
void put_be32(std::vector<uint8_t>& b, uint64_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i)
        b[at + static_cast<uint64_t>(i)] = static_cast<uint8_t>(v >> (24 - 8 * i));
}

TEST(ParamsIo, VkSizesMatchTheSpec) {
    EXPECT_EQ(vk_file_size(40), 4708u);
    EXPECT_EQ(vk_file_size(328), 32356u);
    const auto vk = serialize_vk(medium_params().vk);
    ASSERT_TRUE(vk.ok());
    EXPECT_EQ(vk->size(), 4708u);
    const Parameters& p = medium_params();
    const uint64_t expect = 4708 + 5 * 4 + 96 * (255 + 300 + 280 + 150) + 192 * 150;
    EXPECT_EQ(params_file_size(p), expect);
    EXPECT_EQ(bytes_of(p).size(), expect);
}

TEST(ParamsIo, VkWith328InputsIs32356Bytes) {
    util::TestRng rng(12);
    VerifyingKey vk = medium_params().vk;
    vk.ic = testing::cheap_g1_points(328, rng);
    const auto bytes = serialize_vk(vk);
    ASSERT_TRUE(bytes.ok());
    EXPECT_EQ(bytes->size(), 32356u);
    EXPECT_EQ(bytes->at(864), 0);  // big-endian u32 328 = 00 00 01 48
    EXPECT_EQ(bytes->at(866), 1);
    EXPECT_EQ(bytes->at(867), 0x48);
    auto back = parse_vk(*bytes);
    ASSERT_TRUE(back.ok()) << back.status().to_string();
    EXPECT_TRUE(*back == vk);
}

TEST(MappedFile, MapsTheWholeFileAndMoves) {
    const std::string path = temp_path("mapped.bin");
    std::FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    const uint8_t data[] = {1, 2, 3, 4, 5, 6, 7};
    ASSERT_EQ(std::fwrite(data, 1, sizeof data, f), sizeof data);
    std::fclose(f);
    auto m = util::MappedFile::open(path);
    ASSERT_TRUE(m.ok()) << m.status().to_string();
    EXPECT_EQ(m->size(), sizeof data);
    EXPECT_EQ(m->path(), path);
    EXPECT_TRUE(std::equal(m->bytes().begin(), m->bytes().end(), data));
    util::MappedFile moved = std::move(*m);
    EXPECT_EQ(moved.size(), sizeof data);
    EXPECT_EQ(m->size(), 0u);
    EXPECT_TRUE(m->bytes().empty());
    util::MappedFile other;
    other = std::move(moved);
    EXPECT_EQ(other.bytes()[6], 7);
    std::remove(path.c_str());
}

TEST(ParamsIo, DecodeSectionRejectsAMismatchedLayout) {
    const auto bytes = bytes_of(small_params());
    auto layout = inspect_params(bytes);
    ASSERT_TRUE(layout.ok());
    std::vector<G1Affine> wrong_size(1);
    auto st = decode_section(bytes, FileKind::kParameters, *layout->find(Section::kL),
                             std::span<G1Affine>(wrong_size));
    EXPECT_EQ(st.code(), util::StatusCode::kInternal);
    std::vector<G1Affine> g1_for_g2(2);
    EXPECT_FALSE(decode_section(bytes, FileKind::kParameters, *layout->find(Section::kBG2),
                                std::span<G1Affine>(g1_for_g2))
                     .ok());
    SectionInfo beyond = *layout->find(Section::kBG1);
    beyond.offset = bytes.size();
    std::vector<G1Affine> out(beyond.count);
    EXPECT_FALSE(
        decode_section(bytes, FileKind::kParameters, beyond, std::span<G1Affine>(out)).ok());
}

TEST(ParamsIo, RoundTripBothCheckModes) {
    const Parameters& p = medium_params();
    const auto bytes = bytes_of(p);
    for (auto mode : {SubgroupCheck::kCheck, SubgroupCheck::kSkip}) {
        auto back = parse_params(bytes, with_check(mode));
        ASSERT_TRUE(back.ok()) << back.status().to_string();
        EXPECT_TRUE(*back == p);
        EXPECT_EQ(bytes_of(*back), bytes);
    }
    const auto vk_bytes = serialize_vk(p.vk);
    ASSERT_TRUE(vk_bytes.ok());
    auto vk = parse_vk(*vk_bytes);
    ASSERT_TRUE(vk.ok()) << vk.status().to_string();
    EXPECT_TRUE(*vk == p.vk);
    // The .vk bytes are the prefix of the .params bytes.
    EXPECT_TRUE(std::equal(vk_bytes->begin(), vk_bytes->end(), bytes.begin()));
    // A .params file is not a .vk file and vice versa.
    EXPECT_FALSE(parse_vk(bytes).ok());
    EXPECT_FALSE(parse_params(*vk_bytes).ok());
}

TEST(ParamsIo, FileRoundTripAndInspect) {
    const Parameters& p = medium_params();
    const std::string params_path = temp_path("medium.params");
    const std::string vk_path = temp_path("medium.vk");
    ASSERT_TRUE(write_params_file(params_path, p).ok());
    ASSERT_TRUE(write_vk_file(vk_path, p.vk).ok());
    auto back = read_params_file(params_path);
    ASSERT_TRUE(back.ok()) << back.status().to_string();
    EXPECT_TRUE(*back == p);
    auto vk = read_vk_file(vk_path, with_check(SubgroupCheck::kSkip));
    ASSERT_TRUE(vk.ok()) << vk.status().to_string();
    EXPECT_TRUE(*vk == p.vk);

    auto layout = inspect_params_file(params_path);
    ASSERT_TRUE(layout.ok()) << layout.status().to_string();
    EXPECT_EQ(layout->kind, FileKind::kParameters);
    EXPECT_EQ(layout->file_size, params_file_size(p));
    ASSERT_EQ(layout->sections.size(), 6u);
    const uint32_t counts[] = {40, 255, 300, 280, 150, 150};
    uint64_t pos = kVkFixedBytes;
    for (size_t i = 0; i < 6; ++i) {
        const SectionInfo& s = layout->sections[i];
        EXPECT_EQ(s.section, kParamsSections[i]);
        EXPECT_EQ(s.count, counts[i]);
        EXPECT_EQ(s.count_offset, pos);
        EXPECT_EQ(s.offset, pos + 4);
        pos = s.end();
    }
    EXPECT_EQ(pos, layout->file_size);
    auto vk_layout = inspect_vk_file(vk_path);
    ASSERT_TRUE(vk_layout.ok());
    ASSERT_EQ(vk_layout->sections.size(), 1u);
    EXPECT_EQ(vk_layout->find(Section::kIc)->count, 40u);
    EXPECT_EQ(vk_layout->find(Section::kH), nullptr);

    // decode_section on a mapped file, as a loader would use it.
    auto mapped = util::MappedFile::open(params_path);
    ASSERT_TRUE(mapped.ok());
    std::vector<G2Affine> b_g2(150);
    EXPECT_TRUE(decode_section(mapped->bytes(), FileKind::kParameters, *layout->find(Section::kBG2),
                               std::span<G2Affine>(b_g2))
                    .ok());
    EXPECT_TRUE(b_g2 == p.b_g2);
    std::remove(params_path.c_str());
    std::remove(vk_path.c_str());
}

TEST(ParamsIo, FileErrorsNameThePathAndErrno) {
    const std::string missing = temp_path("does_not_exist.params");
    auto r = read_params_file(missing);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), util::StatusCode::kIoError);
    EXPECT_TRUE(contains(r.status().message(), missing)) << r.status().message();
    EXPECT_TRUE(contains(r.status().message(), "errno")) << r.status().message();
    auto dir = inspect_params_file(::testing::TempDir());
    EXPECT_FALSE(dir.ok());
    const std::string empty = temp_path("empty.params");
    std::FILE* f = std::fopen(empty.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fclose(f);
    auto e = read_params_file(empty);
    ASSERT_FALSE(e.ok());
    EXPECT_TRUE(contains(e.status().message(), empty));
    EXPECT_TRUE(contains(e.status().message(), "truncated")) << e.status().message();
    std::remove(empty.c_str());
    EXPECT_FALSE(write_params_file(temp_path("no/such/dir/x.params"), small_params()).ok());
}

TEST(ParamsIo, TruncationAtEveryBoundaryAndRandomOffsets) {
    const auto bytes = bytes_of(medium_params());
    auto layout = inspect_params(bytes);
    ASSERT_TRUE(layout.ok());
    auto expect_error = [&](uint64_t len, const std::string& must_name) {
        const std::span<const uint8_t> prefix(bytes.data(), len);
        auto r = parse_params(prefix, with_check(SubgroupCheck::kSkip));
        ASSERT_FALSE(r.ok()) << "length " << len;
        EXPECT_TRUE(contains(r.status().message(), must_name))
            << "length " << len << ": " << r.status().message();
    };
    for (uint64_t off : {0, 1, 95, 96, 191, 192, 384, 576, 672, 863})
        expect_error(off, "truncated in field");
    for (const SectionInfo& s : layout->sections) {
        const std::string name = std::string("section ") + section_name(s.section);
        expect_error(s.count_offset, name);
        expect_error(s.count_offset + 3, name);
        expect_error(s.offset, name);
        if (s.count > 0) {
            expect_error(s.offset + 1, name);
            expect_error(s.end() - 1, name);
        }
    }
    util::TestRng rng(7);
    for (int i = 0; i < 300; ++i) expect_error(rng.uniform(bytes.size()), "params: ");
    // One byte too many.
    auto longer = bytes;
    longer.push_back(0);
    auto r = parse_params(longer);
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(contains(r.status().message(), "1 trailing bytes after section b_g2"))
        << r.status().message();
}

TEST(ParamsIo, CorruptedCountsAreRejected) {
    const auto bytes = bytes_of(medium_params());
    auto layout = inspect_params(bytes);
    ASSERT_TRUE(layout.ok());
    const auto& sections = layout->sections;
    for (size_t i = 0; i < sections.size(); ++i) {
        const SectionInfo& s = sections[i];
        for (uint32_t bad : {0xffffffffu, 0x7fffffffu, 0u, s.count + 1, s.count - 1}) {
            auto copy = bytes;
            put_be32(copy, s.count_offset, bad);
            auto r = parse_params(copy, with_check(SubgroupCheck::kSkip));
            ASSERT_FALSE(r.ok()) << section_name(s.section) << " count " << bad;
            const std::string msg = r.status().message();
            // The corrupted section is named when the count itself is impossible;
            // otherwise the misalignment is caught in this or a later section.
            bool names_this_or_later = false;
            for (size_t j = i; j < sections.size(); ++j)
                names_this_or_later |=
                    contains(msg, std::string("section ") + section_name(sections[j].section));
            EXPECT_TRUE(names_this_or_later) << msg;
            if (bad >= 0x7fffffffu || s.section == Section::kH || s.section == Section::kBG2 ||
                (s.section == Section::kIc && bad == 0)) {
                EXPECT_TRUE(contains(msg, std::string("section ") + section_name(s.section)))
                    << "count " << bad << ": " << msg;
            }
        }
    }
}

TEST(ParamsIo, SubgroupCheckIsEnforcedOnlyWithKCheck) {
    util::TestRng rng(3);
    Parameters p = small_params();
    p.l[2] = ec::random_curve_point_g1(rng);
    ASSERT_FALSE(ec::is_in_subgroup(p.l[2]));
    const auto bytes = bytes_of(p);
    auto checked = parse_params(bytes, with_check(SubgroupCheck::kCheck));
    ASSERT_FALSE(checked.ok());
    EXPECT_EQ(checked.status().message(),
              "params: section l, point 2: G1 uncompressed encoding: point is "
              "not in the "
              "prime-order subgroup");
    auto skipped = parse_params(bytes, with_check(SubgroupCheck::kSkip));
    ASSERT_TRUE(skipped.ok()) << skipped.status().to_string();
    EXPECT_TRUE(*skipped == p);

    Parameters q = small_params();
    q.b_g2[1] = ec::random_curve_point_g2(rng);
    q.vk.gamma_g2 = ec::random_curve_point_g2(rng);
    const auto qb = bytes_of(q);
    auto qr = parse_params(qb);
    ASSERT_FALSE(qr.ok());
    EXPECT_TRUE(contains(qr.status().message(), "params: field gamma_g2: G2 uncompressed"))
        << qr.status().message();
    EXPECT_TRUE(parse_params(qb, with_check(SubgroupCheck::kSkip)).ok());
    q.vk.gamma_g2 = small_params().vk.gamma_g2;
    auto qr2 = parse_params(bytes_of(q));
    ASSERT_FALSE(qr2.ok());
    EXPECT_TRUE(contains(qr2.status().message(), "section b_g2, point 1: G2 uncompressed"))
        << qr2.status().message();
}

TEST(ParamsIo, IdentityPointsAreRejectedWhereBellpersonRejectsThem) {
    const auto check_rejected = [](Parameters p, const std::string& what) {
        auto r = parse_params(bytes_of(p));
        ASSERT_FALSE(r.ok()) << what;
        EXPECT_TRUE(contains(r.status().message(), what)) << r.status().message();
        EXPECT_TRUE(contains(r.status().message(), "point at infinity")) << r.status().message();
    };
    const Parameters& base = small_params();
    const auto id1 = G1Affine::identity();
    {
        Parameters p = base;
        p.vk.ic[1] = id1;
        check_rejected(p, "section ic, point 1");
    }
    {
        Parameters p = base;
        p.h[2] = id1;
        check_rejected(p, "section h, point 2");
    }
    {
        Parameters p = base;
        p.l[0] = id1;
        check_rejected(p, "section l, point 0");
    }
    {
        Parameters p = base;
        p.a[1] = id1;
        check_rejected(p, "section a, point 1");
    }
    {
        Parameters p = base;
        p.b_g1[0] = id1;
        check_rejected(p, "section b_g1, point 0");
    }
    {
        Parameters p = base;
        p.b_g2[1] = G2Affine::identity();
        check_rejected(p, "section b_g2, point 1");
    }
    {
        Parameters p = base;
        p.vk.delta_g1 = id1;
        check_rejected(p, "field delta_g1");
    }
    {
        Parameters p = base;
        p.vk.delta_g2 = G2Affine::identity();
        check_rejected(p, "field delta_g2");
    }
    // α, β, γ are read as they are (bellperson does not reject them).
    Parameters p = base;
    p.vk.alpha_g1 = id1;
    p.vk.gamma_g2 = G2Affine::identity();
    auto r = parse_params(bytes_of(p));
    ASSERT_TRUE(r.ok()) << r.status().to_string();
    EXPECT_TRUE(*r == p);
}

TEST(ParamsIo, TheLowestBadIndexIsReported) {
    util::TestRng rng(11);
    Parameters p = random_parameters({3, 255, 2, 2, 1}, 5);
    p.h[200] = ec::random_curve_point_g1(rng);
    p.h[17] = ec::random_curve_point_g1(rng);
    p.h[90] = G1Affine::identity();
    const auto bytes = bytes_of(p);
    for (unsigned threads : {1u, 2u, 5u}) {
        util::ThreadPool pool(threads);
        auto r = parse_params(bytes, ReadOptions{SubgroupCheck::kCheck, &pool});
        ASSERT_FALSE(r.ok());
        EXPECT_TRUE(contains(r.status().message(), "section h, point 17:"))
            << threads << " threads: " << r.status().message();
    }
}

TEST(ParamsIo, StructuralCountRules) {
    // h must have 2^k − 1 points; b_g1 and b_g2 must match.
    Parameters p = small_params();
    p.h.pop_back();
    auto r = parse_params(bytes_of(p));
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(contains(r.status().message(), "section h: count 2 is not 2^k - 1"));
    Parameters q = small_params();
    q.b_g2.pop_back();
    auto r2 = parse_params(bytes_of(q));
    ASSERT_FALSE(r2.ok());
    EXPECT_TRUE(contains(r2.status().message(), "section b_g2: count 1 differs"));
}

}  // namespace
}  // namespace cuzk::groth16
