// GPU parameter generation (see resident_setup.hpp).
#include "gpu/resident_setup.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <type_traits>
#include <utility>

#include "gpu/cuda_status.hpp"
#include "gpu/fixed_base_launch.hpp"
#include "gpu/pinned_pool.hpp"
#include "gpu/upload_stream.hpp"
#include "groth16/params_io.hpp"

namespace cuzk::gpu {

namespace {

using ff::Fr;
using util::Status;

static_assert(sizeof(ec::G1Affine) == sizeof(DeviceG1Affine) &&
              sizeof(ec::G1Xyzz) == sizeof(DeviceG1Xyzz) &&
              sizeof(ec::G2Affine) == sizeof(DeviceG2Affine) &&
              sizeof(ec::G2Xyzz) == sizeof(DeviceG2Xyzz));
static_assert(std::is_trivially_copyable_v<ec::G1Affine> &&
              std::is_trivially_copyable_v<ec::G2Affine>);

cudaError_t launch_fixed_base(const ec::FixedBaseTable<ec::G1Curve>&, const void* table_dev,
                              unsigned window, unsigned windows, size_t row,
                              const uint64_t* scalars, size_t n, void* scratch, void* out,
                              cudaStream_t stream) {
    detail::DeviceFixedBaseTable<DeviceG1Affine> t{static_cast<const DeviceG1Affine*>(table_dev),
                                                   window, windows, row};
    return detail::launch_fixed_base_g1(t, scalars, n, static_cast<DeviceG1Xyzz*>(scratch),
                                        static_cast<DeviceG1Affine*>(out), stream);
}

cudaError_t launch_fixed_base(const ec::FixedBaseTable<ec::G2Curve>&, const void* table_dev,
                              unsigned window, unsigned windows, size_t row,
                              const uint64_t* scalars, size_t n, void* scratch, void* out,
                              cudaStream_t stream) {
    detail::DeviceFixedBaseTable<DeviceG2Affine> t{static_cast<const DeviceG2Affine*>(table_dev),
                                                   window, windows, row};
    return detail::launch_fixed_base_g2(t, scalars, n, static_cast<DeviceG2Xyzz*>(scratch),
                                        static_cast<DeviceG2Affine*>(out), stream);
}

// scalars[i]·G → dev_out[i] through double-buffered pinned staging; synchronous on return.
template <class C>
Status fixed_base_impl(const ec::FixedBaseTable<C>& table, std::span<const Fr> scalars,
                       ec::Affine<C>* dev_out, const GpuSetupOptions& options,
                       const char* section_name) {
    using Xyzz = ec::Xyzz<C>;
    if (scalars.empty()) return Status();
    util::ThreadPool& pool = options.pool != nullptr ? *options.pool : util::ThreadPool::global();
    const size_t chunk = std::max<size_t>(1, std::min(options.chunk_points, scalars.size()));

    const auto points = table.points();
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer table_dev, DeviceBuffer::allocate(points.size_bytes()));
    CUZK_RETURN_IF_ERROR(table_dev.upload(points.data(), points.size_bytes()));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer scratch, DeviceBuffer::allocate(chunk * sizeof(Xyzz)));
    // Two device scalar buffers so that chunk k+1's copy may overlap chunk k's kernels.
    const size_t scalar_bytes = chunk * 4 * sizeof(uint64_t);
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer scalars_dev, DeviceBuffer::allocate(2 * scalar_bytes));
    CUZK_ASSIGN_OR_RETURN(PinnedPool::Lease staging, PinnedPool::global().acquire(2 * scalar_bytes));
    UploadStream upload;
    CUZK_RETURN_IF_ERROR(upload.create());

    for (size_t first = 0, k = 0; first < scalars.size(); first += chunk, ++k) {
        const size_t n = std::min(chunk, scalars.size() - first);
        const unsigned half = static_cast<unsigned>(k & 1);
        CUZK_CUDA_RETURN_IF_ERROR(cudaEventSynchronize(upload.done[half]));
        auto* host = reinterpret_cast<uint64_t*>(staging.data() + half * scalar_bytes);
        pool.parallel_ranges(n, [&](size_t begin, size_t end) {
            for (size_t i = begin; i < end; ++i) {
                const auto v = scalars[first + i].to_int();
                std::memcpy(host + 4 * i, v.limb, 4 * sizeof(uint64_t));
            }
        });
        auto* dev_scalars = reinterpret_cast<uint64_t*>(static_cast<uint8_t*>(scalars_dev.data()) +
                                                        half * scalar_bytes);
        CUZK_CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(dev_scalars, host, n * 4 * sizeof(uint64_t),
                                                  cudaMemcpyHostToDevice, upload.stream));
        CUZK_CUDA_RETURN_IF_ERROR(launch_fixed_base(
            table, table_dev.data(), table.window(), static_cast<unsigned>(table.windows()),
            table.row(), dev_scalars, n, scratch.data(), dev_out + first,
            upload.stream));
        CUZK_CUDA_RETURN_IF_ERROR(cudaEventRecord(upload.done[half], upload.stream));
        if (options.progress) options.progress(section_name, first + n, scalars.size());
    }
    CUZK_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(upload.stream));
    return Status();
}

unsigned window_for(unsigned requested, size_t n, const GpuSetupOptions& options) {
    return requested != 0 ? requested : ec::choose_fixed_base_window(n, options.max_window);
}

}  // namespace

Status fixed_base_mul_device(const ec::FixedBaseTable<ec::G1Curve>& table,
                             std::span<const Fr> scalars, ec::G1Affine* dev_out,
                             const GpuSetupOptions& options) {
    return fixed_base_impl(table, scalars, dev_out, options, "g1");
}

Status fixed_base_mul_device(const ec::FixedBaseTable<ec::G2Curve>& table,
                             std::span<const Fr> scalars, ec::G2Affine* dev_out,
                             const GpuSetupOptions& options) {
    return fixed_base_impl(table, scalars, dev_out, options, "g2");
}

util::Result<ResidentParams> generate_resident_params(const groth16::ParameterScalars& sc,
                                                      const GpuSetupOptions& options) {
    using groth16::Section;
    const bool coset = sc.h_basis == groth16::HBasis::kCosetLagrange;
    if (sc.domain_size < 2 || sc.h.size() != sc.domain_size - (coset ? 0 : 1))
        return util::invalid_argument(coset ? "gpu setup: the coset-Lagrange h scalars must "
                                              "number the domain size"
                                            : "gpu setup: the h scalars must number domain "
                                              "size - 1");
    if (sc.ic.size() != sc.num_inputs || sc.l.size() != sc.num_aux ||
        sc.c_input.size() != (coset ? sc.num_inputs : 0))
        return util::invalid_argument("gpu setup: ic/l/c_input scalar counts differ from "
                                      "inputs/aux");
    util::ThreadPool& pool = options.pool != nullptr ? *options.pool : util::ThreadPool::global();

    util::PhaseScope g1_phase("setup_gpu_g1", options.times);
    const size_t n_g1 = sc.ic.size() + sc.l.size() + sc.h.size() + sc.a.size() + sc.b.size();
    const ec::FixedBaseTable<ec::G1Curve> g1_table(
        ec::kG1Generator, window_for(options.g1_window, n_g1, options), pool);
    groth16::VerifyingKey vk = sc.vk;
    vk.ic = g1_table.mul_all(std::span<const Fr>(sc.ic), pool);  // a few points: on the host
    const std::array<uint64_t, 5> counts{sc.h.size(), sc.l.size(), sc.a.size(), sc.b.size(),
                                         sc.b.size()};
    CUZK_ASSIGN_OR_RETURN(ResidentParams params,
                          ResidentParams::allocate(options.label, std::move(vk), counts,
                                                   options.placement));
    if (coset)  // the inputs' C points: a few, on the host like ic
        CUZK_RETURN_IF_ERROR(
            params.set_coset_lagrange(g1_table.mul_all(std::span<const Fr>(sc.c_input), pool)));
    struct G1Job {
        Section section;
        const std::vector<Fr>* scalars;
        const char* name;
    } g1_jobs[] = {{Section::kH, &sc.h, "h"},
                   {Section::kL, &sc.l, "l"},
                   {Section::kA, &sc.a, "a"},
                   {Section::kBG1, &sc.b, "b_g1"}};
    for (const G1Job& job : g1_jobs) {
        CUZK_RETURN_IF_ERROR(fixed_base_impl(g1_table, std::span<const Fr>(*job.scalars),
                                             params.writable_g1(job.section), options, job.name));
    }
    g1_phase.stop();

    util::PhaseScope g2_phase("setup_gpu_g2", options.times);
    const ec::FixedBaseTable<ec::G2Curve> g2_table(
        ec::kG2Generator, window_for(options.g2_window, sc.b.size(), options), pool);
    CUZK_RETURN_IF_ERROR(fixed_base_impl(g2_table, std::span<const Fr>(sc.b),
                                         params.writable_b_g2(), options, "b_g2"));
    return params;
}

}  // namespace cuzk::gpu
