// Internal to src/gpu: the launch shape of grid-stride kernels — ⌈n / block⌉ blocks, at most
// `max_blocks` (the kernels loop past that). Host code, no CUDA types, so the .cu files and the
// host launchers can share it.
#pragma once

#include <cstddef>

namespace cuzk::gpu::detail {

inline unsigned grid_stride_blocks(size_t n, unsigned block, size_t max_blocks = size_t{1} << 20) {
    const size_t blocks = (n + block - 1) / block;
    return static_cast<unsigned>(blocks < max_blocks ? blocks : max_blocks);
}

}  // namespace cuzk::gpu::detail
