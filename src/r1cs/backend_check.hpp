// expect_backends_agree: synthesizes one circuit into every backend and checks that they agree
// (test use only, GoogleTest assertions):
//   - ProvingAssignment pre-sized and not pre-sized: identical a, b, c, assignments, densities;
//   - a·b = c on every row, the last num_inputs rows are a = x_i, b = c = 0 in input order;
//   - ShapeRecorder: A·z, B·z, C·z equal a, b, c for z = (inputs, aux); its densities (from the
//     matrices) equal the assignment's;
//   - Counter: constraint/variable counts, densities and popcounts, nnz equal the others';
//   - WitnessOnly: same z; TestConstraintSystem: satisfied, same counts.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "r1cs/counter.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/shape_recorder.hpp"
#include "r1cs/test_cs.hpp"
#include "r1cs/witness_only.hpp"

namespace cuzk::r1cs::testing {

using Circuit = std::function<util::Status(ConstraintSystem&)>;

inline void expect_same_assignment(const ProvingAssignment& x, const ProvingAssignment& y) {
    EXPECT_EQ(x.a(), y.a());
    EXPECT_EQ(x.b(), y.b());
    EXPECT_EQ(x.c(), y.c());
    EXPECT_EQ(x.input_assignment(), y.input_assignment());
    EXPECT_EQ(x.aux_assignment(), y.aux_assignment());
    EXPECT_EQ(x.a_aux_density(), y.a_aux_density());
    EXPECT_EQ(x.b_input_density(), y.b_input_density());
    EXPECT_EQ(x.b_aux_density(), y.b_aux_density());
}

inline void expect_backends_agree(const Circuit& circuit, const Capacity& hint) {
    ProvingAssignment pa(ProvingAssignment::Options{true, hint});
    ASSERT_TRUE(circuit(pa).ok());
    pa.finish();
    ProvingAssignment unsized(ProvingAssignment::Options{false, {}});
    ASSERT_TRUE(circuit(unsized).ok());
    unsized.finish();
    expect_same_assignment(pa, unsized);

    const size_t inputs = pa.num_inputs(), aux = pa.num_aux(), rows = pa.num_constraints();
    ASSERT_EQ(pa.a().size(), rows);
    ASSERT_EQ(pa.b().size(), rows);
    ASSERT_EQ(pa.c().size(), rows);
    ASSERT_GE(rows, inputs);
    for (size_t r = 0; r < rows; ++r) EXPECT_EQ(pa.a()[r] * pa.b()[r], pa.c()[r]) << "row " << r;
    for (size_t i = 0; i < inputs; ++i) {
        const size_t r = rows - inputs + i;
        EXPECT_EQ(pa.a()[r], pa.input_assignment()[i]);
        EXPECT_TRUE(pa.b()[r].is_zero());
        EXPECT_TRUE(pa.c()[r].is_zero());
    }
    EXPECT_EQ(pa.a_aux_density().popcount(), pa.a_aux_density().recount());
    EXPECT_EQ(pa.b_input_density().popcount(), pa.b_input_density().recount());
    EXPECT_EQ(pa.b_aux_density().popcount(), pa.b_aux_density().recount());

    ShapeRecorder rec;
    ASSERT_TRUE(circuit(rec).ok());
    rec.finish();
    EXPECT_EQ(rec.num_inputs(), inputs);
    EXPECT_EQ(rec.num_aux(), aux);
    EXPECT_EQ(rec.num_constraints(), rows);
    EXPECT_EQ(rec.a().rows(), rows);
    std::vector<ff::Fr> z = pa.input_assignment();
    z.insert(z.end(), pa.aux_assignment().begin(), pa.aux_assignment().end());
    std::vector<ff::Fr> az, bz, cz;
    ASSERT_TRUE(rec.multiply(z, az, bz, cz).ok());
    EXPECT_EQ(az, pa.a());
    EXPECT_EQ(bz, pa.b());
    EXPECT_EQ(cz, pa.c());
    EXPECT_EQ(rec.a_aux_density(), pa.a_aux_density());
    EXPECT_EQ(rec.b_input_density(), pa.b_input_density());
    EXPECT_EQ(rec.b_aux_density(), pa.b_aux_density());
    for (const CsrMatrix* m : {&rec.a(), &rec.b(), &rec.c()})
        for (size_t r = 0; r < m->rows(); ++r)
            for (uint64_t k = m->row_ptr[r]; k + 1 < m->row_ptr[r + 1]; ++k)
                EXPECT_LT(m->col[k], m->col[k + 1]);
    std::vector<ff::Fr> short_z(z.begin(), z.end() - 1);
    EXPECT_FALSE(rec.multiply(short_z, az, bz, cz).ok());

    Counter counter;
    ASSERT_TRUE(circuit(counter).ok());
    counter.append_input_constraints();
    EXPECT_EQ(counter.num_inputs(), inputs);
    EXPECT_EQ(counter.num_aux(), aux);
    EXPECT_EQ(counter.num_constraints(), rows);
    EXPECT_EQ(counter.a_aux_popcount(), pa.a_aux_density().popcount());
    EXPECT_EQ(counter.b_input_popcount(), pa.b_input_density().popcount());
    EXPECT_EQ(counter.b_aux_popcount(), pa.b_aux_density().popcount());
    EXPECT_EQ(counter.a_aux_density(), pa.a_aux_density());
    EXPECT_EQ(counter.b_input_density(), pa.b_input_density());
    EXPECT_EQ(counter.b_aux_density(), pa.b_aux_density());
    EXPECT_EQ(counter.nnz_a(), rec.a().nnz());
    EXPECT_EQ(counter.nnz_b(), rec.b().nnz());
    EXPECT_EQ(counter.nnz_c(), rec.c().nnz());

    WitnessOnly w;
    ASSERT_TRUE(circuit(w).ok());
    EXPECT_EQ(w.z(), z);

    TestConstraintSystem tcs;
    ASSERT_TRUE(circuit(tcs).ok());
    EXPECT_TRUE(tcs.is_satisfied()) << tcs.which_is_unsatisfied().value_or("");
    EXPECT_EQ(tcs.num_constraints() + inputs, rows);
    EXPECT_EQ(tcs.num_aux(), aux);
    EXPECT_EQ(tcs.num_inputs(), inputs);
    EXPECT_EQ(tcs.namespace_depth(), 0u);
}

// The first failing constraint's full name when the circuit is synthesized into a test CS.
inline std::optional<std::string> first_failure(const Circuit& circuit) {
    TestConstraintSystem tcs;
    EXPECT_TRUE(circuit(tcs).ok());
    return tcs.which_is_unsatisfied();
}

}  // namespace cuzk::r1cs::testing
