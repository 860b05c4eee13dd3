#include "ec/encoding.hpp"

#include <string>

namespace cuzk::ec {
namespace {

using ff::Fp;
using ff::Fp2;
using util::invalid_argument;
using util::Result;

constexpr uint8_t kCompressionFlag = 0x80;
constexpr uint8_t kInfinityFlag = 0x40;
constexpr uint8_t kSignFlag = 0x20;
constexpr uint8_t kFlagMask = 0xe0;

// ---- field element writers/readers in the ZCash layout ----
void put(const Fp& v, uint8_t* out) { v.to_bytes_be(std::span<uint8_t, 48>(out, 48)); }
void put(const Fp2& v, uint8_t* out) {
    put(v.c1, out);
    put(v.c0, out + 48);
}
Result<Fp> get_fp(const uint8_t* in) { return Fp::from_bytes_be(std::span<const uint8_t, 48>(in, 48)); }
Result<Fp> get(const uint8_t* in, Fp*) { return get_fp(in); }
Result<Fp2> get(const uint8_t* in, Fp2*) {
    auto c1 = get_fp(in);
    if (!c1.ok()) return c1.status();
    auto c0 = get_fp(in + 48);
    if (!c0.ok()) return c0.status();
    return Fp2{*c0, *c1};
}

std::optional<Fp> field_sqrt(const Fp& a) { return ff::sqrt(a); }
std::optional<Fp2> field_sqrt(const Fp2& a) { return ff::sqrt(a); }

template <class C>
struct GroupTraits;
template <>
struct GroupTraits<G1Curve> {
    static constexpr const char* kName = "G1";
    static constexpr size_t kFieldBytes = 48;
};
template <>
struct GroupTraits<G2Curve> {
    static constexpr const char* kName = "G2";
    static constexpr size_t kFieldBytes = 96;
};

template <class C, size_t N>
std::array<uint8_t, N> encode(const Affine<C>& p, bool compressed) {
    constexpr size_t kF = GroupTraits<C>::kFieldBytes;
    std::array<uint8_t, N> out{};
    if (p.is_identity()) {
        out[0] = static_cast<uint8_t>(kInfinityFlag | (compressed ? kCompressionFlag : 0));
        return out;
    }
    put(p.x, out.data());
    if (compressed) {
        out[0] |= kCompressionFlag;
        if (p.y.is_lexicographically_largest()) out[0] |= kSignFlag;
    } else {
        put(p.y, out.data() + kF);
    }
    return out;
}

template <class C>
Result<Affine<C>> decode(std::span<const uint8_t> bytes, SubgroupCheck check) {
    using F = typename C::Field;
    constexpr size_t kF = GroupTraits<C>::kFieldBytes;
    const std::string what = GroupTraits<C>::kName;
    const bool compressed = bytes.size() == kF;
    if (bytes.size() != kF && bytes.size() != 2 * kF) {
        return invalid_argument(what + " encoding has length " + std::to_string(bytes.size()) +
                                " (expected " + std::to_string(kF) + " or " +
                                std::to_string(2 * kF) + ")");
    }
    const std::string form = what + (compressed ? " compressed" : " uncompressed") + " encoding";
    const uint8_t flags = bytes[0] & kFlagMask;
    if (((flags & kCompressionFlag) != 0) != compressed) {
        return invalid_argument(form + ": compression flag is " +
                                (compressed ? "not set" : "set") + " for a " +
                                std::to_string(bytes.size()) + "-byte point");
    }
    if (flags & kInfinityFlag) {
        if (flags & kSignFlag)
            return invalid_argument(form + ": point at infinity with the sign flag set");
        bool rest_zero = (bytes[0] & ~kFlagMask) == 0;
        for (size_t i = 1; i < bytes.size(); ++i) rest_zero = rest_zero && bytes[i] == 0;
        if (!rest_zero)
            return invalid_argument(form + ": point at infinity with non-zero coordinate bits");
        return Affine<C>::identity();
    }
    if (!compressed && (flags & kSignFlag))
        return invalid_argument(form + ": sign flag set on an uncompressed point");

    uint8_t buf[2 * kF];
    std::copy(bytes.begin(), bytes.end(), buf);
    buf[0] &= static_cast<uint8_t>(~kFlagMask);
    auto x = get(buf, static_cast<F*>(nullptr));
    if (!x.ok()) return invalid_argument(form + ": x coordinate is not canonical (>= p)");
    Affine<C> p;
    p.x = *x;
    if (compressed) {
        const auto y = field_sqrt(p.x.square() * p.x + C::b());
        if (!y) return invalid_argument(form + ": x is not the abscissa of a curve point");
        const bool want_largest = (flags & kSignFlag) != 0;
        p.y = (y->is_lexicographically_largest() == want_largest) ? *y : -*y;
    } else {
        auto y = get(buf + kF, static_cast<F*>(nullptr));
        if (!y.ok()) return invalid_argument(form + ": y coordinate is not canonical (>= p)");
        p.y = *y;
        if (!p.is_on_curve()) return invalid_argument(form + ": point is not on the curve");
    }
    if (check == SubgroupCheck::kCheck && !is_in_subgroup(p))
        return invalid_argument(form + ": point is not in the prime-order subgroup");
    return p;
}

}  // namespace

std::array<uint8_t, kG1CompressedBytes> g1_compress(const G1Affine& p) {
    return encode<G1Curve, kG1CompressedBytes>(p, true);
}
std::array<uint8_t, kG1UncompressedBytes> g1_serialize(const G1Affine& p) {
    return encode<G1Curve, kG1UncompressedBytes>(p, false);
}
std::array<uint8_t, kG2CompressedBytes> g2_compress(const G2Affine& p) {
    return encode<G2Curve, kG2CompressedBytes>(p, true);
}
std::array<uint8_t, kG2UncompressedBytes> g2_serialize(const G2Affine& p) {
    return encode<G2Curve, kG2UncompressedBytes>(p, false);
}
Result<G1Affine> g1_decode(std::span<const uint8_t> bytes, SubgroupCheck check) {
    return decode<G1Curve>(bytes, check);
}
Result<G2Affine> g2_decode(std::span<const uint8_t> bytes, SubgroupCheck check) {
    return decode<G2Curve>(bytes, check);
}

}  // namespace cuzk::ec
