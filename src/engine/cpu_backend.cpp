// The CPU prover behind the ProverBackend interface.
//
// Parameter sets are read once per path (groth16::read_params_file; subgroup check unless
// CpuBackendOptions turns it off) and kept
// as shared_ptr<const Parameters>: a prove() in progress holds its own reference, so
// evict_params drops the set from the cache at once and the memory goes when the last prove()
// using it returns. Loads of the same path from several threads are serialized by a per-path
// loading flag, so a file is never read twice concurrently.
//
// prove() runs groth16::prove_assignment for each assignment in turn (ProverOptions defaults:
// check_satisfied on) and maps ProverTimings onto DESIGN.md §5's phase names:
//   ntt_h = ntt, msm_h = msm_h, tail_msm = msm_l + msm_a + msm_b1, b_g2 = msm_b2,
//   proof_assembly = assembly (shape and satisfaction checks, scalar gathering, A/B/C), total.
// The CPU prover reports durations only, so the trace shows one "prove" event per circuit at its
// real start and end, with the phase milliseconds as its arguments.
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>

#include "engine/prover_backend.hpp"
#include "groth16/params_io.hpp"
#include "util/timer.hpp"

namespace cuzk::engine {
namespace {

class CpuBackend final : public ProverBackend {
   public:
    explicit CpuBackend(const CpuBackendOptions& options) : options_(options) {}
    std::string name() const override { return "cpu"; }

    util::Result<LoadedParams> load_params(const std::string& path) override {
        CUZK_ASSIGN_OR_RETURN(auto params, get_or_load(path));
        return describe(*params);
    }

    util::Status evict_params(const std::string& path) override {
        std::lock_guard<std::mutex> lock(mutex_);
        sets_.erase(path);
        return util::Status();
    }

    util::Result<std::vector<groth16::Proof>> prove(
        const std::string& params_path, std::span<r1cs::ProvingAssignment* const> assignments,
        std::span<const groth16::ProverRandomness> randomness, util::PhaseTimes* times,
        util::TraceRecorder* trace) override {
        if (assignments.size() != randomness.size()) {
            std::string m = "prove: ";
            m += std::to_string(assignments.size());
            m += " assignments but ";
            m += std::to_string(randomness.size());
            m += " randomness values";
            return util::invalid_argument(std::move(m));
        }
        CUZK_ASSIGN_OR_RETURN(auto params, get_or_load(params_path));
        util::Stopwatch total;
        std::vector<groth16::Proof> proofs;
        proofs.reserve(assignments.size());
        groth16::ProverTimings sum;
        for (size_t k = 0; k < assignments.size(); ++k) {
            if (assignments[k] == nullptr) return util::invalid_argument("prove: null assignment");
            groth16::ProverTimings t;
            const double start_us = trace != nullptr ? trace->now_us() : 0;
            auto proof = groth16::prove_assignment(*params, *assignments[k], randomness[k], {}, &t,
                                                   nullptr, k);
            if (trace != nullptr) {
                util::TraceEvent ev;
                ev.name = "prove";
                ev.category = "prover";
                ev.start_us = start_us;
                ev.duration_us = trace->now_us() - start_us;
                ev.tid = trace->current_tid();
                ev.args = {{"circuit", static_cast<double>(k)},
                           {"ntt_h", t.ntt},
                           {"msm_h", t.msm_h},
                           {"tail_msm", t.msm_l + t.msm_a + t.msm_b1},
                           {"b_g2", t.msm_b2},
                           {"proof_assembly", t.assembly}};
                trace->add(std::move(ev));
            }
            if (!proof.ok()) return proof.status();
            proofs.push_back(*proof);
            sum += t;
        }
        if (times != nullptr) {
            times->add("ntt_h", sum.ntt);
            times->add("msm_h", sum.msm_h);
            times->add("tail_msm", sum.msm_l + sum.msm_a + sum.msm_b1);
            times->add("b_g2", sum.msm_b2);
            times->add("proof_assembly", sum.assembly);
            times->add("total", total.elapsed_ms());
        }
        return proofs;
    }

   private:
    using ParamsPtr = std::shared_ptr<const groth16::Parameters>;

    static LoadedParams describe(const groth16::Parameters& p) {
        LoadedParams out;
        out.shape = groth16::ParamsShape::of(p);
        out.vk = p.vk;
        out.host_bytes = (p.vk.ic.size() + p.h.size() + p.l.size() + p.a.size() + p.b_g1.size()) *
                             sizeof(groth16::G1Affine) +
                         p.b_g2.size() * sizeof(groth16::G2Affine);
        return out;
    }

    util::Result<ParamsPtr> get_or_load(const std::string& path) {
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            auto it = sets_.find(path);
            if (it != sets_.end()) return it->second;
            if (loading_.count(path) == 0) break;
            loaded_.wait(lock);
        }
        loading_[path] = true;
        lock.unlock();
        groth16::ReadOptions ro;
        ro.subgroup_check =
            options_.subgroup_check ? ec::SubgroupCheck::kCheck : ec::SubgroupCheck::kSkip;
        auto params = groth16::read_params_file(path, ro);
        lock.lock();
        loading_.erase(path);
        loaded_.notify_all();
        if (!params.ok()) return params.status();
        ParamsPtr ptr = std::make_shared<const groth16::Parameters>(std::move(*params));
        sets_[path] = ptr;
        return ptr;
    }

    const CpuBackendOptions options_;
    std::mutex mutex_;
    std::condition_variable loaded_;
    std::map<std::string, ParamsPtr> sets_;
    std::map<std::string, bool> loading_;
};

}  // namespace

std::unique_ptr<ProverBackend> make_cpu_backend() { return make_cpu_backend(CpuBackendOptions{}); }

std::unique_ptr<ProverBackend> make_cpu_backend(const CpuBackendOptions& options) {
    return std::make_unique<CpuBackend>(options);
}

}  // namespace cuzk::engine
