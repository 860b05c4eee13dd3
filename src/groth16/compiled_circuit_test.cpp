// CompiledCircuit against groth16::synthesize_into (the independent reference: the circuit
// synthesized straight into a ProvingAssignment): every vector — a, b, c, the input and aux
// assignments, the three densities — must be equal, with the challenges/parts forked and
// sequential, on the 2 KiB PoRep partition circuit of a synthetic C1 and on random circuits
// (zero, one, cancelling and repeated coefficients; inputs allocated inside forked parts).
// Also: a witness whose counts differ from the compiled shape is refused, and a compiled
// shape that differs only in one coefficient is detected by the comparison (the check can
// fail).
#include "groth16/compiled_circuit.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "groth16/prover_parts.hpp"
#include "porep/circuit/c1_circuits.hpp"
#include "porep/synthetic_c1.hpp"
#include "r1cs/counter.hpp"
#include "r1cs/fork.hpp"
#include "r1cs/test_circuits.hpp"
#include "r1cs/witness_only.hpp"
#include "util/rng.hpp"

namespace cuzk::groth16 {
namespace {

using ff::Fr;
using r1cs::ConstraintSystem;
using r1cs::LC;
using r1cs::Name;
using r1cs::Variable;

// Names the first vector that differs (empty when equal).
std::string first_difference(const r1cs::ProvingAssignment& x, const r1cs::ProvingAssignment& y) {
    if (x.a() != y.a()) return "a";
    if (x.b() != y.b()) return "b";
    if (x.c() != y.c()) return "c";
    if (x.input_assignment() != y.input_assignment()) return "input assignment";
    if (x.aux_assignment() != y.aux_assignment()) return "aux assignment";
    if (!(x.a_aux_density() == y.a_aux_density())) return "a_aux density";
    if (!(x.b_input_density() == y.b_input_density())) return "b_input density";
    if (!(x.b_aux_density() == y.b_aux_density())) return "b_aux density";
    if (x.a_aux_density().popcount() != y.a_aux_density().popcount() ||
        x.b_input_density().popcount() != y.b_input_density().popcount() ||
        x.b_aux_density().popcount() != y.b_aux_density().popcount())
        return "density popcounts";
    if (x.num_constraints() != y.num_constraints() || x.num_inputs() != y.num_inputs() ||
        x.num_aux() != y.num_aux())
        return "counts";
    if (x.finished() != y.finished()) return "finished";
    return "";
}

// The reference and the compiled path, forked (parallel) or not; expects equality.
void expect_equal_paths(const Circuit& blank, const Circuit& circuit, bool parallel,
                        bool presize) {
    auto cc = CompiledCircuit::compile(blank);
    ASSERT_TRUE(cc.ok()) << cc.status().to_string();
    r1cs::set_parallel_synthesis(parallel);
    r1cs::ProvingAssignment::Options options;
    options.presize = presize;
    if (presize) {
        options.capacity.inputs = (*cc)->num_inputs();
        options.capacity.aux = (*cc)->num_aux();
        options.capacity.constraints = (*cc)->num_rows() - (*cc)->num_inputs();
    }
    r1cs::ProvingAssignment reference(options);
    util::Status st = synthesize_into(circuit, reference, 0);
    ASSERT_TRUE(st.ok()) << st.to_string();
    r1cs::ProvingAssignment compiled(options);
    CompiledCircuit::Timing timing;
    st = (*cc)->synthesize_into(circuit, compiled, 0, nullptr, &timing);
    r1cs::set_parallel_synthesis(true);
    ASSERT_TRUE(st.ok()) << st.to_string();
    EXPECT_EQ(first_difference(compiled, reference), "");
    EXPECT_EQ(compiled.a().size(), (*cc)->num_rows());
    EXPECT_GT(compiled.b_aux_density().popcount(), 0u);
}

// ---- the 2 KiB PoRep partition circuit ----

struct TwoKiB {
    Circuit blank, circuit;
};

const TwoKiB& two_kib() {
    static const TwoKiB t = [] {
        porep::SyntheticC1Inputs in;
        in.proof = porep::RegisteredSealProof::kStackedDrg2KiBV1_1;
        in.rng_seed = 7;
        auto c1 = porep::generate_synthetic_c1(in);
        EXPECT_TRUE(c1.ok()) << c1.status().to_string();
        auto pc = porep::circuits_from_c1(c1->c1);
        EXPECT_TRUE(pc.ok()) << pc.status().to_string();
        auto blank = porep::blank_stacked_circuit(in.proof);
        EXPECT_TRUE(blank.ok());
        return TwoKiB{*blank, pc->circuits[0]};
    }();
    return t;
}

TEST(CompiledCircuit, PoRep2KiBForkedEqualsSynthesizeInto) {
    expect_equal_paths(two_kib().blank, two_kib().circuit, /*parallel=*/true, /*presize=*/true);
}

TEST(CompiledCircuit, PoRep2KiBSequentialEqualsSynthesizeInto) {
    expect_equal_paths(two_kib().blank, two_kib().circuit, /*parallel=*/false,
                       /*presize=*/false);
}

TEST(CompiledCircuit, PoRep2KiBWitnessIgnoresTheSkipSwitch) {
    // WitnessOnly with and without the gadgets' LC skipping: same values, same counts.
    r1cs::WitnessOnly::Options skip, build;
    skip.skip_constraints = true;
    build.skip_constraints = false;
    r1cs::WitnessOnly a(skip), b(build);
    ASSERT_FALSE(a.wants_constraints());
    ASSERT_TRUE(b.wants_constraints());
    ASSERT_TRUE(two_kib().circuit(a).ok());
    ASSERT_TRUE(two_kib().circuit(b).ok());
    r1cs::Counter counter;
    ASSERT_TRUE(two_kib().blank(counter).ok());
    EXPECT_EQ(a.num_constraints(), counter.num_constraints());
    EXPECT_EQ(b.num_constraints(), counter.num_constraints());
    EXPECT_EQ(a.num_aux(), counter.num_aux());
    EXPECT_EQ(a.num_inputs(), counter.num_inputs());
    EXPECT_TRUE(a.aux_assignment() == b.aux_assignment());
    EXPECT_TRUE(a.input_assignment() == b.input_assignment());
}

// ---- random circuits ----

using r1cs::testing::random_value;

LC random_lc(util::TestRng& rng, const std::vector<Variable>& pool) {
    LC lc;
    const size_t terms = rng.next_u64() % 6;
    for (size_t t = 0; t < terms; ++t) {
        const Variable v = pool[rng.next_u64() % pool.size()];
        switch (rng.next_u64() % 5) {
            case 0: lc.add(Fr::one(), v); break;
            case 1: lc.add(Fr::zero(), v); break;
            case 2: lc.add(-Fr::one(), v); break;
            case 3:  // a term that cancels
                lc.add(Fr::from_u64(3), v);
                lc.add(-Fr::from_u64(3), v);
                break;
            default: lc.add(Fr::random(rng), v); break;
        }
    }
    return lc;
}

// A prelude of variables and rows, then `parts` independent parts (synthesize_independent)
// with their own aux, inputs and rows over their own and the prelude's variables. The shape
// depends on `seed` only; the values on `value_seed` (ignored without values).
util::Status random_circuit(ConstraintSystem& cs, uint64_t seed, uint64_t value_seed,
                            size_t parts) {
    util::TestRng shape(seed), values(value_seed);
    auto value = [&]() -> std::optional<Fr> {
        const Fr v = random_value(values);
        if (!cs.computes_values()) return std::nullopt;
        return v;
    };
    std::vector<Variable> pre{Variable::one()};
    for (int i = 0; i < 16; ++i) {
        const bool input = i % 5 == 4;
        auto v = input ? cs.alloc_input("p", value()) : cs.alloc("p", value());
        if (!v.ok()) return v.status();
        pre.push_back(*v);
    }
    for (int r = 0; r < 8; ++r)
        cs.enforce("pre", random_lc(shape, pre), random_lc(shape, pre), random_lc(shape, pre));
    const uint64_t part_seed = shape.next_u64(), part_value_seed = values.next_u64();
    return r1cs::synthesize_independent(cs, parts, [&](ConstraintSystem& sub, size_t k) {
        util::TestRng s(part_seed + k), vals(part_value_seed + k);
        std::vector<Variable> pool = pre;
        r1cs::Namespace ns(sub, Name("part ", k));
        const size_t own = 2 + s.next_u64() % 30;
        for (size_t i = 0; i < own; ++i) {
            const Fr x = random_value(vals);
            const std::optional<Fr> v = sub.computes_values() ? std::optional<Fr>(x) : std::nullopt;
            auto var = i % 7 == 3 ? sub.alloc_input("x", v) : sub.alloc("x", v);
            if (!var.ok()) return var.status();
            pool.push_back(*var);
        }
        const size_t rows = s.next_u64() % 40;
        for (size_t r = 0; r < rows; ++r)
            sub.enforce("c", random_lc(s, pool), random_lc(s, pool), random_lc(s, pool));
        return util::Status();
    });
}

TEST(CompiledCircuit, RandomCircuitsEqualSynthesizeInto) {
    for (uint64_t seed = 1; seed <= 12; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        const size_t parts = 1 + seed % 9;
        const Circuit blank = [=](ConstraintSystem& cs) {
            return random_circuit(cs, seed, 0, parts);
        };
        const Circuit circuit = [=](ConstraintSystem& cs) {
            return random_circuit(cs, seed, seed * 77 + 5, parts);
        };
        expect_equal_paths(blank, circuit, /*parallel=*/true, /*presize=*/seed % 2 == 0);
        expect_equal_paths(blank, circuit, /*parallel=*/false, /*presize=*/seed % 2 == 1);
    }
}

// Products long enough for the page advice (≥ 64 MiB per output: 2^21 + 5 rows; util/
// page_advice.hpp, on by default): their outputs are populated on the pool's threads before
// they are filled — the same assignment as the reference's, presized or not.
TEST(CompiledCircuit, LargeProductsEqualSynthesizeInto) {
    const Circuit chain = [](ConstraintSystem& cs) {
        return r1cs::testing::mul_chain(cs, Fr::from_u64(3), (size_t{1} << 21) + 5);
    };
    expect_equal_paths(chain, chain, /*parallel=*/true, /*presize=*/true);
    expect_equal_paths(chain, chain, /*parallel=*/true, /*presize=*/false);
}

TEST(CompiledCircuit, ShapeMismatchIsDetected) {
    // Different counts: refused with a message naming what differs.
    const Circuit blank = [](ConstraintSystem& cs) { return random_circuit(cs, 3, 0, 4); };
    const Circuit more_parts = [](ConstraintSystem& cs) { return random_circuit(cs, 3, 9, 5); };
    auto cc = CompiledCircuit::compile(blank);
    ASSERT_TRUE(cc.ok());
    r1cs::ProvingAssignment pa;
    util::Status st = (*cc)->synthesize_into(more_parts, pa, 2);
    EXPECT_FALSE(st.ok());
    EXPECT_NE(st.message().find("circuit 2: witness has"), std::string::npos) << st.message();

    // Same counts, one coefficient different: the compiled result differs from the reference,
    // and the comparison says so (the equality tests above can fail).
    auto circuit_with = [](uint64_t coeff) {
        return Circuit([coeff](ConstraintSystem& cs) -> util::Status {
            auto x = cs.alloc("x", cs.computes_values() ? std::optional<Fr>(Fr::from_u64(5))
                                                         : std::nullopt);
            if (!x.ok()) return x.status();
            auto y = cs.alloc("y", cs.computes_values() ? std::optional<Fr>(Fr::from_u64(25))
                                                         : std::nullopt);
            if (!y.ok()) return y.status();
            cs.enforce("sq", Fr::from_u64(coeff) * *x, LC(*x), LC(*y));
            return util::Status();
        });
    };
    auto other = CompiledCircuit::compile(circuit_with(2));
    ASSERT_TRUE(other.ok());
    r1cs::ProvingAssignment reference, compiled;
    ASSERT_TRUE(synthesize_into(circuit_with(1), reference, 0).ok());
    ASSERT_TRUE((*other)->synthesize_into(circuit_with(1), compiled, 0).ok());
    EXPECT_EQ(first_difference(compiled, reference), "a");

    // A used assignment is refused.
    ASSERT_TRUE(reference.finished());
    EXPECT_FALSE((*other)->synthesize_into(circuit_with(1), reference, 0).ok());
}

TEST(CompiledCircuit, ReportsSizes) {
    auto cc = CompiledCircuit::compile(two_kib().blank);
    ASSERT_TRUE(cc.ok());
    const CompiledCircuit& c = **cc;
    EXPECT_EQ(c.num_rows(), 2687921u + c.num_inputs());  // cli_circuit_info_2kib's count
    EXPECT_GT(c.nnz_a(), c.num_rows() / 2);
    EXPECT_GE(c.bytes(), 8 * (c.nnz_a() + c.nnz_b() + c.nnz_c()) + 24 * c.num_rows());
    std::printf("2 KiB compiled: rows %zu inputs %zu aux %zu nnz A %zu B %zu C %zu, "
                "%zu coefficients, %zu bytes\n",
                c.num_rows(), c.num_inputs(), c.num_aux(), c.nnz_a(), c.nnz_b(), c.nnz_c(),
                c.num_coefficients(), c.bytes());
}

TEST(CompiledCircuit, MeasureGivesTheSizesBeforeRecording) {
    for (uint64_t seed = 1; seed <= 6; ++seed) {
        const Circuit blank = [=](ConstraintSystem& cs) { return random_circuit(cs, seed, 0, 3); };
        const Circuit circuit = [=](ConstraintSystem& cs) {
            return random_circuit(cs, seed, seed + 11, 3);
        };
        auto size = CompiledCircuit::measure(blank);
        ASSERT_TRUE(size.ok());
        auto plain = CompiledCircuit::compile(blank);
        auto sized = CompiledCircuit::compile(blank, &*size);
        ASSERT_TRUE(plain.ok() && sized.ok()) << sized.status().to_string();
        const CompiledCircuit& c = **sized;
        EXPECT_EQ(size->rows, c.num_rows());
        EXPECT_EQ(size->inputs, c.num_inputs());
        EXPECT_EQ(size->aux, c.num_aux());
        EXPECT_EQ(size->nnz_a, c.nnz_a());
        EXPECT_EQ(size->nnz_b, c.nnz_b());
        EXPECT_EQ(size->nnz_c, c.nnz_c());
        EXPECT_GE(size->bytes(), c.bytes());  // the reservation covers the object
        EXPECT_EQ(c.bytes(), (*plain)->bytes());
        // Both compile to the same result.
        r1cs::ProvingAssignment x, y;
        ASSERT_TRUE((*plain)->synthesize_into(circuit, x, 0).ok());
        ASSERT_TRUE(c.synthesize_into(circuit, y, 0).ok());
        EXPECT_EQ(first_difference(x, y), "");
    }
    // A size that does not match is refused.
    const Circuit blank = [](ConstraintSystem& cs) { return random_circuit(cs, 2, 0, 3); };
    auto size = CompiledCircuit::measure(blank);
    ASSERT_TRUE(size.ok());
    size->nnz_b += 1;
    EXPECT_FALSE(CompiledCircuit::compile(blank, &*size).ok());
}

}  // namespace
}  // namespace cuzk::groth16
