// ResidentParams::load: map, inspect, decode the verifying key, then each section chunk by chunk
// into device memory (double-buffered pinned staging, async copies) or mapped pinned host
// memory. See resident_params.hpp.
#include "gpu/resident_params.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <limits>
#include <mutex>
#include <span>
#include <type_traits>
#include <utility>

#include "groth16/coset_bases_file.hpp"
#include "gpu/cuda_status.hpp"
#include "gpu/upload_stream.hpp"
#include "gpu/pinned_pool.hpp"
#include "gpu/scratch_cache.hpp"
#include "util/mapped_file.hpp"

namespace cuzk::gpu {
namespace {

using groth16::Section;
using util::Result;
using util::Status;

static_assert(sizeof(ec::G1Affine) == 96 && sizeof(ec::G2Affine) == 192,
              "resident sections are arrays of the 96/192-byte affine layout");

constexpr Section kResidentSections[] = {Section::kH, Section::kL, Section::kA, Section::kBG1,
                                         Section::kBG2};
constexpr size_t kSectionAlign = 256;

double ms_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

uint64_t resident_point_bytes(Section s) {
    return s == Section::kBG2 ? sizeof(ec::G2Affine) : sizeof(ec::G1Affine);
}

// "<path>: <message>", keeping the code.
Status with_path(const std::string& path, const Status& st) {
    std::string msg = path;
    msg += ": ";
    msg += st.message();
    return Status(st.code(), std::move(msg));
}

Result<ec::G1Affine> decode_point(std::span<const uint8_t> b, ec::SubgroupCheck c, ec::G1Affine*) {
    return ec::g1_decode(b, c);
}
Result<ec::G2Affine> decode_point(std::span<const uint8_t> b, ec::SubgroupCheck c, ec::G2Affine*) {
    return ec::g2_decode(b, c);
}

// Decodes points [first, first + out.size()) of section `info` of a .params file into out, in
// parallel; the rules of groth16::decode_section (identity rejected in counted sections), and
// the same message with the point's index in the whole section; the lowest bad index wins.
template <class P>
Status decode_chunk(std::span<const uint8_t> file, const groth16::SectionInfo& info, uint64_t first,
                    std::span<P> out, ec::SubgroupCheck check, util::ThreadPool& pool) {
    constexpr size_t kStride = std::is_same_v<P, ec::G1Affine> ? 96 : 192;
    if (groth16::section_point_bytes(info.section) != kStride || first + out.size() > info.count ||
        info.end() > file.size()) {
        return util::internal_error("decode_chunk: chunk outside its section");
    }
    const uint8_t* base = file.data() + info.offset + first * kStride;
    std::atomic<size_t> first_bad{std::numeric_limits<size_t>::max()};
    std::mutex mutex;
    Status bad;
    pool.parallel_ranges(
        out.size(),
        [&](size_t begin, size_t end) {
            for (size_t i = begin; i < end; ++i) {
                if (i > first_bad.load(std::memory_order_relaxed)) return;
                auto p = decode_point(std::span<const uint8_t>(base + i * kStride, kStride), check,
                                      static_cast<P*>(nullptr));
                Status st = p.status();
                if (st.ok()) {
                    if (!p->is_identity()) {
                        out[i] = *p;
                        continue;
                    }
                    st = util::invalid_argument("point at infinity (not allowed here)");
                }
                std::lock_guard lock(mutex);
                if (i < first_bad.load(std::memory_order_relaxed)) {
                    first_bad.store(i, std::memory_order_relaxed);
                    std::string msg = "params: section ";
                    msg += groth16::section_name(info.section);
                    msg += ", point ";
                    msg += std::to_string(first + i);
                    msg += ": ";
                    msg += st.message();
                    bad = Status(st.code(), std::move(msg));
                }
                return;
            }
        },
        4);
    return bad;
}

// The verifying key at the start of a .params file: parsed as the .vk it is a prefix of, with
// the messages naming the params file kind.
Result<groth16::VerifyingKey> decode_vk_prefix(std::span<const uint8_t> file,
                                               const groth16::FileLayout& layout,
                                               const groth16::ReadOptions& opts) {
    const groth16::SectionInfo* ic = layout.find(Section::kIc);
    if (ic == nullptr) return util::internal_error("params layout without an ic section");
    auto vk = groth16::parse_vk(file.first(ic->end()), opts);
    if (vk.ok()) return vk;
    std::string msg = vk.status().message();
    if (msg.rfind("vk: ", 0) == 0) msg.replace(0, 4, "params: ");
    return Status(vk.status().code(), std::move(msg));
}

}  // namespace

const char* placement_name(Placement p) {
    switch (p) {
        case Placement::kAuto:
            return "auto";
        case Placement::kDevice:
            return "device";
        case Placement::kPinnedHost:
            return "pinned-host";
    }
    return "?";
}

uint64_t params_resident_bytes(const groth16::FileLayout& layout) {
    uint64_t total = 0;
    for (Section s : kResidentSections) {
        const groth16::SectionInfo* info = layout.find(s);
        if (info != nullptr) total += uint64_t{info->count} * resident_point_bytes(s);
    }
    return total;
}

// Per section: device memory or mapped pinned host memory.
struct ResidentParams::Storage {
    DeviceBuffer device[5];
    PinnedBuffer host[5];
};

groth16::ParamsShape ResidentParams::shape() const {
    return {vk_.ic.size(), domain_size() - 1, l().size, a().size, b_g1().size, b_g2().size};
}

util::Status ResidentParams::set_coset_lagrange(std::vector<ec::G1Affine> c_input) {
    if (c_input.size() != vk_.ic.size())
        return util::invalid_argument("resident params: coset-Lagrange bases need one input C "
                                      "point per ic point");
    h_basis_ = groth16::HBasis::kCosetLagrange;
    c_input_ = std::move(c_input);
    return util::Status();
}

ResidentParams::ResidentParams() = default;
ResidentParams::~ResidentParams() = default;
ResidentParams::ResidentParams(ResidentParams&&) noexcept = default;
ResidentParams& ResidentParams::operator=(ResidentParams&&) noexcept = default;

DeviceSpan<ec::G1Affine> ResidentParams::g1_section(Section s) const {
    switch (s) {
        case Section::kH:
            return h();
        case Section::kL:
            return l();
        case Section::kA:
            return a();
        case Section::kBG1:
            return b_g1();
        default:
            return {};
    }
}

namespace {

template <class P>
Result<std::vector<P>> download_span(DeviceSpan<P> span) {
    std::vector<P> out(span.size);
    if (span.size == 0) return out;
    CUZK_CUDA_RETURN_IF_ERROR(
        cudaMemcpy(out.data(), span.data, span.size_bytes(), cudaMemcpyDefault));
    return out;
}

}  // namespace

Result<std::vector<ec::G1Affine>> ResidentParams::download_g1(Section s) const {
    if (s == Section::kIc || s == Section::kBG2)
        return util::invalid_argument("download_g1: not a resident G1 section");
    return download_span(g1_section(s));
}

Result<std::vector<ec::G2Affine>> ResidentParams::download_b_g2() const {
    return download_span(b_g2_);
}

Result<Placement> ResidentParams::choose_placement(Placement requested, uint64_t resident_bytes,
                                                   uint64_t device_margin_bytes) {
    if (requested != Placement::kAuto) return requested;
    size_t free_bytes = 0, total_bytes = 0;
    (void)release_idle_device_memory();  // cached or pooled scratch counts as free memory
    CUZK_RETURN_IF_ERROR(cuda_status(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo"));
    return resident_bytes + device_margin_bytes <= free_bytes ? Placement::kDevice
                                                              : Placement::kPinnedHost;
}

// One allocation per non-empty section at placement_ (device memory, or mapped pinned host
// memory addressed through its device pointer).
Status ResidentParams::allocate_sections(const std::array<uint64_t, 5>& counts) {
    storage_ = std::make_unique<Storage>();
    for (size_t k = 0; k < 5; ++k) {
        const Section s = kResidentSections[k];
        const uint64_t n = counts[k];
        const uint64_t section_bytes = n * resident_point_bytes(s);
        void* ptr = nullptr;
        if (n > 0 && placement_ == Placement::kDevice) {
            CUZK_ASSIGN_OR_RETURN(storage_->device[k], DeviceBuffer::allocate(section_bytes));
            ptr = storage_->device[k].data();
        } else if (n > 0) {
            CUZK_ASSIGN_OR_RETURN(storage_->host[k],
                                  PinnedBuffer::allocate(section_bytes, /*mapped=*/true));
            CUZK_ASSIGN_OR_RETURN(ptr, storage_->host[k].device_pointer());
        }
        if (s == Section::kBG2) {
            b_g2_ = {static_cast<const ec::G2Affine*>(ptr), n};
        } else {
            g1_[k] = {static_cast<const ec::G1Affine*>(ptr), n};
        }
    }
    return Status();
}

Result<ResidentParams> ResidentParams::allocate(std::string label, groth16::VerifyingKey vk,
                                                const std::array<uint64_t, 5>& counts,
                                                Placement placement,
                                                uint64_t device_margin_bytes) {
    ResidentParams out;
    out.path_ = std::move(label);
    out.vk_ = std::move(vk);
    for (size_t k = 0; k < 5; ++k)
        out.resident_bytes_ += counts[k] * resident_point_bytes(kResidentSections[k]);
    CUZK_ASSIGN_OR_RETURN(out.placement_, choose_placement(placement, out.resident_bytes_,
                                                           device_margin_bytes));
    CUZK_RETURN_IF_ERROR(out.allocate_sections(counts));
    return out;
}

ec::G1Affine* ResidentParams::writable_g1(Section s) {
    return const_cast<ec::G1Affine*>(g1_section(s).data);
}

Result<ec::G1Affine*> ResidentParams::reallocate_g1(Section s, uint64_t count) {
    size_t k = 0;
    while (k < 4 && kResidentSections[k] != s) ++k;
    if (k == 4 || storage_ == nullptr)
        return util::invalid_argument("resident params: reallocate_g1 needs an allocated G1 "
                                      "section (h, l, a or b_g1)");
    resident_bytes_ -= g1_[k].size * sizeof(ec::G1Affine);
    storage_->device[k] = DeviceBuffer();
    storage_->host[k] = PinnedBuffer();
    g1_[k] = {};
    if (count == 0) return static_cast<ec::G1Affine*>(nullptr);
    const uint64_t bytes = count * sizeof(ec::G1Affine);
    void* ptr = nullptr;
    if (placement_ == Placement::kDevice) {
        CUZK_ASSIGN_OR_RETURN(storage_->device[k], DeviceBuffer::allocate(bytes));
        ptr = storage_->device[k].data();
    } else {
        CUZK_ASSIGN_OR_RETURN(storage_->host[k], PinnedBuffer::allocate(bytes, /*mapped=*/true));
        CUZK_ASSIGN_OR_RETURN(ptr, storage_->host[k].device_pointer());
    }
    g1_[k] = {static_cast<const ec::G1Affine*>(ptr), count};
    resident_bytes_ += bytes;
    return static_cast<ec::G1Affine*>(ptr);
}

ec::G2Affine* ResidentParams::writable_b_g2() { return const_cast<ec::G2Affine*>(b_g2_.data); }

Result<ResidentParams> ResidentParams::load(const std::string& path,
                                            const ResidentLoadOptions& options,
                                            ResidentLoadTimings* timings) {
    using Clock = std::chrono::steady_clock;
    const auto t_start = Clock::now();
    ResidentLoadTimings t;
    util::ThreadPool& pool = options.pool != nullptr ? *options.pool : util::ThreadPool::global();
    PinnedPool& staging_pool = options.staging != nullptr ? *options.staging : PinnedPool::global();

    auto t_step = Clock::now();
    CUZK_ASSIGN_OR_RETURN(util::MappedFile file, util::MappedFile::open(path));
    const std::span<const uint8_t> bytes = file.bytes();
    auto layout = groth16::inspect_params(bytes);
    if (!layout.ok()) return with_path(path, layout.status());
    t.map_ms = ms_since(t_step);
    t.file_bytes = bytes.size();

    ResidentParams out;
    out.path_ = path;
    out.resident_bytes_ = params_resident_bytes(*layout);

    // Converted H bases from their own file: checked against this file before anything is
    // allocated.
    util::MappedFile coset_file;
    groth16::CosetBasesHeader coset;
    const bool from_coset_file = !options.coset_bases_file.empty();
    if (from_coset_file) {
        const std::string& cpath = options.coset_bases_file;
        CUZK_ASSIGN_OR_RETURN(coset_file, util::MappedFile::open(cpath));
        auto expected = groth16::coset_bases_source(bytes);
        if (!expected.ok()) return with_path(path, expected.status());
        expected->domain = uint64_t{layout->find(Section::kH)->count} + 1;
        expected->aux = layout->find(Section::kL)->count;
        expected->inputs = layout->find(Section::kIc)->count;
        auto header = groth16::open_coset_bases(coset_file.bytes(), *expected);
        if (!header.ok()) return with_path(cpath, header.status());
        coset = *header;
        out.resident_bytes_ += sizeof(ec::G1Affine);  // h: m points instead of m − 1
    }
    t.resident_bytes = out.resident_bytes_;

    t_step = Clock::now();
    groth16::ReadOptions read_options;
    read_options.subgroup_check = options.subgroup_check;
    read_options.pool = &pool;
    auto vk = decode_vk_prefix(bytes, *layout, read_options);
    if (!vk.ok()) return with_path(path, vk.status());
    out.vk_ = std::move(*vk);
    t.vk_ms = ms_since(t_step);

    // Placement.
    t_step = Clock::now();
    auto chosen = choose_placement(options.placement, out.resident_bytes_,
                                   options.device_margin_bytes);
    if (!chosen.ok()) return with_path(path, chosen.status());
    const Placement placement = *chosen;
    out.placement_ = placement;
    t.placement = placement;
    std::array<uint64_t, 5> counts{};
    for (size_t k = 0; k < 5; ++k) counts[k] = layout->find(kResidentSections[k])->count;
    if (from_coset_file) counts[0] = coset.domain;
    if (Status st = out.allocate_sections(counts); !st.ok()) return with_path(path, st);

    // Staging (device placement only): two halves of one pooled pinned buffer (at least a digest
    // block of converted points when those are read).
    const size_t min_chunk =
        from_coset_file ? groth16::kCosetBasesBlockPoints * sizeof(ec::G1Affine)
                        : sizeof(ec::G2Affine);
    const size_t chunk_bytes =
        (std::max<size_t>(options.staging_chunk_bytes, min_chunk) + kSectionAlign - 1) /
        kSectionAlign * kSectionAlign;
    PinnedPool::Lease staging;
    UploadStream upload;
    if (placement == Placement::kDevice) {
        auto lease = staging_pool.acquire(2 * chunk_bytes);
        if (!lease.ok()) return with_path(path, lease.status());
        staging = std::move(*lease);
        Status st = upload.create();
        if (!st.ok()) return with_path(path, st);
    }
    t.allocate_ms = ms_since(t_step);

    LoadProgress progress;
    progress.bytes_total = out.resident_bytes_;
    unsigned next_half = 0;
    groth16::PayloadDigest coset_digest(&pool);
    // h and l come from the converted file when there is one.
    const auto converted = [&](Section s) {
        return from_coset_file && (s == Section::kH || s == Section::kL);
    };
    // Fills `dst` with points [first, first + dst.size()) of a section: decoded from the .params
    // file, or copied from the converted file (a run of whole digest blocks) and hashed.
    auto fill = [&](const groth16::SectionInfo& info, uint64_t first, auto dst) -> Status {
        using P = typename decltype(dst)::element_type;
        if constexpr (std::is_same_v<P, ec::G1Affine>) {
            if (converted(info.section)) {
                const auto src = groth16::coset_bases_section(
                    coset_file.bytes(), coset, info.section == Section::kH ? 0 : 1);
                const bool end = first + dst.size() == src.size();
                return coset_digest.update(src.subspan(first, dst.size()), end, dst.data());
            }
        }
        return decode_chunk(bytes, info, first, dst, options.subgroup_check, pool);
    };
    auto load_section = [&](const groth16::SectionInfo& info, auto* dst) -> Status {
        using P = std::remove_const_t<std::remove_pointer_t<decltype(dst)>>;
        P* target = const_cast<P*>(dst);
        const uint64_t count = converted(info.section) && info.section == Section::kH
                                   ? coset.domain
                                   : uint64_t{info.count};
        progress.section = info.section;
        progress.section_points = count;
        progress.section_points_done = 0;
        const uint64_t per_chunk = converted(info.section)
                                       ? groth16::coset_bases_chunk_points(chunk_bytes)
                                       : chunk_bytes / sizeof(P);
        for (uint64_t first = 0; first < count; first += per_chunk) {
            const uint64_t n = std::min<uint64_t>(per_chunk, count - first);
            if (placement == Placement::kDevice) {
                const unsigned half = next_half;
                next_half ^= 1;
                auto t_wait = Clock::now();
                // The copy that last read this half must be done before it is overwritten.
                CUZK_CUDA_RETURN_IF_ERROR(cudaEventSynchronize(upload.done[half]));
                t.wait_ms += ms_since(t_wait);
                P* stage = reinterpret_cast<P*>(staging.data() + half * chunk_bytes);
                auto t_decode = Clock::now();
                CUZK_RETURN_IF_ERROR(fill(info, first, std::span<P>(stage, n)));
                t.decode_ms += ms_since(t_decode);
                CUZK_CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(target + first, stage, n * sizeof(P),
                                                          cudaMemcpyHostToDevice, upload.stream));
                CUZK_CUDA_RETURN_IF_ERROR(cudaEventRecord(upload.done[half], upload.stream));
            } else {
                // Mapped pinned memory: the host address is the buffer itself.
                auto t_decode = Clock::now();
                CUZK_RETURN_IF_ERROR(fill(info, first, std::span<P>(target + first, n)));
                t.decode_ms += ms_since(t_decode);
            }
            progress.section_points_done = first + n;
            progress.bytes_done += n * sizeof(P);
            if (options.progress) options.progress(progress);
        }
        return Status();
    };
    for (size_t k = 0; k < 5; ++k) {
        const Section s = kResidentSections[k];
        const groth16::SectionInfo& info = *layout->find(s);
        Status st;
        if (s == Section::kBG2) {
            // Host addresses for the pinned placement (the device pointer may differ without
            // unified addressing); device addresses for the device placement.
            const ec::G2Affine* dst =
                placement == Placement::kDevice
                    ? out.b_g2_.data
                    : static_cast<const ec::G2Affine*>(out.storage_->host[k].data());
            st = load_section(info, dst);
        } else {
            const ec::G1Affine* dst =
                placement == Placement::kDevice
                    ? out.g1_[k].data
                    : static_cast<const ec::G1Affine*>(out.storage_->host[k].data());
            st = load_section(info, dst);
        }
        if (!st.ok()) return with_path(path, st);
    }
    if (from_coset_file) {
        const auto c = groth16::coset_bases_section(coset_file.bytes(), coset, 2);
        out.c_input_.resize(c.size());
        CUZK_RETURN_IF_ERROR(coset_digest.update(c, true, out.c_input_.data()));
        if (coset_digest.final() != coset.payload)
            return with_path(options.coset_bases_file,
                             util::invalid_argument("coset bases file: the points' digest does "
                                                    "not match (a damaged file)"));
        out.h_basis_ = groth16::HBasis::kCosetLagrange;
    }
    if (placement == Placement::kDevice) {
        auto t_wait = Clock::now();
        Status st = cuda_status(cudaStreamSynchronize(upload.stream), "cudaStreamSynchronize");
        if (!st.ok()) return with_path(path, st);
        t.wait_ms += ms_since(t_wait);
    }
    t.total_ms = ms_since(t_start);
    t.gb_per_s = t.total_ms > 0 ? static_cast<double>(t.file_bytes) / (t.total_ms * 1e6) : 0;
    if (timings != nullptr) *timings = t;
    return out;
}

}  // namespace cuzk::gpu
