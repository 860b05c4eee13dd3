// The windows of the coset-Lagrange conversion's multiplications k·P (k split into two 128-bit
// halves, ec::split_by_x_squared): unsigned 4-bit digits (a table of 15 multiples per thread),
// or signed (Booth) 3-bit or 4-bit digits (tables of 4 or 8 multiples: less local memory per
// thread, more additions for 3 bits). Same results. Run-time switch CUZK_COSET_MUL_WINDOW =
// u4 (the default: fastest on an H100, session 35: a transform stage is bound by the products and
// the one block per SM that 238–248 registers allow, not by the table's memory) | s3 | s4.
// Plain C++ (used by the .cu and the host code).
#pragma once

#include <cstdint>
#include <string_view>

namespace cuzk::gpu {

enum class MulWindow : uint8_t { kUnsigned4, kSigned3, kSigned4 };

inline const char* mul_window_name(MulWindow w) {
    return w == MulWindow::kUnsigned4 ? "u4" : w == MulWindow::kSigned3 ? "s3" : "s4";
}
// The name above, or `fallback` for anything else (an unset variable included).
inline MulWindow parse_mul_window(std::string_view name, MulWindow fallback) {
    if (name == "u4") return MulWindow::kUnsigned4;
    if (name == "s3") return MulWindow::kSigned3;
    if (name == "s4") return MulWindow::kSigned4;
    return fallback;
}

}  // namespace cuzk::gpu
