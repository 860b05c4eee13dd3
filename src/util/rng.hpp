// Random number sources.
//
// TestRng: xoshiro256** (Blackman & Vigna, https://prng.di.unimi.it/xoshiro256starstar.c) seeded
// through splitmix64 — fast, deterministic, for tests and benchmarks only, never for proofs.
// os_random_bytes: the operating system's CSPRNG (getrandom), for secrets such as r, s.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cuzk::util {

class TestRng {
   public:
    explicit TestRng(uint64_t seed) {
        for (auto& word : state_) word = splitmix64(seed);
    }
    uint64_t next_u64() {
        const uint64_t result = rotl(state_[1] * 5, 7) * 9;
        const uint64_t t = state_[1] << 17;
        state_[2] ^= state_[0];
        state_[3] ^= state_[1];
        state_[1] ^= state_[2];
        state_[0] ^= state_[3];
        state_[2] ^= t;
        state_[3] = rotl(state_[3], 45);
        return result;
    }
    // Uniform in [0, bound) for bound > 0 (rejection sampling, no modulo bias).
    uint64_t uniform(uint64_t bound) {
        const uint64_t limit = ~uint64_t{0} - (~uint64_t{0} % bound);
        uint64_t x;
        do x = next_u64();
        while (x >= limit);
        return x % bound;
    }
    void fill(void* out, size_t n);

   private:
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    static uint64_t splitmix64(uint64_t& x) {
        uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    uint64_t state_[4];
};

// Fills out with n bytes from the OS CSPRNG; aborts the process if the OS cannot provide them.
void os_random_bytes(void* out, size_t n);

}  // namespace cuzk::util
