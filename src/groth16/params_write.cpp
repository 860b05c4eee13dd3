// Writing .vk/.params files in bellperson's layout (params_io.hpp). Points are
// encoded in parallel, in blocks, and handed to a sink — a growing vector or a
// file — so a 44 GiB key is never duplicated in memory.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>

#include "groth16/params_io.hpp"

namespace cuzk::groth16 {
namespace {

using util::Result;
using util::Status;
using Sink = std::function<Status(std::span<const uint8_t>)>;

constexpr size_t kBlockPoints = size_t{1} << 14;

void store_be32(uint32_t v, uint8_t* out) {
    out[0] = static_cast<uint8_t>(v >> 24);
    out[1] = static_cast<uint8_t>(v >> 16);
    out[2] = static_cast<uint8_t>(v >> 8);
    out[3] = static_cast<uint8_t>(v);
}

template <class P>
constexpr size_t kStride = std::is_same_v<P, G1Affine> ? 96 : 192;

template <class P>
void encode_into(const P& p, uint8_t* out) {
    if constexpr (std::is_same_v<P, G1Affine>) {
        const auto b = ec::g1_serialize(p);
        std::memcpy(out, b.data(), b.size());
    } else {
        const auto b = ec::g2_serialize(p);
        std::memcpy(out, b.data(), b.size());
    }
}

template <class P>
Status write_point(const P& p, const Sink& sink) {
    uint8_t buf[kStride<P>];
    encode_into(p, buf);
    return sink(std::span<const uint8_t>(buf, kStride<P>));
}

template <class P>
Status write_section(const char* name, const std::vector<P>& points, const Sink& sink) {
    if (points.size() > std::numeric_limits<uint32_t>::max()) {
        std::string msg = "section ";
        msg += name;
        msg += " has ";
        msg += std::to_string(points.size());
        msg += " points; the format's u32 count holds at most 2^32 - 1";
        return util::invalid_argument(std::move(msg));
    }
    uint8_t count[4];
    store_be32(static_cast<uint32_t>(points.size()), count);
    CUZK_RETURN_IF_ERROR(sink(std::span<const uint8_t>(count, 4)));
    std::vector<uint8_t> block(std::min(points.size(), kBlockPoints) * kStride<P>);
    for (size_t start = 0; start < points.size(); start += kBlockPoints) {
        const size_t n = std::min(kBlockPoints, points.size() - start);
        util::ThreadPool::global().parallel_ranges(n, [&](size_t b, size_t e) {
            for (size_t i = b; i < e; ++i)
                encode_into(points[start + i], block.data() + i * kStride<P>);
        });
        CUZK_RETURN_IF_ERROR(sink(std::span<const uint8_t>(block.data(), n * kStride<P>)));
    }
    return Status();
}

Status write_vk(const VerifyingKey& vk, const Sink& sink) {
    CUZK_RETURN_IF_ERROR(write_point(vk.alpha_g1, sink));
    CUZK_RETURN_IF_ERROR(write_point(vk.beta_g1, sink));
    CUZK_RETURN_IF_ERROR(write_point(vk.beta_g2, sink));
    CUZK_RETURN_IF_ERROR(write_point(vk.gamma_g2, sink));
    CUZK_RETURN_IF_ERROR(write_point(vk.delta_g1, sink));
    CUZK_RETURN_IF_ERROR(write_point(vk.delta_g2, sink));
    return write_section("ic", vk.ic, sink);
}

Status write_params(const Parameters& params, const Sink& sink) {
    CUZK_RETURN_IF_ERROR(write_vk(params.vk, sink));
    CUZK_RETURN_IF_ERROR(write_section("h", params.h, sink));
    CUZK_RETURN_IF_ERROR(write_section("l", params.l, sink));
    CUZK_RETURN_IF_ERROR(write_section("a", params.a, sink));
    CUZK_RETURN_IF_ERROR(write_section("b_g1", params.b_g1, sink));
    return write_section("b_g2", params.b_g2, sink);
}

Result<std::vector<uint8_t>> to_vector(uint64_t size,
                                       const std::function<Status(const Sink&)>& fn) {
    std::vector<uint8_t> out;
    out.reserve(size);
    CUZK_RETURN_IF_ERROR(fn([&](std::span<const uint8_t> b) {
        out.insert(out.end(), b.begin(), b.end());
        return Status();
    }));
    return out;
}

Status errno_error(const std::string& path, const char* what, int err) {
    std::string msg = path;
    msg += ": ";
    msg += what;
    msg += " failed: ";
    msg += std::strerror(err);
    msg += " (errno ";
    msg += std::to_string(err);
    msg += ")";
    return util::io_error(std::move(msg));
}

// Writes through "<path>.tmp", then renames; the temporary is removed on
// failure.
Status to_file(const std::string& path, const std::function<Status(const Sink&)>& fn) {
    std::string tmp = path;
    tmp += ".tmp";
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (f == nullptr) return errno_error(tmp, "fopen", errno);
    Status st = fn([&](std::span<const uint8_t> b) {
        if (std::fwrite(b.data(), 1, b.size(), f) != b.size())
            return errno_error(tmp, "fwrite", errno);
        return Status();
    });
    if (std::fflush(f) != 0 && st.ok()) st = errno_error(tmp, "fflush", errno);
    if (std::fclose(f) != 0 && st.ok()) st = errno_error(tmp, "fclose", errno);
    if (st.ok() && std::rename(tmp.c_str(), path.c_str()) != 0)
        st = errno_error(path, "rename", errno);
    if (!st.ok()) std::remove(tmp.c_str());
    return st;
}

}  // namespace

uint64_t vk_file_size(size_t num_ic) { return kVkFixedBytes + 4 + uint64_t{96} * num_ic; }

uint64_t params_file_size(const Parameters& p) {
    return vk_file_size(p.vk.ic.size()) + 5 * 4 +
           96 * uint64_t{p.h.size() + p.l.size() + p.a.size() + p.b_g1.size()} +
           192 * uint64_t{p.b_g2.size()};
}

Result<std::vector<uint8_t>> serialize_vk(const VerifyingKey& vk) {
    return to_vector(vk_file_size(vk.ic.size()), [&](const Sink& s) { return write_vk(vk, s); });
}
Result<std::vector<uint8_t>> serialize_params(const Parameters& params) {
    return to_vector(params_file_size(params),
                     [&](const Sink& s) { return write_params(params, s); });
}
Status write_vk_file(const std::string& path, const VerifyingKey& vk) {
    return to_file(path, [&](const Sink& s) { return write_vk(vk, s); });
}
Status write_params_file(const std::string& path, const Parameters& params) {
    return to_file(path, [&](const Sink& s) { return write_params(params, s); });
}

}  // namespace cuzk::groth16
