// Coset-Lagrange conversion of a resident parameter set on the GPU (see coset_convert.hpp).
#include "gpu/coset_convert.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "ec/curves.hpp"
#include "gpu/coset_convert_launch.hpp"
#include "gpu/cuda_status.hpp"
#include "gpu/upload_stream.hpp"
#include "ntt/domain.hpp"

namespace cuzk::gpu {

namespace {

using detail::DeviceCoefficient;
using detail::DeviceSigmaSplit;
using ff::Fr;
using util::Status;

static_assert(sizeof(ec::G1Jacobian) == sizeof(DeviceG1Jacobian) &&
              sizeof(ec::G1Affine) == sizeof(DeviceG1Affine) && sizeof(ff::Fp) == sizeof(DeviceFp));

DeviceSigmaSplit device_split(const Fr& k) {
    const ec::SigmaSplit s = ec::split_by_x_squared(k);
    return {{s.k1.limb[0], s.k1.limb[1]}, {s.k2.limb[0], s.k2.limb[1]}};
}

// out[i] = split(first·step^(begin + i)) for i < out.size(), in parallel.
void split_powers(const Fr& first, const Fr& step, uint64_t begin,
                  std::vector<DeviceSigmaSplit>& out, util::ThreadPool& pool) {
    pool.parallel_ranges(out.size(), [&](size_t b, size_t e) {
        Fr k = first * step.pow(begin + b);
        for (size_t i = b; i < e; ++i) {
            out[i] = device_split(k);
            k *= step;
        }
    });
}

// v in a new device buffer, the copy ordered on `stream` (before the kernels that read it: a
// plain cudaMemcpy from pageable memory may return before its DMA lands, and the conversion's
// stream does not wait for the legacy stream). v may be freed on return (pageable: staged).
template <class T>
util::Result<DeviceBuffer> upload_vector(const std::vector<T>& v, cudaStream_t stream) {
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer b, DeviceBuffer::allocate(std::max<size_t>(1, v.size()) *
                                                                 sizeof(T)));
    if (!v.empty())
        CUZK_CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(b.data(), v.data(), v.size() * sizeof(T),
                                                  cudaMemcpyHostToDevice, stream));
    return b;
}

struct Converter {
    Converter(ResidentParams& p, const r1cs::ShapeRecorder& sh, const CosetConvertOptions& o,
              util::ThreadPool& tp)
        : params(p), shape(sh), options(o), pool(tp) {}

    ResidentParams& params;
    const r1cs::ShapeRecorder& shape;
    const CosetConvertOptions& options;
    util::ThreadPool& pool;
    size_t m = 0;
    unsigned log_m = 0;
    DeviceFp beta;
    DeviceBuffer twiddles;  // split ω^−i, i < m/2
    DeviceBuffer work;      // m Jacobian points
    // Declared last, so destroyed first: it waits for its work before the buffers above go.
    NonBlockingStream stream;

    DeviceG1Jacobian* w() const { return static_cast<DeviceG1Jacobian*>(work.data()); }

    void report(const char* step, uint64_t done, uint64_t total) const {
        if (options.progress) options.progress(step, done, total);
    }

    // work ← transform of (first·step^j·H_j)_j, W_{m−1} = O; synchronous.
    Status scaled_transform(const Fr& first, const Fr& step, const char* name) {
        const DeviceSpan<ec::G1Affine> h = params.h();
        const size_t chunk = std::max<size_t>(1, options.chunk_points);
        std::vector<DeviceSigmaSplit> k;
        CUZK_ASSIGN_OR_RETURN(DeviceBuffer k_dev,
                              DeviceBuffer::allocate(std::max<size_t>(1, std::min(chunk, h.size)) *
                                                     sizeof(DeviceSigmaSplit)));
        for (size_t begin = 0; begin < h.size; begin += chunk) {
            const size_t n = std::min(chunk, h.size - begin);
            k.resize(n);
            split_powers(first, step, begin, k, pool);
            // The previous chunk's kernel reads k_dev: the copy waits for it on the stream.
            CUZK_CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(k_dev.data(), k.data(),
                                                      n * sizeof(DeviceSigmaSplit),
                                                      cudaMemcpyHostToDevice, stream.stream));
            CUZK_CUDA_RETURN_IF_ERROR(detail::launch_scale_points(
                options.mul_window,
                reinterpret_cast<const DeviceG1Affine*>(h.data) + begin,
                static_cast<const DeviceSigmaSplit*>(k_dev.data()), n, beta, w() + begin,
                stream.stream));
            CUZK_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream.stream));  // k reused
        }
        CUZK_CUDA_RETURN_IF_ERROR(detail::launch_fill_identity(w() + h.size, m - h.size,
                                                               stream.stream));
        if (log_m == 0) return Status();  // m = 1: the transform is the identity map
        CUZK_CUDA_RETURN_IF_ERROR(detail::launch_bit_reverse(w(), log_m, stream.stream));
        for (unsigned st = 0; st < log_m; ++st) {
            CUZK_CUDA_RETURN_IF_ERROR(detail::launch_dit_stage(
                options.mul_window, w(), log_m, st,
                static_cast<const DeviceSigmaSplit*>(twiddles.data()), beta,
                stream.stream));
            CUZK_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream.stream));
            report(name, st + 1, log_m);
        }
        return Status();
    }

    // S = Cᵀ·R with R in work; writes L − S over l, returns the inputs' S.
    util::Result<std::vector<ec::G1Affine>> fold_c() {
        const r1cs::CsrColumns cols = r1cs::group_by_column(shape.c(), shape.num_columns());
        std::vector<DeviceCoefficient> coefficients(shape.coefficients().size());
        for (size_t i = 0; i < coefficients.size(); ++i) {
            const Fr& c = shape.coefficients()[i];
            DeviceCoefficient& d = coefficients[i];
            d = {};
            if (c == Fr::one()) d.kind = detail::CoefficientKind::kOne;
            else if (c == -Fr::one()) d.kind = detail::CoefficientKind::kMinusOne;
            else if (c.is_zero()) d.kind = detail::CoefficientKind::kZero;
            else {
                d.kind = detail::CoefficientKind::kGeneral;
                d.split = device_split(c);
            }
        }
        CUZK_ASSIGN_OR_RETURN(DeviceBuffer coefficients_dev,
                              upload_vector(coefficients, stream.stream));
        const size_t columns = shape.num_columns(), ni = shape.num_inputs();
        const size_t range = std::max<size_t>(1, options.chunk_points);
        const uint64_t per_thread = std::max(1u, options.entries_per_thread);
        // Partial sums are added at least two per thread, so every level shortens a column.
        const uint64_t fan_in = std::max<uint64_t>(2, per_thread);
        std::vector<ec::G1Affine> c_input(ni);
        ec::G1Affine* l_out = params.writable_g1(groth16::Section::kL);
        for (size_t c0 = 0; c0 < columns; c0 += range) {
            const size_t c1 = std::min(columns, c0 + range), n = c1 - c0;
            const uint64_t e0 = cols.offset[c0], e1 = cols.offset[c1];
            // The range's entries; level 0: chunks of ≤ per_thread entries per column.
            std::vector<uint32_t> rows(cols.row.begin() + e0, cols.row.begin() + e1);
            std::vector<uint32_t> coeff(cols.coeff.begin() + e0, cols.coeff.begin() + e1);
            struct Segment {
                uint64_t column, first, count;  // local column; its partial sums [first, +count)
            };
            std::vector<Segment> segments(n);
            std::vector<uint64_t> bounds;
            for (size_t c = 0; c < n; ++c) {
                const uint64_t b = cols.offset[c0 + c] - e0, e = cols.offset[c0 + c + 1] - e0;
                segments[c] = {c, bounds.size() / 2, 0};
                uint64_t x = b;
                do {
                    bounds.push_back(x);
                    x = std::min(e, x + per_thread);
                    bounds.push_back(x);
                    ++segments[c].count;
                } while (x < e);
            }
            const cudaStream_t st = stream.stream;
            CUZK_ASSIGN_OR_RETURN(DeviceBuffer rows_dev, upload_vector(rows, st));
            CUZK_ASSIGN_OR_RETURN(DeviceBuffer coeff_dev, upload_vector(coeff, st));
            CUZK_ASSIGN_OR_RETURN(DeviceBuffer bounds_dev, upload_vector(bounds, st));
            CUZK_ASSIGN_OR_RETURN(
                DeviceBuffer partial,
                DeviceBuffer::allocate(bounds.size() / 2 * sizeof(DeviceG1Jacobian)));
            CUZK_ASSIGN_OR_RETURN(DeviceBuffer s_dev,
                                  DeviceBuffer::allocate(n * sizeof(DeviceG1Jacobian)));
            auto* s = static_cast<DeviceG1Jacobian*>(s_dev.data());
            CUZK_CUDA_RETURN_IF_ERROR(detail::launch_entry_chunk_sums(
                options.mul_window, static_cast<const uint64_t*>(bounds_dev.data()),
                bounds.size() / 2,
                static_cast<const uint32_t*>(rows_dev.data()),
                static_cast<const uint32_t*>(coeff_dev.data()),
                static_cast<const DeviceCoefficient*>(coefficients_dev.data()), w(), beta,
                static_cast<DeviceG1Jacobian*>(partial.data()), stream.stream));
            // Segments with one partial sum are done (scattered into s); the others' partial
            // sums are added up in chunks again.
            while (!segments.empty()) {
                std::vector<uint64_t> pairs;
                std::vector<Segment> next;
                bounds.clear();
                for (const Segment& g : segments) {
                    if (g.count == 1) {
                        pairs.push_back(g.first);
                        pairs.push_back(g.column);
                        continue;
                    }
                    Segment h{g.column, bounds.size() / 2, 0};
                    for (uint64_t x = g.first; x < g.first + g.count; x += fan_in) {
                        bounds.push_back(x);
                        bounds.push_back(std::min(g.first + g.count, x + fan_in));
                        ++h.count;
                    }
                    next.push_back(h);
                }
                CUZK_ASSIGN_OR_RETURN(DeviceBuffer pairs_dev, upload_vector(pairs, st));
                CUZK_CUDA_RETURN_IF_ERROR(detail::launch_scatter_points(
                    static_cast<const uint64_t*>(pairs_dev.data()), pairs.size() / 2,
                    static_cast<const DeviceG1Jacobian*>(partial.data()), s, stream.stream));
                if (!next.empty()) {
                    // The old bounds may still be read by the queued level: wait before freeing.
                    CUZK_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream.stream));
                    CUZK_ASSIGN_OR_RETURN(bounds_dev, upload_vector(bounds, st));
                    CUZK_ASSIGN_OR_RETURN(DeviceBuffer sums,
                                          DeviceBuffer::allocate(bounds.size() / 2 *
                                                                 sizeof(DeviceG1Jacobian)));
                    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_point_chunk_sums(
                        static_cast<const uint64_t*>(bounds_dev.data()), bounds.size() / 2,
                        static_cast<const DeviceG1Jacobian*>(partial.data()),
                        static_cast<DeviceG1Jacobian*>(sums.data()), stream.stream));
                    CUZK_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream.stream));
                    partial = std::move(sums);
                }
                CUZK_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream.stream));  // pairs freed
                segments = std::move(next);
            }
            // Aux columns: L − S; then all of the range to affine.
            const size_t aux_first = std::max(c0, ni);  // the range's first aux column
            if (aux_first < c1)
                CUZK_CUDA_RETURN_IF_ERROR(detail::launch_affine_minus(
                    reinterpret_cast<const DeviceG1Affine*>(params.l().data) + (aux_first - ni),
                    s + (aux_first - c0), c1 - aux_first, stream.stream));
            CUZK_ASSIGN_OR_RETURN(DeviceBuffer affine,
                                  DeviceBuffer::allocate(n * sizeof(DeviceG1Affine)));
            auto* a = static_cast<DeviceG1Affine*>(affine.data());
            CUZK_CUDA_RETURN_IF_ERROR(detail::launch_normalize_g1(s, n, a, stream.stream));
            if (c0 < ni)
                CUZK_CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(
                    c_input.data() + c0, a, (std::min(c1, ni) - c0) * sizeof(DeviceG1Affine),
                    cudaMemcpyDeviceToHost, stream.stream));
            if (aux_first < c1)
                CUZK_CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(
                    l_out + (aux_first - ni), a + (aux_first - c0),
                    (c1 - aux_first) * sizeof(DeviceG1Affine), cudaMemcpyDefault, stream.stream));
            CUZK_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream.stream));
            report("s", c1, columns);
        }
        return c_input;
    }
};

}  // namespace

Status check_params_fit_shape(const ResidentParams& params, const r1cs::ShapeRecorder& shape) {
    if (!shape.finished())
        return util::invalid_argument("coset-Lagrange bases: the shape is not finished");
    CUZK_ASSIGN_OR_RETURN(ntt::EvaluationDomain d,
                          ntt::EvaluationDomain::create(shape.c().rows()));
    if (params.vk().ic.size() != shape.num_inputs() || params.num_aux() != shape.num_aux() ||
        params.domain_size() != d.size())
        return util::invalid_argument("coset-Lagrange bases: the parameter set does not fit "
                                      "the circuit (inputs, aux or domain size differ)");
    return Status();
}

Status convert_params_to_coset_lagrange(ResidentParams& params, const r1cs::ShapeRecorder& shape,
                                        const CosetConvertOptions& options) {
    if (params.h_basis() != groth16::HBasis::kMonomial)
        return util::invalid_argument("coset-Lagrange conversion: the parameter set's H bases "
                                      "are not monomial");
    CUZK_RETURN_IF_ERROR(check_params_fit_shape(params, shape));
    CUZK_ASSIGN_OR_RETURN(ntt::EvaluationDomain d,
                          ntt::EvaluationDomain::create(shape.c().rows()));
    const size_t m = d.size();
    util::ThreadPool& pool = options.pool != nullptr ? *options.pool : util::ThreadPool::global();
    Converter cv(params, shape, options, pool);
    cv.m = m;
    while ((size_t{1} << cv.log_m) < m) ++cv.log_m;
    std::memcpy(static_cast<void*>(&cv.beta), &ec::sigma_beta(), sizeof(DeviceFp));
    CUZK_RETURN_IF_ERROR(cv.stream.create());
    {
        std::vector<DeviceSigmaSplit> tw(m / 2);
        split_powers(Fr::one(), d.omega_inv(), 0, tw, pool);
        CUZK_ASSIGN_OR_RETURN(cv.twiddles, upload_vector(tw, cv.stream.stream));
    }
    CUZK_ASSIGN_OR_RETURN(cv.work, DeviceBuffer::allocate(m * sizeof(DeviceG1Jacobian)));
    const Fr z_g = d.coset_generator().pow(static_cast<uint64_t>(m)) - Fr::one();
    const Fr scale = (Fr::from_u64(m) * z_g).inverse();

    util::PhaseScope r_phase("coset_r", options.times);
    CUZK_RETURN_IF_ERROR(cv.scaled_transform(scale, Fr::one(), "r"));
    r_phase.stop();
    util::PhaseScope s_phase("coset_s", options.times);
    CUZK_ASSIGN_OR_RETURN(std::vector<ec::G1Affine> c_input, cv.fold_c());
    s_phase.stop();
    util::PhaseScope q_phase("coset_q", options.times);
    CUZK_RETURN_IF_ERROR(cv.scaled_transform(scale, d.coset_generator_inv(), "q"));
    CUZK_ASSIGN_OR_RETURN(ec::G1Affine * h, params.reallocate_g1(groth16::Section::kH, m));
    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_normalize_g1(cv.w(), m,
                                                          reinterpret_cast<DeviceG1Affine*>(h),
                                                          cv.stream.stream));
    CUZK_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(cv.stream.stream));
    q_phase.stop();
    return params.set_coset_lagrange(std::move(c_input));
}

}  // namespace cuzk::gpu
