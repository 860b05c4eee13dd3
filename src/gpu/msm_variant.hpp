// Internal to src/gpu (host side): the batch-affine bucket step's kernel variant
// (detail::AffineVariant, msm_launch.hpp) that a set of GpuMsmOptions selects — one place for
// the MSM's bucket step and the batch addition's batch-affine method, which runs the same step.
#pragma once

#include "gpu/msm.hpp"
#include "gpu/msm_launch.hpp"

namespace cuzk::gpu::detail {

inline AffineVariant affine_variant(const GpuMsmOptions& o, bool g2) {
    return AffineVariant{o.batch_affine_prefetch,
                         g2 ? o.batch_affine_fused_g2 : o.batch_affine_fused,
                         o.batch_affine_add_min_blocks, o.batch_affine_priority,
                         o.batch_affine_parts, g2 && o.batch_affine_norm_inverse_g2,
                         o.batch_affine_vector_io, o.batch_affine_early_advance};
}

}  // namespace cuzk::gpu::detail
