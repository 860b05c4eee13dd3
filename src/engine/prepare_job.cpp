// The default engine hooks (engine_hooks.hpp): C1 → circuits, params shape, verification, and
// the memory estimates.
#include <string>

#include "engine/engine_hooks.hpp"
#include "engine/str_cat.hpp"
#include "groth16/params_io.hpp"
#include "groth16/verifier.hpp"
#include "porep/c1_json.hpp"
#include "porep/vanilla_proof.hpp"

namespace cuzk::engine {

util::Result<PreparedJob> prepare_c1_job(const JobSpec& spec, bool vanilla_check) {
    if (spec.c1_json.empty()) return util::invalid_argument("C1: empty input");
    auto file = porep::parse_c1_file(spec.c1_json);
    if (!file.ok()) {
        const util::Status st = file.status();
        const std::string& m = st.message();
        return util::invalid_argument(m.starts_with("C1") ? m : str_cat({"C1: ", m}));
    }
    const porep::RegisteredSealProof actual = file->c1.registered_proof;
    if (actual != spec.registered_proof) {
        std::string m = "registered proof: the job names ";
        m += porep::seal_proof_info(spec.registered_proof).name;
        m += " but the C1 output is for ";
        m += porep::seal_proof_info(actual).name;
        return util::invalid_argument(std::move(m));
    }
    if (vanilla_check) {
        util::Status st = porep::verify_c1(file->c1);
        if (!st.ok()) return util::invalid_argument(str_cat({"vanilla proofs: ", st.message()}));
    }
    auto pc = porep::circuits_from_c1(file->c1);
    if (!pc.ok()) return util::invalid_argument(str_cat({"C1: ", pc.status().message()}));
    PreparedJob out;
    out.proof = pc->proof;
    out.circuits = std::move(pc->circuits);
    out.public_inputs = std::move(pc->public_inputs);
    return out;
}

util::Result<groth16::ParamsShape> shape_from_params_file(const std::string& params_path) {
    CUZK_ASSIGN_OR_RETURN(groth16::FileLayout layout, groth16::inspect_params_file(params_path));
    auto count = [&layout](groth16::Section s) -> size_t {
        const groth16::SectionInfo* info = layout.find(s);
        return info == nullptr ? 0 : info->count;
    };
    groth16::ParamsShape shape;
    shape.ic = count(groth16::Section::kIc);
    shape.h = count(groth16::Section::kH);
    shape.l = count(groth16::Section::kL);
    shape.a = count(groth16::Section::kA);
    shape.b_g1 = count(groth16::Section::kBG1);
    shape.b_g2 = count(groth16::Section::kBG2);
    return shape;
}

util::Result<bool> verify_with_pairings(const groth16::VerifyingKey& vk,
                                        std::span<const groth16::Proof> proofs,
                                        std::span<const std::vector<ff::Fr>> inputs) {
    const groth16::PreparedVerifyingKey pvk = groth16::prepare_verifying_key(vk);
    return groth16::batch_verify(pvk, proofs, inputs);
}

EngineHooks default_hooks() {
    EngineHooks h;
    h.prepare = prepare_c1_job;
    h.params_shape = shape_from_params_file;
    h.verify = verify_with_pairings;
    return h;
}

ParamsPaths params_paths(const std::string& params_dir, porep::RegisteredSealProof proof) {
    std::string base = params_dir.empty() ? std::string(".") : params_dir;
    if (!base.ends_with("/")) base += "/";
    base += "porep_";
    base += porep::sector_size_name(porep::seal_proof_info(proof).sector_size);
    return {str_cat({base, ".params"}), str_cat({base, ".vk"})};
}

uint64_t params_host_bytes(const groth16::ParamsShape& s) {
    return uint64_t{s.ic + s.h + s.l + s.a + s.b_g1} * sizeof(groth16::G1Affine) +
           uint64_t{s.b_g2} * sizeof(groth16::G2Affine);
}

uint64_t witness_host_bytes(const groth16::CompiledCircuit& c) {
    return 2 * uint64_t{c.num_inputs() + c.num_aux()} * sizeof(ff::Fr) + (uint64_t{1} << 20);
}

uint64_t partition_host_bytes(const groth16::ParamsShape& s) {
    const uint64_t m = s.domain_size();
    const uint64_t scalars = 4 * m + s.ic + 2 * uint64_t{s.l} + s.a + s.b_g1;
    return scalars * 32 + (s.ic + 2 * uint64_t{s.l}) / 8 + (uint64_t{1} << 20);
}

}  // namespace cuzk::engine
