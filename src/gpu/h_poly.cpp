#include "gpu/h_poly.hpp"

#include <cuda_runtime_api.h>

#include "gpu/cuda_status.hpp"
#include "gpu/scratch_cache.hpp"
#include "ntt/domain.hpp"
#include "util/timer.hpp"

namespace cuzk::gpu {

namespace {

util::Status run_h_transforms(const NttDomain& domain, ff::Fr* a, ff::Fr* b, ff::Fr* c,
                              CUstream_st* stream, const NttOptions& options,
                              groth16::HBasis basis) {
    if (basis == groth16::HBasis::kCosetLagrange) {
        for (ff::Fr* v : {a, b})
            CUZK_RETURN_IF_ERROR(domain.inverse_then_coset_forward(v, stream, options));
        return domain.multiply_pointwise(a, b, stream, options);
    }
    if (options.h_six_transforms) {
        for (ff::Fr* v : {a, b})
            CUZK_RETURN_IF_ERROR(domain.inverse_then_coset_forward(v, stream, options));
        return domain.h_from_coset_product(a, b, c, stream, options);
    }
    for (ff::Fr* v : {a, b, c})
        CUZK_RETURN_IF_ERROR(domain.inverse_then_coset_forward(v, stream, options));
    CUZK_RETURN_IF_ERROR(domain.quotient_on_coset(a, b, c, stream));
    return domain.coset_inverse(a, stream, options);
}

}  // namespace

util::Status compute_h_device(const NttDomain& domain, ff::Fr* a, ff::Fr* b, ff::Fr* c,
                              CUstream_st* stream, const NttOptions& options,
                              groth16::HBasis basis) {
    const bool table_elsewhere =
        options.full_twiddles != nullptr ||
        (options.full_twiddle_table && domain.has_full_twiddle_table());
    if (!options.h_pooled_twiddle_table || table_elsewhere || !domain.uses_full_twiddles())
        return run_h_transforms(domain, a, b, c, stream, options, basis);
    // The pooled table: taken and given back in the order of `stream`, so the memory is free
    // for whatever the pool serves next (the H MSM) once the transforms are done.
    auto table = ScratchPool::instance().take(domain.size() * sizeof(ff::Fr), stream);
    if (!table.ok()) {
        if (table.status().code() != util::StatusCode::kResourceExhausted) return table.status();
        // No room: the transforms compute their twiddles by products.
        return run_h_transforms(domain, a, b, c, stream, options, basis);
    }
    NttOptions with_table = options;
    with_table.full_twiddles = static_cast<const ff::Fr*>(table->data());
    CUZK_RETURN_IF_ERROR(domain.fill_full_twiddles(static_cast<ff::Fr*>(table->data()), stream));
    return run_h_transforms(domain, a, b, c, stream, with_table, basis);
}

util::Result<std::vector<ff::Fr>> compute_h(std::span<const ff::Fr> a, std::span<const ff::Fr> b,
                                            std::span<const ff::Fr> c, const NttOptions& options,
                                            HTimings* timings) {
    util::Stopwatch total;
    if (a.size() != b.size() || a.size() != c.size() || a.empty())
        return util::invalid_argument("gpu::compute_h: a, b, c must have the same length >= 1");
    CUZK_ASSIGN_OR_RETURN(ntt::EvaluationDomain d, ntt::EvaluationDomain::create(a.size()));
    CUZK_ASSIGN_OR_RETURN(auto domain, NttDomain::create(d.log_size(), options));
    const size_t m = d.size();
    const size_t bytes = m * sizeof(ff::Fr);
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer buf, DeviceBuffer::allocate(3 * bytes));
    ff::Fr* dev = static_cast<ff::Fr*>(buf.data());
    util::Stopwatch sw;
    CUZK_CUDA_RETURN_IF_ERROR(cudaMemset(buf.data(), 0, 3 * bytes));  // the padding (Fr zero)
    const std::span<const ff::Fr> in[3] = {a, b, c};
    for (int k = 0; k < 3; ++k)
        CUZK_CUDA_RETURN_IF_ERROR(cudaMemcpy(dev + k * m, in[k].data(), in[k].size_bytes(),
                                             cudaMemcpyHostToDevice));
    const double ms_upload = sw.elapsed_ms();
    sw.reset();
    CUZK_RETURN_IF_ERROR(compute_h_device(*domain, dev, dev + m, dev + 2 * m, nullptr, options));
    CUZK_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(nullptr));
    const double ms_ntt = sw.elapsed_ms();
    sw.reset();
    std::vector<ff::Fr> h(m - 1);
    if (m > 1)
        CUZK_CUDA_RETURN_IF_ERROR(
            cudaMemcpy(h.data(), dev, (m - 1) * sizeof(ff::Fr), cudaMemcpyDeviceToHost));
    if (timings != nullptr) *timings = {ms_upload, ms_ntt, sw.elapsed_ms(), total.elapsed_ms()};
    return h;
}

}  // namespace cuzk::gpu
