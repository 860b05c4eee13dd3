#include "groth16/proof_io.hpp"

#include <algorithm>
#include <string>

namespace cuzk::groth16 {
namespace {

using util::invalid_argument;
using util::Result;
using util::Status;

Status with_context(size_t index, const char* component, const Status& st) {
    std::string msg = "proof ";
    msg += std::to_string(index);
    msg += ": ";
    msg += component;
    msg += ": ";
    msg += st.message();
    return Status(st.code(), std::move(msg));
}

template <class P>
Status check_component(const Result<P>& r, size_t index, const char* component, P& out) {
    if (!r.ok()) return with_context(index, component, r.status());
    if (r->is_identity())
        return with_context(index, component, invalid_argument("point at infinity"));
    out = *r;
    return Status();
}

Result<Proof> parse_at(std::span<const uint8_t> b, size_t index, ec::SubgroupCheck check) {
    Proof p;
    CUZK_RETURN_IF_ERROR(check_component(ec::g1_decode(b.subspan(0, 48), check), index, "A", p.a));
    CUZK_RETURN_IF_ERROR(check_component(ec::g2_decode(b.subspan(48, 96), check), index, "B", p.b));
    CUZK_RETURN_IF_ERROR(
        check_component(ec::g1_decode(b.subspan(144, 48), check), index, "C", p.c));
    return p;
}

}  // namespace

std::array<uint8_t, kProofBytes> serialize_proof(const Proof& proof) {
    std::array<uint8_t, kProofBytes> out{};
    const auto a = ec::g1_compress(proof.a);
    const auto b = ec::g2_compress(proof.b);
    const auto c = ec::g1_compress(proof.c);
    std::copy(a.begin(), a.end(), out.begin());
    std::copy(b.begin(), b.end(), out.begin() + 48);
    std::copy(c.begin(), c.end(), out.begin() + 144);
    return out;
}

std::vector<uint8_t> serialize_proofs(std::span<const Proof> proofs) {
    std::vector<uint8_t> out;
    out.reserve(proofs.size() * kProofBytes);
    for (const Proof& p : proofs) {
        const auto b = serialize_proof(p);
        out.insert(out.end(), b.begin(), b.end());
    }
    return out;
}

Result<Proof> parse_proof(std::span<const uint8_t> bytes, ec::SubgroupCheck check) {
    if (bytes.size() != kProofBytes) {
        std::string msg = "proof: length ";
        msg += std::to_string(bytes.size());
        msg += " bytes (expected 192)";
        return invalid_argument(std::move(msg));
    }
    return parse_at(bytes, 0, check);
}

Result<std::vector<Proof>> parse_proofs(std::span<const uint8_t> bytes, ec::SubgroupCheck check) {
    if (bytes.empty()) return invalid_argument("proofs: empty input");
    if (bytes.size() % kProofBytes != 0) {
        std::string msg = "proofs: length ";
        msg += std::to_string(bytes.size());
        msg += " bytes is not a multiple of 192";
        return invalid_argument(std::move(msg));
    }
    std::vector<Proof> out(bytes.size() / kProofBytes);
    for (size_t i = 0; i < out.size(); ++i) {
        auto p = parse_at(bytes.subspan(i * kProofBytes, kProofBytes), i, check);
        if (!p.ok()) return p.status();
        out[i] = *p;
    }
    return out;
}

}  // namespace cuzk::groth16
