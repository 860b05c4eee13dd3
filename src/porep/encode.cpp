#include "porep/encode.hpp"

#include <string>

#include "ff/fr.hpp"

namespace cuzk::porep {

namespace {

util::Result<ff::Fr> node_scalar(std::span<const uint8_t> bytes, uint64_t node, const char* what) {
    auto v = ff::Fr::from_bytes_le(bytes.subspan(node * 32).first<32>());
    if (!v.ok()) {
        std::string msg = what;
        msg += " node ";
        msg += std::to_string(node);
        msg += " is not a canonical scalar";
        return util::invalid_argument(std::move(msg));
    }
    return v;
}

template <bool kEncode>
util::Result<std::vector<uint8_t>> apply(std::span<const uint8_t> key, std::span<const uint8_t> in,
                                         const char* what) {
    if (key.size() != in.size() || key.size() % 32 != 0) {
        return util::invalid_argument(
            "encode: key and data must be the same whole number of nodes");
    }
    std::vector<uint8_t> out(in.size());
    for (uint64_t node = 0; node < in.size() / 32; ++node) {
        CUZK_ASSIGN_OR_RETURN(const ff::Fr k, node_scalar(key, node, "key"));
        CUZK_ASSIGN_OR_RETURN(const ff::Fr x, node_scalar(in, node, what));
        const ff::Fr y = kEncode ? x + k : x - k;
        y.to_bytes_le(std::span<uint8_t, 32>(out.data() + node * 32, 32));
    }
    return out;
}

}  // namespace

util::Result<std::vector<uint8_t>> encode_replica(std::span<const uint8_t> key,
                                                  std::span<const uint8_t> data) {
    return apply<true>(key, data, "data");
}

util::Result<std::vector<uint8_t>> decode_replica(std::span<const uint8_t> key,
                                                  std::span<const uint8_t> replica) {
    return apply<false>(key, replica, "replica");
}

}  // namespace cuzk::porep
