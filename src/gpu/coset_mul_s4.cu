// The coset conversion's kernels with s4 windows (coset_mul_window.hpp, coset_mul_kernels.cuh).
#include "gpu/coset_mul_kernels.cuh"

namespace cuzk::gpu::detail {

const FormLaunches& form_launches_s4() {
    static const FormLaunches launches = make_form_launches<Form<4, true, 1>>();
    return launches;
}

}  // namespace cuzk::gpu::detail
