// The GPU prover (see prover.hpp): a GpuSession holds the per-call device state (domain tables,
// the a/b/c buffers, the staged uploader) and proves one prepared circuit at a time; prove_gpu
// feeds it from synthesis workers, prove_gpu_assignments from the caller's assignments.
#include "gpu/prover.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <condition_variable>
#include <cstdlib>
#include <functional>
#include <future>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <type_traits>

#include "gpu/classify.hpp"
#include "gpu/cuda_status.hpp"
#include "gpu/h_poly.hpp"
#include "gpu/msm_split.hpp"
#include "gpu/scratch_cache.hpp"
#include "gpu/staged_upload.hpp"
#include "gpu/upload_stream.hpp"
#include "util/thread_pool.hpp"
#include "groth16/coset_bases.hpp"
#include "groth16/prover_parts.hpp"
#include "ntt/domain.hpp"

namespace cuzk::gpu {

namespace {

using ff::Fr;
using util::PhaseScope;
using util::PhaseTimes;
using util::Status;

// A circuit ready for the GPU: its finished, checked assignment and its MSM scalars — or, on
// the compiled path, only its witness.
struct Prepared {
    std::unique_ptr<r1cs::ProvingAssignment> owned;  // prove_gpu's own; empty when borrowed
    r1cs::ProvingAssignment* pa = nullptr;
    groth16::MsmScalars scalars;
    Witness witness;  // compiled path
};

Status check_witness(const DeviceCircuit& dc, const Witness& w, size_t k) {
    return groth16::check_witness_shape(w, dc.witness_shape(), k);
}

Status check_and_gather(const groth16::ParamsShape& shape, r1cs::ProvingAssignment& pa,
                        bool check_satisfied, size_t k, groth16::MsmScalars& out) {
    CUZK_RETURN_IF_ERROR(groth16::check_assignment(shape, pa, check_satisfied,
                                                   util::ThreadPool::global(), k));
    out = groth16::take_msm_scalars(pa, shape);
    const size_t m = shape.domain_size();
    if (out.l.size() > m || out.a.size() > m || out.b.size() > m)
        return util::internal_error("gpu prover: an MSM is longer than the domain");
    return Status();
}

// An MSM over a resident section with device scalars, split (classification, batch addition of
// the unit scalars' bases, Pippenger over the rest: gpu/msm_split.hpp).
template <class Affine>
auto section_msm(DeviceSpan<Affine> bases, const Fr* dev_scalars, const GpuMsmOptions& options,
                 SplitMsmCounts* counts) {
    if constexpr (std::is_same_v<Affine, ec::G1Affine>) {
        using R = util::Result<ec::G1Jacobian>;
        return bases.size == 0 ? R(ec::G1Jacobian::identity())
                               : msm_g1_split(bases.data, bases.size, dev_scalars, options, counts);
    } else {
        using R = util::Result<ec::G2Jacobian>;
        return bases.size == 0 ? R(ec::G2Jacobian::identity())
                               : msm_g2_split(bases.data, bases.size, dev_scalars, options, counts);
    }
}

class GpuSession {
   public:
    static util::Result<std::unique_ptr<GpuSession>> create(const ResidentParams& params,
                                                            const GpuProverOptions& options) {
        CUZK_RETURN_IF_ERROR(groth16::check_delta(params.vk()));
        std::unique_ptr<GpuSession> s(new GpuSession(params, options));
        const size_t m = s->shape_.domain_size();
        CUZK_ASSIGN_OR_RETURN(ntt::EvaluationDomain check, ntt::EvaluationDomain::create(m));
        if (check.size() != m)
            return util::invalid_argument("gpu prover: the H section does not have 2^k - 1 points");
        CUZK_ASSIGN_OR_RETURN(s->domain_, NttDomain::create(check.log_size(), options.ntt));
        const DeviceCircuit* dc = options.compiled;
        if (dc != nullptr) {
            CUZK_RETURN_IF_ERROR(s->check_compiled(*dc));
            // The memory plan, from what the device could still give after a, b, c and one z
            // slot: lean turns the upload overlap and the concurrent split MSMs off in the
            // session's copy of the options.
            const size_t first_bytes = (3 * m + dc->num_columns()) * sizeof(Fr);
            const size_t obtainable = obtainable_device_memory();
            if (plans_lean(options.memory_plan,
                           obtainable > first_bytes ? obtainable - first_bytes : 0, s->shape_,
                           dc->num_columns())) {
                s->options_.overlap_h2d = options.overlap_h2d && options.lean_overlap_h2d;
                s->options_.concurrent_split_msms = false;
                s->lean_ = true;
            }
        }
        // a, b, c (m each); the L, A, B scalars reuse b after the H step (l, a, b ≤ m: every
        // aux variable and input has its own constraint row). A lean session keeps a only: b and
        // c come from the scratch pool per circuit (prove_compiled), free for the H MSM's
        // temporaries once the H step is done.
        const size_t abc_elements = (s->lean_ ? 1 : 3) * m;
        CUZK_ASSIGN_OR_RETURN(s->abc_, DeviceBuffer::allocate(abc_elements * sizeof(Fr)));
        CUZK_ASSIGN_OR_RETURN(s->upload_[0], StagedUploader::create());
        if (dc != nullptr) {
            const size_t z_bytes = dc->num_columns() * sizeof(Fr);
            CUZK_ASSIGN_OR_RETURN(s->z_[0], DeviceBuffer::allocate(z_bytes));
            // A second z slot when the next circuit's upload overlaps this one's kernels; if
            // the device cannot give it (the full plan by a narrow margin), no overlap.
            if (s->options_.overlap_h2d) {
                util::Result<DeviceBuffer> second = DeviceBuffer::allocate(z_bytes);
                if (second.ok()) {
                    s->z_[1] = std::move(*second);
                    CUZK_ASSIGN_OR_RETURN(s->upload_[1], StagedUploader::create());
                } else if (second.status().code() == util::StatusCode::kResourceExhausted) {
                    s->options_.overlap_h2d = false;
                } else {
                    return second.status();
                }
            }
            if (s->lean_)
                note_lean_plan_once(z_bytes, s->z_slots(),
                                    options.memory_plan == GpuProverOptions::MemoryPlan::kLean);
        }
        if (s->options_.concurrent_split_msms) {
            for (NonBlockingStream& w : s->split_streams_) CUZK_RETURN_IF_ERROR(w.create());
        }
        return s;
    }

    const groth16::ParamsShape& shape() const { return shape_; }
    int z_slots() const { return z_[1].size() != 0 ? 2 : 1; }

    // Uploads w (inputs, then aux) into z slot `slot` through that slot's uploader and waits for
    // it; w's vectors are freed. May run on another thread than the proving one (one per slot).
    Status upload_witness(Witness& w, int slot, PhaseTimes& t) {
        PhaseScope phase("h2d", &t, options_.trace);
        StagedUploader& up = *upload_[slot];
        Fr* z = static_cast<Fr*>(z_[slot].data());
        CUZK_RETURN_IF_ERROR(up.upload(z, w.inputs.data(), w.inputs.size() * sizeof(Fr)));
        CUZK_RETURN_IF_ERROR(
            up.upload(z + w.inputs.size(), w.aux.data(), w.aux.size() * sizeof(Fr)));
        CUZK_RETURN_IF_ERROR(up.synchronize());
        inputs_[slot] = std::move(w.inputs);  // (coset-Lagrange bases: the inputs' C term)
        std::vector<Fr>().swap(w.aux);
        return Status();
    }

    // The compiled path for the witness already in z slot `slot`.
    util::Result<groth16::Proof> prove_compiled(int slot, const groth16::ProverRandomness& r,
                                                size_t k, PhaseTimes& t) {
        util::TraceRecorder* trace = options_.trace;
        const DeviceCircuit& dc = *options_.compiled;
        const size_t m = shape_.domain_size();
        Fr* dev[3];
        // Lean: b and c pooled for this circuit (given back after the H step) and the A and B
        // scalars gathered into pooled buffers after the H MSM.
        std::optional<ScratchLeases> bc;
        if (lean_) {
            bc.emplace(ScratchSource::kPool, nullptr);
            CUZK_ASSIGN_OR_RETURN(DeviceBuffer * b_and_c, bc->take(2 * m * sizeof(Fr)));
            dev[0] = static_cast<Fr*>(abc_.data());
            dev[1] = static_cast<Fr*>(b_and_c->data());
            dev[2] = dev[1] + m;
        } else {
            abc_pointers(dev);
        }
        const Fr* z = static_cast<const Fr*>(z_[slot].data());
        {
            PhaseScope phase("spmv", &t, trace);
            CUZK_RETURN_IF_ERROR(dc.multiply(z, dev[0], dev[1], dev[2], m, options_.spmv));
            if (options_.check_satisfied) {
                CUZK_ASSIGN_OR_RETURN(size_t row,
                                      first_unsatisfied_row_device(dev[0], dev[1], dev[2],
                                                                   dc.num_rows()));
                if (row != std::numeric_limits<size_t>::max()) {
                    std::string msg = groth16::circuit_prefix(k);
                    msg += "constraint row ";
                    msg += std::to_string(row);
                    msg += " is not satisfied (a*b != c)";
                    return util::invalid_argument(std::move(msg));
                }
            }
            CUZK_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(nullptr));
        }
        groth16::MsmSums sums;
        using Overlap = GpuProverOptions::SplitOverlap;
        if (!options_.concurrent_split_msms || options_.split_overlap == Overlap::kAfterH) {
            CUZK_RETURN_IF_ERROR(h_ntt(dev, t));  // (synchronised: b and c are no longer read)
            if (bc.has_value()) {
                bc.reset();  // lean: back to the pool for the H MSM
                dev[1] = dev[2] = nullptr;
            }
            CUZK_RETURN_IF_ERROR(h_msm(dev[0], sums, t));
            // L: z's aux part; A and B: gathered from z into the (now free) b and c buffers, or
            // when lean into a (free too: the H MSM is done; a_count ≤ m) and a pooled buffer.
            std::optional<ScratchLeases> ab;
            Fr* a_scalars = dev[1];
            Fr* b_scalars = dev[2];
            if (lean_) {
                ab.emplace(ScratchSource::kPool, nullptr);
                a_scalars = dev[0];
                CUZK_ASSIGN_OR_RETURN(b_scalars, pooled_scalars(*ab, dc.b_count()));
            }
            CUZK_RETURN_IF_ERROR(dc.gather_a(z, a_scalars));
            CUZK_RETURN_IF_ERROR(dc.gather_b(z, b_scalars));
            CUZK_RETURN_IF_ERROR(split_msms(z + dc.num_inputs(), a_scalars, b_scalars, sums, t));
            return assemble(sums, inputs_[slot], r, k, t);
        }
        // The split MSMs beside the H transforms: A and B gathered into pooled buffers of their
        // own (ordered on the default stream, which the split streams do not follow: synchronised
        // here, before the H step's kernels queue there; the buffers go back after the task has
        // returned).
        std::optional<ScratchLeases> ab(std::in_place, ScratchSource::kPool, nullptr);
        CUZK_ASSIGN_OR_RETURN(Fr* const a_scalars, pooled_scalars(*ab, dc.a_count()));
        CUZK_ASSIGN_OR_RETURN(Fr* const b_scalars, pooled_scalars(*ab, dc.b_count()));
        CUZK_RETURN_IF_ERROR(dc.gather_a(z, a_scalars));
        CUZK_RETURN_IF_ERROR(dc.gather_b(z, b_scalars));
        CUZK_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(nullptr));
        int device = 0;
        CUZK_CUDA_RETURN_IF_ERROR(cudaGetDevice(&device));
        PhaseTimes split_t;
        std::future<Status> split = std::async(std::launch::async, [&] {
            Status st = cuda_status(cudaSetDevice(device), "cudaSetDevice");
            if (st.ok())
                st = split_msms(z + dc.num_inputs(), a_scalars, b_scalars, sums, split_t, true);
            return st;
        });
        const Status ntt = h_ntt(dev, t);
        // Joined before the H MSM takes its temporaries, and before any return: the task reads z
        // and the pooled buffers and writes sums.
        const Status split_status = split.get();
        t += split_t;
        ab.reset();  // the split streams are idle: their sums were read back
        CUZK_RETURN_IF_ERROR(ntt);
        CUZK_RETURN_IF_ERROR(split_status);
        CUZK_RETURN_IF_ERROR(h_msm(dev[0], sums, t));
        return assemble(sums, inputs_[slot], r, k, t);
    }

    util::Result<groth16::Proof> prove(Prepared& prep, const groth16::ProverRandomness& r,
                                       size_t k, PhaseTimes& t) {
        util::TraceRecorder* trace = options_.trace;
        const size_t m = shape_.domain_size();
        if (lean_)  // (sessions for assignments are made without options.compiled)
            return util::internal_error("gpu prover: a lean session has no room for b and c");
        Fr* dev[3];
        abc_pointers(dev);
        StagedUploader& up = *upload_[0];
        {
            PhaseScope phase("h2d", &t, trace);
            std::vector<Fr> host[3] = {prep.pa->take_a(), prep.pa->take_b(), prep.pa->take_c()};
            for (int i = 0; i < 3; ++i) {
                if (host[i].size() > m)
                    return util::internal_error("gpu prover: a/b/c longer than the domain");
                CUZK_CUDA_RETURN_IF_ERROR(cudaMemsetAsync(dev[i] + host[i].size(), 0,
                                                          (m - host[i].size()) * sizeof(Fr),
                                                          up.stream()));
                CUZK_RETURN_IF_ERROR(up.upload(dev[i], host[i].data(), host[i].size() * sizeof(Fr)));
            }
            CUZK_RETURN_IF_ERROR(up.synchronize());
        }  // the host a, b, c are freed here
        groth16::MsmSums sums;
        CUZK_RETURN_IF_ERROR(h_ntt(dev, t));
        CUZK_RETURN_IF_ERROR(h_msm(dev[0], sums, t));
        // The L, A, B scalars into the (now free) a, b, c buffers (H's MSM is done).
        {
            PhaseScope phase("h2d", &t, trace);
            const std::vector<Fr>* host[3] = {&prep.scalars.l, &prep.scalars.a, &prep.scalars.b};
            const size_t sizes[3] = {params_.l().size, params_.a().size, params_.b_g1().size};
            for (int i = 0; i < 3; ++i) {
                if (host[i]->size() != sizes[i])
                    return util::internal_error(
                        "gpu prover: scalar count differs from its section");
                CUZK_RETURN_IF_ERROR(
                    up.upload(dev[i], host[i]->data(), host[i]->size() * sizeof(Fr)));
            }
            CUZK_RETURN_IF_ERROR(up.synchronize());
        }
        CUZK_RETURN_IF_ERROR(split_msms(dev[0], dev[1], dev[2], sums, t));
        return assemble(sums, prep.pa->input_assignment(), r, k, t);
    }

   private:
    GpuSession(const ResidentParams& params, const GpuProverOptions& options)
        : params_(params), options_(options), shape_(params.shape()) {}

    // Says on stderr, once per process, that a session planned lean and why.
    static void note_lean_plan_once(size_t z_bytes, int z_slots, bool forced) {
        static std::atomic<bool> said{false};
        if (said.exchange(true)) return;
        std::fprintf(stderr,
                     "cuzk gpu prover: lean memory plan on the compiled path (%s %.2f GiB "
                     "witness slot%s, b and c pooled, split MSMs one after another): %s\n",
                     z_slots == 2 ? "two" : "one", static_cast<double>(z_bytes) / (1u << 30),
                     z_slots == 2 ? "s, the next upload overlapping" : "",
                     forced ? "CUZK_GPU_MEMORY_PLAN=2 / MemoryPlan::kLean"
                            : "the device has too little memory left for the full plan "
                              "(CUZK_GPU_MEMORY_PLAN=1 forces it)");
    }

    Status check_compiled(const DeviceCircuit& dc) const {
        if (dc.num_aux() == shape_.l && dc.a_count() == shape_.a && dc.b_count() == shape_.b_g1 &&
            dc.num_inputs() == shape_.ic && dc.num_rows() <= shape_.domain_size())
            return Status();
        return util::invalid_argument(
            "gpu prover: the compiled circuit does not match the parameters (aux, A, B, input "
            "or row counts differ)");
    }

    // Room for `count` scalars (at least one) from `leases`.
    static util::Result<Fr*> pooled_scalars(ScratchLeases& leases, size_t count) {
        CUZK_ASSIGN_OR_RETURN(DeviceBuffer * buf,
                              leases.take(std::max<size_t>(1, count) * sizeof(Fr)));
        return static_cast<Fr*>(buf->data());
    }

    // a, b, c in the session's buffer (not when lean: only a is there).
    void abc_pointers(Fr* dev[3]) const {
        const size_t m = shape_.domain_size();
        dev[0] = static_cast<Fr*>(abc_.data());
        dev[1] = dev[0] + m;
        dev[2] = dev[1] + m;
    }

    // H on the device from a, b, c (left in a; b and c are free afterwards).
    Status h_ntt(Fr* dev[3], PhaseTimes& t) {
        PhaseScope phase("ntt_h", &t, options_.trace);
        CUZK_RETURN_IF_ERROR(compute_h_device(*domain_, dev[0], dev[1], dev[2], nullptr,
                                              options_.ntt, params_.h_basis()));
        CUZK_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(nullptr));
        return Status();
    }

    // The H MSM over H's scalars (consumed: made canonical in place).
    Status h_msm(Fr* h_scalars, groth16::MsmSums& sums, PhaseTimes& t) {
        PhaseScope phase("msm_h", &t, options_.trace);
        const DeviceSpan<ec::G1Affine> h = params_.h();
        if (!options_.h_msm_direct || h.size == 0) {
            CUZK_ASSIGN_OR_RETURN(sums.h, section_msm(h, h_scalars, options_.msm, nullptr));
            return Status();
        }
        // H is dense and random: no classification, batch addition or index list. Its scalars
        // become canonical integers in place (H is not read again) and go to a plain MSM.
        auto* canonical = reinterpret_cast<ff::BigInt<4>*>(h_scalars);
        CUZK_RETURN_IF_ERROR(scalars_to_canonical(h_scalars, h.size, canonical, nullptr));
        GpuMsmTimings mt;
        CUZK_ASSIGN_OR_RETURN(sums.h, msm_g1_device(h.data, h.size, canonical, nullptr, h.size,
                                                    options_.msm, &mt));
        record_msm_steps(options_.trace, "msm_h", mt);
        return Status();
    }

    // L, A, B_G1 and B_G2 over device scalars (l, a, b: their sections' counts; B_G1 and B_G2
    // share b), each split (classification, batch addition, tail MSM): one after another on the
    // default stream, or with options_.concurrent_split_msms all four at once, each on its own
    // non-blocking stream and host thread. Their phases (prep_msm, batch_addition, tail_msm;
    // b_g2) then overlap; "split_msms" is the four's wall time either way. If the four at once
    // run short of device memory, they run again one after another. `synced`: the
    // default stream, on which the scalars were written, has been synchronised by the caller
    // (who may since have queued other work there that the MSMs must not wait for).
    Status split_msms(const Fr* l, const Fr* a, const Fr* b, groth16::MsmSums& sums,
                      PhaseTimes& t, bool synced = false) {
        PhaseScope wall("split_msms", &t, options_.trace);
        using Task = std::function<Status(const GpuMsmOptions&, PhaseTimes&)>;
        const Task tasks[kSplitMsms] = {
            [&](const GpuMsmOptions& o, PhaseTimes& pt) {
                return split_msm(params_.l(), l, sums.l, o, pt);
            },
            [&](const GpuMsmOptions& o, PhaseTimes& pt) {
                return split_msm(params_.a(), a, sums.a, o, pt);
            },
            [&](const GpuMsmOptions& o, PhaseTimes& pt) {
                return split_msm(params_.b_g1(), b, sums.b1, o, pt);
            },
            [&](const GpuMsmOptions& o, PhaseTimes& pt) { return b_g2(b, sums.b2, o, pt); }};
        if (!options_.concurrent_split_msms) {
            for (const Task& task : tasks) CUZK_RETURN_IF_ERROR(task(options_.msm, t));
            return Status();
        }
        // The scalars were written on the default stream, which the work streams do not follow.
        if (!synced) CUZK_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(nullptr));
        int device = 0;
        CUZK_CUDA_RETURN_IF_ERROR(cudaGetDevice(&device));
        PhaseTimes local[kSplitMsms];
        Status status[kSplitMsms];
        util::run_on_own_threads(kSplitMsms, kSplitMsms, [&](size_t i) {
            // A new thread starts on device 0: make the session's device current.
            status[i] = cuda_status(cudaSetDevice(device), "cudaSetDevice");
            if (!status[i].ok()) return;
            GpuMsmOptions o = options_.msm;
            o.stream = split_streams_[i].stream;
            status[i] = tasks[i](o, local[i]);
        });
        // Four MSMs sizing their temporaries against the same free memory may leave one short
        // (on an 80 GB card, say, where each needs passes): then all four again, one after
        // another on the default stream, each with the whole device to plan its passes in.
        const bool short_of_memory = std::any_of(status, status + kSplitMsms, [](const Status& st) {
            return st.code() == util::StatusCode::kResourceExhausted;
        });
        if (short_of_memory) {
            for (const Task& task : tasks) CUZK_RETURN_IF_ERROR(task(options_.msm, t));
            return Status();
        }
        for (size_t i = 0; i < kSplitMsms; ++i) t += local[i];
        for (const Status& st : status) CUZK_RETURN_IF_ERROR(st);
        return Status();
    }

    // One of L, A, B_G1 over device scalars: classification, batch addition, tail MSM.
    Status split_msm(DeviceSpan<ec::G1Affine> bases, const Fr* scalars, ec::G1Jacobian& out,
                     const GpuMsmOptions& msm, PhaseTimes& t) {
        SplitMsmCounts c;
        CUZK_ASSIGN_OR_RETURN(out, section_msm(bases, scalars, msm, &c));
        t.add("prep_msm", c.classify_ms);
        t.add("batch_addition", c.batch_add_ms);
        t.add("tail_msm", c.tail_ms);
        record_split(options_.trace, c);
        return Status();
    }

    Status b_g2(const Fr* b_scalars, ec::G2Jacobian& out, const GpuMsmOptions& msm,
                PhaseTimes& t) {
        PhaseScope phase("b_g2", &t, options_.trace);
        SplitMsmCounts c;
        CUZK_ASSIGN_OR_RETURN(out, section_msm(params_.b_g2(), b_scalars, msm, &c));
        record_split(options_.trace, c, "b_g2.");
        return Status();
    }

    // The proof from the sums; over coset-Lagrange bases the H sum takes the inputs' C term
    // first (groth16/coset_bases.hpp). `inputs`: ONE first.
    util::Result<groth16::Proof> assemble(groth16::MsmSums& sums, std::span<const Fr> inputs,
                                          const groth16::ProverRandomness& r, size_t k,
                                          PhaseTimes& t) {
        PhaseScope phase("proof_assembly", &t, options_.trace);
        if (params_.h_basis() == groth16::HBasis::kCosetLagrange) {
            CUZK_ASSIGN_OR_RETURN(const ec::G1Jacobian inputs_c,
                                  groth16::input_c_correction(params_.c_input(), inputs));
            sums.h = sums.h + inputs_c;
        }
        return groth16::assemble_proof(params_.vk(), sums, r, k);
    }

    // Consecutive trace events ending now, the last of `steps` ending last; each with `args`.
    static void record_steps(util::TraceRecorder* trace,
                             std::span<const std::pair<const char*, double>> steps,
                             const std::vector<std::pair<std::string, double>>& args) {
        if (trace == nullptr) return;
        const uint32_t tid = trace->current_tid();
        double end = trace->now_us();
        for (size_t i = steps.size(); i-- > 0;) {
            util::TraceEvent e;
            e.name = steps[i].first;
            e.category = "gpu";
            e.duration_us = steps[i].second * 1000.0;
            e.start_us = end - e.duration_us;
            e.tid = tid;
            e.args = args;
            end = e.start_us;
            trace->add(std::move(e));
        }
    }

    // The three steps of a split MSM, with the scalar classes' counts; names prefixed by
    // `prefix` ("b_g2." for B_G2, whose steps are inside the b_g2 phase).
    static void record_split(util::TraceRecorder* trace, const SplitMsmCounts& c,
                             const std::string& prefix = "") {
        const std::string names[3] = {prefix + "prep_msm", prefix + "batch_addition",
                                      prefix + "tail_msm"};
        const std::pair<const char*, double> steps[3] = {{names[0].c_str(), c.classify_ms},
                                                         {names[1].c_str(), c.batch_add_ms},
                                                         {names[2].c_str(), c.tail_ms}};
        const GpuMsmTimings& tail = c.tail_steps;
        record_steps(trace, steps,
                     {{"ones", static_cast<double>(c.ones)},
                      {"others", static_cast<double>(c.others)},
                      {"tail.digits_ms", tail.digits},
                      {"tail.sort_ms", tail.sort},
                      {"tail.buckets_ms", tail.buckets},
                      {"tail.windows_ms", tail.windows},
                      {"tail.passes", static_cast<double>(tail.passes)}});
    }

    // A plain MSM's kernel steps (GpuMsmTimings) under `name`.
    static void record_msm_steps(util::TraceRecorder* trace, const char* name,
                                 const GpuMsmTimings& mt) {
        const std::pair<const char*, double> steps[4] = {
            {"msm.digits", mt.digits}, {"msm.sort", mt.sort}, {"msm.buckets", mt.buckets},
            {"msm.windows", mt.windows}};
        record_steps(trace, steps,
                     {{std::string(name) + ".total_ms", mt.total},
                      {std::string(name) + ".passes", static_cast<double>(mt.passes)}});
    }

    const ResidentParams& params_;
    GpuProverOptions options_;  // the caller's, with the memory plan's changes
    bool lean_ = false;         // the compiled path planned lean (GpuProverOptions::MemoryPlan)
    groth16::ParamsShape shape_;
    std::unique_ptr<NttDomain> domain_;
    DeviceBuffer abc_;
    DeviceBuffer z_[2];                         // compiled path: witness slots
    std::vector<Fr> inputs_[2];                 // and their inputs (ONE first), on the host
    std::unique_ptr<StagedUploader> upload_[2];  // one per slot (one per uploading thread)
    static constexpr size_t kSplitMsms = 4;      // L, A, B_G1, B_G2
    NonBlockingStream split_streams_[kSplitMsms];  // concurrent_split_msms only
};

// Circuit k's witness and randomness on the compiled path, or false: there is no circuit k. May
// block (e.g. on synthesis).
using NextWitness =
    std::function<util::Result<bool>(size_t, Witness&, groth16::ProverRandomness&)>;
// Told after each circuit: its proof, or null when it failed (the sequence then ends), and its
// own phases.
using ProvedHook = std::function<void(size_t, const groth16::Proof*, const PhaseTimes&)>;

// Proves circuits 0, 1, … on the compiled path for as long as next hands witnesses. With two z
// slots, circuit k + 1's witness is fetched and uploaded on another thread while circuit k is
// proved.
util::Result<std::vector<groth16::Proof>> prove_compiled_sequence(GpuSession& session,
                                                                  const NextWitness& next,
                                                                  const ProvedHook& proved,
                                                                  PhaseTimes& t) {
    const bool overlap = session.z_slots() == 2;
    auto slot = [&](size_t k) { return overlap ? static_cast<int>(k % 2) : 0; };
    // The session's device: the upload thread makes it current too (a new thread starts on
    // device 0, where it would otherwise create a context and enqueue on another device's
    // stream).
    int device = 0;
    CUZK_CUDA_RETURN_IF_ERROR(cudaGetDevice(&device));
    auto fetch_and_upload = [&](size_t k, groth16::ProverRandomness& r,
                                PhaseTimes& local) -> util::Result<bool> {
        Witness w;
        CUZK_ASSIGN_OR_RETURN(const bool has, next(k, w, r));
        if (!has) return false;
        CUZK_RETURN_IF_ERROR(session.upload_witness(w, slot(k), local));
        return true;
    };
    std::vector<groth16::Proof> proofs;
    groth16::ProverRandomness r, r_next;
    PhaseTimes tk;  // circuit k's phases, its upload's included
    util::Result<bool> has = fetch_and_upload(0, r, tk);
    for (size_t k = 0; has.ok() && *has; ++k) {
        PhaseTimes next_t;
        std::future<util::Result<bool>> ahead;
        if (overlap) {
            ahead = std::async(std::launch::async, [&, k]() -> util::Result<bool> {
                CUZK_CUDA_RETURN_IF_ERROR(cudaSetDevice(device));
                return fetch_and_upload(k + 1, r_next, next_t);
            });
        }
        auto proof = session.prove_compiled(slot(k), r, k, tk);
        proved(k, proof.ok() ? &*proof : nullptr, tk);
        t += tk;
        if (!proof.ok()) {
            if (ahead.valid()) (void)ahead.get();  // the upload thread uses the session
            return proof.status();
        }
        proofs.push_back(*proof);
        has = overlap ? ahead.get() : fetch_and_upload(k + 1, r_next, next_t);
        tk = std::move(next_t);
        r = r_next;
    }
    t += tk;
    if (!has.ok()) return has.status();
    return proofs;
}

}  // namespace

size_t full_plan_extra_bytes(const groth16::ParamsShape& shape, size_t z_words) {
    const size_t fr = sizeof(Fr);
    return z_words * fr + (shape.a + shape.b_g1) * fr + shape.domain_size() * fr +
           (shape.l + shape.a + 2 * shape.b_g1) * fr;
}

bool plans_lean(GpuProverOptions::MemoryPlan plan, size_t obtainable_bytes,
                const groth16::ParamsShape& shape, size_t z_words) {
    using Plan = GpuProverOptions::MemoryPlan;
    if (plan != Plan::kAuto) return plan == Plan::kLean;
    return obtainable_bytes < full_plan_extra_bytes(shape, z_words);
}

namespace {

Status check_counts(size_t circuits, size_t randomness) {
    if (circuits == randomness) return Status();
    std::string m = "gpu prover: ";
    m += std::to_string(circuits);
    m += " circuits but ";
    m += std::to_string(randomness);
    m += " randomness values";
    return util::invalid_argument(std::move(m));
}

// Circuits synthesized by worker threads in index order, at most `limit` ahead of the consumer.
class SynthesisPipeline {
   public:
    SynthesisPipeline(std::span<const groth16::Circuit> circuits, const groth16::ParamsShape& shape,
                      const GpuProverOptions& options)
        : circuits_(circuits), shape_(shape), options_(options),
          limit_(std::max(1u, options.synthesis_workers)), slots_(circuits.size()),
          status_(circuits.size()) {
        const unsigned workers =
            static_cast<unsigned>(std::min<size_t>(limit_, circuits.size()));
        for (unsigned w = 0; w < workers; ++w) threads_.emplace_back([this] { run(); });
    }
    ~SynthesisPipeline() {
        {
            std::lock_guard lock(mu_);
            abort_ = true;
        }
        cv_.notify_all();
        for (auto& th : threads_) th.join();
    }

    // Blocks until circuit k is prepared (or failed); hands it over.
    util::Result<std::unique_ptr<Prepared>> take(size_t k) {
        std::unique_lock lock(mu_);
        cv_.wait(lock, [&] { return slots_[k] != nullptr || !status_[k].ok(); });
        consumed_ = k + 1;
        cv_.notify_all();
        if (!status_[k].ok()) return status_[k];
        return std::move(slots_[k]);
    }
    PhaseTimes times() {
        std::lock_guard lock(mu_);
        return times_;
    }

   private:
    void run() {
        for (;;) {
            size_t j;
            {
                std::unique_lock lock(mu_);
                cv_.wait(lock, [&] {
                    return abort_ || next_ >= circuits_.size() || next_ < consumed_ + limit_;
                });
                if (abort_ || next_ >= circuits_.size()) return;
                j = next_++;
            }
            PhaseTimes local;
            auto prep = std::make_unique<Prepared>();
            Status st;
            if (options_.compiled != nullptr) {
                PhaseScope phase("witness", &local, options_.trace, "cpu");
                st = groth16::generate_witness(circuits_[j], options_.compiled->witness_shape(), j,
                                              prep->witness);
            } else {
                PhaseScope phase("synthesis", &local, options_.trace, "cpu");
                prep->owned = std::make_unique<r1cs::ProvingAssignment>(
                    groth16::presized_assignment_options(shape_));
                prep->pa = prep->owned.get();
                st = groth16::synthesize_into(circuits_[j], *prep->pa, j);
                if (st.ok())
                    st = check_and_gather(shape_, *prep->pa, options_.check_satisfied, j,
                                          prep->scalars);
            }
            std::lock_guard lock(mu_);
            times_ += local;
            if (st.ok()) {
                slots_[j] = std::move(prep);
            } else {
                status_[j] = st;
            }
            cv_.notify_all();
        }
    }

    std::span<const groth16::Circuit> circuits_;
    groth16::ParamsShape shape_;
    const GpuProverOptions& options_;
    size_t limit_;
    std::mutex mu_;
    std::condition_variable cv_;
    size_t next_ = 0, consumed_ = 0;
    bool abort_ = false;
    std::vector<std::unique_ptr<Prepared>> slots_;
    std::vector<Status> status_;
    PhaseTimes times_;
    std::vector<std::thread> threads_;  // last: started after every member above exists
};

}  // namespace

util::Result<std::vector<groth16::Proof>> prove_gpu(
    const ResidentParams& params, std::span<const groth16::Circuit> circuits,
    std::span<const groth16::ProverRandomness> randomness, const GpuProverOptions& options,
    PhaseTimes* times) {
    PhaseTimes t;
    PhaseScope total("total", nullptr, options.trace);
    CUZK_RETURN_IF_ERROR(check_counts(circuits.size(), randomness.size()));
    CUZK_ASSIGN_OR_RETURN(auto session, GpuSession::create(params, options));
    std::vector<groth16::Proof> proofs;
    if (options.compiled != nullptr) {
        SynthesisPipeline pipeline(circuits, session->shape(), options);
        auto next = [&](size_t k, Witness& w, groth16::ProverRandomness& r) -> util::Result<bool> {
            if (k >= circuits.size()) return false;
            CUZK_ASSIGN_OR_RETURN(std::unique_ptr<Prepared> prep, pipeline.take(k));
            w = std::move(prep->witness);
            r = randomness[k];
            return true;
        };
        auto proved = [](size_t, const groth16::Proof*, const PhaseTimes&) {};
        CUZK_ASSIGN_OR_RETURN(proofs, prove_compiled_sequence(*session, next, proved, t));
        t += pipeline.times();
    } else {
        SynthesisPipeline pipeline(circuits, session->shape(), options);
        for (size_t k = 0; k < circuits.size(); ++k) {
            CUZK_ASSIGN_OR_RETURN(std::unique_ptr<Prepared> prep, pipeline.take(k));
            CUZK_ASSIGN_OR_RETURN(groth16::Proof proof, session->prove(*prep, randomness[k], k, t));
            proofs.push_back(proof);
        }
        t += pipeline.times();
    }
    t.add("total", total.stop());
    if (times != nullptr) *times += t;
    return proofs;
}

util::Result<std::vector<groth16::Proof>> prove_gpu_assignments(
    const ResidentParams& params, std::span<r1cs::ProvingAssignment* const> assignments,
    std::span<const groth16::ProverRandomness> randomness, const GpuProverOptions& options,
    PhaseTimes* times) {
    PhaseTimes t;
    PhaseScope total("total", nullptr, options.trace);
    CUZK_RETURN_IF_ERROR(check_counts(assignments.size(), randomness.size()));
    GpuProverOptions for_assignments = options;
    for_assignments.compiled = nullptr;  // assignments bring their own a, b, c
    CUZK_ASSIGN_OR_RETURN(auto session, GpuSession::create(params, for_assignments));
    std::vector<groth16::Proof> proofs;
    for (size_t k = 0; k < assignments.size(); ++k) {
        Prepared prep;
        {
            PhaseScope phase("check_gather", &t, options.trace, "cpu");
            CUZK_RETURN_IF_ERROR(check_and_gather(session->shape(), *assignments[k],
                                                  options.check_satisfied, k, prep.scalars));
        }
        prep.pa = assignments[k];  // borrowed: its a, b, c are taken
        CUZK_ASSIGN_OR_RETURN(groth16::Proof proof, session->prove(prep, randomness[k], k, t));
        proofs.push_back(proof);
    }
    t.add("total", total.stop());
    if (times != nullptr) *times += t;
    return proofs;
}

util::Result<std::vector<groth16::Proof>> prove_gpu_witnesses(
    const ResidentParams& params, std::span<Witness* const> witnesses,
    std::span<const groth16::ProverRandomness> randomness, const GpuProverOptions& options,
    PhaseTimes* times, groth16::WitnessFeed* feed) {
    PhaseTimes t;
    PhaseScope total("total", nullptr, options.trace);
    CUZK_RETURN_IF_ERROR(check_counts(witnesses.size(), randomness.size()));
    if (options.compiled == nullptr)
        return util::invalid_argument("gpu prover: prove_gpu_witnesses needs options.compiled");
    for (size_t k = 0; k < witnesses.size(); ++k) {
        if (witnesses[k] == nullptr)
            return util::invalid_argument(groth16::circuit_prefix(k) += "no witness");
        CUZK_RETURN_IF_ERROR(check_witness(*options.compiled, *witnesses[k], k));
    }
    CUZK_ASSIGN_OR_RETURN(auto session, GpuSession::create(params, options));
    // The call's own witnesses, then the feed's (checked as they come).
    auto next = [&](size_t k, Witness& w, groth16::ProverRandomness& r) -> util::Result<bool> {
        Witness* from = nullptr;
        if (k < witnesses.size()) {
            from = witnesses[k];
            r = randomness[k];
        } else if (feed == nullptr || !feed->next(k, from, r)) {
            return false;
        } else {
            if (from == nullptr)
                return util::invalid_argument(groth16::circuit_prefix(k) += "no witness");
            CUZK_RETURN_IF_ERROR(check_witness(*options.compiled, *from, k));
        }
        w = std::move(*from);
        return true;
    };
    auto proved = [&](size_t k, const groth16::Proof* proof, const PhaseTimes& phases) {
        if (feed != nullptr) feed->done(k, proof, phases);
    };
    CUZK_ASSIGN_OR_RETURN(std::vector<groth16::Proof> proofs,
                          prove_compiled_sequence(*session, next, proved, t));
    t.add("total", total.stop());
    if (times != nullptr) *times += t;
    return proofs;
}


}  // namespace cuzk::gpu
