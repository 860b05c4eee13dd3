#include "gadgets/uint32.hpp"

#include "gadgets/word_bits.hpp"

namespace cuzk::gadgets {

UInt32 UInt32::constant(uint32_t value) {
    UInt32 r;
    r.bits_ = constant_word_bits<32>(value);
    r.value_ = value;
    return r;
}

util::Result<UInt32> UInt32::alloc(ConstraintSystem& cs, const Name& name,
                                   std::optional<uint32_t> value) {
    UInt32 r;
    CUZK_ASSIGN_OR_RETURN(r.bits_, alloc_word_bits<32>(cs, name, value));
    r.value_ = cs.computes_values() ? value : std::nullopt;
    return r;
}

util::Result<UInt32> UInt32::from_bits_be(std::span<const Boolean> bits) {
    if (bits.size() != 32) return util::invalid_argument("UInt32::from_bits_be: need 32 bits");
    UInt32 r;
    std::optional<uint32_t> value = 0;
    for (unsigned i = 0; i < 32; ++i) {
        const Boolean& b = bits[i];
        r.bits_[31 - i] = b;
        const std::optional<bool> v = b.value();
        if (value && v) {
            *value = (*value << 1) | (*v ? 1u : 0u);
        } else {
            value = std::nullopt;
        }
    }
    r.value_ = value;
    return r;
}

std::vector<Boolean> UInt32::into_bits_be() const {
    std::vector<Boolean> out;
    out.reserve(32);
    append_bits_be(out);
    return out;
}

void UInt32::append_bits_be(std::vector<Boolean>& out) const {
    for (unsigned i = 32; i-- > 0;) out.push_back(bits_[i]);
}

UInt32 UInt32::rotr(unsigned by) const {
    by %= 32;
    UInt32 r;
    for (unsigned i = 0; i < 32; ++i) r.bits_[i] = bits_[(i + by) % 32];
    r.value_ = std::nullopt;
    if (value_) r.value_ = by == 0 ? *value_ : (*value_ >> by) | (*value_ << (32 - by));
    return r;
}

UInt32 UInt32::shr(unsigned by) const {
    by %= 32;
    UInt32 r;
    for (unsigned i = 0; i < 32; ++i) {
        r.bits_[i] = i + by < 32 ? bits_[i + by] : Boolean::constant(false);
    }
    r.value_ = std::nullopt;
    if (value_) r.value_ = *value_ >> by;
    return r;
}

util::Result<UInt32> UInt32::xor_(ConstraintSystem& cs, const Name& name,
                                  const UInt32& other) const {
    r1cs::Namespace ns(cs, name);
    UInt32 r;
    for (unsigned i = 0; i < 32; ++i) {
        r1cs::Namespace bit_ns(cs, Name("xor of bit ", i));
        CUZK_ASSIGN_OR_RETURN(r.bits_[i], Boolean::xor_(cs, bits_[i], other.bits_[i]));
    }
    r.value_ = std::nullopt;
    if (value_ && other.value_) r.value_ = *value_ ^ *other.value_;
    return r;
}

namespace {

// uint32.rs triop: a per-bit three-input function in namespaces "<label> i".
template <class F>
util::Result<UInt32> triop(ConstraintSystem& cs, const Name& name, std::string_view label,
                           const UInt32& a, const UInt32& b, const UInt32& c, F&& bit_fn) {
    r1cs::Namespace ns(cs, name);
    std::array<Boolean, 32> bits;
    for (unsigned i = 0; i < 32; ++i) {
        r1cs::Namespace bit_ns(cs, Name(label, i));
        CUZK_ASSIGN_OR_RETURN(bits[i], bit_fn(cs, a.bits()[i], b.bits()[i], c.bits()[i]));
    }
    std::vector<Boolean> be(bits.rbegin(), bits.rend());
    return UInt32::from_bits_be(be);
}

}  // namespace

util::Result<UInt32> UInt32::sha256_ch(ConstraintSystem& cs, const Name& name, const UInt32& a,
                                       const UInt32& b, const UInt32& c) {
    return triop(cs, name, "ch ", a, b, c, &Boolean::sha256_ch);
}

util::Result<UInt32> UInt32::sha256_maj(ConstraintSystem& cs, const Name& name, const UInt32& a,
                                        const UInt32& b, const UInt32& c) {
    return triop(cs, name, "maj ", a, b, c, &Boolean::sha256_maj);
}

util::Result<UInt32> UInt32::addmany(MultiEq& meq, const Name& name,
                                     std::span<const UInt32> operands) {
    if (operands.size() < 2 || operands.size() > 10) {
        return util::invalid_argument("UInt32::addmany: 2 to 10 operands");
    }
    ConstraintSystem& cs = meq.cs();
    r1cs::Namespace ns(cs, name);

    uint64_t max_value = static_cast<uint64_t>(operands.size()) * uint64_t{0xffffffff};
    // The sum and whether it is known (a plain pair: GCC 12 misreads an optional here).
    uint64_t sum = 0;
    bool known = true;
    // Without constraints (WitnessOnly) the sums are not built, only counted by the MultiEq.
    const bool build = cs.wants_constraints();
    TermBuffer lc;
    bool all_constants = true;
    for (const UInt32& op : operands) {
        if (op.value_) {
            sum += *op.value_;
        } else {
            known = false;
        }
        if (!build) {
            for (const Boolean& bit : op.bits_) all_constants &= bit.is_constant();
            continue;
        }
        Fr coeff = Fr::one();
        for (const Boolean& bit : op.bits_) {
            bit.add_to(lc, coeff);
            all_constants &= bit.is_constant();
            coeff = coeff + coeff;
        }
    }
    if (all_constants && known) return constant(static_cast<uint32_t>(sum));

    UInt32 r;
    LC result_lc;
    Fr coeff = Fr::one();
    unsigned i = 0;
    while (max_value != 0) {
        std::optional<bool> b;
        if (known) b = ((sum >> i) & 1) != 0;
        CUZK_ASSIGN_OR_RETURN(AllocatedBit bit, AllocatedBit::alloc(cs, Name("result bit ", i), b));
        if (build) result_lc.add(coeff, bit.var);
        if (i < 32) r.bits_[i] = Boolean(bit);
        max_value >>= 1;
        ++i;
        coeff = coeff + coeff;
    }
    if (build) {
        CUZK_RETURN_IF_ERROR(meq.enforce_equal(i, lc.build(), result_lc));
    } else {
        CUZK_RETURN_IF_ERROR(meq.count_equal(i));
    }
    if (known) {
        r.value_ = static_cast<uint32_t>(sum);
    } else {
        r.value_ = std::nullopt;
    }
    return r;
}

}  // namespace cuzk::gadgets
