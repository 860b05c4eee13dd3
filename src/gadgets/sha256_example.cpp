#include "gadgets/sha256_example.hpp"

#include "gadgets/boolean.hpp"
#include "gadgets/multipack.hpp"
#include "gadgets/sha256.hpp"
#include "util/sha256.hpp"

namespace cuzk::gadgets {

util::Status synthesize_sha256_example(ConstraintSystem& cs, std::span<const uint8_t> preimage,
                                       size_t n_bytes) {
    const bool have_values = preimage.data() != nullptr;
    if (have_values && preimage.size() != n_bytes) {
        return util::invalid_argument("sha256 example: preimage length differs from N");
    }
    std::vector<Boolean> bits;
    bits.reserve(8 * n_bytes);
    {
        r1cs::Namespace ns(cs, "preimage");
        for (size_t i = 0; i < 8 * n_bytes; ++i) {
            std::optional<bool> v;
            if (have_values) v = ((preimage[i / 8] >> (7 - i % 8)) & 1) != 0;
            CUZK_ASSIGN_OR_RETURN(AllocatedBit bit, AllocatedBit::alloc(cs, Name("bit ", i), v));
            bits.push_back(Boolean(bit));
        }
    }
    CUZK_ASSIGN_OR_RETURN(std::vector<Boolean> digest, sha256(cs, "sha256", bits));
    return pack_into_inputs(cs, "digest", digest);
}

std::vector<Fr> sha256_example_public_inputs(std::span<const uint8_t> preimage) {
    const util::Sha256Digest d = util::sha256(preimage);
    return compute_multipacking(bytes_to_bits(d));
}

}  // namespace cuzk::gadgets
