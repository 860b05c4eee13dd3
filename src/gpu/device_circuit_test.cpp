// DeviceCircuit (gpu/device_circuit.hpp) against the CPU. The references are independent of the
// GPU code: r1cs::ShapeRecorder::multiply over the same compiled shape, and the circuit
// synthesized straight into an r1cs::ProvingAssignment (groth16::synthesize_into) with its MSM
// scalars from groth16::gather_msm_scalars. Checked, element for element:
//   - multiply: a, b, c of random circuits (several seeds and sizes; rows never a power of
//     two; coefficients 0/±1/2/p−2/random/cancelling; values 0/±1/random; rows of up to 300
//     terms; witnesses random, satisfying, or failing at one chosen row), the
//     test_circuits.hpp and example circuits (cubic, random:K, sha256:1), a handmade circuit
//     of edge cases (empty rows in each matrix, coefficients 1, −1, 2, p−1 written out, p−2
//     and large random ones, rows of 63…3000 terms) and the 2 KiB PoRep partition circuit;
//     for padded lengths equal to, one above and the power of two above the rows. The output
//     buffers are pre-filled with 0xAB garbage (so a row not written, or padding not zeroed,
//     fails) and carry one guard element past padded_len that must stay garbage (no write
//     past the end);
//   - gather_a / gather_b: equal to gather_msm_scalars(pa).a / .b, counts included;
//   - first_unsatisfied_row_device: SIZE_MAX on satisfied vectors, exactly the corrupted row
//     (row 0, the last row, rows around block sizes, random rows), the lower of two, rows past
//     `rows` ignored; on a circuit's own a, b, c equal to the CPU's first failing row;
//   - errors: padded_len below the rows is kInvalidArgument; without a device upload is
//     kUnavailable (the one case that runs on machines without a GPU).
// Every other case skips itself without a usable CUDA device.
#include "gpu/device_circuit.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpu/cuda_status.hpp"
#include "gpu/device.hpp"
#include "groth16/compiled_circuit.hpp"
#include "groth16/example_circuits.hpp"
#include "groth16/prover_parts.hpp"
#include "porep/circuit/c1_circuits.hpp"
#include "porep/synthetic_c1.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/test_circuits.hpp"
#include "r1cs/witness_only.hpp"
#include "util/rng.hpp"

namespace cuzk::gpu {
namespace {

using ff::Fr;
using r1cs::ConstraintSystem;
using r1cs::LC;
using r1cs::Variable;

constexpr size_t kNoRow = std::numeric_limits<size_t>::max();
constexpr uint8_t kGarbageByte = 0xAB;

// p − 1 written out (the BLS12-381 scalar field modulus minus one), i.e. −1.
const Fr kPMinusOne =
    Fr::from_hex("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000000");

class DeviceCircuitTest : public ::testing::Test {
   protected:
    void SetUp() override {
        if (device_count() == 0)
            GTEST_SKIP() << "no usable CUDA device (" << check_device_available().to_string()
                         << "); DeviceCircuit test skipped";
    }
};

// ---- device vectors ----

Fr garbage_fr() {
    Fr g;
    std::memset(static_cast<void*>(g.limb), kGarbageByte, sizeof(g.limb));
    return g;
}

// n Fr on the device, every byte kGarbageByte. Empty buffer (data() null) on failure.
DeviceBuffer garbage_frs(size_t n) {
    const size_t bytes = std::max<size_t>(n, 1) * sizeof(Fr);
    auto buf = DeviceBuffer::allocate(bytes);
    EXPECT_TRUE(buf.ok()) << buf.status().to_string();
    if (!buf.ok()) return DeviceBuffer();
    const std::vector<uint8_t> garbage(bytes, kGarbageByte);
    const util::Status st = buf->upload(garbage.data(), bytes);
    EXPECT_TRUE(st.ok()) << st.to_string();
    return std::move(*buf);
}

DeviceBuffer upload_frs(const std::vector<Fr>& v) {
    DeviceBuffer buf = garbage_frs(v.size());
    if (buf.data() != nullptr && !v.empty()) {
        const util::Status st = buf.upload(v.data(), v.size() * sizeof(Fr));
        EXPECT_TRUE(st.ok()) << st.to_string();
    }
    return buf;
}

std::vector<Fr> download_frs(const DeviceBuffer& buf, size_t n) {
    std::vector<Fr> v(n);
    if (n == 0) return v;
    const util::Status st = buf.download(v.data(), n * sizeof(Fr));
    EXPECT_TRUE(st.ok()) << st.to_string();
    return v;
}

// Writes one element in place on the device.
void poke(const DeviceBuffer& buf, size_t index, const Fr& value) {
    const cudaError_t err = cudaMemcpy(static_cast<Fr*>(buf.data()) + index, &value, sizeof(Fr),
                                       cudaMemcpyHostToDevice);
    ASSERT_EQ(err, cudaSuccess) << cudaGetErrorString(err);
}

const Fr* frs(const DeviceBuffer& buf) { return static_cast<const Fr*>(buf.data()); }
Fr* mutable_frs(const DeviceBuffer& buf) { return static_cast<Fr*>(buf.data()); }

// ---- comparisons ----

// "" when got[i] == want[i] for every i < want.size(); else the first index and the count.
std::string compare(const std::vector<Fr>& got, const std::vector<Fr>& want) {
    if (got.size() < want.size()) return "got only " + std::to_string(got.size()) + " values";
    size_t first = kNoRow, count = 0;
    for (size_t i = 0; i < want.size(); ++i) {
        if (got[i] == want[i]) continue;
        if (first == kNoRow) first = i;
        ++count;
    }
    if (count == 0) return "";
    std::string m = std::to_string(count);
    m += " of ";
    m += std::to_string(want.size());
    m += " differ, first at ";
    m += std::to_string(first);
    m += ": got ";
    m += got[first].to_hex();
    m += " want ";
    m += want[first].to_hex();
    return m;
}

// The lowest row with a·b ≠ c on the host (SIZE_MAX when none).
size_t host_first_unsatisfied(const std::vector<Fr>& a, const std::vector<Fr>& b,
                              const std::vector<Fr>& c) {
    for (size_t r = 0; r < a.size(); ++r)
        if (!(a[r] * b[r] == c[r])) return r;
    return kNoRow;
}

size_t next_power_of_two(size_t n) {
    size_t p = 1;
    while (p < n) p <<= 1;
    return p;
}

// ---- the check of one circuit ----

struct CheckOptions {
    bool expect_satisfied = false;  // the witness satisfies the circuit (CPU confirms)
    bool corrupt_rows = false;      // also corrupt rows of c on the device (satisfied only)
    std::optional<size_t> expect_first_bad;  // the CPU's first failing row must be this
};

// A satisfied witness: checked, and rows of c corrupted on the device.
CheckOptions satisfied() {
    CheckOptions o;
    o.expect_satisfied = true;
    o.corrupt_rows = true;
    return o;
}
// A witness failing first at `row` (the CPU confirms).
CheckOptions failing_at(size_t row) {
    CheckOptions o;
    o.expect_first_bad = row;
    return o;
}

// Compiles `blank`, generates `circuit`'s witness with WitnessOnly, and compares the device's
// products, gathers and satisfaction check with the CPU references.
void check_circuit(const groth16::Circuit& blank, const groth16::Circuit& circuit,
                   const std::string& what, CheckOptions opt = {}) {
    SCOPED_TRACE(what);
    auto compiled = groth16::CompiledCircuit::compile(blank);
    ASSERT_TRUE(compiled.ok()) << compiled.status().to_string();
    const groth16::CompiledCircuit& cc = **compiled;
    const size_t rows = cc.num_rows();

    // Witness z (the compiled path's input) and the CPU products over the compiled shape.
    r1cs::WitnessOnly witness;
    util::Status st = circuit(witness);
    ASSERT_TRUE(st.ok()) << st.to_string();
    const std::vector<Fr> z = witness.z();
    ASSERT_EQ(z.size(), cc.num_inputs() + cc.num_aux());
    std::vector<Fr> ra, rb, rc;
    st = cc.shape().multiply(z, ra, rb, rc);
    ASSERT_TRUE(st.ok()) << st.to_string();
    ASSERT_EQ(ra.size(), rows);

    // The circuit synthesized straight into a ProvingAssignment (no compiled shape involved).
    auto pa = std::make_unique<r1cs::ProvingAssignment>();
    st = groth16::synthesize_into(circuit, *pa, 0);
    ASSERT_TRUE(st.ok()) << st.to_string();
    ASSERT_EQ(pa->a().size(), rows);
    // The two CPU references agree (else the comparison below would be meaningless).
    ASSERT_EQ(compare(ra, pa->a()), "");
    ASSERT_EQ(compare(rb, pa->b()), "");
    ASSERT_EQ(compare(rc, pa->c()), "");
    groth16::ParamsShape shape;
    shape.a = pa->num_inputs() + pa->a_aux_density().popcount();
    shape.b_g1 = pa->b_input_density().popcount() + pa->b_aux_density().popcount();
    const groth16::MsmScalars scalars = groth16::gather_msm_scalars(*pa, shape);
    const size_t cpu_first_bad = host_first_unsatisfied(ra, rb, rc);
    if (opt.expect_satisfied) {
        ASSERT_EQ(cpu_first_bad, kNoRow) << "the witness is not satisfied";
    }
    if (opt.expect_first_bad.has_value()) {
        ASSERT_EQ(cpu_first_bad, *opt.expect_first_bad) << "the CPU's first failing row";
    }

    auto uploaded = DeviceCircuit::upload(cc);
    ASSERT_TRUE(uploaded.ok()) << uploaded.status().to_string();
    const DeviceCircuit& dc = **uploaded;
    EXPECT_EQ(dc.num_inputs(), cc.num_inputs());
    EXPECT_EQ(dc.num_aux(), cc.num_aux());
    EXPECT_EQ(dc.num_columns(), z.size());
    EXPECT_EQ(dc.num_rows(), rows);
    EXPECT_EQ(dc.a_count(), scalars.a.size());
    EXPECT_EQ(dc.b_count(), scalars.b.size());
    EXPECT_GE(dc.device_bytes(), 4 * (cc.nnz_a() + cc.nnz_b() + cc.nnz_c()));

    const DeviceBuffer d_z = upload_frs(z);
    ASSERT_NE(d_z.data(), nullptr);

    // Products, for padded lengths equal to, just above and the power of two above the rows.
    // One guard element past padded_len must keep its garbage.
    const Fr garbage = garbage_fr();
    std::vector<size_t> padded_lens{rows, rows + 1, next_power_of_two(rows + 1)};
    padded_lens.erase(std::unique(padded_lens.begin(), padded_lens.end()), padded_lens.end());
    for (size_t padded : padded_lens) {
        SCOPED_TRACE("padded_len " + std::to_string(padded) + ", rows " + std::to_string(rows));
        const DeviceBuffer d_a = garbage_frs(padded + 1), d_b = garbage_frs(padded + 1),
                           d_c = garbage_frs(padded + 1);
        ASSERT_NE(d_c.data(), nullptr);
        // Every row by one thread; rows from 1, 5 and the default's entries by whole warps.
        // Then once more with the defaults, for the checks below.
        for (unsigned warp_row_min : {0u, 1u, 5u, SpmvOptions{}.warp_row_min}) {
            SCOPED_TRACE("warp_row_min " + std::to_string(warp_row_min));
            st = dc.multiply(frs(d_z), mutable_frs(d_a), mutable_frs(d_b), mutable_frs(d_c),
                             padded, SpmvOptions{warp_row_min});
            ASSERT_TRUE(st.ok()) << st.to_string();
            const char* names[3] = {"a", "b", "c"};
            const DeviceBuffer* outs[3] = {&d_a, &d_b, &d_c};
            const std::vector<Fr>* wants[3] = {&ra, &rb, &rc};
            for (int m = 0; m < 3; ++m) {
                std::vector<Fr> got = download_frs(*outs[m], padded + 1);
                EXPECT_EQ(compare(got, *wants[m]), "")
                    << names[m] << " (ShapeRecorder::multiply)";
                std::vector<Fr> want_padded(padded, Fr::zero());
                std::copy(wants[m]->begin(), wants[m]->end(), want_padded.begin());
                EXPECT_EQ(compare(got, want_padded), "") << names[m] << " with its zero padding";
                EXPECT_TRUE(got[padded] == garbage) << names[m] << ": written past padded_len";
                // Poison for the next setting, so that stale products cannot pass.
                const DeviceBuffer fresh = garbage_frs(padded + 1);
                ASSERT_EQ(cudaMemcpy(outs[m]->data(), fresh.data(), (padded + 1) * sizeof(Fr),
                                     cudaMemcpyDeviceToDevice),
                          cudaSuccess);
            }
        }
        st = dc.multiply(frs(d_z), mutable_frs(d_a), mutable_frs(d_b), mutable_frs(d_c), padded);
        ASSERT_TRUE(st.ok()) << st.to_string();
        if (padded != padded_lens.back()) continue;

        // The satisfaction check on the device's own products.
        auto first_bad = first_unsatisfied_row_device(frs(d_a), frs(d_b), frs(d_c), rows);
        ASSERT_TRUE(first_bad.ok()) << first_bad.status().to_string();
        EXPECT_EQ(*first_bad, cpu_first_bad);
        // Over the padded length too (the padding is 0·0 = 0).
        first_bad = first_unsatisfied_row_device(frs(d_a), frs(d_b), frs(d_c), padded);
        ASSERT_TRUE(first_bad.ok()) << first_bad.status().to_string();
        EXPECT_EQ(*first_bad, cpu_first_bad);

        if (opt.corrupt_rows && cpu_first_bad == kNoRow) {
            util::TestRng rng(rows);
            const size_t random_row = rng.next_u64() % rows;
            for (size_t row : {size_t{0}, rows - 1, random_row}) {
                SCOPED_TRACE("corrupted row " + std::to_string(row));
                poke(d_c, row, rc[row] + Fr::one());
                first_bad = first_unsatisfied_row_device(frs(d_a), frs(d_b), frs(d_c), rows);
                ASSERT_TRUE(first_bad.ok()) << first_bad.status().to_string();
                EXPECT_EQ(*first_bad, row);
                poke(d_c, row, rc[row]);
            }
            // Two corrupted rows: the lower one. The upper one alone afterwards.
            const size_t lo = random_row / 2, hi = rows - 1;
            if (lo < hi) {
                poke(d_c, hi, rc[hi] + Fr::one());
                poke(d_c, lo, rc[lo] - Fr::one());
                first_bad = first_unsatisfied_row_device(frs(d_a), frs(d_b), frs(d_c), rows);
                ASSERT_TRUE(first_bad.ok());
                EXPECT_EQ(*first_bad, lo);
                poke(d_c, lo, rc[lo]);
                first_bad = first_unsatisfied_row_device(frs(d_a), frs(d_b), frs(d_c), rows);
                ASSERT_TRUE(first_bad.ok());
                EXPECT_EQ(*first_bad, hi);
                poke(d_c, hi, rc[hi]);
            }
            first_bad = first_unsatisfied_row_device(frs(d_a), frs(d_b), frs(d_c), rows);
            ASSERT_TRUE(first_bad.ok());
            EXPECT_EQ(*first_bad, kNoRow) << "restored";
        }
    }

    // Gathers of the A and B MSM scalars, one guard element each.
    const DeviceBuffer d_ga = garbage_frs(dc.a_count() + 1), d_gb = garbage_frs(dc.b_count() + 1);
    st = dc.gather_a(frs(d_z), mutable_frs(d_ga));
    ASSERT_TRUE(st.ok()) << st.to_string();
    st = dc.gather_b(frs(d_z), mutable_frs(d_gb));
    ASSERT_TRUE(st.ok()) << st.to_string();
    const std::vector<Fr> ga = download_frs(d_ga, dc.a_count() + 1);
    const std::vector<Fr> gb = download_frs(d_gb, dc.b_count() + 1);
    EXPECT_EQ(compare(ga, scalars.a), "") << "gather_a";
    EXPECT_EQ(compare(gb, scalars.b), "") << "gather_b";
    EXPECT_TRUE(ga[dc.a_count()] == garbage) << "gather_a wrote past a_count";
    EXPECT_TRUE(gb[dc.b_count()] == garbage) << "gather_b wrote past b_count";
    // The L scalars are z's aux part (no device list): the CPU agrees.
    ASSERT_EQ(scalars.l.size(), cc.num_aux());
    EXPECT_TRUE(std::equal(scalars.l.begin(), scalars.l.end(), z.begin() + cc.num_inputs()));

    std::printf(
        "%s: rows %zu, columns %zu, nnz %zu/%zu/%zu, a_count %zu, b_count %zu, "
        "%zu device bytes\n",
        what.c_str(), rows, z.size(), cc.nnz_a(), cc.nnz_b(), cc.nnz_c(), dc.a_count(),
        dc.b_count(), dc.device_bytes());
}

void check_circuit(const groth16::Circuit& circuit, const std::string& what,
                   CheckOptions opt = {}) {
    check_circuit(circuit, circuit, what, opt);
}

// ---- random circuits ----

struct RandomShape {
    uint64_t seed = 1;
    size_t inputs = 1;  // besides ONE
    size_t aux = 1;
    size_t rows = 1;       // the circuit's constraints (input rows come on top)
    size_t max_terms = 8;  // the longest linear combination (a few rows get that many)
};

// How the witness relates to the rows: random values (row 0 all but surely fails), or every
// row made to hold by a fresh aux term in C (w = a·b − rest of C), except `bad_row` (w off by
// one; kNoRow = none). The satisfiable form has one more aux per row, so a blank must use the
// same form.
struct RandomWitness {
    bool satisfiable = false;
    size_t bad_row = kNoRow;
};

Fr random_value(util::TestRng& rng) {
    switch (rng.next_u64() % 6) {
        case 0:
            return Fr::zero();
        case 1:
            return Fr::one();
        case 2:
            return -Fr::one();
        case 3:
            return Fr::from_u64(rng.next_u64() % 1000);
        default:
            return Fr::random(rng);
    }
}

Fr random_coefficient(util::TestRng& rng) {
    switch (rng.next_u64() % 9) {
        case 0:
        case 1:
            return Fr::one();
        case 2:
            return -Fr::one();
        case 3:
            return Fr::from_u64(2);
        case 4:
            return kPMinusOne - Fr::one();  // p − 2
        case 5:
            return Fr::zero();  // not stored
        case 6:
            return Fr::from_u64(1 + rng.next_u64() % 16);
        default:
            return Fr::random(rng);
    }
}

// A random linear combination over vars (values: their values); `value` gets its value.
LC random_lc(util::TestRng& rng, const std::vector<Variable>& vars, const std::vector<Fr>& values,
             size_t max_terms, Fr& value) {
    size_t terms;
    switch (rng.next_u64() % 10) {
        case 0:
            terms = 0;
            break;  // an empty row in this matrix
        case 1:
            terms = rng.next_u64() % (max_terms + 1);
            break;
        default:
            terms = 1 + rng.next_u64() % std::min<size_t>(max_terms, 4);
            break;
    }
    LC lc;
    value = Fr::zero();
    for (size_t t = 0; t < terms; ++t) {
        const size_t j = rng.next_u64() % vars.size();
        if (rng.next_u64() % 16 == 0) {  // a term that cancels (nothing stored)
            lc.add(Fr::from_u64(7), vars[j]);
            lc.add(-Fr::from_u64(7), vars[j]);
        } else {
            const Fr coeff = random_coefficient(rng);
            lc.add(coeff, vars[j]);
            value += coeff * values[j];
        }
    }
    return lc;
}

// Inputs spread among the aux variables (so input and aux columns interleave in allocation
// order), then random rows over all of them and ONE. Shape from s.seed (and w.satisfiable),
// values from value_seed.
util::Status random_circuit(ConstraintSystem& cs, const RandomShape& s, const RandomWitness& w,
                            uint64_t value_seed) {
    util::TestRng shape(s.seed), values(value_seed);
    auto opt = [&](const Fr& x) {
        return cs.computes_values() ? std::optional<Fr>(x) : std::nullopt;
    };
    std::vector<Variable> vars{Variable::one()};
    std::vector<Fr> vals{Fr::one()};
    const size_t total = s.inputs + s.aux;
    for (size_t i = 0; i < total; ++i) {
        const Fr x = random_value(values);
        const bool input = (i * s.inputs) / total != ((i + 1) * s.inputs) / total;
        auto var = input ? cs.alloc_input("x", opt(x)) : cs.alloc("w", opt(x));
        if (!var.ok()) return var.status();
        vars.push_back(*var);
        vals.push_back(x);
    }
    for (size_t r = 0; r < s.rows; ++r) {
        Fr av, bv, cv;
        LC a = random_lc(shape, vars, vals, s.max_terms, av);
        LC b = random_lc(shape, vars, vals, s.max_terms, bv);
        LC c = random_lc(shape, vars, vals, s.max_terms, cv);
        if (w.satisfiable) {
            Fr fix = av * bv - cv;
            if (r == w.bad_row) fix += Fr::one();
            auto v = cs.alloc("fix", opt(fix));
            if (!v.ok()) return v.status();
            c.add(Fr::one(), *v);
            vars.push_back(*v);
            vals.push_back(fix);
        }
        cs.enforce("r", a, b, c);
    }
    return util::Status();
}

TEST_F(DeviceCircuitTest, RandomCircuitsMatchTheCpu) {
    const RandomShape shapes[] = {
        {.seed = 1, .inputs = 0, .aux = 1, .rows = 1, .max_terms = 3},
        {.seed = 2, .inputs = 1, .aux = 3, .rows = 2, .max_terms = 5},
        {.seed = 3, .inputs = 3, .aux = 50, .rows = 37, .max_terms = 8},
        {.seed = 4, .inputs = 7, .aux = 1000, .rows = 2999, .max_terms = 20},
        {.seed = 5, .inputs = 2, .aux = 500, .rows = 301, .max_terms = 300},
        {.seed = 6, .inputs = 20, .aux = 20000, .rows = 70001, .max_terms = 12},
        {.seed = 7, .inputs = 64, .aux = 3000, .rows = 130000, .max_terms = 70},
    };
    for (const RandomShape& s : shapes) {
        const std::string name = "random seed " + std::to_string(s.seed);
        // Random values (unsatisfied), two witnesses of one shape.
        for (uint64_t value_seed : {s.seed * 31 + 1, s.seed * 31 + 2}) {
            const groth16::Circuit blank = [s](ConstraintSystem& cs) {
                return random_circuit(cs, s, {}, 0);
            };
            const groth16::Circuit circuit = [s, value_seed](ConstraintSystem& cs) {
                return random_circuit(cs, s, {}, value_seed);
            };
            check_circuit(blank, circuit, name + " values " + std::to_string(value_seed));
        }
        // Satisfied (with corrupted rows on the device), and failing only at one row.
        const RandomWitness holds{.satisfiable = true, .bad_row = kNoRow};
        const groth16::Circuit blank = [s, holds](ConstraintSystem& cs) {
            return random_circuit(cs, s, holds, 0);
        };
        const groth16::Circuit holding = [s, holds](ConstraintSystem& cs) {
            return random_circuit(cs, s, holds, s.seed * 31 + 3);
        };
        check_circuit(blank, holding, name + " satisfied", satisfied());
        util::TestRng pick(s.seed);
        const size_t bad_row = s.rows * 2 / 3 + pick.next_u64() % (s.rows - s.rows * 2 / 3);
        const RandomWitness fails{.satisfiable = true, .bad_row = bad_row};
        const groth16::Circuit failing = [s, fails](ConstraintSystem& cs) {
            return random_circuit(cs, s, fails, s.seed * 31 + 4);
        };
        check_circuit(blank, failing, name + " failing at row " + std::to_string(bad_row),
                      failing_at(bad_row));
    }
}

// ---- the test_circuits.hpp and example circuits, PoRep ----

TEST_F(DeviceCircuitTest, TestCircuitsMatchTheCpu) {
    namespace tc = r1cs::testing;
    check_circuit([](ConstraintSystem& cs) { return tc::cubic(cs, Fr::from_u64(3)); }, "cubic 3",
                  satisfied());
    check_circuit([](ConstraintSystem& cs) { return tc::mul_chain(cs, Fr::from_u64(7), 300); },
                  "mul_chain 300", satisfied());
    check_circuit(
        [](ConstraintSystem& cs) { return tc::cancelling(cs, Fr::from_u64(11), -Fr::one()); },
        "cancelling", satisfied());
    check_circuit([](ConstraintSystem& cs) { return tc::booleans(cs, 0xdeadbeefULL, 40); },
                  "booleans 40", satisfied());
    // An unsatisfied witness (one aux value off by one): the device names the CPU's row.
    check_circuit([](ConstraintSystem& cs) { return tc::mul_chain(cs, Fr::from_u64(5), 100, 40); },
                  "mul_chain with aux 40 perturbed", failing_at(39));
}

TEST_F(DeviceCircuitTest, ExampleCircuitsMatchTheCpu) {
    for (const char* name : {"cubic", "random:10", "random:13", "sha256:1"}) {
        auto ex = groth16::examples::make_example_circuit(name);
        ASSERT_TRUE(ex.ok()) << ex.status().to_string();
        check_circuit(ex->circuit, name, satisfied());
    }
}

TEST_F(DeviceCircuitTest, PorepTwoKiBMatchesTheCpu) {
    porep::SyntheticC1Inputs in;
    in.proof = porep::RegisteredSealProof::kStackedDrg2KiBV1_1;
    in.rng_seed = 7;
    auto c1 = porep::generate_synthetic_c1(in);
    ASSERT_TRUE(c1.ok()) << c1.status().to_string();
    auto pc = porep::circuits_from_c1(c1->c1);
    ASSERT_TRUE(pc.ok()) << pc.status().to_string();
    ASSERT_FALSE(pc->circuits.empty());
    auto blank = porep::blank_stacked_circuit(in.proof);
    ASSERT_TRUE(blank.ok()) << blank.status().to_string();
    check_circuit(*blank, pc->circuits[0], "porep 2KiB", satisfied());
}

// ---- edge cases, by hand ----

// Values 0, 1, −1, 2, p−1 (written out) and random; inputs allocated between aux variables;
// rows: empty A, empty B, empty C, all empty; coefficients 1, −1, 2, p−1, p−2 and large random
// ones, alone and mixed; rows of 63, 64, 65, 129, 257, 1025 and 3000 terms (coefficient 1 only,
// −1 only, and mixed). Not satisfied (only the products are compared).
util::Status edge_circuit(ConstraintSystem& cs) {
    util::TestRng rng(4242);
    const bool values = cs.computes_values();
    auto value = [&](const Fr& x) { return values ? std::optional<Fr>(x) : std::nullopt; };
    std::vector<Variable> w;  // aux
    for (const Fr& x : {Fr::zero(), Fr::one(), -Fr::one(), Fr::from_u64(2), kPMinusOne}) {
        auto v = cs.alloc("special", value(x));
        if (!v.ok()) return v.status();
        w.push_back(*v);
    }
    auto x1 = cs.alloc_input("x1", value(Fr::random(rng)));
    if (!x1.ok()) return x1.status();
    for (int i = 0; i < 3000; ++i) {
        auto v = cs.alloc("r", value(i % 10 == 0 ? Fr::one() : Fr::random(rng)));
        if (!v.ok()) return v.status();
        w.push_back(*v);
    }
    auto x2 = cs.alloc_input("x2", value(Fr::zero()));
    if (!x2.ok()) return x2.status();
    auto x3 = cs.alloc_input("x3", value(-Fr::one()));
    if (!x3.ok()) return x3.status();
    const Variable one = Variable::one();
    const Fr big1 = Fr::random(rng), big2 = Fr::random(rng);
    const Fr p_minus_two = kPMinusOne - Fr::one();

    cs.enforce("empty A", LC(), LC(w[3]), LC(w[1]));
    cs.enforce("empty B", LC(w[3]), LC(), LC(w[0]));
    cs.enforce("empty C", LC(w[1]) + w[2], LC(one), LC());
    cs.enforce("all empty", LC(), LC(), LC());
    cs.enforce("mixed coefficients",
               LC().add(Fr::one(), w[3])
                   .add(-Fr::one(), w[1])
                   .add(Fr::from_u64(2), w[2])
                   .add(kPMinusOne, *x1),
               LC().add(big1, w[5]).add(big2, one).add(p_minus_two, *x3),
               LC().add(kPMinusOne, w[4]).add(Fr::from_u64(2), *x2).add(big1, w[6]));
    cs.enforce("minus one only", LC().add(-Fr::one(), w[3]), LC().add(-Fr::one(), one),
               LC().add(kPMinusOne, w[2]));
    cs.enforce("two only", LC().add(Fr::from_u64(2), w[4]), LC().add(Fr::from_u64(2), w[2]),
               LC().add(Fr::from_u64(2), *x3));
    cs.enforce("zero values", LC().add(big1, w[0]).add(big2, *x2), LC(w[0]), LC(*x2));
    // Long rows: A with coefficient 1, B with −1, C mixed; lengths around warp/block sizes.
    for (size_t len : {size_t{63}, size_t{64}, size_t{65}, size_t{129}, size_t{257}, size_t{1025},
                       size_t{3000}}) {
        LC a, b, c;
        const size_t offset = len % 7;
        for (size_t t = 0; t < len; ++t) {
            const Variable v = w[(offset + t) % w.size()];
            a.add(Fr::one(), v);
            b.add(-Fr::one(), v);
            switch (t % 4) {
                case 0:
                    c.add(Fr::one(), v);
                    break;
                case 1:
                    c.add(-Fr::one(), v);
                    break;
                case 2:
                    c.add(Fr::from_u64(2), v);
                    break;
                default:
                    c.add(Fr::random(rng), v);
                    break;
            }
        }
        a.add(Fr::one(), *x1);  // an input column in a long row
        cs.enforce(r1cs::Name("long ", len), a, b, c);
    }
    // A long row in one matrix only, the others empty.
    LC only;
    for (size_t t = 0; t < 200; ++t) only.add(Fr::random(rng), w[(7 * t + 1) % w.size()]);
    cs.enforce("long B only", LC(), only, LC());
    return util::Status();
}

TEST_F(DeviceCircuitTest, EdgeCasesMatchTheCpu) {
    ASSERT_TRUE(kPMinusOne == -Fr::one());  // the written-out constant is right
    check_circuit(edge_circuit, "edge cases");
}

// ---- first_unsatisfied_row_device on synthetic vectors ----

TEST_F(DeviceCircuitTest, FirstUnsatisfiedRowIsTheLowestBadRow) {
    util::TestRng rng(9001);
    const size_t n = (size_t{1} << 20) + 3;
    std::vector<Fr> a(n), b(n), c(n);
    for (size_t i = 0; i < n; ++i) {
        a[i] = i % 11 == 0 ? Fr::zero() : Fr::random(rng);
        b[i] = i % 13 == 0 ? Fr::one() : Fr::random(rng);
        c[i] = a[i] * b[i];
    }
    const DeviceBuffer d_a = upload_frs(a), d_b = upload_frs(b), d_c = upload_frs(c);
    ASSERT_NE(d_c.data(), nullptr);
    auto first = [&](size_t rows) -> size_t {
        auto got = first_unsatisfied_row_device(frs(d_a), frs(d_b), frs(d_c), rows);
        EXPECT_TRUE(got.ok()) << got.status().to_string();
        return got.ok() ? *got : kNoRow - 1;
    };
    EXPECT_EQ(first(n), kNoRow);
    EXPECT_EQ(first(1), kNoRow);

    std::vector<size_t> rows{0, 1, 31, 32, 255, 256, 1023, 1024, 65535, 65536, n - 2, n - 1};
    for (int k = 0; k < 4; ++k) rows.push_back(rng.next_u64() % n);
    for (size_t row : rows) {
        SCOPED_TRACE("row " + std::to_string(row));
        poke(d_c, row, c[row] + Fr::one());
        EXPECT_EQ(first(n), row);
        EXPECT_EQ(first(row + 1), row);
        if (row > 0) {
            EXPECT_EQ(first(row), kNoRow) << "a bad row at or past `rows` counts";
        }
        poke(d_c, row, c[row]);
        // A corrupted a (b unchanged, c = old a·b): also that row, unless b is zero there.
        if (!b[row].is_zero()) {
            poke(d_a, row, a[row] + Fr::one());
            EXPECT_EQ(first(n), row) << "a corrupted";
            poke(d_a, row, a[row]);
        }
    }
    EXPECT_EQ(first(n), kNoRow) << "restored";

    // Two bad rows: the lower, wherever the two lie.
    const size_t pairs[][2] = {{0, n - 1},
                               {n - 2, n - 1},
                               {1000, 1001},
                               {rng.next_u64() % (n / 2), n / 2 + rng.next_u64() % (n / 2)},
                               {5000, 700000}};
    for (const auto& p : pairs) {
        SCOPED_TRACE("rows " + std::to_string(p[0]) + " and " + std::to_string(p[1]));
        poke(d_c, p[1], c[p[1]] - Fr::one());
        poke(d_c, p[0], Fr::random(rng));
        EXPECT_EQ(first(n), p[0]);
        poke(d_c, p[0], c[p[0]]);
        EXPECT_EQ(first(n), p[1]);
        poke(d_c, p[1], c[p[1]]);
    }
    EXPECT_EQ(first(n), kNoRow) << "restored";

    // Every row bad: row 0.
    const std::vector<Fr> wrong(n, Fr::from_u64(3));
    const DeviceBuffer d_wrong = upload_frs(wrong);
    auto all_bad = first_unsatisfied_row_device(frs(d_a), frs(d_b), frs(d_wrong), n);
    ASSERT_TRUE(all_bad.ok());
    EXPECT_EQ(*all_bad, host_first_unsatisfied(a, b, wrong));
}

// ---- errors ----

TEST_F(DeviceCircuitTest, PaddedLengthBelowTheRowsIsRefused) {
    auto ex = groth16::examples::make_example_circuit("random:8");
    ASSERT_TRUE(ex.ok());
    auto cc = groth16::CompiledCircuit::compile(ex->circuit);
    ASSERT_TRUE(cc.ok());
    auto dc = DeviceCircuit::upload(**cc);
    ASSERT_TRUE(dc.ok()) << dc.status().to_string();
    const size_t rows = (*dc)->num_rows();
    ASSERT_EQ(rows, 256u);
    r1cs::WitnessOnly witness;
    ASSERT_TRUE(ex->circuit(witness).ok());
    const DeviceBuffer d_z = upload_frs(witness.z());
    const DeviceBuffer d_a = garbage_frs(rows), d_b = garbage_frs(rows), d_c = garbage_frs(rows);
    for (size_t padded : {size_t{0}, size_t{1}, rows - 1}) {
        const util::Status st =
            (*dc)->multiply(frs(d_z), mutable_frs(d_a), mutable_frs(d_b), mutable_frs(d_c), padded);
        EXPECT_EQ(st.code(), util::StatusCode::kInvalidArgument)
            << "padded_len " << padded << ": " << st.to_string();
    }
    // Nothing was written by the refused calls.
    const std::vector<Fr> a = download_frs(d_a, rows);
    EXPECT_TRUE(
        std::all_of(a.begin(), a.end(), [g = garbage_fr()](const Fr& x) { return x == g; }));
    // The exact length works.
    EXPECT_TRUE(
        (*dc)->multiply(frs(d_z), mutable_frs(d_a), mutable_frs(d_b), mutable_frs(d_c), rows).ok());
}

// Runs only where there is no device (the other cases skip there).
TEST(DeviceCircuitNoDevice, UploadReportsUnavailable) {
    if (device_count() != 0) GTEST_SKIP() << "a device is present";
    auto cc = groth16::CompiledCircuit::compile(
        [](ConstraintSystem& cs) { return r1cs::testing::cubic(cs, Fr::from_u64(3)); });
    ASSERT_TRUE(cc.ok());
    auto dc = DeviceCircuit::upload(**cc);
    ASSERT_FALSE(dc.ok());
    EXPECT_EQ(dc.status().code(), util::StatusCode::kUnavailable) << dc.status().to_string();
}

}  // namespace
}  // namespace cuzk::gpu
