// Tests for porep/c1_json: serde field order and enum tagging (checked against a hand-written
// literal and against the upstream field lists), write → parse equality for synthetic C1 of the
// 2 KiB, 32 GiB (Sub) and 64 GiB (Top) shapes, the lotus-bench envelope, one malformed case per
// error class with its message, a mutation fuzz, and the parse speed of a full 32 GiB-shaped C1.
#include "porep/c1_json.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "util/base64.hpp"
#include "util/json.hpp"
#include "util/rng.hpp"

namespace cuzk::porep {
namespace {

using namespace std::string_literals;

using util::TestRng;

Domain random_domain(TestRng& rng) {
    Domain d;
    rng.fill(d.data(), d.size());
    return d;
}

InclusionPath random_path(TestRng& rng, size_t levels, uint32_t arity) {
    InclusionPath p(levels);
    for (auto& e : p) {
        for (uint32_t i = 0; i + 1 < arity; ++i) e.hashes.push_back(random_domain(rng));
        e.index = rng.uniform(arity);
    }
    return p;
}

size_t log_base(uint64_t n, uint32_t b) {
    size_t d = 0;
    while (n > 1) {
        n /= b;
        ++d;
    }
    return d;
}

MerkleProof random_merkle(TestRng& rng, const TreeShape& shape, uint64_t base_leaves) {
    MerkleProof m;
    m.kind = shape.sub == 0   ? MerkleProofKind::kSingle
             : shape.top == 0 ? MerkleProofKind::kSub
                              : MerkleProofKind::kTop;
    m.root = random_domain(rng);
    m.leaf = random_domain(rng);
    m.base = random_path(rng, log_base(base_leaves, shape.base), shape.base);
    if (shape.sub) m.sub = random_path(rng, 1, shape.sub);
    if (shape.top) m.top = random_path(rng, 1, shape.top);
    return m;
}

ColumnProof random_column(TestRng& rng, const SealProofInfo& info) {
    ColumnProof c;
    c.column.index = static_cast<uint32_t>(rng.uniform(info.nodes()));
    for (uint32_t l = 0; l < info.layers; ++l) c.column.rows.push_back(random_domain(rng));
    c.inclusion_proof = random_merkle(rng, info.shape, info.base_tree_leaves());
    return c;
}

// A C1 with the exact shape of `proof` (random contents: not a valid proof, a valid document).
SealCommitPhase1Output make_c1(RegisteredSealProof proof, TestRng& rng, size_t partitions = 0,
                               size_t challenges = 0) {
    const SealProofInfo& info = seal_proof_info(proof);
    if (partitions == 0) partitions = info.partitions;
    if (challenges == 0) challenges = info.challenges_per_partition;
    SealCommitPhase1Output c1;
    c1.registered_proof = proof;
    c1.vanilla_proofs.resize(partitions);
    for (auto& part : c1.vanilla_proofs) {
        part.resize(challenges);
        for (VanillaProof& p : part) {
            p.comm_d_proofs = random_merkle(rng, TreeShape{2, 0, 0}, info.nodes());
            p.comm_r_last_proof = random_merkle(rng, info.shape, info.base_tree_leaves());
            p.replica_column_proofs.c_x = random_column(rng, info);
            for (size_t i = 0; i < kC1DrgParents; ++i) {
                p.replica_column_proofs.drg_parents.push_back(random_column(rng, info));
            }
            for (size_t i = 0; i < kC1ExpParents; ++i) {
                p.replica_column_proofs.exp_parents.push_back(random_column(rng, info));
            }
            const uint64_t node = rng.uniform(info.nodes());
            for (uint32_t l = 1; l <= info.layers; ++l) {
                LabelingProof lp;
                for (size_t i = 0; i < kC1LabelingParents; ++i)
                    lp.parents.push_back(random_domain(rng));
                lp.layer_index = l;
                lp.node = node;
                p.labeling_proofs.push_back(lp);
            }
            p.encoding_proof.parents = p.labeling_proofs.back().parents;
            p.encoding_proof.layer_index = info.layers;
            p.encoding_proof.node = node;
        }
    }
    c1.comm_r = random_domain(rng);
    c1.comm_d = random_domain(rng);
    c1.replica_id = random_domain(rng);
    c1.seed = random_domain(rng);
    c1.ticket = random_domain(rng);
    return c1;
}

// The shape named in the brief: 2 KiB, 1 partition x 2 challenges, SHA path depth 6, oct depth 2.
SealCommitPhase1Output make_2kib(uint64_t seed) {
    TestRng rng(seed);
    return make_c1(RegisteredSealProof::kStackedDrg2KiBV1_1, rng);
}

std::string keys_of(util::json::Value v) {
    std::string s;
    for (const util::json::Member m : v.members()) {
        if (!s.empty()) s += ',';
        s += m.key;
    }
    return s;
}

TEST(C1Json, SyntheticShapeIsAsSpecified) {
    const SealCommitPhase1Output c1 = make_2kib(1);
    ASSERT_EQ(c1.vanilla_proofs.size(), 1u);
    ASSERT_EQ(c1.vanilla_proofs[0].size(), 2u);
    EXPECT_EQ(c1.vanilla_proofs[0][0].comm_d_proofs.base.size(), 6u);
    EXPECT_EQ(c1.vanilla_proofs[0][0].comm_r_last_proof.base.size(), 2u);
    EXPECT_EQ(c1.vanilla_proofs[0][0].comm_r_last_proof.base[0].hashes.size(), 7u);
    EXPECT_TRUE(validate_c1(c1).ok());
}

// Field order and tagging, from the upstream types (see c1_types.hpp for the files).
TEST(C1Json, FieldOrderMatchesUpstreamTypes) {
    TestRng rng(2);
    for (RegisteredSealProof proof :
         {RegisteredSealProof::kStackedDrg2KiBV1_1, RegisteredSealProof::kStackedDrg32GiBV1_1,
          RegisteredSealProof::kStackedDrg64GiBV1}) {
        const SealCommitPhase1Output c1 = make_c1(proof, rng, 1, 1);
        auto doc = util::json::Document::parse(write_c1_json(c1));
        ASSERT_TRUE(doc.ok());
        const auto root = doc->root();
        EXPECT_EQ(keys_of(root),
                  "registered_proof,vanilla_proofs,comm_r,comm_d,replica_id,seed,ticket");
        const auto vp = *root.find("vanilla_proofs");
        const char* variant = proof == RegisteredSealProof::kStackedDrg2KiBV1_1 ? "StackedDrg2KiBV1"
                              : proof == RegisteredSealProof::kStackedDrg32GiBV1_1
                                  ? "StackedDrg32GiBV1"
                                  : "StackedDrg64GiBV1";
        EXPECT_EQ(keys_of(vp), variant);
        const auto p = vp.find(variant)->at(0).at(0);
        EXPECT_EQ(keys_of(p),
                  "comm_d_proofs,comm_r_last_proof,replica_column_proofs,"
                  "labeling_proofs,encoding_proof");
        EXPECT_EQ(keys_of(*p.find("comm_d_proofs")), "data");
        EXPECT_EQ(keys_of(*p.find("comm_d_proofs")->find("data")), "Single");
        EXPECT_EQ(keys_of(*p.find("comm_d_proofs")->find("data")->find("Single")),
                  "root,leaf,path");
        const auto r_last = *p.find("comm_r_last_proof")->find("data");
        if (proof == RegisteredSealProof::kStackedDrg2KiBV1_1) {
            EXPECT_EQ(keys_of(r_last), "Single");
        } else if (proof == RegisteredSealProof::kStackedDrg32GiBV1_1) {
            EXPECT_EQ(keys_of(r_last), "Sub");
            EXPECT_EQ(keys_of(*r_last.find("Sub")), "base_proof,sub_proof,root,leaf");
        } else {
            EXPECT_EQ(keys_of(r_last), "Top");
            EXPECT_EQ(keys_of(*r_last.find("Top")), "base_proof,sub_proof,top_proof,root,leaf");
            EXPECT_EQ(keys_of(*r_last.find("Top")->find("top_proof")), "path");
        }
        const auto rcp = *p.find("replica_column_proofs");
        EXPECT_EQ(keys_of(rcp), "c_x,drg_parents,exp_parents");
        EXPECT_EQ(keys_of(*rcp.find("c_x")), "column,inclusion_proof");
        EXPECT_EQ(keys_of(*rcp.find("c_x")->find("column")), "index,rows,_h");
        EXPECT_TRUE(rcp.find("c_x")->find("column")->find("_h")->is_null());
        EXPECT_EQ(keys_of(p.find("labeling_proofs")->at(0)), "parents,layer_index,node");
        EXPECT_EQ(keys_of(*p.find("encoding_proof")), "parents,layer_index,node");
        const auto level = p.find("comm_d_proofs")->find("data")->find("Single")->find("path");
        EXPECT_EQ(keys_of(*level), "path");
        EXPECT_EQ(keys_of(level->find("path")->at(0)), "hashes,index");
    }
}

// A hand-written serde_json rendering of a tiny (shape-invalid) C1, independent of the writer.
TEST(C1Json, WriterMatchesHandWrittenSerdeText) {
    const std::string z = "[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]";
    const std::string o = "[1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,255]";
    SealCommitPhase1Output c1;
    c1.registered_proof = RegisteredSealProof::kStackedDrg2KiBV1_1;
    c1.vanilla_proofs.resize(1);
    c1.vanilla_proofs[0].resize(1);
    VanillaProof& p = c1.vanilla_proofs[0][0];
    Domain one{};
    one[0] = 1;
    one[31] = 255;
    p.comm_d_proofs.root = one;
    p.comm_d_proofs.base.push_back(PathElement{{one}, 1});
    p.replica_column_proofs.c_x.column.index = 7;
    p.replica_column_proofs.c_x.column.rows = {one};
    p.labeling_proofs.push_back(LabelingProof{{one}, 1, 42});
    p.encoding_proof = EncodingProof{{}, 2, 18446744073709551615u};
    c1.ticket = one;
    const std::string expected =
        "{\"registered_proof\":\"StackedDrg2KiBV1_1\",\"vanilla_proofs\":{\"StackedDrg2KiBV1\":"
        "[[{\"comm_d_proofs\":{\"data\":{\"Single\":{\"root\":"s +
        o + ",\"leaf\":"s + z + ",\"path\":{\"path\":[{\"hashes\":["s + o +
        "],\"index\":1}]}}}},"
        "\"comm_r_last_proof\":{\"data\":{\"Single\":{\"root\":"s +
        z + ",\"leaf\":"s + z +
        ",\"path\":{\"path\":[]}}}},"
        "\"replica_column_proofs\":{\"c_x\":{\"column\":{\"index\":7,\"rows\":["s +
        o + "],\"_h\":null},\"inclusion_proof\":{\"data\":{\"Single\":{\"root\":"s + z +
        ",\"leaf\":"s + z +
        ",\"path\":{\"path\":[]}}}}},\"drg_parents\":[],\"exp_parents\":[]},"
        "\"labeling_proofs\":[{\"parents\":["s +
        o +
        "],\"layer_index\":1,\"node\":42}],"
        "\"encoding_proof\":{\"parents\":[],\"layer_index\":2,\"node\":18446744073709551615}}]]},"
        "\"comm_r\":"s +
        z + ",\"comm_d\":"s + z + ",\"replica_id\":"s + z + ",\"seed\":"s + z + ",\"ticket\":"s +
        o + "}";
    EXPECT_EQ(write_c1_json(c1), expected);
    // Shape validation rejects it (no parents), but the JSON itself is well formed.
    EXPECT_TRUE(util::json::Document::parse_view(expected).ok());
    EXPECT_FALSE(parse_c1_json(expected).ok());
}

TEST(C1Json, RoundTripAllShapes) {
    TestRng rng(3);
    const SealCommitPhase1Output small = make_2kib(4);
    auto back = parse_c1_json(write_c1_json(small));
    ASSERT_TRUE(back.ok()) << back.status().to_string();
    EXPECT_EQ(*back, small);
    EXPECT_EQ(write_c1_json(*back), write_c1_json(small));

    C1ParseOptions loose;
    loose.validate.require_registered_counts = false;
    for (RegisteredSealProof proof :
         {RegisteredSealProof::kStackedDrg8MiBV1, RegisteredSealProof::kStackedDrg512MiBV1_1,
          RegisteredSealProof::kStackedDrg32GiBV1_1_Feat_SyntheticPoRep,
          RegisteredSealProof::kStackedDrg64GiBV1_2_Feat_NonInteractivePoRep}) {
        const SealCommitPhase1Output c1 = make_c1(proof, rng, 2, 3);
        auto r = parse_c1_json(write_c1_json(c1), loose);
        ASSERT_TRUE(r.ok()) << r.status().to_string();
        EXPECT_EQ(*r, c1);
        // The counts differ from the registered ones: rejected by default.
        EXPECT_FALSE(parse_c1_json(write_c1_json(c1)).ok());
    }
    // Pretty-printed input (as other tools may write it) parses to the same value.
    auto doc = util::json::Document::parse(write_c1_json(small));
    ASSERT_TRUE(doc.ok());
    auto pretty = parse_c1_json(util::json::write(doc->root(), true));
    ASSERT_TRUE(pretty.ok());
    EXPECT_EQ(*pretty, small);
}

TEST(C1Json, EnvelopeForm) {
    const SealCommitPhase1Output c1 = make_2kib(5);
    const std::string raw = write_c1_json(c1);
    const std::string env = write_c1_envelope(c1, 1234);
    // Go's encoding/json layout of Commit2In {SectorNum, Phase1Out, SectorSize}.
    const std::string expected = "{\"SectorNum\":1234,\"Phase1Out\":\""s +
                                 util::base64_encode(std::string_view(raw)) +
                                 "\",\"SectorSize\":2048}";
    EXPECT_EQ(env, expected);
    auto f = parse_c1_file(env);
    ASSERT_TRUE(f.ok()) << f.status().to_string();
    ASSERT_TRUE(f->envelope.has_value());
    EXPECT_EQ(f->envelope->sector_num, 1234);
    EXPECT_EQ(f->envelope->sector_size, 2048u);
    EXPECT_EQ(f->c1, c1);
    auto r = parse_c1_file(raw);
    ASSERT_TRUE(r.ok());
    EXPECT_FALSE(r->envelope.has_value());
    EXPECT_EQ(r->c1, c1);
}

// ---------------------------------------------------------------------------------------------
// Malformed inputs, one per error class.

Domain marker(uint8_t k) {
    Domain d;
    d.fill(250);
    d[0] = k;
    return d;
}

std::string domain_text(const Domain& d) {
    std::string s = "[";
    for (size_t i = 0; i < 32; ++i) {
        if (i) s += ',';
        s += std::to_string(d[i]);
    }
    return s + "]";
}

// Replaces the single occurrence of `from` in text.
std::string replace_once(std::string text, const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    EXPECT_EQ(text.find(from, at + 1), std::string::npos) << "not unique: " << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

void expect_c1_error(const std::string& text, const std::string& fragment,
                     const C1ParseOptions& options = {}) {
    auto r = parse_c1_file(text, options);
    ASSERT_FALSE(r.ok()) << "accepted; wanted: " << fragment;
    EXPECT_NE(r.status().message().find(fragment), std::string::npos)
        << "message: " << r.status().message() << "\nwanted: " << fragment;
}

const std::string kP01 = "vanilla_proofs.StackedDrg2KiBV1[0][1]";

TEST(C1Json, TypeAndValueErrorsNameThePath) {
    SealCommitPhase1Output c1 = make_2kib(6);
    VanillaProof& p = c1.vanilla_proofs[0][1];
    p.comm_d_proofs.root = marker(1);
    p.comm_d_proofs.base[3].hashes[0] = marker(2);
    c1.comm_r = marker(3);
    p.replica_column_proofs.drg_parents[2].column.rows[1] = marker(4);
    const std::string good = write_c1_json(c1);
    const std::string m1 = domain_text(marker(1));
    const std::string m2 = domain_text(marker(2));
    const std::string m3 = domain_text(marker(3));
    const std::string single = kP01 + ".comm_d_proofs.data.Single";

    // Missing fields (top level and nested).
    expect_c1_error(replace_once(good, "\"comm_r\":"s + m3 + ",", ""),
                    "C1: <root>: missing field \"comm_r\"");
    expect_c1_error(replace_once(good, "\"root\":"s + m1 + ",", ""),
                    "C1: "s + single + ": missing field \"root\"");
    // Wrong types.
    expect_c1_error(replace_once(good, m3, "\"abc\""),
                    "C1: comm_r: expected an array of 32 bytes, found string");
    expect_c1_error(replace_once(good, m2, "{}"),
                    "C1: "s + single +
                        ".path.path[3].hashes[0]: expected an array of 32 bytes, "
                        "found object");
    // Byte out of range, negative, not an integer, not a number.
    expect_c1_error(replace_once(good, m1, "[1,250,250,250,250,256"s + m1.substr(22)),
                    "C1: "s + single + ".root[5]: byte value 256 is greater than 255");
    expect_c1_error(replace_once(good, m1, "[-1"s + m1.substr(2)),
                    "C1: "s + single + ".root[0]: number -1 is negative");
    expect_c1_error(replace_once(good, m1, "[1.5"s + m1.substr(2)),
                    "C1: "s + single + ".root[0]: number 1.5 is not an integer");
    expect_c1_error(replace_once(good, m1, "[null"s + m1.substr(2)),
                    "C1: "s + single + ".root[0]: expected a byte (0..255), found null");
    // Length ≠ 32.
    expect_c1_error(
        replace_once(good, m1, "[1"s + m1.substr(5)),
        "C1: "s + single + ".root: expected an array of 32 bytes, found an array of 31");
    expect_c1_error(replace_once(good, m1, m1.substr(0, m1.size() - 1) + ",0]"),
                    "found an array of 33");
    // Phantom field must be null.
    const std::string m4 = domain_text(marker(4));
    expect_c1_error(replace_once(good, m4 + "],\"_h\":null", m4 + "],\"_h\":0"),
                    "C1: "s + kP01 +
                        ".replica_column_proofs.drg_parents[2].column._h: expected null "
                        "(PhantomData), found number");
    expect_c1_error(replace_once(good, m4 + "],\"_h\":null", m4 + "]"),
                    ".replica_column_proofs.drg_parents[2].column: missing field \"_h\"");
    // Unknown registered proof; variant that does not match it.
    expect_c1_error(replace_once(good, "\"StackedDrg2KiBV1_1\"", "\"StackedDrg2KiBV2\""),
                    "C1: registered_proof: unknown registered proof \"StackedDrg2KiBV2\"");
    expect_c1_error(replace_once(good, "\"StackedDrg2KiBV1_1\"", "\"stackeddrg2kibv1_1\""),
                    "unknown registered proof");
    expect_c1_error(
        replace_once(good, "\"StackedDrg2KiBV1_1\"", "5"),
        "C1: registered_proof: expected a registered proof name (string), found number");
    expect_c1_error(replace_once(good, "\"StackedDrg2KiBV1_1\"", "\"StackedDrg32GiBV1_1\""),
                    "C1: vanilla_proofs: variant \"StackedDrg2KiBV1\" does not match "
                    "registered_proof StackedDrg32GiBV1_1 (expected \"StackedDrg32GiBV1\")");
    // Proof data with an unknown variant.
    expect_c1_error(replace_once(good, "\"data\":{\"Single\":{\"root\":"s + m1,
                                 "\"data\":{\"Double\":{\"root\":"s + m1),
                    "C1: "s + kP01 + ".comm_d_proofs.data: unknown proof variant \"Double\"");
    // JSON syntax error.
    expect_c1_error(replace_once(good, m1, "[1,,2]"), "C1: JSON parse error at line 1, column");
    expect_c1_error(replace_once(good, m1, "[1,,2]"), "(path "s + single + ".root[1])");
    // Not an object at all.
    expect_c1_error("[1,2]", "C1: <root>: expected an object, found array");
}

TEST(C1Json, ShapeErrors) {
    C1ParseOptions loose;
    loose.validate.require_registered_counts = false;
    auto check = [&](const std::function<void(SealCommitPhase1Output&)>& mutate,
                     const std::string& fragment, bool use_loose = false) {
        SealCommitPhase1Output c1 = make_2kib(7);
        mutate(c1);
        expect_c1_error(write_c1_json(c1), fragment, use_loose ? loose : C1ParseOptions{});
        EXPECT_FALSE(validate_c1(c1, use_loose ? loose.validate : C1ValidateOptions{}).ok());
    };
    // A partition with a different number of challenges.
    check(
        [](SealCommitPhase1Output& c) {
            c.vanilla_proofs.push_back(c.vanilla_proofs[0]);
            c.vanilla_proofs[1].pop_back();
        },
        "C1: vanilla_proofs.StackedDrg2KiBV1[1]: expected 2 challenges like partition 0, found 1",
        true);
    // Counts that differ from the registered proof's.
    check([](SealCommitPhase1Output& c) { c.vanilla_proofs.push_back(c.vanilla_proofs[0]); },
          "C1: vanilla_proofs.StackedDrg2KiBV1: StackedDrg2KiBV1_1 has 1 partitions, found 2");
    check([](SealCommitPhase1Output& c) { c.vanilla_proofs[0].pop_back(); },
          "StackedDrg2KiBV1_1 has 2 challenges per partition, found 1");
    check([](SealCommitPhase1Output& c) { c.vanilla_proofs.clear(); },
          "C1: vanilla_proofs.StackedDrg2KiBV1: no partitions");
    // Parent counts.
    check(
        [](SealCommitPhase1Output& c) {
            c.vanilla_proofs[0][1].replica_column_proofs.drg_parents.pop_back();
        },
        "C1: "s + kP01 + ".replica_column_proofs.drg_parents: expected 6 column proofs, found 5");
    check(
        [](SealCommitPhase1Output& c) {
            auto& e = c.vanilla_proofs[0][1].replica_column_proofs.exp_parents;
            e.push_back(e[0]);
        },
        "C1: "s + kP01 + ".replica_column_proofs.exp_parents: expected 8 column proofs, found 9");
    // Path levels whose hash count does not match the arity.
    check(
        [](SealCommitPhase1Output& c) {
            c.vanilla_proofs[0][1].comm_r_last_proof.base[1].hashes.pop_back();
        },
        "C1: "s + kP01 +
            ".comm_r_last_proof.data.Single.path.path[1].hashes: expected 7 sibling "
            "hashes for an arity-8 tree level, found 6");
    check(
        [](SealCommitPhase1Output& c) {
            auto& h = c.vanilla_proofs[0][0].comm_d_proofs.base[4].hashes;
            h.push_back(h[0]);
        },
        "C1: vanilla_proofs.StackedDrg2KiBV1[0][0].comm_d_proofs.data.Single.path.path[4].hashes: "
        "expected 1 sibling hashes for an arity-2 tree level, found 2");
    check(
        [](SealCommitPhase1Output& c) {
            c.vanilla_proofs[0][1]
                .replica_column_proofs.exp_parents[7]
                .inclusion_proof.base[0]
                .hashes.pop_back();
        },
        ".replica_column_proofs.exp_parents[7].inclusion_proof.data.Single.path.path[0].hashes");
    // Path depth and index range.
    check([](SealCommitPhase1Output& c) { c.vanilla_proofs[0][1].comm_d_proofs.base.pop_back(); },
          "C1: "s + kP01 +
              ".comm_d_proofs.data.Single.path.path: expected 6 path levels for tree_d "
              "(binary SHA-256), found 5");
    check([](SealCommitPhase1Output& c) { c.vanilla_proofs[0][1].comm_d_proofs.base[2].index = 2; },
          "C1: "s + kP01 +
              ".comm_d_proofs.data.Single.path.path[2].index: index 2 is not below the "
              "arity 2");
    // Tree variant that does not match the sector's tree shape.
    check(
        [](SealCommitPhase1Output& c) {
            auto& m = c.vanilla_proofs[0][1].comm_r_last_proof;
            m.kind = MerkleProofKind::kSub;
            m.sub = m.base;
        },
        "C1: "s + kP01 +
            ".comm_r_last_proof.data: expected a Single proof for tree_r_last, found Sub");
    // Rows per column, labeling proofs per layer, parents per labeling/encoding proof.
    check(
        [](SealCommitPhase1Output& c) {
            c.vanilla_proofs[0][1].replica_column_proofs.c_x.column.rows.pop_back();
        },
        "C1: "s + kP01 +
            ".replica_column_proofs.c_x.column.rows: expected 2 rows (one per layer), "
            "found 1");
    check([](SealCommitPhase1Output& c) { c.vanilla_proofs[0][1].labeling_proofs.pop_back(); },
          "C1: "s + kP01 + ".labeling_proofs: expected 2 labeling proofs (one per layer), found 1");
    check(
        [](SealCommitPhase1Output& c) {
            c.vanilla_proofs[0][1].labeling_proofs[1].parents.pop_back();
        },
        "C1: "s + kP01 + ".labeling_proofs[1].parents: expected 37 parent labels, found 36");
    check([](SealCommitPhase1Output& c) { c.vanilla_proofs[0][1].encoding_proof.parents.clear(); },
          "C1: "s + kP01 + ".encoding_proof.parents: expected 37 parent labels, found 0");
}

TEST(C1Json, ProofDataAndNumberRangeErrors) {
    SealCommitPhase1Output c1 = make_2kib(8);
    c1.vanilla_proofs[0][1].replica_column_proofs.c_x.column.index = 4000000000u;
    const std::string good = write_c1_json(c1);
    expect_c1_error(replace_once(good, "\"index\":4000000000,", "\"index\":4294967296,"),
                    "C1: "s + kP01 +
                        ".replica_column_proofs.c_x.column.index: value 4294967296 "
                        "does not fit in u32");
    expect_c1_error(replace_once(good, "\"index\":4000000000,", "\"index\":\"7\","),
                    "c_x.column.index: expected an unsigned integer, found string");
    // Two variants in one ProofData.
    const std::string r_last = "\"comm_r_last_proof\":{\"data\":{\"Single\":";
    std::string two = good;
    const size_t at = two.find(r_last);
    ASSERT_NE(at, std::string::npos);
    two.insert(at + r_last.size() - std::string("\"Single\":").size(), "\"Top\":{},");
    expect_c1_error(two,
                    "C1: vanilla_proofs.StackedDrg2KiBV1[0][0].comm_r_last_proof.data: "
                    "expected exactly one of \"Single\", \"Sub\", \"Top\", found 2 members");
    expect_c1_error(replace_once(good, "\"vanilla_proofs\":{\"StackedDrg2KiBV1\":",
                                 "\"vanilla_proofs\":{\"x\":1,\"StackedDrg2KiBV1\":"),
                    "C1: vanilla_proofs: expected exactly one proof variant");
}

TEST(C1Json, EnvelopeErrors) {
    const SealCommitPhase1Output c1 = make_2kib(9);
    const std::string raw = write_c1_json(c1);
    const std::string b64 = util::base64_encode(std::string_view(raw));
    auto env = [&](const std::string& num, const std::string& p1, const std::string& size) {
        return "{\"SectorNum\":"s + num + ",\"Phase1Out\":"s + p1 + ",\"SectorSize\":"s + size +
               "}";
    };
    expect_c1_error(env("1", "\""s + b64 + "\"", "34359738368"),
                    "C1 envelope: SectorSize 34359738368 does not match registered_proof "
                    "StackedDrg2KiBV1_1 (2048 bytes)");
    expect_c1_error(env("1", "\""s + b64.substr(1) + "\"", "2048"),
                    "C1 envelope: Phase1Out: base64:");
    expect_c1_error(env("1", "\""s + b64.substr(0, b64.size() - 4) + "\"", "2048"),
                    "C1 envelope: Phase1Out (decoded): C1: JSON parse error");
    expect_c1_error(env("1", "42", "2048"),
                    "C1 envelope: Phase1Out: expected a base64 string, found number");
    expect_c1_error(env("-1.5", "\""s + b64 + "\"", "2048"), "C1 envelope: SectorNum: number");
    expect_c1_error(env("1", "\""s + b64 + "\"", "-2048"), "C1 envelope: SectorSize: number");
    expect_c1_error("{\"SectorNum\":1,\"SectorSize\":2048}",
                    "C1 envelope: missing field \"Phase1Out\"");
    expect_c1_error("{\"Phase1Out\":\""s + b64 + "\",\"SectorSize\":2048}",
                    "C1 envelope: missing field \"SectorNum\"");
    // A valid envelope whose inner document is shape-invalid names the inner path.
    SealCommitPhase1Output bad = c1;
    bad.vanilla_proofs[0][0].replica_column_proofs.drg_parents.pop_back();
    expect_c1_error(write_c1_envelope(bad, 3),
                    "C1 envelope: Phase1Out (decoded): C1: vanilla_proofs.StackedDrg2KiBV1[0][0]"
                    ".replica_column_proofs.drg_parents: expected 6 column proofs, found 5");
}

// Mutations of a valid document: never crash; whatever parses re-writes to itself.
TEST(C1Json, MutationFuzzNeverCrashes) {
    const SealCommitPhase1Output c1 = make_2kib(10);
    const std::string good = write_c1_json(c1);
    const std::string env = write_c1_envelope(c1, 5);
    std::vector<size_t> number_starts;
    for (size_t i = 0; i < good.size(); ++i) {
        if (good[i] >= '0' && good[i] <= '9' &&
            (good[i - 1] == '[' || good[i - 1] == ',' || good[i - 1] == ':')) {
            number_starts.push_back(i);
        }
    }
    static const char* kTokens[] = {
        "256", "-1",   "1.5", "1e2", "\"x\"", "null",       "[]",
        "{}",  "true", "0",   "255", "[0]",   "4294967296", "18446744073709551616"};
    TestRng rng(11);
    size_t accepted = 0;
    const int kIters = 3000;
    for (int iter = 0; iter < kIters; ++iter) {
        std::string t = good;
        const uint64_t mode = rng.uniform(5);
        if (mode == 0) {  // replace a number token
            const size_t at = number_starts[rng.uniform(number_starts.size())];
            size_t end = at;
            while (end < t.size() && t[end] >= '0' && t[end] <= '9') ++end;
            t.replace(at, end - at, kTokens[rng.uniform(std::size(kTokens))]);
        } else if (mode == 1) {  // flip a byte
            t[rng.uniform(t.size())] = static_cast<char>(rng.next_u64());
        } else if (mode == 2) {  // delete a span
            const size_t at = rng.uniform(t.size());
            t.erase(at, 1 + rng.uniform(40));
        } else if (mode == 3) {  // truncate
            t.resize(rng.uniform(t.size()));
        } else {  // mutate the envelope (base64 and its fields)
            t = env;
            t[rng.uniform(t.size())] = "A=+/{}\"1,"[rng.uniform(9)];
        }
        auto r = parse_c1_file(t);
        if (r.ok()) {
            ++accepted;
            auto again = parse_c1_json(write_c1_json(r->c1));
            ASSERT_TRUE(again.ok()) << again.status().to_string();
            EXPECT_EQ(*again, r->c1);
        } else {
            EXPECT_EQ(r.status().message().rfind("C1", 0), 0u) << r.status().message();
        }
    }
    EXPECT_GT(accepted, 0u);
    EXPECT_LT(accepted, static_cast<size_t>(kIters));
}

// A full 32 GiB-shaped C1 (10 partitions x 18 challenges, 11 layers, Sub tree): size and speed.
TEST(C1Json, ParseSpeed32GiBShape) {
    TestRng rng(12);
    const SealCommitPhase1Output c1 = make_c1(RegisteredSealProof::kStackedDrg32GiBV1_1, rng);
    auto w0 = std::chrono::steady_clock::now();
    std::string text = write_c1_json(c1);
    auto w1 = std::chrono::steady_clock::now();
    const double mb = static_cast<double>(text.size()) / 1e6;
    auto cpu_now = [] {
        timespec ts;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
    };
    const double c0 = cpu_now();
    auto t0 = std::chrono::steady_clock::now();
    auto doc = util::json::Document::parse(std::move(text));
    auto t1 = std::chrono::steady_clock::now();
    const double c1_cpu = cpu_now();
    ASSERT_TRUE(doc.ok());
    auto decoded = decode_c1(doc->root());
    auto t2 = std::chrono::steady_clock::now();
    const double c2_cpu = cpu_now();
    std::printf(
        "32GiB-shaped C1 CPU time: DOM parse %.3f s (%.0f MB/s), decode+validate %.3f s, "
        "total %.0f MB/s\n",
        c1_cpu - c0, mb / (c1_cpu - c0), c2_cpu - c1_cpu, mb / (c2_cpu - c0));
    ASSERT_TRUE(decoded.ok()) << decoded.status().to_string();
    EXPECT_EQ(*decoded, c1);
    const double parse_s = std::chrono::duration<double>(t1 - t0).count();
    const double decode_s = std::chrono::duration<double>(t2 - t1).count();
    const double write_s = std::chrono::duration<double>(w1 - w0).count();
    std::printf(
        "32GiB-shaped C1: %.1f MB; DOM parse %.3f s (%.0f MB/s), decode+validate %.3f s, "
        "total %.0f MB/s; write %.3f s (%.0f MB/s)\n",
        mb, parse_s, mb / parse_s, decode_s, mb / (parse_s + decode_s), write_s, mb / write_s);
    auto e0 = std::chrono::steady_clock::now();
    auto file = parse_c1_file(write_c1_envelope(c1, 1));
    auto e1 = std::chrono::steady_clock::now();
    ASSERT_TRUE(file.ok());
    std::printf("envelope (write + base64 + parse): %.3f s\n",
                std::chrono::duration<double>(e1 - e0).count());
    EXPECT_EQ(file->c1, c1);
}

}  // namespace
}  // namespace cuzk::porep
