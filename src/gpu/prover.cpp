#include "gpu/prover.hpp"

#include <cuda_runtime_api.h>

#include <string>
#include <type_traits>

#include "gpu/cuda_status.hpp"
#include "gpu/h_poly.hpp"
#include "gpu/msm_split.hpp"
#include "groth16/prover_parts.hpp"
#include "ntt/domain.hpp"
#include "util/timer.hpp"

namespace cuzk::gpu {

namespace {

using ff::Fr;

groth16::ParamsShape shape_of(const ResidentParams& p) {
    return {p.vk().ic.size(), p.h().size, p.l().size, p.a().size, p.b_g1().size, p.b_g2().size};
}

// An MSM over a resident section with device scalars, split (classification, batch addition
// of the unit scalars' bases, Pippenger over the rest: gpu/msm_split.hpp).
template <class Affine>
auto section_msm(DeviceSpan<Affine> bases, const Fr* dev_scalars, const GpuMsmOptions& options) {
    if constexpr (std::is_same_v<Affine, ec::G1Affine>) {
        using R = util::Result<ec::G1Jacobian>;
        return bases.size == 0 ? R(ec::G1Jacobian::identity())
                               : msm_g1_split(bases.data, bases.size, dev_scalars, options);
    } else {
        using R = util::Result<ec::G2Jacobian>;
        return bases.size == 0 ? R(ec::G2Jacobian::identity())
                               : msm_g2_split(bases.data, bases.size, dev_scalars, options);
    }
}

}  // namespace

util::Result<std::vector<groth16::Proof>> prove_gpu(
    const ResidentParams& params, std::span<const groth16::Circuit> circuits,
    std::span<const groth16::ProverRandomness> randomness, const GpuProverOptions& options,
    GpuProverTimings* timings) {
    util::Stopwatch total;
    if (randomness.size() != circuits.size())
        return util::invalid_argument("gpu::prove_gpu: " + std::to_string(circuits.size()) +
                                      " circuits but " + std::to_string(randomness.size()) +
                                      " randomness values");
    CUZK_RETURN_IF_ERROR(groth16::check_delta(params.vk()));
    const groth16::ParamsShape shape = shape_of(params);
    const size_t m = shape.domain_size();
    CUZK_ASSIGN_OR_RETURN(ntt::EvaluationDomain domain_check, ntt::EvaluationDomain::create(m));
    if (domain_check.size() != m)
        return util::invalid_argument("gpu::prove_gpu: the H section does not have 2^k - 1 points");
    CUZK_ASSIGN_OR_RETURN(auto domain, NttDomain::create(domain_check.log_size()));
    // Device scratch: a, b, c (m each); the L, A, B scalars reuse b and c after the H step
    // (l ≤ m, a ≤ m, b ≤ m always: every aux variable and input has its own constraint row).
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer abc, DeviceBuffer::allocate(3 * m * sizeof(Fr)));
    Fr* dev_a = static_cast<Fr*>(abc.data());
    Fr* dev_b = dev_a + m;
    Fr* dev_c = dev_b + m;

    GpuProverTimings t;
    util::ThreadPool& pool = util::ThreadPool::global();
    std::vector<groth16::Proof> proofs;
    for (size_t k = 0; k < circuits.size(); ++k) {
        util::Stopwatch sw;
        r1cs::ProvingAssignment pa(groth16::presized_assignment_options(shape));
        CUZK_RETURN_IF_ERROR(groth16::synthesize_into(circuits[k], pa, k));
        CUZK_RETURN_IF_ERROR(
            groth16::check_assignment(shape, pa, options.check_satisfied, pool, k));
        groth16::MsmScalars scalars = groth16::gather_msm_scalars(pa, shape);
        if (scalars.l.size() > m || scalars.a.size() > m || scalars.b.size() > m)
            return util::internal_error("gpu::prove_gpu: an MSM is longer than the domain");
        t.synthesis += sw.elapsed_ms();

        sw.reset();
        CUZK_CUDA_RETURN_IF_ERROR(cudaMemset(abc.data(), 0, abc.size()));
        const std::vector<Fr>* abc_host[3] = {&pa.a(), &pa.b(), &pa.c()};
        for (int i = 0; i < 3; ++i)
            CUZK_CUDA_RETURN_IF_ERROR(cudaMemcpy(dev_a + i * m, abc_host[i]->data(),
                                                 abc_host[i]->size() * sizeof(Fr),
                                                 cudaMemcpyHostToDevice));
        t.h2d += sw.elapsed_ms();
        sw.reset();
        CUZK_RETURN_IF_ERROR(compute_h_device(*domain, dev_a, dev_b, dev_c, nullptr, options.ntt));
        CUZK_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(nullptr));
        t.ntt_h += sw.elapsed_ms();

        groth16::MsmSums sums;
        sw.reset();
        CUZK_ASSIGN_OR_RETURN(sums.h, section_msm(params.h(), dev_a, options.msm));
        t.msm_h += sw.elapsed_ms();
        // L, A, B1: upload into the (now free) b and c buffers, one MSM each.
        struct Job {
            const std::vector<Fr>* host;
            DeviceSpan<ec::G1Affine> bases;
            ec::G1Jacobian* out;
            double* timer;
        } jobs[3] = {{&scalars.l, params.l(), &sums.l, &t.msm_l},
                     {&scalars.a, params.a(), &sums.a, &t.msm_a},
                     {&scalars.b, params.b_g1(), &sums.b1, &t.msm_b1}};
        for (const Job& job : jobs) {  // B last: its scalars stay in dev_b for B_G2
            sw.reset();
            if (job.host->size() != job.bases.size)
                return util::internal_error("gpu::prove_gpu: scalar count differs from section");
            CUZK_CUDA_RETURN_IF_ERROR(cudaMemcpy(dev_b, job.host->data(),
                                                 job.host->size() * sizeof(Fr),
                                                 cudaMemcpyHostToDevice));
            t.h2d += sw.elapsed_ms();
            sw.reset();
            CUZK_ASSIGN_OR_RETURN(*job.out, section_msm(job.bases, dev_b, options.msm));
            *job.timer += sw.elapsed_ms();
        }
        // B_G2 with the B scalars still in dev_b.
        sw.reset();
        CUZK_ASSIGN_OR_RETURN(sums.b2, section_msm(params.b_g2(), dev_b, options.msm));
        t.b_g2 += sw.elapsed_ms();
        sw.reset();
        CUZK_ASSIGN_OR_RETURN(groth16::Proof proof,
                              groth16::assemble_proof(params.vk(), sums, randomness[k], k));
        proofs.push_back(proof);
        t.proof_assembly += sw.elapsed_ms();
    }
    t.total = total.elapsed_ms();
    if (timings != nullptr) *timings = t;
    return proofs;
}

}  // namespace cuzk::gpu
