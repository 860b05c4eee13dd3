// The windows of the coset-Lagrange conversion's multiplications k·P (k split into two 128-bit
// halves, ec::split_by_x_squared): unsigned 4-bit digits (a table of 15 multiples per thread),
// or signed (Booth) 3-bit or 4-bit digits (tables of 4 or 8 multiples: less local memory per
// thread, more additions for 3 bits). Same results. Run-time switch CUZK_COSET_MUL_WINDOW =
// u4 | s3 | s4 (unbounded registers: 230–238, one block of 256 per SM) | u4x2 | s4x2 (u4 / s4
// with the kernels bounded to 128 registers, two blocks per SM: twice the warps to hide latency,
// ~110 bytes of spills per thread). u4x2 is the default: on an H100 a 2^22 transform stage 327.5
// → 284.3 ms against u4 (session 36); s3, s4 and s4x2 were slower (more additions).
// Plain C++ (used by the .cu and the host code).
#pragma once

#include <cstdint>
#include <string_view>

namespace cuzk::gpu {

enum class MulWindow : uint8_t {
    kUnsigned4,
    kSigned3,
    kSigned4,
    kUnsigned4TwoBlocks,
    kSigned4TwoBlocks
};

inline const char* mul_window_name(MulWindow w) {
    switch (w) {
        case MulWindow::kUnsigned4:
            return "u4";
        case MulWindow::kSigned3:
            return "s3";
        case MulWindow::kSigned4:
            return "s4";
        case MulWindow::kUnsigned4TwoBlocks:
            return "u4x2";
        case MulWindow::kSigned4TwoBlocks:
            return "s4x2";
    }
    return "?";
}
// The name above, or `fallback` for anything else (an unset variable included).
inline MulWindow parse_mul_window(std::string_view name, MulWindow fallback) {
    if (name == "u4") return MulWindow::kUnsigned4;
    if (name == "s3") return MulWindow::kSigned3;
    if (name == "s4") return MulWindow::kSigned4;
    if (name == "u4x2") return MulWindow::kUnsigned4TwoBlocks;
    if (name == "s4x2") return MulWindow::kSigned4TwoBlocks;
    return fallback;
}

}  // namespace cuzk::gpu
