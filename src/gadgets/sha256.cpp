#include "gadgets/sha256.hpp"

#include <cstdint>
#include <variant>

#include "util/sha256.hpp"

namespace cuzk::gadgets {

namespace {

// sha256.rs `Maybe`: a word that is either known (Concrete) or the pending sum of a list of
// operands (Deferred), summed by compute() together with `others`.
struct Maybe {
    std::variant<UInt32, std::vector<UInt32>> v;

    util::Result<UInt32> compute(MultiEq& meq, const Name& name,
                                 std::span<const UInt32> others) const {
        if (const UInt32* concrete = std::get_if<UInt32>(&v)) return *concrete;
        std::vector<UInt32> ops = std::get<std::vector<UInt32>>(v);
        ops.insert(ops.end(), others.begin(), others.end());
        return UInt32::addmany(meq, name, ops);
    }
};

// The body of the compression function; the caller owns the MultiEq's final emission.
util::Result<std::array<UInt32, 8>> compress(MultiEq& meq, std::span<const Boolean> input,
                                             const std::array<UInt32, 8>& hv) {
    ConstraintSystem& cs = meq.cs();
    std::vector<UInt32> w;
    w.reserve(64);
    for (size_t k = 0; k < 16; ++k) {
        CUZK_ASSIGN_OR_RETURN(UInt32 word, UInt32::from_bits_be(input.subspan(32 * k, 32)));
        w.push_back(word);
    }

    for (size_t i = 16; i < 64; ++i) {
        r1cs::Namespace ns(cs, Name("w extension ", i));
        // s0 = (w[i−15] ⋙ 7) ⊕ (w[i−15] ⋙ 18) ⊕ (w[i−15] ≫ 3)
        UInt32 s0 = w[i - 15].rotr(7);
        CUZK_ASSIGN_OR_RETURN(s0, s0.xor_(cs, "first xor for s0", w[i - 15].rotr(18)));
        CUZK_ASSIGN_OR_RETURN(s0, s0.xor_(cs, "second xor for s0", w[i - 15].shr(3)));
        // s1 = (w[i−2] ⋙ 17) ⊕ (w[i−2] ⋙ 19) ⊕ (w[i−2] ≫ 10)
        UInt32 s1 = w[i - 2].rotr(17);
        CUZK_ASSIGN_OR_RETURN(s1, s1.xor_(cs, "first xor for s1", w[i - 2].rotr(19)));
        CUZK_ASSIGN_OR_RETURN(s1, s1.xor_(cs, "second xor for s1", w[i - 2].shr(10)));
        const UInt32 ops[4] = {w[i - 16], s0, w[i - 7], s1};
        CUZK_ASSIGN_OR_RETURN(UInt32 wi, UInt32::addmany(meq, "computation of w[i]", ops));
        w.push_back(wi);
    }

    Maybe a{hv[0]};
    UInt32 b = hv[1], c = hv[2], d = hv[3];
    Maybe e{hv[4]};
    UInt32 f = hv[5], g = hv[6], h = hv[7];

    for (size_t i = 0; i < 64; ++i) {
        r1cs::Namespace ns(cs, Name("compression round ", i));
        // S1 = (e ⋙ 6) ⊕ (e ⋙ 11) ⊕ (e ⋙ 25)
        CUZK_ASSIGN_OR_RETURN(UInt32 new_e, e.compute(meq, "deferred e computation", {}));
        UInt32 s1 = new_e.rotr(6);
        CUZK_ASSIGN_OR_RETURN(s1, s1.xor_(cs, "first xor for s1", new_e.rotr(11)));
        CUZK_ASSIGN_OR_RETURN(s1, s1.xor_(cs, "second xor for s1", new_e.rotr(25)));
        // ch = (e ∧ f) ⊕ (¬e ∧ g)
        CUZK_ASSIGN_OR_RETURN(UInt32 ch, UInt32::sha256_ch(cs, "ch", new_e, f, g));
        // temp1 = h + S1 + ch + K[i] + w[i]
        std::vector<UInt32> temp1 = {h, s1, ch,
                                     UInt32::constant(util::kSha256RoundConstants[i]), w[i]};

        // S0 = (a ⋙ 2) ⊕ (a ⋙ 13) ⊕ (a ⋙ 22)
        CUZK_ASSIGN_OR_RETURN(UInt32 new_a, a.compute(meq, "deferred a computation", {}));
        UInt32 s0 = new_a.rotr(2);
        CUZK_ASSIGN_OR_RETURN(s0, s0.xor_(cs, "first xor for s0", new_a.rotr(13)));
        CUZK_ASSIGN_OR_RETURN(s0, s0.xor_(cs, "second xor for s0", new_a.rotr(22)));
        // maj = (a ∧ b) ⊕ (a ∧ c) ⊕ (b ∧ c)
        CUZK_ASSIGN_OR_RETURN(UInt32 maj, UInt32::sha256_maj(cs, "maj", new_a, b, c));

        // h ← g, g ← f, f ← e, e ← d + temp1, d ← c, c ← b, b ← a, a ← temp1 + temp2
        h = g;
        g = f;
        f = new_e;
        std::vector<UInt32> e_ops = temp1;
        e_ops.push_back(d);
        e = Maybe{std::move(e_ops)};
        d = c;
        c = b;
        b = new_a;
        std::vector<UInt32> a_ops = std::move(temp1);
        a_ops.push_back(s0);
        a_ops.push_back(maj);
        a = Maybe{std::move(a_ops)};
    }

    std::array<UInt32, 8> out;
    const UInt32 h0_in[1] = {hv[0]};
    CUZK_ASSIGN_OR_RETURN(out[0], a.compute(meq, "deferred h0 computation", h0_in));
    const UInt32 h1_ops[2] = {hv[1], b};
    CUZK_ASSIGN_OR_RETURN(out[1], UInt32::addmany(meq, "new h1", h1_ops));
    const UInt32 h2_ops[2] = {hv[2], c};
    CUZK_ASSIGN_OR_RETURN(out[2], UInt32::addmany(meq, "new h2", h2_ops));
    const UInt32 h3_ops[2] = {hv[3], d};
    CUZK_ASSIGN_OR_RETURN(out[3], UInt32::addmany(meq, "new h3", h3_ops));
    const UInt32 h4_in[1] = {hv[4]};
    CUZK_ASSIGN_OR_RETURN(out[4], e.compute(meq, "deferred h4 computation", h4_in));
    const UInt32 h5_ops[2] = {hv[5], f};
    CUZK_ASSIGN_OR_RETURN(out[5], UInt32::addmany(meq, "new h5", h5_ops));
    const UInt32 h6_ops[2] = {hv[6], g};
    CUZK_ASSIGN_OR_RETURN(out[6], UInt32::addmany(meq, "new h6", h6_ops));
    const UInt32 h7_ops[2] = {hv[7], h};
    CUZK_ASSIGN_OR_RETURN(out[7], UInt32::addmany(meq, "new h7", h7_ops));
    return out;
}

std::vector<Boolean> state_bits_be(const std::array<UInt32, 8>& state) {
    std::vector<Boolean> out;
    out.reserve(256);
    for (const UInt32& word : state) word.append_bits_be(out);
    return out;
}

}  // namespace

std::array<UInt32, 8> sha256_iv() {
    std::array<UInt32, 8> iv;
    for (size_t k = 0; k < 8; ++k) iv[k] = UInt32::constant(util::Sha256::kInitialState[k]);
    return iv;
}

util::Result<std::array<UInt32, 8>> sha256_compression_function(
    ConstraintSystem& cs, const Name& name, std::span<const Boolean> input,
    const std::array<UInt32, 8>& state) {
    if (input.size() != 512) {
        return util::invalid_argument("sha256_compression_function: input must be 512 bits");
    }
    r1cs::Namespace ns(cs, name);
    MultiEq meq(cs);
    auto out = compress(meq, input, state);
    // bellperson emits the last MultiEq batch when the MultiEq is dropped at the end of the
    // compression function, in the compression function's namespace.
    if (out.ok()) {
        meq.finish();
    } else {
        meq.discard();
    }
    return out;
}

util::Result<std::vector<Boolean>> sha256_block_no_padding(ConstraintSystem& cs, const Name& name,
                                                           std::span<const Boolean> input) {
    if (input.size() != 512) {
        return util::invalid_argument("sha256_block_no_padding: input must be 512 bits");
    }
    r1cs::Namespace ns(cs, name);
    // sha256.rs passes the caller's namespace straight through (no extra level).
    MultiEq meq(cs);
    auto out = compress(meq, input, sha256_iv());
    if (!out.ok()) {
        meq.discard();
        return out.status();
    }
    meq.finish();
    return state_bits_be(*out);
}

util::Result<std::vector<Boolean>> sha256(ConstraintSystem& cs, const Name& name,
                                          std::span<const Boolean> input) {
    if (input.size() % 8 != 0) {
        return util::invalid_argument("sha256: input length must be a multiple of 8 bits");
    }
    r1cs::Namespace ns(cs, name);
    // FIPS 180-4 §5.1.1 padding with constant bits: 1, zeros to 448 mod 512, 64-bit length.
    std::vector<Boolean> padded(input.begin(), input.end());
    const uint64_t len = input.size();
    padded.push_back(Boolean::constant(true));
    while ((padded.size() + 64) % 512 != 0) padded.push_back(Boolean::constant(false));
    for (int i = 63; i >= 0; --i) padded.push_back(Boolean::constant(((len >> i) & 1) != 0));

    std::array<UInt32, 8> cur = sha256_iv();
    for (size_t blk = 0; blk * 512 < padded.size(); ++blk) {
        const std::span<const Boolean> block(padded.data() + 512 * blk, 512);
        CUZK_ASSIGN_OR_RETURN(cur,
                              sha256_compression_function(cs, Name("block ", blk), block, cur));
    }
    return state_bits_be(cur);
}

}  // namespace cuzk::gadgets
