// save_coset_bases: a resident coset-Lagrange set's h, l and inputs' C points to a file (see
// coset_bases_save.hpp).
#include "gpu/coset_bases_save.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <filesystem>

#include "groth16/coset_bases_file.hpp"
#include "gpu/cuda_status.hpp"
#include "gpu/pinned_pool.hpp"
#include "util/mapped_file.hpp"

namespace cuzk::gpu {

util::Status save_coset_bases(const ResidentParams& params, const std::string& path,
                              util::ThreadPool* pool) {
    if (params.h_basis() != groth16::HBasis::kCosetLagrange)
        return util::invalid_argument(path + ": only a coset-Lagrange set's converted bases are "
                                             "saved");
    groth16::CosetBasesHeader header;
    {
        CUZK_ASSIGN_OR_RETURN(util::MappedFile source, util::MappedFile::open(params.path()));
        auto h = groth16::coset_bases_source(source.bytes());
        if (!h.ok()) return util::Status(h.status().code(), params.path() + ": " +
                                                                h.status().message());
        header = *h;
    }
    header.domain = params.h().size;
    header.aux = params.l().size;
    header.inputs = params.c_input().size();
    CUZK_ASSIGN_OR_RETURN(groth16::CosetBasesWriter writer,
                          groth16::CosetBasesWriter::create(path, header, pool));

    const uint64_t per_chunk = groth16::coset_bases_chunk_points(size_t{64} << 20);
    CUZK_ASSIGN_OR_RETURN(PinnedPool::Lease staging,
                          PinnedPool::global().acquire(per_chunk * sizeof(ec::G1Affine)));
    auto* stage = reinterpret_cast<ec::G1Affine*>(staging.data());
    for (const DeviceSpan<ec::G1Affine> section : {params.h(), params.l()}) {
        if (section.size == 0) CUZK_RETURN_IF_ERROR(writer.append({}, true));
        for (uint64_t first = 0; first < section.size; first += per_chunk) {
            const uint64_t n = std::min(per_chunk, section.size - first);
            // cudaMemcpyDefault: device memory, or mapped pinned host memory (the fallback).
            CUZK_CUDA_RETURN_IF_ERROR(cudaMemcpy(stage, section.data + first,
                                                 n * sizeof(ec::G1Affine), cudaMemcpyDefault));
            CUZK_RETURN_IF_ERROR(writer.append(std::span<const ec::G1Affine>(stage, n),
                                               first + n == section.size));
        }
    }
    CUZK_RETURN_IF_ERROR(writer.append(params.c_input(), true));
    return writer.finish();
}

std::string coset_bases_path(const std::string& dir, const std::string& params_path) {
    return (std::filesystem::path(dir) /
            (std::filesystem::path(params_path).filename().string() + ".coset-lagrange"))
        .string();
}

}  // namespace cuzk::gpu
