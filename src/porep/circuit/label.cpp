#include "porep/circuit/label.hpp"

#include "gadgets/multipack.hpp"
#include "gadgets/sha256.hpp"
#include "gadgets/uint32.hpp"

namespace cuzk::porep {

using gadgets::Boolean;

util::Result<gadgets::AllocatedNum> create_label_circuit(
    r1cs::ConstraintSystem& cs, const r1cs::Name& name, std::span<const Boolean> replica_id,
    const std::vector<std::vector<Boolean>>& parents, uint32_t layer, const gadgets::UInt64& node) {
    if (replica_id.size() < 32 || replica_id.size() > 256) {
        return util::invalid_argument("create_label: replica id must have 32..256 bits");
    }
    if (parents.size() != kLabelParents) {
        return util::invalid_argument("create_label: expected 37 parents");
    }
    r1cs::Namespace ns(cs, name);
    std::vector<Boolean> message(replica_id.begin(), replica_id.end());
    message.reserve((2 + kLabelParents) * 256);
    message.resize(256, Boolean::constant(false));
    gadgets::UInt32::constant(layer).append_bits_be(message);
    const std::vector<Boolean> node_bits = node.to_bits_be();
    message.insert(message.end(), node_bits.begin(), node_bits.end());
    message.resize(512, Boolean::constant(false));
    for (const std::vector<Boolean>& parent : parents) {
        message.insert(message.end(), parent.begin(), parent.end());
        message.resize((message.size() + 255) / 256 * 256, Boolean::constant(false));
    }
    if (message.size() != (2 + kLabelParents) * 256) {
        return util::invalid_argument("create_label: a parent has more than 256 bits");
    }
    CUZK_ASSIGN_OR_RETURN(std::vector<Boolean> digest, gadgets::sha256(cs, "hash", message));
    std::vector<Boolean> le = gadgets::reverse_bit_numbering(std::move(digest));
    le.resize(gadgets::kFrCapacity);
    return gadgets::pack_bits(cs, "result_num", le);
}

}  // namespace cuzk::porep
