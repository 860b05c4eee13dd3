#include "engine/journal.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <system_error>

#include "engine/str_cat.hpp"
#include "util/json.hpp"
#include "util/rng.hpp"

namespace cuzk::engine {
namespace {

constexpr uint64_t kRecordVersion = 1;
constexpr const char* kRecordSuffix = ".job.json";

std::string errno_text(const std::string& what, const std::string& path) {
    std::string m = what;
    m += " ";
    m += path;
    m += ": ";
    m += std::strerror(errno);
    return m;
}

std::string hex_digits(uint64_t v, int digits) {
    static const char* kHex = "0123456789abcdef";
    std::string s(static_cast<size_t>(digits), '0');
    for (int i = digits - 1; i >= 0; --i) {
        s[static_cast<size_t>(i)] = kHex[v & 15];
        v >>= 4;
    }
    return s;
}

}  // namespace

JobId make_job_id() {
    static std::atomic<uint64_t> counter{0};
    const auto now = std::chrono::system_clock::now();
    const auto us = std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch());
    const std::time_t secs = static_cast<std::time_t>(us.count() / 1000000);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%S", &tm);
    char micros[8];
    std::snprintf(micros, sizeof micros, "%06lld", static_cast<long long>(us.count() % 1000000));
    uint32_t rnd = 0;
    util::os_random_bytes(&rnd, sizeof rnd);
    JobId id = stamp;
    id += "-";
    id += micros;
    id += "-";
    id += hex_digits(counter.fetch_add(1) & 0xffff, 4);
    id += "-";
    id += hex_digits(rnd, 8);
    return id;
}

bool is_safe_job_id(std::string_view id) {
    if (id.empty() || id.size() > 128) return false;
    return std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
               c == '-' || c == '_';
    });
}

util::Result<Priority> parse_priority(std::string_view name) {
    for (Priority p : {Priority::kLow, Priority::kNormal, Priority::kHigh, Priority::kCritical})
        if (name == priority_name(p)) return p;
    std::string m = "unknown priority '";
    m += name;
    m += "' (low, normal, high, critical)";
    return util::invalid_argument(std::move(m));
}

util::Result<JobState> parse_job_state(std::string_view name) {
    for (JobState s : {JobState::kQueued, JobState::kRunning, JobState::kCompleted,
                       JobState::kFailed, JobState::kCancelled})
        if (name == job_state_name(s)) return s;
    std::string m = "unknown job state '";
    m += name;
    m += "'";
    return util::invalid_argument(std::move(m));
}

bool is_final(JobState s) {
    return s == JobState::kCompleted || s == JobState::kFailed || s == JobState::kCancelled;
}

std::string encode_record(const JournalRecord& r) {
    util::json::Writer w(true);
    w.begin_object();
    w.key("version");
    w.u64_value(kRecordVersion);
    w.key("id");
    w.string_value(r.id);
    w.key("request_id");
    w.string_value(r.request_id);
    w.key("registered_proof");
    w.u64_value(static_cast<uint64_t>(r.registered_proof));
    w.key("sector_number");
    w.u64_value(r.sector_number);
    w.key("miner_id");
    w.u64_value(r.miner_id);
    w.key("priority");
    w.string_value(priority_name(r.priority));
    w.key("seq");
    w.u64_value(r.seq);
    w.key("state");
    w.string_value(job_state_name(r.state));
    w.key("error");
    w.string_value(r.error);
    w.key("submitted_unix_ms");
    w.i64_value(r.submitted_unix_ms);
    w.end_object();
    std::string out = w.take();
    out += "\n";
    return out;
}

util::Result<JournalRecord> decode_record(std::string text, const std::string& where) {
    auto fail = [&where](const std::string& what) {
        std::string m = "journal: ";
        m += where;
        m += ": ";
        m += what;
        return util::invalid_argument(std::move(m));
    };
    if (text.empty()) return fail("empty file");
    auto doc = util::json::Document::parse(std::move(text));
    if (!doc.ok()) return fail(doc.status().message());
    const util::json::Value root = doc->root();
    if (!root.is_object()) return fail("not a JSON object");
    auto member = [&](const char* key) -> util::Result<util::json::Value> {
        auto v = root.find(key);
        if (!v) return fail(str_cat({"missing member '", key, "'"}));
        return *v;
    };
    auto u64_of = [&](const char* key) -> util::Result<uint64_t> {
        CUZK_ASSIGN_OR_RETURN(util::json::Value v, member(key));
        auto x = v.get_u64();
        if (!x.ok()) return fail(str_cat({key, ": ", x.status().message()}));
        return *x;
    };
    auto str_of = [&](const char* key) -> util::Result<std::string> {
        CUZK_ASSIGN_OR_RETURN(util::json::Value v, member(key));
        auto x = v.get_string();
        if (!x.ok()) return fail(str_cat({key, ": ", x.status().message()}));
        return std::string(*x);
    };
    JournalRecord r;
    CUZK_ASSIGN_OR_RETURN(uint64_t version, u64_of("version"));
    if (version != kRecordVersion)
        return fail(str_cat({"unsupported record version ", std::to_string(version)}));
    CUZK_ASSIGN_OR_RETURN(r.id, str_of("id"));
    if (!is_safe_job_id(r.id)) return fail("id: not a valid job id");
    CUZK_ASSIGN_OR_RETURN(r.request_id, str_of("request_id"));
    CUZK_ASSIGN_OR_RETURN(uint64_t proof, u64_of("registered_proof"));
    if (proof >= static_cast<uint64_t>(porep::kNumRegisteredSealProofs))
        return fail(str_cat({"registered_proof: unknown id ", std::to_string(proof)}));
    r.registered_proof = static_cast<porep::RegisteredSealProof>(proof);
    CUZK_ASSIGN_OR_RETURN(r.sector_number, u64_of("sector_number"));
    CUZK_ASSIGN_OR_RETURN(r.miner_id, u64_of("miner_id"));
    CUZK_ASSIGN_OR_RETURN(std::string priority, str_of("priority"));
    auto p = parse_priority(priority);
    if (!p.ok()) return fail(str_cat({"priority: ", p.status().message()}));
    r.priority = *p;
    CUZK_ASSIGN_OR_RETURN(r.seq, u64_of("seq"));
    CUZK_ASSIGN_OR_RETURN(std::string state, str_of("state"));
    auto s = parse_job_state(state);
    if (!s.ok()) return fail(str_cat({"state: ", s.status().message()}));
    r.state = *s;
    CUZK_ASSIGN_OR_RETURN(r.error, str_of("error"));
    CUZK_ASSIGN_OR_RETURN(util::json::Value ts, member("submitted_unix_ms"));
    auto t = ts.get_i64();
    if (!t.ok()) return fail(str_cat({"submitted_unix_ms: ", t.status().message()}));
    r.submitted_unix_ms = *t;
    return r;
}

util::Status write_file_atomic(const std::string& path, std::string_view bytes) {
    const std::string tmp = str_cat({path, ".tmp"});
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return util::io_error(errno_text("cannot create", tmp));
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            util::Status st = util::io_error(errno_text("cannot write", tmp));
            ::close(fd);
            ::unlink(tmp.c_str());
            return st;
        }
        done += static_cast<size_t>(n);
    }
    if (::fsync(fd) != 0) {
        util::Status st = util::io_error(errno_text("cannot flush", tmp));
        ::close(fd);
        ::unlink(tmp.c_str());
        return st;
    }
    ::close(fd);
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        util::Status st = util::io_error(errno_text("cannot rename onto", path));
        ::unlink(tmp.c_str());
        return st;
    }
    // Make the rename itself durable.
    const std::string dir = std::filesystem::path(path).parent_path().string();
    const int dfd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        (void)::fsync(dfd);
        ::close(dfd);
    }
    return util::Status();
}

util::Result<std::string> read_whole_file(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        const bool missing = errno == ENOENT;
        std::string m = errno_text("cannot open", path);
        return missing ? util::Status(util::StatusCode::kNotFound, std::move(m))
                       : util::io_error(std::move(m));
    }
    std::string out;
    char buf[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR) continue;
            util::Status st = util::io_error(errno_text("cannot read", path));
            ::close(fd);
            return st;
        }
        if (n == 0) break;
        out.append(buf, static_cast<size_t>(n));
    }
    ::close(fd);
    return out;
}

util::Result<Journal> Journal::open(const std::string& dir) {
    if (dir.empty()) return util::invalid_argument("journal: empty directory name");
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir, ec)) {
        std::string m = "journal: cannot create directory ";
        m += dir;
        return util::io_error(std::move(m));
    }
    return Journal(dir);
}

std::string Journal::path_of(const JobId& id, const char* suffix) const {
    std::string p = dir_;
    p += "/";
    p += id;
    p += suffix;
    return p;
}

util::Status Journal::write_record(const JournalRecord& r) const {
    if (!is_safe_job_id(r.id)) return util::invalid_argument("journal: unsafe job id");
    return write_file_atomic(path_of(r.id, kRecordSuffix), encode_record(r));
}

util::Status Journal::write_c1(const JobId& id, std::string_view c1) const {
    if (!is_safe_job_id(id)) return util::invalid_argument("journal: unsafe job id");
    return write_file_atomic(path_of(id, ".c1"), c1);
}

util::Status Journal::write_proof(const JobId& id, std::span<const uint8_t> proof) const {
    if (!is_safe_job_id(id)) return util::invalid_argument("journal: unsafe job id");
    return write_file_atomic(
        path_of(id, ".proof"),
        std::string_view(reinterpret_cast<const char*>(proof.data()), proof.size()));
}

util::Result<JournalRecord> Journal::read_record(const JobId& id) const {
    if (!is_safe_job_id(id)) return util::invalid_argument("journal: unsafe job id");
    CUZK_ASSIGN_OR_RETURN(std::string text, read_whole_file(path_of(id, kRecordSuffix)));
    CUZK_ASSIGN_OR_RETURN(JournalRecord r, decode_record(std::move(text), id + kRecordSuffix));
    if (r.id != id) {
        std::string m = "journal: ";
        m += id;
        m += kRecordSuffix;
        m += ": the record names job '";
        m += r.id;
        m += "'";
        return util::invalid_argument(std::move(m));
    }
    return r;
}

util::Result<std::string> Journal::read_c1(const JobId& id) const {
    if (!is_safe_job_id(id)) return util::invalid_argument("journal: unsafe job id");
    return read_whole_file(path_of(id, ".c1"));
}

util::Result<std::vector<uint8_t>> Journal::read_proof(const JobId& id) const {
    if (!is_safe_job_id(id)) return util::invalid_argument("journal: unsafe job id");
    CUZK_ASSIGN_OR_RETURN(std::string text, read_whole_file(path_of(id, ".proof")));
    return std::vector<uint8_t>(text.begin(), text.end());
}

Journal::Scan Journal::scan() const {
    Scan out;
    std::error_code ec;
    std::filesystem::directory_iterator it(dir_, ec), end;
    if (ec) {
        out.errors.push_back(str_cat({"journal: cannot list ", dir_, ": ", ec.message()}));
        return out;
    }
    const std::string suffix = kRecordSuffix;
    for (; it != end; it.increment(ec)) {
        if (ec) break;
        const std::string name = it->path().filename().string();
        if (name.size() <= suffix.size() || !name.ends_with(suffix)) continue;
        const std::string id = name.substr(0, name.size() - suffix.size());
        if (!is_safe_job_id(id)) {
            out.errors.push_back(str_cat({"journal: ", name, ": not a job id file name"}));
            continue;
        }
        auto r = read_record(id);
        if (!r.ok()) {
            out.errors.push_back(r.status().message());
            continue;
        }
        out.records.push_back(std::move(*r));
    }
    std::sort(out.records.begin(), out.records.end(),
              [](const JournalRecord& a, const JournalRecord& b) { return a.seq < b.seq; });
    return out;
}

}  // namespace cuzk::engine
