// Journal: record encode/decode round trips, files written atomically, every kind of truncated
// or corrupt record answered with a clear error (never a crash), and job ids unique and safe.
#include "engine/journal.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

#include "util/rng.hpp"

namespace cuzk::engine {
namespace {

namespace fs = std::filesystem;

std::string temp_dir(const std::string& name) {
    const fs::path p = fs::temp_directory_path() / ("cuzk_journal_test_" + name);
    fs::remove_all(p);
    return p.string();
}

JournalRecord sample(const std::string& id, uint64_t seq) {
    JournalRecord r;
    r.id = id;
    r.request_id = "req \"quoted\" \\ and\nnewline";
    r.registered_proof = porep::RegisteredSealProof::kStackedDrg32GiBV1_1;
    r.sector_number = 18446744073709551615ull;
    r.miner_id = 1234;
    r.priority = Priority::kHigh;
    r.seq = seq;
    r.state = JobState::kRunning;
    r.error = "partition 3: something";
    r.submitted_unix_ms = -5;
    return r;
}

void expect_same(const JournalRecord& a, const JournalRecord& b) {
    EXPECT_EQ(a.id, b.id);
    EXPECT_EQ(a.request_id, b.request_id);
    EXPECT_EQ(a.registered_proof, b.registered_proof);
    EXPECT_EQ(a.sector_number, b.sector_number);
    EXPECT_EQ(a.miner_id, b.miner_id);
    EXPECT_EQ(a.priority, b.priority);
    EXPECT_EQ(a.seq, b.seq);
    EXPECT_EQ(a.state, b.state);
    EXPECT_EQ(a.error, b.error);
    EXPECT_EQ(a.submitted_unix_ms, b.submitted_unix_ms);
}

TEST(Journal, RecordRoundTrip) {
    const JournalRecord r = sample("job-1", 7);
    auto back = decode_record(encode_record(r), "x");
    ASSERT_TRUE(back.ok()) << back.status().message();
    expect_same(r, *back);
}

TEST(Journal, FilesRoundTripAndScanOrder) {
    auto j = Journal::open(temp_dir("files"));
    ASSERT_TRUE(j.ok()) << j.status().message();
    const std::vector<uint8_t> proof = {1, 2, 3, 0, 255};
    for (uint64_t seq : {5, 1, 3}) {
        JournalRecord r = sample("job-" + std::to_string(seq), seq);
        ASSERT_TRUE(j->write_c1(r.id, "{\"c1\":" + std::to_string(seq) + "}").ok());
        ASSERT_TRUE(j->write_record(r).ok());
    }
    ASSERT_TRUE(j->write_proof("job-3", proof).ok());
    auto c1 = j->read_c1("job-5");
    ASSERT_TRUE(c1.ok());
    EXPECT_EQ(*c1, "{\"c1\":5}");
    auto p = j->read_proof("job-3");
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(*p, proof);
    EXPECT_EQ(j->read_proof("job-1").status().code(), util::StatusCode::kNotFound);
    const Journal::Scan scan = j->scan();
    EXPECT_TRUE(scan.errors.empty());
    ASSERT_EQ(scan.records.size(), 3u);
    EXPECT_EQ(scan.records[0].seq, 1u);
    EXPECT_EQ(scan.records[1].seq, 3u);
    EXPECT_EQ(scan.records[2].seq, 5u);
    // Overwrite is atomic and leaves no temporary behind.
    JournalRecord r = sample("job-3", 3);
    r.state = JobState::kCompleted;
    ASSERT_TRUE(j->write_record(r).ok());
    auto back = j->read_record("job-3");
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->state, JobState::kCompleted);
    for (const auto& e : fs::directory_iterator(j->dir()))
        EXPECT_FALSE(e.path().string().ends_with(".tmp")) << e.path();
    // Unsafe ids never reach the file system.
    EXPECT_FALSE(j->write_c1("../evil", "x").ok());
    EXPECT_FALSE(j->read_c1("a/b").ok());
}

TEST(Journal, EveryTruncationIsAClearError) {
    const std::string text = encode_record(sample("job-9", 9));
    for (size_t n = 0; n < text.size() - 2; ++n) {  // the last bytes are "}\n"
        auto r = decode_record(text.substr(0, n), "job-9.job.json");
        ASSERT_FALSE(r.ok()) << "accepted a record truncated to " << n << " bytes";
        EXPECT_EQ(r.status().code(), util::StatusCode::kInvalidArgument);
        EXPECT_NE(r.status().message().find("journal: job-9.job.json: "), std::string::npos)
            << r.status().message();
    }
}

TEST(Journal, CorruptRecordsNameTheProblem) {
    const std::string good = encode_record(sample("job-1", 1));
    auto with = [&](const std::string& from, const std::string& to) {
        std::string s = good;
        const size_t at = s.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        s.replace(at, from.size(), to);
        return decode_record(s, "f");
    };
    struct Case {
        std::string from, to, expect;
    };
    const std::vector<Case> cases = {
        {"\"state\": \"running\"", "\"state\": \"exploded\"", "state: unknown job state"},
        {"\"priority\": \"high\"", "\"priority\": \"urgent\"", "priority: unknown priority"},
        {"\"version\": 1", "\"version\": 2", "unsupported record version 2"},
        {"\"registered_proof\": 8", "\"registered_proof\": 20", "registered_proof: unknown id"},
        {"\"seq\": 1", "\"seq\": \"1\"", "seq: "},
        {"\"seq\": 1", "\"sequence\": 1", "missing member 'seq'"},
        {"\"id\": \"job-1\"", "\"id\": \"../x\"", "id: not a valid job id"},
        {"\"miner_id\": 1234", "\"miner_id\": -1", "miner_id: "},
    };
    for (const Case& c : cases) {
        auto r = with(c.from, c.to);
        ASSERT_FALSE(r.ok()) << c.to;
        EXPECT_NE(r.status().message().find(c.expect), std::string::npos) << r.status().message();
    }
    EXPECT_FALSE(decode_record("[1,2]", "f").ok());
    EXPECT_FALSE(decode_record("", "f").ok());
    // Random byte flips: never a crash, and either an error or a valid record.
    util::TestRng rng(7);
    for (int i = 0; i < 2000; ++i) {
        std::string s = good;
        s[rng.uniform(s.size())] = static_cast<char>(rng.uniform(256));
        auto r = decode_record(s, "f");
        if (!r.ok()) {
            EXPECT_FALSE(r.status().message().empty());
        }
    }
}

TEST(Journal, ScanReportsBadFilesAndKeepsGoodOnes) {
    auto j = Journal::open(temp_dir("scan"));
    ASSERT_TRUE(j.ok());
    ASSERT_TRUE(j->write_record(sample("good", 1)).ok());
    ASSERT_TRUE(write_file_atomic(j->dir() + "/trunc.job.json",
                                  encode_record(sample("trunc", 2)).substr(0, 40))
                    .ok());
    ASSERT_TRUE(
        write_file_atomic(j->dir() + "/other.job.json", encode_record(sample("good", 3))).ok());
    ASSERT_TRUE(write_file_atomic(j->dir() + "/unrelated.txt", "hello").ok());
    ASSERT_TRUE(write_file_atomic(j->dir() + "/a.b.job.json", "{}").ok());
    const Journal::Scan scan = j->scan();
    ASSERT_EQ(scan.records.size(), 1u);
    EXPECT_EQ(scan.records[0].id, "good");
    ASSERT_EQ(scan.errors.size(), 3u);
    std::string all;
    for (const std::string& e : scan.errors) all += e + "\n";
    EXPECT_NE(all.find("a.b.job.json: not a job id file name"), std::string::npos) << all;
    EXPECT_NE(all.find("trunc.job.json"), std::string::npos) << all;
    EXPECT_NE(all.find("names job 'good'"), std::string::npos) << all;
    EXPECT_FALSE(Journal::open("").ok());
}

TEST(Journal, JobIdsAreUniqueAndSafe) {
    std::set<std::string> ids;
    for (int i = 0; i < 20000; ++i) {
        const JobId id = make_job_id();
        ASSERT_TRUE(is_safe_job_id(id)) << id;
        ASSERT_TRUE(ids.insert(id).second) << "duplicate " << id;
    }
    EXPECT_FALSE(is_safe_job_id(""));
    EXPECT_FALSE(is_safe_job_id(".."));
    EXPECT_FALSE(is_safe_job_id("a.b"));
    EXPECT_FALSE(is_safe_job_id(std::string(129, 'a')));
}

}  // namespace
}  // namespace cuzk::engine
