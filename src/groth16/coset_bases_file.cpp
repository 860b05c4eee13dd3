// The converted-H-bases file: header, payload digest, writer (see coset_bases_file.hpp).
#include "groth16/coset_bases_file.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>
#include <vector>

#include "groth16/params_io.hpp"

namespace cuzk::groth16 {

namespace {

using util::Status;

static_assert(sizeof(ec::G1Affine) == 96, "the payload stores 96-byte affine points");

constexpr char kMagic[8] = {'c', 'u', 'z', 'k', '-', 'c', 'l', 'b'};
constexpr size_t kDigestedHeaderBytes = 120;

void put_u32(uint8_t* p, uint32_t v) {
    for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
void put_u64(uint8_t* p, uint64_t v) {
    for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
uint32_t get_u32(const uint8_t* p) {
    uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}
uint64_t get_u64(const uint8_t* p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

Status header_error(std::string what) {
    return util::invalid_argument("coset bases file: " + what);
}

std::atomic<unsigned> g_tmp_counter{0};

}  // namespace

uint64_t CosetBasesHeader::file_bytes() const {
    return kCosetBasesHeaderBytes + payload_points() * sizeof(ec::G1Affine);
}

util::Result<CosetBasesHeader> coset_bases_source(std::span<const uint8_t> params_file) {
    CUZK_ASSIGN_OR_RETURN(FileLayout layout, inspect_params(params_file));
    const SectionInfo* ic = layout.find(Section::kIc);
    if (ic == nullptr) return util::internal_error("params layout without an ic section");
    CosetBasesHeader h;
    h.source = util::sha256(params_file.first(ic->end()));
    h.source_bytes = params_file.size();
    return h;
}

void encode_coset_bases_header(const CosetBasesHeader& h, std::span<uint8_t> out) {
    std::memset(out.data(), 0, kCosetBasesHeaderBytes);
    uint8_t* p = out.data();
    std::memcpy(p, kMagic, 8);
    put_u32(p + 8, kCosetBasesFileVersion);
    put_u32(p + 12, kCosetBasesHeaderBytes);
    std::memcpy(p + 16, h.source.data(), 32);
    put_u64(p + 48, h.source_bytes);
    put_u64(p + 56, h.domain);
    put_u64(p + 64, h.aux);
    put_u64(p + 72, h.inputs);
    put_u64(p + 80, kCosetBasesBlockPoints);
    std::memcpy(p + 88, h.payload.data(), 32);
    const util::Sha256Digest d = util::sha256(out.first(kDigestedHeaderBytes));
    std::memcpy(p + kDigestedHeaderBytes, d.data(), 32);
}

util::Result<CosetBasesHeader> decode_coset_bases_header(std::span<const uint8_t> in) {
    if (in.size() < kCosetBasesHeaderBytes)
        return header_error("shorter than its header (" + std::to_string(in.size()) + " bytes)");
    const uint8_t* p = in.data();
    if (std::memcmp(p, kMagic, 8) != 0) return header_error("no cuzk-clb magic");
    if (const uint32_t v = get_u32(p + 8); v != kCosetBasesFileVersion)
        return header_error("version " + std::to_string(v) + ", expected " +
                            std::to_string(kCosetBasesFileVersion));
    if (const uint32_t hb = get_u32(p + 12); hb != kCosetBasesHeaderBytes)
        return header_error("header of " + std::to_string(hb) + " bytes, expected " +
                            std::to_string(kCosetBasesHeaderBytes));
    const util::Sha256Digest d = util::sha256(in.first(kDigestedHeaderBytes));
    if (std::memcmp(d.data(), p + kDigestedHeaderBytes, 32) != 0)
        return header_error("the header's digest does not match (a damaged file)");
    if (const uint64_t b = get_u64(p + 80); b != kCosetBasesBlockPoints)
        return header_error("blocks of " + std::to_string(b) + " points, expected " +
                            std::to_string(kCosetBasesBlockPoints));
    CosetBasesHeader h;
    std::memcpy(h.source.data(), p + 16, 32);
    h.source_bytes = get_u64(p + 48);
    h.domain = get_u64(p + 56);
    h.aux = get_u64(p + 64);
    h.inputs = get_u64(p + 72);
    std::memcpy(h.payload.data(), p + 88, 32);
    constexpr uint64_t kMaxPoints = uint64_t{1} << 40;
    if (h.domain == 0 || (h.domain & (h.domain - 1)) != 0 || h.domain > kMaxPoints)
        return header_error("domain size " + std::to_string(h.domain) + " is not a power of two");
    if (h.inputs == 0 || h.inputs > kMaxPoints || h.aux > kMaxPoints)
        return header_error("counts out of range (inputs " + std::to_string(h.inputs) + ", aux " +
                            std::to_string(h.aux) + ")");
    return h;
}

util::Result<CosetBasesHeader> open_coset_bases(std::span<const uint8_t> file,
                                                const CosetBasesHeader& expected) {
    CUZK_ASSIGN_OR_RETURN(CosetBasesHeader h, decode_coset_bases_header(file));
    if (h.source != expected.source || h.source_bytes != expected.source_bytes)
        return header_error("made from another parameter file (its verifying key or size "
                            "differs)");
    if (h.domain != expected.domain || h.aux != expected.aux || h.inputs != expected.inputs)
        return header_error("counts differ: domain " + std::to_string(h.domain) + ", aux " +
                            std::to_string(h.aux) + ", inputs " + std::to_string(h.inputs) +
                            "; expected " + std::to_string(expected.domain) + ", " +
                            std::to_string(expected.aux) + ", " + std::to_string(expected.inputs));
    if (file.size() != h.file_bytes())
        return header_error(std::to_string(file.size()) + " bytes, expected " +
                            std::to_string(h.file_bytes()) + " (truncated?)");
    return h;
}

std::span<const ec::G1Affine> coset_bases_section(std::span<const uint8_t> file,
                                                  const CosetBasesHeader& h, unsigned section) {
    const uint64_t counts[3] = {h.domain, h.aux, h.inputs};
    uint64_t first = 0;
    for (unsigned s = 0; s < section && s < 3; ++s) first += counts[s];
    const auto* points =
        reinterpret_cast<const ec::G1Affine*>(file.data() + kCosetBasesHeaderBytes);
    return {points + first, section < 3 ? counts[section] : 0};
}

PayloadDigest::PayloadDigest(util::ThreadPool* pool) : pool_(pool) {}

Status PayloadDigest::update(std::span<const ec::G1Affine> points, bool section_end,
                             ec::G1Affine* copy_to) {
    const uint64_t blocks = (points.size() + kCosetBasesBlockPoints - 1) / kCosetBasesBlockPoints;
    if (!section_end && points.size() % kCosetBasesBlockPoints != 0)
        return util::invalid_argument("coset bases digest: a run inside a section must be whole "
                                      "blocks");
    std::vector<util::Sha256Digest> digests(blocks);
    auto hash = [&](size_t b) {
        const uint64_t first = b * kCosetBasesBlockPoints;
        const uint64_t n = std::min<uint64_t>(kCosetBasesBlockPoints, points.size() - first);
        const ec::G1Affine* src = points.data() + first;
        if (copy_to != nullptr) {
            std::memcpy(static_cast<void*>(copy_to + first), src, n * sizeof(ec::G1Affine));
            src = copy_to + first;
        }
        digests[b] = util::sha256(
            std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(src), n * sizeof(ec::G1Affine)));
    };
    util::ThreadPool& pool = pool_ != nullptr ? *pool_ : util::ThreadPool::global();
    pool.parallel_for(blocks, hash);
    for (const util::Sha256Digest& d : digests) outer_.update(d.data(), d.size());
    return Status();
}

util::Sha256Digest PayloadDigest::final() { return outer_.final(); }

uint64_t coset_bases_chunk_points(size_t chunk_bytes) {
    const uint64_t blocks = chunk_bytes / (kCosetBasesBlockPoints * sizeof(ec::G1Affine));
    return std::max<uint64_t>(1, blocks) * kCosetBasesBlockPoints;
}

// ---- writer ----

util::Result<CosetBasesWriter> CosetBasesWriter::create(const std::string& path,
                                                        const CosetBasesHeader& header,
                                                        util::ThreadPool* pool) {
    CosetBasesWriter w;
    w.path_ = path;
    w.tmp_ = path + ".tmp." + std::to_string(::getpid()) + "." +
             std::to_string(g_tmp_counter.fetch_add(1));
    w.header_ = header;
    w.digest_ = PayloadDigest(pool);
    const std::filesystem::path dir = std::filesystem::path(path).parent_path();
    std::error_code ec;
    if (!dir.empty() && !std::filesystem::is_directory(dir, ec)) {
        std::filesystem::create_directories(dir, ec);
        if (ec)
            return util::io_error(dir.string() + ": cannot create the directory: " + ec.message());
    }
    w.file_ = std::fopen(w.tmp_.c_str(), "wb");
    if (w.file_ == nullptr) return w.io_error("fopen");
    // The header's place, written for real by finish().
    std::vector<uint8_t> zeros(kCosetBasesHeaderBytes, 0);
    if (std::fwrite(zeros.data(), 1, zeros.size(), w.file_) != zeros.size())
        return w.io_error("fwrite");
    return w;
}

CosetBasesWriter::CosetBasesWriter(CosetBasesWriter&& o) noexcept
    : path_(std::move(o.path_)),
      tmp_(std::move(o.tmp_)),
      file_(o.file_),
      header_(o.header_),
      written_(o.written_),
      section_(o.section_),
      section_done_(o.section_done_),
      digest_(std::move(o.digest_)) {
    o.file_ = nullptr;
    o.tmp_.clear();
}

CosetBasesWriter& CosetBasesWriter::operator=(CosetBasesWriter&& o) noexcept {
    if (this != &o) {
        discard();
        path_ = std::move(o.path_);
        tmp_ = std::exchange(o.tmp_, std::string());
        file_ = std::exchange(o.file_, nullptr);
        header_ = o.header_;
        written_ = o.written_;
        section_ = o.section_;
        section_done_ = o.section_done_;
        digest_ = std::move(o.digest_);
    }
    return *this;
}

CosetBasesWriter::~CosetBasesWriter() { discard(); }

void CosetBasesWriter::discard() {
    if (file_ != nullptr) std::fclose(file_);
    if (!tmp_.empty()) std::remove(tmp_.c_str());
    file_ = nullptr;
    tmp_.clear();
}

Status CosetBasesWriter::io_error(const char* what) const {
    const int err = errno;
    return util::io_error(tmp_ + ": " + what + " failed: " + std::strerror(err) + " (errno " +
                          std::to_string(err) + ")");
}

Status CosetBasesWriter::append(std::span<const ec::G1Affine> points, bool section_end) {
    const uint64_t counts[3] = {header_.domain, header_.aux, header_.inputs};
    if (file_ == nullptr || section_ >= 3 || section_done_ + points.size() > counts[section_] ||
        (section_end && section_done_ + points.size() != counts[section_]))
        return util::invalid_argument(path_ + ": coset bases file: points past or short of a "
                                              "section's count");
    CUZK_RETURN_IF_ERROR(digest_.update(points, section_end));
    const size_t bytes = points.size() * sizeof(ec::G1Affine);
    if (bytes != 0 && std::fwrite(points.data(), 1, bytes, file_) != bytes)
        return io_error("fwrite");
    written_ += points.size();
    section_done_ += points.size();
    if (section_end) {
        ++section_;
        section_done_ = 0;
    }
    return Status();
}

Status CosetBasesWriter::finish() {
    if (file_ == nullptr || section_ != 3 || written_ != header_.payload_points())
        return util::invalid_argument(path_ + ": coset bases file: not every section was written");
    header_.payload = digest_.final();
    std::vector<uint8_t> head(kCosetBasesHeaderBytes);
    encode_coset_bases_header(header_, head);
    if (std::fseek(file_, 0, SEEK_SET) != 0) return io_error("fseek");
    if (std::fwrite(head.data(), 1, head.size(), file_) != head.size()) return io_error("fwrite");
    if (std::fflush(file_) != 0) return io_error("fflush");
    if (::fsync(::fileno(file_)) != 0) return io_error("fsync");
    const int rc = std::fclose(file_);
    file_ = nullptr;
    if (rc != 0) return io_error("fclose");
    if (std::rename(tmp_.c_str(), path_.c_str()) != 0) return io_error("rename");
    tmp_.clear();
    return Status();
}

}  // namespace cuzk::groth16
