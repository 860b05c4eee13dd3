// GPU NTT against the CPU reference (ntt/ntt.hpp): forward, inverse, coset forward and coset
// inverse, both algorithms (DIF then bit reversal; bit reversal then DIT) and the four field
// arithmetics (32-bit PTX, PTX with the sparse reduction, PTX with the Karatsuba product, 64-bit
// limbs), every size from 2^0 to 2^20 on random inputs, edge inputs (one-hot vectors, all p − 1,
// the constant one, the largest Montgomery limbs) and round trips; 2^24 and 2^26 once; every register-round width
// and block shape of the passes; both bit-reversal kernels. Results must be bit-identical.
// Skips itself without a usable CUDA device.
#include "gpu/ntt.hpp"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "gpu/cuda_status.hpp"
#include "gpu/device.hpp"
#include "gpu/test_inputs.hpp"
#include "ntt/domain.hpp"
#include "ntt/ntt.hpp"
#include "util/rng.hpp"

namespace cuzk::gpu {
namespace {

using ff::Fr;

class GpuNttTest : public ::testing::Test {
   protected:
    void SetUp() override {
        if (device_count() == 0) {
            GTEST_SKIP() << "no usable CUDA device (" << check_device_available().to_string()
                         << "); GPU NTT test skipped";
        }
    }
};

constexpr NttAlgorithm kAlgorithms[] = {NttAlgorithm::kDif, NttAlgorithm::kDit};
const char* name(NttAlgorithm a) { return a == NttAlgorithm::kDif ? "dif" : "dit"; }

std::vector<Fr> random_vector(util::TestRng& rng, size_t n) {
    std::vector<Fr> v(n);
    for (Fr& x : v) x = Fr::random(rng);
    return v;
}

// Index of the first difference, or -1.
long first_difference(const std::vector<Fr>& a, const std::vector<Fr>& b) {
    for (size_t i = 0; i < a.size(); ++i)
        if (!(a[i] == b[i])) return static_cast<long>(i);
    return -1;
}

using CpuFn = util::Status (*)(std::span<Fr>, util::ThreadPool*);
using GpuFn = util::Status (*)(std::span<Fr>, const NttOptions&);
struct Transform {
    const char* label;
    CpuFn cpu;
    GpuFn gpu;
};
const Transform kTransforms[] = {
    {"forward", [](std::span<Fr> a, util::ThreadPool* p) { return ntt::forward(a, p); },
     ntt_forward},
    {"inverse", [](std::span<Fr> a, util::ThreadPool* p) { return ntt::inverse(a, p); },
     ntt_inverse},
    {"coset_forward",
     [](std::span<Fr> a, util::ThreadPool* p) { return ntt::coset_forward(a, p); },
     ntt_coset_forward},
    {"coset_inverse",
     [](std::span<Fr> a, util::ThreadPool* p) { return ntt::coset_inverse(a, p); },
     ntt_coset_inverse},
};

// Option sets to compare against the CPU, each with a label for the failure message.
using Variants = std::vector<std::pair<std::string, NttOptions>>;

// Every transform of `input` under every variant equals the CPU's.
void expect_variants_same_as_cpu(const std::vector<Fr>& input, const std::string& what,
                                 const Variants& variants) {
    for (const Transform& t : kTransforms) {
        std::vector<Fr> want = input;
        ASSERT_TRUE(t.cpu(want, nullptr).ok());
        for (const auto& [label, options] : variants) {
            std::vector<Fr> got = input;
            const util::Status st = t.gpu(got, options);
            ASSERT_TRUE(st.ok()) << st.to_string();
            EXPECT_EQ(first_difference(want, got), -1)
                << what << " " << t.label << " " << label << " n=" << input.size();
        }
    }
}

// Both algorithms, each with a per-algorithm tweak of the options (label suffix, change).
template <class Tweak>
Variants per_algorithm(const std::string& suffix, Tweak tweak) {
    Variants v;
    for (NttAlgorithm alg : kAlgorithms) {
        NttOptions o{alg};
        tweak(o);
        v.emplace_back(std::string(name(alg)) + suffix, o);
    }
    return v;
}

// Random inputs of 2^log_n for each of `log_sizes`, then a 2^15 cycle of the field's edge
// values, under every variant.
void expect_random_and_edge_inputs_same_as_cpu(util::TestRng& rng, const Variants& variants,
                                               std::initializer_list<unsigned> log_sizes) {
    for (unsigned log_n : log_sizes)
        expect_variants_same_as_cpu(random_vector(rng, size_t{1} << log_n), "random", variants);
    const std::vector<Fr> edges = testing::field_edge_values<Fr>();
    std::vector<Fr> cycle(size_t{1} << 15);
    for (size_t i = 0; i < cycle.size(); ++i) cycle[i] = edges[i % edges.size()];
    expect_variants_same_as_cpu(cycle, "edge values", variants);
}

// One random 2^26 forward transform (passes of 8, 9 and 9 stages) under every variant.
void expect_forward_2e26_same_as_cpu(util::TestRng& rng, const Variants& variants) {
    const std::vector<Fr> input = random_vector(rng, size_t{1} << 26);
    std::vector<Fr> want = input;
    ASSERT_TRUE(ntt::forward(want, nullptr).ok());
    for (const auto& [label, options] : variants) {
        std::vector<Fr> got = input;
        ASSERT_TRUE(ntt_forward(got, options).ok());
        EXPECT_EQ(first_difference(want, got), -1) << label << " 2^26";
    }
}

// The four field arithmetics: PTX, PTX with the sparse reduction, PTX with the Karatsuba
// product (and the sparse reduction), 64-bit limbs.
void expect_same_as_cpu(const std::vector<Fr>& input, const std::string& what) {
    Variants v = per_algorithm(" ptx", [](NttOptions& o) { o.sparse_reduction = false; });
    for (auto& w : per_algorithm(" ptx sparse", [](NttOptions& o) { o.sparse_reduction = true; }))
        v.push_back(w);
    for (auto& w : per_algorithm(" ptx karatsuba", [](NttOptions& o) { o.karatsuba_product = true; }))
        v.push_back(w);
    for (auto& w : per_algorithm(" wide", [](NttOptions& o) { o.ptx_mul = false; }))
        v.push_back(w);
    expect_variants_same_as_cpu(input, what, v);
}

TEST_F(GpuNttTest, RandomInputsEverySizeUpTo2e20) {
    util::TestRng rng(501);
    for (unsigned log_n = 0; log_n <= 20; ++log_n)
        expect_same_as_cpu(random_vector(rng, size_t{1} << log_n), "random");
}

TEST_F(GpuNttTest, EdgeInputs) {
    const std::vector<Fr> edges = testing::field_edge_values<Fr>();
    for (unsigned log_n : {1u, 5u, 10u, 11u, 16u}) {
        const size_t n = size_t{1} << log_n;
        for (size_t hot : {size_t{0}, size_t{1}, n / 2, n - 1}) {
            std::vector<Fr> v(n, Fr::zero());
            v[hot] = Fr::one();
            expect_same_as_cpu(v, "one-hot " + std::to_string(hot));
        }
        expect_same_as_cpu(std::vector<Fr>(n, -Fr::one()), "all p-1");
        expect_same_as_cpu(std::vector<Fr>(n, Fr::one()), "all one");
        std::vector<Fr> cycle(n);
        for (size_t i = 0; i < n; ++i) cycle[i] = edges[i % edges.size()];
        expect_same_as_cpu(cycle, "edge values");
    }
}

TEST_F(GpuNttTest, RoundTripsAt2e24) {
    util::TestRng rng(502);
    const std::vector<Fr> input = random_vector(rng, size_t{1} << 24);
    std::vector<Fr> cpu = input;
    ASSERT_TRUE(ntt::forward(cpu, nullptr).ok());
    std::vector<Fr> v = input;
    ASSERT_TRUE(ntt_forward(v).ok());
    EXPECT_EQ(first_difference(cpu, v), -1);
    ASSERT_TRUE(ntt_inverse(v, NttOptions{NttAlgorithm::kDit}).ok());
    EXPECT_EQ(first_difference(input, v), -1);
    ASSERT_TRUE(ntt_coset_forward(v).ok());
    ASSERT_TRUE(ntt_coset_inverse(v).ok());
    EXPECT_EQ(first_difference(input, v), -1);
}

// Every block shape of the butterfly passes gives the CPU's result: 1, 2 or 3 stages per
// register round (windows that divide a pass's stages and windows that overlap at the end),
// fewer threads than groups (each thread loops over several per round). The sizes give one pass
// of 1, 2, 3, 9 or 10 stages, two of 6 + 7 (2^13) and three of 7 (2^21).
// Both algorithms for every (value, threads): set(o, value) and o.pass_threads = threads, named
// " <what>=value threads=threads".
Variants pass_variants(const char* what, std::initializer_list<unsigned> values,
                       std::initializer_list<unsigned> threads,
                       void (*set)(NttOptions&, unsigned)) {
    Variants v;
    for (unsigned value : values)
        for (unsigned t : threads) {
            std::string label = " ";  // appended piece by piece: GCC 12 warns on a + chain here
            label += what;
            label += "=";
            label += std::to_string(value);
            label += " threads=";
            label += std::to_string(t);
            for (auto& w : per_algorithm(label, [set, value, t](NttOptions& o) {
                     set(o, value);
                     o.pass_threads = t;
                 }))
                v.push_back(w);
        }
    return v;
}

TEST_F(GpuNttTest, EveryPassBlockShapeMatchesTheCpu) {
    util::TestRng rng(503);
    const Variants v =
        pass_variants("stages", {1u, 2u, 3u}, {32u, 64u, 128u, 256u, 512u},
                      [](NttOptions& o, unsigned stages) { o.register_stages = stages; });
    for (unsigned log_n : {1u, 2u, 3u, 9u, 10u, 13u, 21u})
        expect_variants_same_as_cpu(random_vector(rng, size_t{1} << log_n), "random", v);
}

// The direct passes (first round from device memory, last round to it): every register-round
// width, with one group per thread (512 threads: the cap makes it so) and with fewer threads
// than groups (32: the staged pass runs instead), at one-, two- and three-pass sizes, with the
// full twiddle table and DIF's prefetch too; and 2^26 forward, with and without the sparse
// reduction.
TEST_F(GpuNttTest, DirectRoundsMatchTheCpu) {
    util::TestRng rng(510);
    Variants v = pass_variants("direct stages", {1u, 2u, 3u}, {32u, 512u},
                               [](NttOptions& o, unsigned stages) {
                                   o.direct_rounds = true;
                                   o.register_stages = stages;
                               });
    for (auto& w : per_algorithm(" direct full+prefetch", [](NttOptions& o) {
             o.direct_rounds = true;
             o.full_twiddle_table = true;
             o.twiddle_prefetch = o.algorithm == NttAlgorithm::kDif;
         }))
        v.push_back(w);
    for (unsigned log_n : {1u, 2u, 3u, 9u, 10u, 13u, 21u})
        expect_variants_same_as_cpu(random_vector(rng, size_t{1} << log_n), "random", v);
    const std::vector<Fr> input = random_vector(rng, size_t{1} << 26);
    std::vector<Fr> want = input;
    ASSERT_TRUE(ntt::forward(want, nullptr).ok());
    for (NttAlgorithm alg : kAlgorithms)
        for (bool sparse : {false, true}) {
            NttOptions o{alg};
            o.direct_rounds = true;
            o.sparse_reduction = sparse;
            std::vector<Fr> got = input;
            ASSERT_TRUE(ntt_forward(got, o).ok());
            EXPECT_EQ(first_difference(want, got), -1)
                << name(alg) << " direct" << (sparse ? " sparse" : "");
        }
}

// The vector-I/O passes (16-byte accesses, batched copies, the two-level lookups' hi product
// taken for every exponent; on by default) and the 8-byte ones: every thread count (fewer threads than groups too) at one-, two-
// and three-pass sizes — 2^15 and 2^21 have two-level outer passes (exponents past 2^14, and
// small ones whose hi entry is 1) —, with the middle pass on the two-level table too (pass
// tables off), with the full table and DIF's prefetch (which takes the default pass), at edge
// inputs, and at 2^26 forward. A vector 8 bytes off 16-byte alignment takes the default pass
// and gives the same result.
TEST_F(GpuNttTest, VectorIoPassesMatchTheCpu) {
    util::TestRng rng(511);
    Variants v = pass_variants("vector_io", {0u, 1u}, {32u, 64u, 128u, 512u},
                               [](NttOptions& o, unsigned on) { o.vector_io = on != 0; });
    for (auto& w : per_algorithm(" vector_io no pass tables", [](NttOptions& o) {
             o.vector_io = true;
             o.pass_twiddle_tables = false;
         }))
        v.push_back(w);
    for (auto& w : per_algorithm(" vector_io full", [](NttOptions& o) {
             o.vector_io = true;
             o.full_twiddle_table = true;
         }))
        v.push_back(w);
    for (auto& w : per_algorithm(" vector_io full+prefetch", [](NttOptions& o) {
             o.vector_io = true;
             o.full_twiddle_table = true;
             o.twiddle_prefetch = o.algorithm == NttAlgorithm::kDif;
         }))
        v.push_back(w);
    expect_random_and_edge_inputs_same_as_cpu(rng, v, {3u, 10u, 13u, 15u, 21u});
    expect_forward_2e26_same_as_cpu(
        rng, per_algorithm(" vector_io", [](NttOptions& o) { o.vector_io = true; }));

    const unsigned log_n = 21;
    const size_t m = size_t{1} << log_n;
    const std::vector<Fr> small = random_vector(rng, m);
    std::vector<Fr> small_want = small;
    ASSERT_TRUE(ntt::forward(small_want, nullptr).ok());
    auto domain = NttDomain::create(log_n);
    ASSERT_TRUE(domain.ok()) << domain.status().to_string();
    auto buf = DeviceBuffer::allocate(m * sizeof(Fr) + 16);
    ASSERT_TRUE(buf.ok()) << buf.status().to_string();
    Fr* off = reinterpret_cast<Fr*>(static_cast<char*>(buf->data()) + 8);  // 8 mod 16
    ASSERT_EQ(cudaMemcpy(off, small.data(), m * sizeof(Fr), cudaMemcpyHostToDevice), cudaSuccess);
    NttOptions o;
    o.vector_io = true;
    ASSERT_TRUE((*domain)->forward(off, nullptr, o).ok());
    std::vector<Fr> got(m);
    ASSERT_EQ(cudaMemcpy(got.data(), off, m * sizeof(Fr), cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_EQ(first_difference(small_want, got), -1) << "vector_io, misaligned vector";
}

// The butterfly passes' products on the FP64 pipe, half (hybrid) or all, with the 8- and
// 16-byte copies and with the full twiddle table, both algorithms, against the CPU: one-, two-
// and three-pass sizes, edge values, and a 2^26 forward (passes of 8, 9 and 9 stages).
TEST_F(GpuNttTest, Fp64ProductsMatchTheCpu) {
    util::TestRng rng(531);
    Variants v;
    for (unsigned fp64 : {1u, 2u}) {
        for (int mode = 0; mode < 3; ++mode) {
            const std::string label = std::string(fp64 == 1 ? " fp64 hybrid" : " fp64 all") +
                                      (mode == 0 ? "" : mode == 1 ? " 8-byte" : " full table");
            for (auto& w : per_algorithm(label, [fp64, mode](NttOptions& o) {
                     o.fp64_products = fp64;
                     o.vector_io = mode != 1;
                     o.full_twiddle_table = mode == 2;
                 }))
                v.push_back(w);
        }
    }
    expect_random_and_edge_inputs_same_as_cpu(rng, v, {3u, 10u, 13u, 15u, 21u, 22u});
    Variants dif;
    for (unsigned fp64 : {1u, 2u}) {
        NttOptions o;
        o.fp64_products = fp64;
        dif.emplace_back("fp64_products " + std::to_string(fp64), o);
    }
    expect_forward_2e26_same_as_cpu(rng, dif);
}

// DIF's differences left unreduced before their products (NttOptions::lazy_difference, the
// default), with the 8- and 16-byte copies and with the full twiddle table, and reduced (the
// switch off), against the CPU: one-, two- and three-pass sizes, random and edge values, halves
// of p − 1 and 0 (the first stage's differences all 2p − 1, the product's largest word operand)
// and of 0 and p − 1 (all 1), and a 2^26 forward.
TEST_F(GpuNttTest, LazyDifferenceMatchesTheCpu) {
    util::TestRng rng(547);
    Variants v =
        per_algorithm(" reduced difference", [](NttOptions& o) { o.lazy_difference = false; });
    for (int mode = 0; mode < 3; ++mode) {
        const std::string label =
            std::string(" lazy difference") + (mode == 0 ? "" : mode == 1 ? " 8-byte" : " full table");
        for (auto& w : per_algorithm(label, [mode](NttOptions& o) {
                 o.lazy_difference = true;
                 o.vector_io = mode != 1;
                 o.full_twiddle_table = mode == 2;
             }))
            v.push_back(w);
    }
    expect_random_and_edge_inputs_same_as_cpu(rng, v, {3u, 10u, 13u, 15u, 21u, 22u});
    const Fr top = -Fr::one();  // p − 1
    for (unsigned log_n : {10u, 21u}) {
        const size_t m = size_t{1} << log_n;
        std::vector<Fr> high_low(m, Fr::zero()), low_high(m, top);
        for (size_t i = 0; i < m / 2; ++i) {
            high_low[i] = top;
            low_high[i] = Fr::zero();
        }
        expect_variants_same_as_cpu(high_low, "p − 1 then 0", v);
        expect_variants_same_as_cpu(low_high, "0 then p − 1", v);
    }
    Variants dif;
    for (bool lazy : {true, false}) {
        NttOptions o;
        o.lazy_difference = lazy;
        dif.emplace_back(lazy ? "lazy_difference" : "reduced difference", o);
    }
    expect_forward_2e26_same_as_cpu(rng, dif);
}

// The passes bounded for 5 or 6 blocks per SM (twiddles through L1), every thread count, against
// the CPU at one-, two- and three-pass sizes; and at 2^26 forward.
TEST_F(GpuNttTest, PassesBoundedForMoreBlocksMatchTheCpu) {
    util::TestRng rng(509);
    const Variants v =
        pass_variants("min_blocks", {5u, 6u}, {32u, 128u, 512u},
                      [](NttOptions& o, unsigned blocks) { o.pass_min_blocks = blocks; });
    for (unsigned log_n : {3u, 10u, 13u, 21u})
        expect_variants_same_as_cpu(random_vector(rng, size_t{1} << log_n), "random", v);
    const std::vector<Fr> input = random_vector(rng, size_t{1} << 26);
    std::vector<Fr> want = input;
    ASSERT_TRUE(ntt::forward(want, nullptr).ok());
    for (unsigned blocks : {5u, 6u}) {
        NttOptions o;
        o.pass_min_blocks = blocks;
        std::vector<Fr> got = input;
        ASSERT_TRUE(ntt_forward(got, o).ok());
        EXPECT_EQ(first_difference(want, got), -1) << "min_blocks=" << blocks;
    }
}

// 2^26 (passes of 8, 9 and 9 stages) with each register round width, forward only.
TEST_F(GpuNttTest, RegisterRoundsAt2e26MatchTheCpu) {
    util::TestRng rng(505);
    const std::vector<Fr> input = random_vector(rng, size_t{1} << 26);
    std::vector<Fr> want = input;
    ASSERT_TRUE(ntt::forward(want, nullptr).ok());
    for (unsigned stages : {1u, 2u, 3u})
        for (NttAlgorithm alg : kAlgorithms) {
            NttOptions o{alg};
            o.register_stages = stages;
            std::vector<Fr> got = input;
            ASSERT_TRUE(ntt_forward(got, o).ok());
            EXPECT_EQ(first_difference(want, got), -1) << name(alg) << " stages=" << stages;
        }
}

// A boolean option on and off, under both algorithms, against the CPU at each size.
template <class Set>
void expect_switch_same_as_cpu(uint64_t seed, const char* on, const char* off, Set set,
                               std::initializer_list<unsigned> log_sizes) {
    util::TestRng rng(seed);
    Variants v;
    for (bool value : {true, false})
        for (auto& w : per_algorithm(value ? on : off, [&](NttOptions& o) { set(o, value); }))
            v.push_back(w);
    for (unsigned log_n : log_sizes)
        expect_variants_same_as_cpu(random_vector(rng, size_t{1} << log_n), "random", v);
}

// The tiled bit reversal (2^8 and up; below, the pairwise swap) and the pairwise one.
TEST_F(GpuNttTest, TiledAndPairwiseBitReversalMatchTheCpu) {
    expect_switch_same_as_cpu(
        506, " tiled", " pairwise", [](NttOptions& o, bool on) { o.tiled_bit_reverse = on; },
        {7u, 8u, 9u, 10u, 15u, 22u});
}

// DIF's partial register round first (at the top bits) or last (overlapping the window at f
// bit 0), with rounds of 2 and 3 stages (rounds of 1 divide every pass): passes of 1, 2, 4, 5, 10 stages, 6 + 7 (2^13), 10 + 10
// (2^20), 7 + 7 + 7 (2^21) and 7 + 7 + 8 (2^22); DIT ignores the switch.
TEST_F(GpuNttTest, DifPartialRoundFirstOrLastMatchesTheCpu) {
    for (unsigned stages : {2u, 3u}) {
        SCOPED_TRACE("register stages " + std::to_string(stages));
        expect_switch_same_as_cpu(
            520 + stages, " partial first", " partial last",
            [stages](NttOptions& o, bool on) {
                o.dif_partial_round_first = on;
                o.register_stages = stages;
            },
            {1u, 2u, 4u, 5u, 10u, 13u, 20u, 21u, 22u});
    }
}

// The middle pass's own twiddle table (three passes: 2^21 and up) against the two-level one.
TEST_F(GpuNttTest, PassTwiddleTablesOnAndOffMatchTheCpu) {
    expect_switch_same_as_cpu(
        504, " tables", " no tables", [](NttOptions& o, bool on) { o.pass_twiddle_tables = on; },
        {21u, 22u});
}

// The outer pass's full twiddle table (2^11 and up: the first pass of DIF, the last of DIT;
// forward for ω, read backwards for ω⁻¹), with and without DIF's L2 prefetch of the twiddles,
// against the two-level table; two passes (2^11, 2^13) and three (2^21, 2^22).
TEST_F(GpuNttTest, FullTwiddleTableMatchesTheCpu) {
    util::TestRng rng(507);
    Variants v;
    for (int mode = 0; mode < 3; ++mode)
        for (auto& w : per_algorithm(mode == 0 ? " two-level" : mode == 1 ? " full" : " full+prefetch",
                                     [mode](NttOptions& o) {
                                         o.full_twiddle_table = mode > 0;
                                         o.twiddle_prefetch = mode == 2;
                                     }))
            v.push_back(w);
    for (unsigned log_n : {11u, 13u, 21u, 22u})
        expect_variants_same_as_cpu(random_vector(rng, size_t{1} << log_n), "random", v);
}

// A caller-held full table (NttOptions::full_twiddles, as the H step passes the one it takes
// from the scratch pool), written by fill_full_twiddles: its entries are ω^e, and transforms
// reading it (the domain's own table off) equal the CPU's; two passes and three.
TEST_F(GpuNttTest, CallerFullTwiddlesMatchTheCpu) {
    util::TestRng rng(508);
    for (unsigned log_n : {11u, 13u, 21u}) {
        const size_t m = size_t{1} << log_n;
        NttOptions plain;
        plain.full_twiddle_table = false;
        auto domain = NttDomain::create(log_n, plain);
        ASSERT_TRUE(domain.ok()) << domain.status().to_string();
        ASSERT_TRUE((*domain)->uses_full_twiddles());
        auto table = DeviceBuffer::allocate(m * sizeof(Fr));
        ASSERT_TRUE(table.ok()) << table.status().to_string();
        Fr* entries = static_cast<Fr*>(table->data());
        ASSERT_TRUE((*domain)->fill_full_twiddles(entries, nullptr).ok());
        std::vector<Fr> host(m);
        ASSERT_TRUE(table->download(host.data(), m * sizeof(Fr)).ok());
        auto cpu_domain = ntt::EvaluationDomain::create(m);
        ASSERT_TRUE(cpu_domain.ok());
        for (size_t e : {size_t{0}, size_t{1}, size_t{2}, m / 2 + 1, m - 1, rng.next_u64() % m})
            ASSERT_TRUE(host[e] == cpu_domain->omega().pow(uint64_t{e})) << "2^" << log_n << " entry " << e;
        Variants v = per_algorithm(" caller table", [entries](NttOptions& o) {
            o.full_twiddle_table = false;
            o.full_twiddles = entries;
        });
        expect_variants_same_as_cpu(random_vector(rng, m), "random", v);
    }
    NttOptions plain;
    plain.full_twiddle_table = false;
    for (unsigned log_n : {0u, 10u}) {
        auto small = NttDomain::create(log_n, plain);
        ASSERT_TRUE(small.ok());
        EXPECT_FALSE((*small)->uses_full_twiddles()) << "2^" << log_n << ": one pass";
    }
}

// The table is built when asked for and there is an outer pass (more than 2^10 points).
TEST_F(GpuNttTest, FullTwiddleTableIsBuiltWhenAskedFor) {
    NttOptions on, off;
    on.full_twiddle_table = true;
    off.full_twiddle_table = false;
    for (unsigned log_n : {1u, 10u, 11u, 16u}) {
        auto with = NttDomain::create(log_n, on);
        auto without = NttDomain::create(log_n, off);
        ASSERT_TRUE(with.ok() && without.ok());
        EXPECT_EQ((*with)->has_full_twiddle_table(), log_n > 10) << "2^" << log_n;
        EXPECT_FALSE((*without)->has_full_twiddle_table()) << "2^" << log_n;
    }
}

// Each value of one option is refused as an invalid argument whose message names its switch.
template <class Set>
void expect_refused(std::initializer_list<unsigned> values, Set set, const char* env_name) {
    std::vector<Fr> v(1024, Fr::one());
    for (unsigned value : values) {
        NttOptions o;
        set(o, value);
        const util::Status st = ntt_forward(v, o);
        EXPECT_EQ(st.code(), util::StatusCode::kInvalidArgument) << env_name << "=" << value;
        EXPECT_NE(st.to_string().find(env_name), std::string::npos) << st.to_string();
    }
}

TEST_F(GpuNttTest, BadPassThreadsAreErrors) {
    expect_refused({0u, 16u, 48u, 1024u}, [](NttOptions& o, unsigned t) { o.pass_threads = t; },
                   "CUZK_NTT_PASS_THREADS");
}

TEST_F(GpuNttTest, BadRegisterStagesAreErrors) {
    expect_refused({0u, 4u, 10u}, [](NttOptions& o, unsigned q) { o.register_stages = q; },
                   "CUZK_NTT_REGISTER_STAGES");
}

TEST_F(GpuNttTest, BadPassMinBlocksAreErrors) {
    expect_refused({1u, 4u, 7u}, [](NttOptions& o, unsigned b) { o.pass_min_blocks = b; },
                   "CUZK_NTT_PASS_MIN_BLOCKS");
}

TEST_F(GpuNttTest, BadSizesAreErrors) {
    std::vector<Fr> three(3, Fr::one());
    EXPECT_EQ(ntt_forward(three).code(), util::StatusCode::kInvalidArgument);
    std::vector<Fr> none;
    EXPECT_EQ(ntt_forward(none).code(), util::StatusCode::kInvalidArgument);
    EXPECT_EQ(NttDomain::create(NttDomain::kMaxLogSize + 1).status().code(),
              util::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace cuzk::gpu
