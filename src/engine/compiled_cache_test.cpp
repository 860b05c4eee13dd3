// CompiledCache: compiles once per proof type, charges the measured bytes to the budget before
// recording,
// refuses (null, retried later) what does not fit, evicts idle entries nobody holds and
// releases their bytes. A small hand-made circuit stands in for the PoRep shape (the compiled
// path itself is checked against synthesize_into in groth16/compiled_circuit_test.cpp).
#include "engine/compiled_cache.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace cuzk::engine {
namespace {

using porep::RegisteredSealProof;
using std::chrono::milliseconds;

// A chain of n squarings: its compiled size grows with n.
groth16::Circuit chain(size_t n) {
    return [n](r1cs::ConstraintSystem& cs) -> util::Status {
        std::optional<ff::Fr> v;
        if (cs.computes_values()) v = ff::Fr::from_u64(3);
        auto x = cs.alloc("x", v);
        if (!x.ok()) return x.status();
        r1cs::Variable cur = *x;
        for (size_t i = 0; i < n; ++i) {
            if (v) v = *v * *v;
            auto next = cs.alloc("y", v);
            if (!next.ok()) return next.status();
            cs.enforce("sq", cur, cur, *next);
            cur = *next;
        }
        return util::Status();
    };
}

struct Counting {
    std::atomic<int> calls{0};
    CompiledCache::BlankCircuit compiler(size_t n) {
        return [this, n](RegisteredSealProof) -> util::Result<groth16::Circuit> {
            ++calls;
            return chain(n);
        };
    }
};

// A circuit compiled by the caller is used as is (no compilation), charged to the budget; a
// second one for the same type, or one that does not fit, is refused.
TEST(CompiledCache, InsertedCircuitIsUsedAndCharged) {
    MemoryBudget budget(uint64_t{1} << 30);
    Counting counting;
    CompiledCache cache(budget, milliseconds(1000), milliseconds(1000), counting.compiler(10));
    auto made = groth16::CompiledCircuit::compile(chain(50));
    ASSERT_TRUE(made.ok());
    std::shared_ptr<const groth16::CompiledCircuit> circuit = std::move(*made);
    ASSERT_TRUE(cache.insert(RegisteredSealProof::kStackedDrg2KiBV1_1, circuit).ok());
    EXPECT_EQ(cache.get(RegisteredSealProof::kStackedDrg2KiBV1_1), circuit);
    EXPECT_EQ(counting.calls.load(), 0);
    EXPECT_EQ(budget.reserved(), circuit->bytes());
    EXPECT_FALSE(cache.insert(RegisteredSealProof::kStackedDrg2KiBV1_1, circuit).ok());
    EXPECT_FALSE(cache.insert(RegisteredSealProof::kStackedDrg8MiBV1_1, nullptr).ok());
    MemoryBudget tiny(16);
    CompiledCache small(tiny, milliseconds(1000), milliseconds(1000), counting.compiler(10));
    const util::Status st = small.insert(RegisteredSealProof::kStackedDrg2KiBV1_1, circuit);
    EXPECT_EQ(st.code(), util::StatusCode::kResourceExhausted);
    EXPECT_EQ(tiny.reserved(), 0u);
}

TEST(CompiledCache, CompilesOnceAndChargesTheBudget) {
    MemoryBudget budget(uint64_t{1} << 30);
    Counting counting;
    CompiledCache cache(budget, milliseconds(50), milliseconds(50), counting.compiler(100));
    EXPECT_EQ(cache.get(RegisteredSealProof::kStackedDrg2KiBV1_1), nullptr);  // compiling
    cache.wait_idle();
    auto a = cache.get(RegisteredSealProof::kStackedDrg2KiBV1_1);
    ASSERT_NE(a, nullptr);
    auto b = cache.get(RegisteredSealProof::kStackedDrg2KiBV1_1);
    EXPECT_EQ(a, b);
    EXPECT_EQ(counting.calls.load(), 1);
    EXPECT_EQ(a->num_rows(), 100u + 1u);  // 100 squarings + the ONE input row
    // The reservation is the measured size, made before recording: at least the real bytes.
    EXPECT_GE(cache.bytes(), a->bytes());
    EXPECT_LE(cache.bytes(), a->bytes() + 4096 * sizeof(ff::Fr));
    EXPECT_EQ(budget.reserved(), cache.bytes());
    EXPECT_EQ(cache.entries(), 1u);
    // Another proof type is another entry.
    EXPECT_EQ(cache.get(RegisteredSealProof::kStackedDrg8MiBV1_1), nullptr);
    cache.wait_idle();
    auto c = cache.get(RegisteredSealProof::kStackedDrg8MiBV1_1);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(counting.calls.load(), 2);
    EXPECT_EQ(budget.reserved(), cache.bytes());
    EXPECT_GE(cache.bytes(), a->bytes() + c->bytes());
}

TEST(CompiledCache, EvictsIdleEntriesNobodyHolds) {
    MemoryBudget budget(uint64_t{1} << 30);
    Counting counting;
    CompiledCache cache(budget, milliseconds(0), milliseconds(0), counting.compiler(50));
    cache.get(RegisteredSealProof::kStackedDrg2KiBV1_1);
    cache.wait_idle();
    auto held = cache.get(RegisteredSealProof::kStackedDrg2KiBV1_1);
    ASSERT_NE(held, nullptr);
    const auto later = CompiledCache::Clock::now() + std::chrono::seconds(1);
    EXPECT_FALSE(cache.evict_idle(later));  // still held by a caller
    EXPECT_EQ(cache.entries(), 1u);
    held.reset();
    EXPECT_TRUE(cache.evict_idle(later));
    EXPECT_EQ(cache.entries(), 0u);
    EXPECT_EQ(budget.reserved(), 0u);
    cache.get(RegisteredSealProof::kStackedDrg2KiBV1_1);  // starts the recompilation
    cache.wait_idle();
    EXPECT_NE(cache.get(RegisteredSealProof::kStackedDrg2KiBV1_1), nullptr);
    EXPECT_EQ(counting.calls.load(), 2);
}

TEST(CompiledCache, WhatDoesNotFitIsRefusedAndRetriedLater) {
    MemoryBudget budget(1000);  // far less than the shape
    Counting counting;
    CompiledCache cache(budget, milliseconds(1000), milliseconds(60 * 1000),
                        counting.compiler(1000));
    EXPECT_EQ(cache.get(RegisteredSealProof::kStackedDrg2KiBV1_1), nullptr);
    cache.wait_idle();
    EXPECT_EQ(budget.reserved(), 0u);
    // Within retry_after: refused without compiling again.
    EXPECT_EQ(cache.get(RegisteredSealProof::kStackedDrg2KiBV1_1), nullptr);
    EXPECT_EQ(counting.calls.load(), 1);

    MemoryBudget roomy(uint64_t{1} << 30);
    CompiledCache retrying(roomy, milliseconds(1000), milliseconds(0), counting.compiler(10));
    EXPECT_EQ(retrying.get(RegisteredSealProof::kStackedDrg2KiBV1_1), nullptr);
    retrying.wait_idle();
    EXPECT_NE(retrying.get(RegisteredSealProof::kStackedDrg2KiBV1_1), nullptr);
}

TEST(CompiledCache, CallersNeverWaitForACompilation) {
    MemoryBudget budget(uint64_t{1} << 30);
    std::atomic<bool> release{false};
    std::atomic<int> calls{0};
    CompiledCache cache(budget, milliseconds(1000), milliseconds(1000),
                        [&](RegisteredSealProof) -> util::Result<groth16::Circuit> {
                            ++calls;
                            while (!release) std::this_thread::yield();
                            return chain(10);
                        });
    // The compilation blocks until released, yet every get() returns at once.
    EXPECT_EQ(cache.get(RegisteredSealProof::kStackedDrg2KiBV1_1), nullptr);
    while (calls.load() == 0) std::this_thread::yield();
    EXPECT_EQ(cache.get(RegisteredSealProof::kStackedDrg2KiBV1_1), nullptr);
    EXPECT_EQ(cache.entries(), 0u);
    release = true;
    cache.wait_idle();
    auto first = cache.get(RegisteredSealProof::kStackedDrg2KiBV1_1);
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(cache.get(RegisteredSealProof::kStackedDrg2KiBV1_1), first);
    EXPECT_EQ(calls.load(), 1);
}

TEST(CompiledCache, DestructorJoinsARunningCompilation) {
    MemoryBudget budget(uint64_t{1} << 30);
    {
        CompiledCache cache(budget, milliseconds(1000), milliseconds(1000),
                            [](RegisteredSealProof) -> util::Result<groth16::Circuit> {
                                std::this_thread::sleep_for(milliseconds(50));
                                return chain(10);
                            });
        EXPECT_EQ(cache.get(RegisteredSealProof::kStackedDrg2KiBV1_1), nullptr);
    }
    EXPECT_EQ(budget.reserved(), 0u);  // reserved by the compilation, released by the destructor
}

}  // namespace
}  // namespace cuzk::engine
