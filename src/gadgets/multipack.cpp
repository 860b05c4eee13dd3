#include "gadgets/multipack.hpp"

#include <algorithm>

namespace cuzk::gadgets {

namespace {

// Σ 2^j·bits[j] as a linear combination and (when every bit is known) its value — num.rs
// Num::add_bool_with_coeff over the chunk.
struct Packed {
    LC lc;
    std::optional<Fr> value;
};

// build_lc false (a constraint system that does not want constraints): the value only.
Packed pack(std::span<const Boolean> bits, bool build_lc) {
    Packed p;
    p.value = Fr::zero();
    Fr coeff = Fr::one();
    for (const Boolean& bit : bits) {
        if (build_lc) bit.add_to(p.lc, coeff);
        const std::optional<bool> v = bit.value();
        if (p.value && v) {
            if (*v) *p.value += coeff;
        } else {
            p.value = std::nullopt;
        }
        coeff = coeff + coeff;
    }
    return p;
}

}  // namespace

util::Status pack_into_inputs(ConstraintSystem& cs, const Name& name,
                              std::span<const Boolean> bits) {
    r1cs::Namespace ns(cs, name);
    for (size_t i = 0, start = 0; start < bits.size(); ++i, start += kFrCapacity) {
        const size_t len = std::min(kFrCapacity, bits.size() - start);
        Packed p = pack(bits.subspan(start, len), cs.wants_constraints());
        CUZK_ASSIGN_OR_RETURN(Variable input, cs.alloc_input(Name("input ", i), p.value));
        cs.enforce_lazy(Name("packing constraint ", i),
                        [&] { return r1cs::LcRow{p.lc, LC(Variable::one()), LC(input)}; });
    }
    return util::Status();
}

util::Result<AllocatedNum> pack_bits(ConstraintSystem& cs, const Name& name,
                                     std::span<const Boolean> bits) {
    r1cs::Namespace ns(cs, name);
    Packed p = pack(bits.first(std::min(kFrCapacity, bits.size())), cs.wants_constraints());
    util::Result<AllocatedNum> num = [&] {
        r1cs::Namespace input_ns(cs, "input");
        return AllocatedNum::alloc(cs, "num", p.value);
    }();
    if (!num.ok()) return num.status();
    cs.enforce_lazy("packing constraint",
                    [&] { return r1cs::LcRow{p.lc, LC(Variable::one()), LC(num->var)}; });
    return num;
}

std::vector<Fr> compute_multipacking(const std::vector<bool>& bits) {
    std::vector<Fr> out;
    for (size_t start = 0; start < bits.size(); start += kFrCapacity) {
        const size_t end = std::min(bits.size(), start + kFrCapacity);
        Fr cur = Fr::zero(), coeff = Fr::one();
        for (size_t j = start; j < end; ++j) {
            if (bits[j]) cur += coeff;
            coeff = coeff + coeff;
        }
        out.push_back(cur);
    }
    return out;
}

std::vector<bool> bytes_to_bits(std::span<const uint8_t> bytes) {
    std::vector<bool> out;
    out.reserve(8 * bytes.size());
    for (uint8_t byte : bytes) {
        for (int i = 7; i >= 0; --i) out.push_back(((byte >> i) & 1) != 0);
    }
    return out;
}

std::vector<bool> bytes_to_bits_le(std::span<const uint8_t> bytes) {
    std::vector<bool> out;
    out.reserve(8 * bytes.size());
    for (uint8_t byte : bytes) {
        for (int i = 0; i < 8; ++i) out.push_back(((byte >> i) & 1) != 0);
    }
    return out;
}

}  // namespace cuzk::gadgets
