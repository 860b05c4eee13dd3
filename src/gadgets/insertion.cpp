#include "gadgets/insertion.hpp"

namespace cuzk::gadgets {

namespace {

util::Status check_sizes(size_t n_bits, size_t n_elements, size_t want_bits) {
    if (n_bits != want_bits || n_bits >= 32 || n_elements + 1 != (size_t{1} << n_bits)) {
        return util::invalid_argument("insertion: elements + 1 must equal 2^bits");
    }
    return util::Status();
}

}  // namespace

util::Result<AllocatedNum> pick(ConstraintSystem& cs, const Name& name, const Boolean& condition,
                                const AllocatedNum& a, const AllocatedNum& b) {
    r1cs::Namespace ns(cs, name);
    std::optional<Fr> value;
    if (const std::optional<bool> c = condition.value()) value = *c ? a.value : b.value;
    util::Result<AllocatedNum> c = [&] {
        r1cs::Namespace result_ns(cs, "pick result");
        return AllocatedNum::alloc(cs, "num", value);
    }();
    if (!c.ok()) return c.status();
    // (b − a) · condition = b − c
    cs.enforce_lazy("pick", [&] {
        return r1cs::LcRow{b.var - a.var, condition.lc(), b.var - c->var};
    });
    return c;
}

util::Result<AllocatedNum> select(ConstraintSystem& cs, const Name& name,
                                  std::span<const AllocatedNum> from,
                                  std::span<const Boolean> path_bits) {
    if (path_bits.size() >= 32 || from.size() != (size_t{1} << path_bits.size())) {
        return util::invalid_argument("select: from.size() must equal 2^path_bits");
    }
    r1cs::Namespace ns(cs, name);
    std::vector<AllocatedNum> state(from.begin(), from.end());
    size_t half = from.size() / 2;
    // Most significant bit first (insertion.rs select).
    for (size_t i = 0; i < path_bits.size(); ++i) {
        const Boolean& bit = path_bits[path_bits.size() - 1 - i];
        std::vector<AllocatedNum> next;
        next.reserve(half);
        for (size_t j = 0; j < half; ++j) {
            std::string label = "pick ";
            label += std::to_string(i);
            label += ", ";
            label += std::to_string(j);
            CUZK_ASSIGN_OR_RETURN(AllocatedNum p, pick(cs, label, bit, state[half + j], state[j]));
            next.push_back(p);
        }
        state = std::move(next);
        half /= 2;
    }
    return state[0];
}

util::Result<std::vector<AllocatedNum>> insert_2(ConstraintSystem& cs, const AllocatedNum& element,
                                                 std::span<const Boolean> bits,
                                                 std::span<const AllocatedNum> elements) {
    CUZK_RETURN_IF_ERROR(check_sizes(bits.size(), elements.size(), 1));
    CUZK_ASSIGN_OR_RETURN(AllocatedNum p0,
                          pick(cs, "binary insert 0", bits[0], elements[0], element));
    CUZK_ASSIGN_OR_RETURN(AllocatedNum p1,
                          pick(cs, "binary insert 1", bits[0], element, elements[0]));
    return std::vector<AllocatedNum>{p0, p1};
}

util::Result<std::vector<AllocatedNum>> insert_4(ConstraintSystem& cs, const AllocatedNum& element,
                                                 std::span<const Boolean> bits,
                                                 std::span<const AllocatedNum> elements) {
    CUZK_RETURN_IF_ERROR(check_sizes(bits.size(), elements.size(), 2));
    // Insert A into [b, c, d] at position n = b0 + 2·b1:
    //   n=0: A b c d   n=1: b A c d   n=2: b c A d   n=3: b c d A
    const Boolean &b0 = bits[0], &b1 = bits[1];
    const AllocatedNum &a = element, &b = elements[0], &c = elements[1], &d = elements[2];
    // pN_xy: output position N when b0 is x (x = unknown) and b1 is y.
    CUZK_ASSIGN_OR_RETURN(AllocatedNum p0_x0, pick(cs, "p0_x0", b0, b, a));
    CUZK_ASSIGN_OR_RETURN(AllocatedNum p0, pick(cs, "p0", b1, b, p0_x0));
    CUZK_ASSIGN_OR_RETURN(AllocatedNum p1_x0, pick(cs, "p1_x0", b0, a, b));
    CUZK_ASSIGN_OR_RETURN(AllocatedNum p1, pick(cs, "p1", b1, c, p1_x0));
    CUZK_ASSIGN_OR_RETURN(AllocatedNum p2_x1, pick(cs, "p2_x1", b0, d, a));
    CUZK_ASSIGN_OR_RETURN(AllocatedNum p2, pick(cs, "p2", b1, p2_x1, c));
    CUZK_ASSIGN_OR_RETURN(AllocatedNum p3_x1, pick(cs, "p3_x1", b0, a, d));
    CUZK_ASSIGN_OR_RETURN(AllocatedNum p3, pick(cs, "p3", b1, p3_x1, d));
    return std::vector<AllocatedNum>{p0, p1, p2, p3};
}

util::Result<std::vector<AllocatedNum>> insert_8(ConstraintSystem& cs, const AllocatedNum& element,
                                                 std::span<const Boolean> bits,
                                                 std::span<const AllocatedNum> elements) {
    CUZK_RETURN_IF_ERROR(check_sizes(bits.size(), elements.size(), 3));
    const Boolean &b0 = bits[0], &b1 = bits[1], &b2 = bits[2];
    if (b0.kind() != Boolean::Kind::kIs || b1.kind() != Boolean::Kind::kIs) {
        return util::invalid_argument("insert_8: bits must be allocated and unnegated");
    }
    // Insert A into [b, c, d, e, f, g, h] at position n = b0 + 2·b1 + 4·b2.
    const AllocatedNum &a = element, &b = elements[0], &c = elements[1], &d = elements[2],
                       &e = elements[3], &f = elements[4], &g = elements[5], &h = elements[6];

    util::Result<AllocatedBit> nor_r = [&] {
        r1cs::Namespace ns(cs, "b0 nor b1");
        return AllocatedBit::nor(cs, b0.bit(), b1.bit());
    }();
    if (!nor_r.ok()) return nor_r.status();
    const Boolean b0_nor_b1(*nor_r);
    util::Result<AllocatedBit> and_r = [&] {
        r1cs::Namespace ns(cs, "b0 and b1");
        return AllocatedBit::and_(cs, b0.bit(), b1.bit());
    }();
    if (!and_r.ok()) return and_r.status();
    const Boolean b0_and_b1(*and_r);

    CUZK_ASSIGN_OR_RETURN(AllocatedNum p0_xx0, pick(cs, "p0_xx0", b0_nor_b1, a, b));
    CUZK_ASSIGN_OR_RETURN(AllocatedNum p0, pick(cs, "p0", b2, b, p0_xx0));

    CUZK_ASSIGN_OR_RETURN(AllocatedNum p1_x00, pick(cs, "p1_x00", b0, a, b));
    CUZK_ASSIGN_OR_RETURN(AllocatedNum p1_xx0, pick(cs, "p1_xx0", b1, c, p1_x00));
    CUZK_ASSIGN_OR_RETURN(AllocatedNum p1, pick(cs, "p1", b2, c, p1_xx0));

    CUZK_ASSIGN_OR_RETURN(AllocatedNum p2_x10, pick(cs, "p2_x10", b0, d, a));
    CUZK_ASSIGN_OR_RETURN(AllocatedNum p2_xx0, pick(cs, "p2_xx0", b1, p2_x10, c));
    CUZK_ASSIGN_OR_RETURN(AllocatedNum p2, pick(cs, "p2", b2, d, p2_xx0));

    CUZK_ASSIGN_OR_RETURN(AllocatedNum p3_xx0, pick(cs, "p3_xx0", b0_and_b1, a, d));
    CUZK_ASSIGN_OR_RETURN(AllocatedNum p3, pick(cs, "p3", b2, e, p3_xx0));

    CUZK_ASSIGN_OR_RETURN(AllocatedNum p4_xx1, pick(cs, "p4_xx1", b0_nor_b1, a, f));
    CUZK_ASSIGN_OR_RETURN(AllocatedNum p4, pick(cs, "p4", b2, p4_xx1, e));

    CUZK_ASSIGN_OR_RETURN(AllocatedNum p5_x01, pick(cs, "p5_x01", b0, a, f));
    CUZK_ASSIGN_OR_RETURN(AllocatedNum p5_xx1, pick(cs, "p5_xx1", b1, g, p5_x01));
    CUZK_ASSIGN_OR_RETURN(AllocatedNum p5, pick(cs, "p5", b2, p5_xx1, f));

    CUZK_ASSIGN_OR_RETURN(AllocatedNum p6_x11, pick(cs, "p6_x11", b0, h, a));
    CUZK_ASSIGN_OR_RETURN(AllocatedNum p6_xx1, pick(cs, "p6_xx1", b1, p6_x11, g));
    CUZK_ASSIGN_OR_RETURN(AllocatedNum p6, pick(cs, "p6", b2, p6_xx1, g));

    CUZK_ASSIGN_OR_RETURN(AllocatedNum p7_xx1, pick(cs, "p7_xx1", b0_and_b1, a, h));
    CUZK_ASSIGN_OR_RETURN(AllocatedNum p7, pick(cs, "p7", b2, p7_xx1, h));

    return std::vector<AllocatedNum>{p0, p1, p2, p3, p4, p5, p6, p7};
}

util::Result<std::vector<AllocatedNum>> insert(ConstraintSystem& cs, const AllocatedNum& element,
                                               std::span<const Boolean> bits,
                                               std::span<const AllocatedNum> elements) {
    if (bits.size() >= 32 || elements.size() + 1 != (size_t{1} << bits.size())) {
        return util::invalid_argument("insert: elements + 1 must equal 2^bits");
    }
    const size_t size = elements.size() + 1;
    if (size == 2) return insert_2(cs, element, bits, elements);
    if (size == 4) return insert_4(cs, element, bits, elements);
    if (size == 8) return insert_8(cs, element, bits, elements);
    // General case: for each output position, select among the candidates of every index.
    std::vector<AllocatedNum> result;
    result.reserve(size);
    std::vector<AllocatedNum> choices(size);
    for (size_t pos = 0; pos < size; ++pos) {
        // Candidate for output `pos` when the element is inserted at `index`.
        for (size_t index = 0; index < size; ++index) {
            if (pos < index) {
                choices[index] = elements[pos];
            } else if (pos == index) {
                choices[index] = element;
            } else {
                choices[index] = elements[pos - 1];
            }
        }
        CUZK_ASSIGN_OR_RETURN(AllocatedNum chosen,
                              select(cs, Name("choice at ", pos), choices, bits));
        result.push_back(chosen);
    }
    return result;
}

}  // namespace cuzk::gadgets
