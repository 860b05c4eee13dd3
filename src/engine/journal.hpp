// The engine's on-disk journal: accepted jobs survive a restart.
//
// Layout of journal_dir, per job (id = a job id, safe as a file name):
//   <id>.job.json   the record: {"version":1,"id","request_id","registered_proof" (id number),
//                   "sector_number","miner_id","priority" (name),"seq","state" (name),
//                   "error","submitted_unix_ms"}
//   <id>.c1         the C1 text exactly as submitted (needed to run the job again)
//   <id>.proof      the assembled proof (partitions × 192 bytes), once the job completed
// Every file is written to "<name>.tmp", flushed (fsync), and renamed over its name, so a reader
// (a restarted engine) sees either the old or the new complete file, never a partial one. Order
// of writes: the C1 before the first record (a record never names a missing C1), the proof
// before the "completed" record.
//
// Reading never crashes on bad files: a truncated or corrupt record gives kInvalidArgument
// naming the file and the problem ("journal: j….job.json: state: unknown job state 'x'").
//
// Job ids: "<UTC yyyymmddThhmmss>-<microseconds, 6 digits>-<counter, 4 hex>-<8 hex random>"
// (time-based, a process-wide counter and 32 OS-random bits), so ids made after a restart, or by
// two engines at once, do not collide; only [0-9A-Za-z-] occur.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine.hpp"
#include "util/status.hpp"

namespace cuzk::engine {

JobId make_job_id();
// Non-empty, at most 128 characters of [0-9A-Za-z_-] (no dots: no "..", no extension tricks).
bool is_safe_job_id(std::string_view id);

util::Result<Priority> parse_priority(std::string_view name);
util::Result<JobState> parse_job_state(std::string_view name);
bool is_final(JobState s);

struct JournalRecord {
    JobId id;
    std::string request_id;
    porep::RegisteredSealProof registered_proof = porep::RegisteredSealProof::kStackedDrg2KiBV1_1;
    uint64_t sector_number = 0, miner_id = 0;
    Priority priority = Priority::kNormal;
    uint64_t seq = 0;  // submission order across restarts
    JobState state = JobState::kQueued;
    std::string error;
    int64_t submitted_unix_ms = 0;
};

std::string encode_record(const JournalRecord& r);
// `where` prefixes errors (usually the file name).
util::Result<JournalRecord> decode_record(std::string text, const std::string& where);

class Journal {
   public:
    // Creates the directory when absent.
    static util::Result<Journal> open(const std::string& dir);

    const std::string& dir() const { return dir_; }
    util::Status write_record(const JournalRecord& r) const;
    util::Status write_c1(const JobId& id, std::string_view c1) const;
    util::Status write_proof(const JobId& id, std::span<const uint8_t> proof) const;
    util::Result<JournalRecord> read_record(const JobId& id) const;
    util::Result<std::string> read_c1(const JobId& id) const;
    util::Result<std::vector<uint8_t>> read_proof(const JobId& id) const;

    struct Scan {
        std::vector<JournalRecord> records;  // in seq order
        std::vector<std::string> errors;     // one per unreadable record
    };
    // Every <id>.job.json of the directory.
    Scan scan() const;

   private:
    explicit Journal(std::string dir) : dir_(std::move(dir)) {}
    std::string path_of(const JobId& id, const char* suffix) const;
    std::string dir_;
};

// Writes `bytes` to path atomically (tmp + fsync + rename + directory fsync).
util::Status write_file_atomic(const std::string& path, std::string_view bytes);
util::Result<std::string> read_whole_file(const std::string& path);

}  // namespace cuzk::engine
