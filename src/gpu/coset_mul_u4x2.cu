// The coset conversion's kernels with u4x2 windows (coset_mul_window.hpp, coset_mul_kernels.cuh).
#include "gpu/coset_mul_kernels.cuh"

namespace cuzk::gpu::detail {

const FormLaunches& form_launches_u4x2() {
    static const FormLaunches launches = make_form_launches<Form<4, false, 2>>();
    return launches;
}

}  // namespace cuzk::gpu::detail
