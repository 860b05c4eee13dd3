#include "util/rng.hpp"

#include <sys/random.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cuzk::util {

void TestRng::fill(void* out, size_t n) {
    auto* bytes = static_cast<unsigned char*>(out);
    while (n > 0) {
        const uint64_t word = next_u64();
        const size_t take = n < 8 ? n : 8;
        std::memcpy(bytes, &word, take);
        bytes += take;
        n -= take;
    }
}

void os_random_bytes(void* out, size_t n) {
    auto* bytes = static_cast<unsigned char*>(out);
    while (n > 0) {
        const ssize_t got = getrandom(bytes, n, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            std::fprintf(stderr, "cuzk: getrandom failed: %s\n", std::strerror(errno));
            std::abort();
        }
        bytes += got;
        n -= static_cast<size_t>(got);
    }
}

}  // namespace cuzk::util
