// C1 JSON decoding, shape validation (declared in c1_types.hpp) and serde-compatible writing.
#include "porep/c1_json.hpp"

#include <utility>

#include "util/base64.hpp"

namespace cuzk::porep {

using util::Status;
using util::json::Type;
using util::json::Value;

// CUZK_RETURN_IF_ERROR cannot nest (a lambda inside its argument using it again would shadow its
// local); this form gives every expansion its own name.
#define C1_TRY_CONCAT_INNER_(a, b) a##b
#define C1_TRY_CONCAT_(a, b) C1_TRY_CONCAT_INNER_(a, b)
#define C1_TRY_IMPL_(name, expr)            \
    do {                                    \
        ::cuzk::util::Status name = (expr); \
        if (!name.ok()) return name;        \
    } while (0)
#define C1_TRY(expr) C1_TRY_IMPL_(C1_TRY_CONCAT_(c1_status_, __COUNTER__), expr)

namespace {

constexpr const char* kVariantNames[] = {"StackedDrg2KiBV1", "StackedDrg8MiBV1",
                                         "StackedDrg512MiBV1", "StackedDrg32GiBV1",
                                         "StackedDrg64GiBV1"};
constexpr uint64_t kVariantSizes[] = {uint64_t{2} << 10, uint64_t{8} << 20, uint64_t{512} << 20,
                                      uint64_t{32} << 30, uint64_t{64} << 30};

Status c1_error(std::string_view path, std::string_view what) {
    std::string msg = "C1: ";
    msg += path.empty() ? std::string_view("<root>") : path;
    msg += ": ";
    msg += what;
    return util::invalid_argument(std::move(msg));
}

std::string num(uint64_t v) { return std::to_string(v); }

}  // namespace

const char* merkle_proof_kind_name(MerkleProofKind kind) {
    switch (kind) {
        case MerkleProofKind::kSingle:
            return "Single";
        case MerkleProofKind::kSub:
            return "Sub";
        case MerkleProofKind::kTop:
            return "Top";
    }
    return "?";
}

const char* vanilla_proof_variant_name(uint64_t sector_size) {
    for (size_t i = 0; i < 5; ++i) {
        if (kVariantSizes[i] == sector_size) return kVariantNames[i];
    }
    return nullptr;
}

// ---------------------------------------------------------------------------------------------
// Validation

namespace {

// Levels of a full tree with `leaves` leaves and this arity; 0 when leaves is not a power.
size_t tree_depth(uint64_t leaves, uint32_t arity) {
    size_t depth = 0;
    while (leaves > 1) {
        if (leaves % arity != 0) return 0;
        leaves /= arity;
        ++depth;
    }
    return depth;
}

Status check_path(const std::string& path, const InclusionPath& p, uint32_t arity, size_t depth,
                  const char* what_tree) {
    if (p.size() != depth) {
        std::string w = "expected ";
        w += num(depth);
        w += " path levels for ";
        w += what_tree;
        w += ", found ";
        w += num(p.size());
        return c1_error(path, w);
    }
    for (size_t i = 0; i < p.size(); ++i) {
        if (p[i].hashes.size() != arity - 1) {
            std::string at = path;
            util::json::append_index(at, i);
            at += ".hashes";
            std::string w = "expected ";
            w += num(arity - 1);
            w += " sibling hashes for an arity-";
            w += num(arity);
            w += " tree level, found ";
            w += num(p[i].hashes.size());
            return c1_error(at, w);
        }
        if (p[i].index >= arity) {
            std::string at = path;
            util::json::append_index(at, i);
            at += ".index";
            std::string w = "index ";
            w += num(p[i].index);
            w += " is not below the arity ";
            w += num(arity);
            return c1_error(at, w);
        }
    }
    return Status();
}

// Checks a proof into a tree of this shape (base arity, sub, top; 0 = absent) whose base trees
// have base_leaves leaves.
Status check_merkle(const std::string& path, const MerkleProof& m, const TreeShape& shape,
                    uint64_t base_leaves, const char* what_tree) {
    const MerkleProofKind want = shape.sub == 0   ? MerkleProofKind::kSingle
                                 : shape.top == 0 ? MerkleProofKind::kSub
                                                  : MerkleProofKind::kTop;
    std::string at = path;
    at += ".data";
    if (m.kind != want) {
        std::string w = "expected a ";
        w += merkle_proof_kind_name(want);
        w += " proof for ";
        w += what_tree;
        w += ", found ";
        w += merkle_proof_kind_name(m.kind);
        return c1_error(at, w);
    }
    at += '.';
    at += merkle_proof_kind_name(m.kind);
    const size_t base_depth = tree_depth(base_leaves, shape.base);
    if (m.kind == MerkleProofKind::kSingle) {
        if (!m.sub.empty() || !m.top.empty()) {
            return c1_error(at, "a Single proof has no sub or top path");
        }
        return check_path(at + ".path.path", m.base, shape.base, base_depth, what_tree);
    }
    CUZK_RETURN_IF_ERROR(
        check_path(at + ".base_proof.path", m.base, shape.base, base_depth, what_tree));
    CUZK_RETURN_IF_ERROR(check_path(at + ".sub_proof.path", m.sub, shape.sub, 1, what_tree));
    if (m.kind == MerkleProofKind::kSub) {
        if (!m.top.empty()) return c1_error(at, "a Sub proof has no top path");
        return Status();
    }
    return check_path(at + ".top_proof.path", m.top, shape.top, 1, what_tree);
}

Status check_column(const std::string& path, const ColumnProof& c, const SealProofInfo& info) {
    if (c.column.rows.size() != info.layers) {
        std::string w = "expected ";
        w += num(info.layers);
        w += " rows (one per layer), found ";
        w += num(c.column.rows.size());
        return c1_error(path + ".column.rows", w);
    }
    return check_merkle(path + ".inclusion_proof", c.inclusion_proof, info.shape,
                        info.base_tree_leaves(), "tree_c");
}

Status check_count(const std::string& path, size_t got, size_t want, const char* what) {
    if (got == want) return Status();
    std::string w = "expected ";
    w += num(want);
    w += ' ';
    w += what;
    w += ", found ";
    w += num(got);
    return c1_error(path, w);
}

Status check_parents(const std::string& path, const std::vector<Domain>& parents) {
    return check_count(path + ".parents", parents.size(), kC1LabelingParents, "parent labels");
}

Status check_vanilla(const std::string& path, const VanillaProof& p, const SealProofInfo& info) {
    const TreeShape binary{2, 0, 0};
    CUZK_RETURN_IF_ERROR(check_merkle(path + ".comm_d_proofs", p.comm_d_proofs, binary,
                                      info.nodes(), "tree_d (binary SHA-256)"));
    CUZK_RETURN_IF_ERROR(check_merkle(path + ".comm_r_last_proof", p.comm_r_last_proof, info.shape,
                                      info.base_tree_leaves(), "tree_r_last"));
    const std::string rcp = path + ".replica_column_proofs";
    CUZK_RETURN_IF_ERROR(check_column(rcp + ".c_x", p.replica_column_proofs.c_x, info));
    const auto& drg = p.replica_column_proofs.drg_parents;
    const auto& exp = p.replica_column_proofs.exp_parents;
    CUZK_RETURN_IF_ERROR(
        check_count(rcp + ".drg_parents", drg.size(), kC1DrgParents, "column proofs"));
    CUZK_RETURN_IF_ERROR(
        check_count(rcp + ".exp_parents", exp.size(), kC1ExpParents, "column proofs"));
    for (size_t i = 0; i < drg.size(); ++i) {
        std::string at = rcp + ".drg_parents";
        util::json::append_index(at, i);
        CUZK_RETURN_IF_ERROR(check_column(at, drg[i], info));
    }
    for (size_t i = 0; i < exp.size(); ++i) {
        std::string at = rcp + ".exp_parents";
        util::json::append_index(at, i);
        CUZK_RETURN_IF_ERROR(check_column(at, exp[i], info));
    }
    CUZK_RETURN_IF_ERROR(check_count(path + ".labeling_proofs", p.labeling_proofs.size(),
                                     info.layers, "labeling proofs (one per layer)"));
    for (size_t i = 0; i < p.labeling_proofs.size(); ++i) {
        std::string at = path + ".labeling_proofs";
        util::json::append_index(at, i);
        CUZK_RETURN_IF_ERROR(check_parents(at, p.labeling_proofs[i].parents));
    }
    return check_parents(path + ".encoding_proof", p.encoding_proof.parents);
}

}  // namespace

Status validate_c1(const SealCommitPhase1Output& c1, const C1ValidateOptions& options) {
    const auto id = static_cast<int>(c1.registered_proof);
    if (id < 0 || id >= kNumRegisteredSealProofs) {
        return c1_error("registered_proof", "not a registered seal proof");
    }
    const SealProofInfo& info = seal_proof_info(c1.registered_proof);
    std::string base = "vanilla_proofs.";
    base += vanilla_proof_variant_name(info.sector_size);
    const auto& parts = c1.vanilla_proofs;
    if (parts.empty()) return c1_error(base, "no partitions");
    if (options.require_registered_counts && parts.size() != info.partitions) {
        std::string w = info.name;
        w += " has ";
        w += num(info.partitions);
        w += " partitions, found ";
        w += num(parts.size());
        return c1_error(base, w);
    }
    for (size_t k = 0; k < parts.size(); ++k) {
        std::string at = base;
        util::json::append_index(at, k);
        if (parts[k].size() != parts[0].size()) {
            std::string w = "expected ";
            w += num(parts[0].size());
            w += " challenges like partition 0, found ";
            w += num(parts[k].size());
            return c1_error(at, w);
        }
        if (parts[k].empty()) return c1_error(at, "no challenges");
        if (options.require_registered_counts && parts[k].size() != info.challenges_per_partition) {
            std::string w = info.name;
            w += " has ";
            w += num(info.challenges_per_partition);
            w += " challenges per partition, found ";
            w += num(parts[k].size());
            return c1_error(at, w);
        }
        for (size_t c = 0; c < parts[k].size(); ++c) {
            std::string pc = at;
            util::json::append_index(pc, c);
            CUZK_RETURN_IF_ERROR(check_vanilla(pc, parts[k][c], info));
        }
    }
    return Status();
}

// ---------------------------------------------------------------------------------------------
// Decoding

namespace {

class Decoder {
   public:
    Status c1(Value root, SealCommitPhase1Output& out);

   private:
    struct Part {
        std::string_view key;
        size_t index;
        bool is_index;
    };

    std::string path() const {
        std::string s;
        for (const Part& p : parts_) {
            if (p.is_index) {
                util::json::append_index(s, p.index);
            } else {
                util::json::append_key(s, p.key);
            }
        }
        return s;
    }
    Status fail(std::string_view what) const { return c1_error(path(), what); }

    Status wrong_type(Value v, const char* expected) const {
        std::string w = "expected ";
        w += expected;
        w += ", found ";
        w += v.valid() ? util::json::type_name(v.type()) : "nothing";
        return fail(w);
    }

    // Runs fn on member `name` of object obj with the path extended by the key.
    template <class Fn>
    Status member(Value obj, std::string_view name, Fn&& fn) {
        std::optional<Value> m = obj.find(name);
        if (!m) {
            std::string w = "missing field \"";
            w += name;
            w += '"';
            return fail(w);
        }
        parts_.push_back(Part{name, 0, false});
        Status s = fn(*m);
        parts_.pop_back();
        return s;
    }

    // Runs fn(element, i) on each element of array v (after checking the type).
    template <class Fn>
    Status each(Value v, const char* what, Fn&& fn) {
        if (!v.is_array()) return wrong_type(v, what);
        size_t i = 0;
        parts_.push_back(Part{{}, 0, true});
        for (Value e : v.elements()) {
            parts_.back().index = i;
            Status s = fn(e, i);
            if (!s.ok()) {
                parts_.pop_back();
                return s;
            }
            ++i;
        }
        parts_.pop_back();
        return Status();
    }

    Status object(Value v) { return v.is_object() ? Status() : wrong_type(v, "an object"); }

    Status domain(Value v, Domain& out);
    Status domains(Value v, std::vector<Domain>& out) {
        out.resize(v.size());
        return each(v, "an array of 32-byte values",
                    [&](Value e, size_t i) { return domain(e, out[i]); });
    }
    Status u64(Value v, uint64_t& out) {
        if (!v.is_number()) return wrong_type(v, "an unsigned integer");
        auto r = v.get_u64();
        if (!r.ok()) return fail(r.status().message());
        out = *r;
        return Status();
    }
    Status u32(Value v, uint32_t& out) {
        uint64_t x = 0;
        C1_TRY(u64(v, x));
        if (x > UINT32_MAX) {
            std::string w = "value ";
            w += num(x);
            w += " does not fit in u32";
            return fail(w);
        }
        out = static_cast<uint32_t>(x);
        return Status();
    }
    Status inclusion_path(Value v, InclusionPath& out);
    Status merkle_proof(Value v, MerkleProof& out);
    Status column_proof(Value v, ColumnProof& out);
    template <class P>
    Status labeling(Value v, P& out);
    Status vanilla(Value v, VanillaProof& out);

    std::vector<Part> parts_;
};

Status Decoder::domain(Value v, Domain& out) {
    if (v.try_get_bytes(out.data(), out.size())) return Status();
    // Slow path: find and name what is wrong.
    if (!v.is_array()) return wrong_type(v, "an array of 32 bytes");
    if (v.size() != 32) {
        std::string w = "expected an array of 32 bytes, found an array of ";
        w += num(v.size());
        return fail(w);
    }
    size_t i = 0;
    for (Value e : v.elements()) {
        // Fast path: 1-3 plain digits (the JSON grammar already excludes leading zeros).
        const std::string_view t = e.number_text();
        if (!t.empty() && t.size() <= 3) {
            unsigned x = 0;
            bool digits = true;
            for (char c : t) {
                digits = digits && c >= '0' && c <= '9';
                x = x * 10 + static_cast<unsigned>(c - '0');
            }
            if (digits && x <= 255) {
                out[i++] = static_cast<uint8_t>(x);
                continue;
            }
        }
        parts_.push_back(Part{{}, i, true});
        Status s;
        if (!e.is_number()) {
            s = wrong_type(e, "a byte (0..255)");
        } else if (auto r = e.get_u64(); !r.ok()) {
            s = fail(r.status().message());
        } else {
            std::string w = "byte value ";
            w += t;
            w += " is greater than 255";
            s = fail(w);
        }
        parts_.pop_back();
        return s;
    }
    return Status();
}

Status Decoder::inclusion_path(Value v, InclusionPath& out) {
    C1_TRY(object(v));
    return member(v, "path", [&](Value arr) {
        out.resize(arr.size());
        return each(arr, "an array of path elements", [&](Value e, size_t i) {
            C1_TRY(object(e));
            C1_TRY(member(e, "hashes", [&](Value h) { return domains(h, out[i].hashes); }));
            return member(e, "index", [&](Value x) { return u64(x, out[i].index); });
        });
    });
}

Status Decoder::merkle_proof(Value v, MerkleProof& out) {
    C1_TRY(object(v));
    return member(v, "data", [&](Value data) -> Status {
        C1_TRY(object(data));
        if (data.size() != 1) {
            std::string w = "expected exactly one of \"Single\", \"Sub\", \"Top\", found ";
            w += num(data.size());
            w += " members";
            return fail(w);
        }
        const util::json::Member m = *data.members().begin();
        if (m.key == "Single") {
            out.kind = MerkleProofKind::kSingle;
        } else if (m.key == "Sub") {
            out.kind = MerkleProofKind::kSub;
        } else if (m.key == "Top") {
            out.kind = MerkleProofKind::kTop;
        } else {
            std::string w = "unknown proof variant \"";
            w += m.key.substr(0, 64);
            w += "\" (expected Single, Sub or Top)";
            return fail(w);
        }
        return member(data, m.key, [&](Value p) -> Status {
            C1_TRY(object(p));
            if (out.kind == MerkleProofKind::kSingle) {
                C1_TRY(member(p, "path", [&](Value x) { return inclusion_path(x, out.base); }));
            } else {
                C1_TRY(
                    member(p, "base_proof", [&](Value x) { return inclusion_path(x, out.base); }));
                C1_TRY(member(p, "sub_proof", [&](Value x) { return inclusion_path(x, out.sub); }));
                if (out.kind == MerkleProofKind::kTop) {
                    C1_TRY(member(p, "top_proof",
                                  [&](Value x) { return inclusion_path(x, out.top); }));
                }
            }
            C1_TRY(member(p, "root", [&](Value x) { return domain(x, out.root); }));
            return member(p, "leaf", [&](Value x) { return domain(x, out.leaf); });
        });
    });
}

Status Decoder::column_proof(Value v, ColumnProof& out) {
    C1_TRY(object(v));
    C1_TRY(member(v, "column", [&](Value c) -> Status {
        C1_TRY(object(c));
        C1_TRY(member(c, "index", [&](Value x) { return u32(x, out.column.index); }));
        C1_TRY(member(c, "rows", [&](Value x) { return domains(x, out.column.rows); }));
        return member(c, "_h", [&](Value x) {
            return x.is_null() ? Status() : wrong_type(x, "null (PhantomData)");
        });
    }));
    return member(v, "inclusion_proof",
                  [&](Value x) { return merkle_proof(x, out.inclusion_proof); });
}

template <class P>
Status Decoder::labeling(Value v, P& out) {
    C1_TRY(object(v));
    C1_TRY(member(v, "parents", [&](Value x) { return domains(x, out.parents); }));
    C1_TRY(member(v, "layer_index", [&](Value x) { return u32(x, out.layer_index); }));
    return member(v, "node", [&](Value x) { return u64(x, out.node); });
}

Status Decoder::vanilla(Value v, VanillaProof& out) {
    C1_TRY(object(v));
    C1_TRY(member(v, "comm_d_proofs", [&](Value x) { return merkle_proof(x, out.comm_d_proofs); }));
    C1_TRY(member(v, "comm_r_last_proof",
                  [&](Value x) { return merkle_proof(x, out.comm_r_last_proof); }));
    C1_TRY(member(v, "replica_column_proofs", [&](Value r) -> Status {
        C1_TRY(object(r));
        auto& rcp = out.replica_column_proofs;
        C1_TRY(member(r, "c_x", [&](Value x) { return column_proof(x, rcp.c_x); }));
        auto list = [&](const char* name, std::vector<ColumnProof>& dst) {
            return member(r, name, [&](Value arr) {
                dst.resize(arr.size());
                return each(arr, "an array of column proofs",
                            [&](Value e, size_t i) { return column_proof(e, dst[i]); });
            });
        };
        C1_TRY(list("drg_parents", rcp.drg_parents));
        return list("exp_parents", rcp.exp_parents);
    }));
    C1_TRY(member(v, "labeling_proofs", [&](Value arr) {
        out.labeling_proofs.resize(arr.size());
        return each(arr, "an array of labeling proofs",
                    [&](Value e, size_t i) { return labeling(e, out.labeling_proofs[i]); });
    }));
    return member(v, "encoding_proof", [&](Value x) { return labeling(x, out.encoding_proof); });
}

Status Decoder::c1(Value root, SealCommitPhase1Output& out) {
    C1_TRY(object(root));
    const SealProofInfo* info = nullptr;
    C1_TRY(member(root, "registered_proof", [&](Value x) -> Status {
        if (!x.is_string()) return wrong_type(x, "a registered proof name (string)");
        for (const SealProofInfo& p : all_seal_proofs()) {
            if (x.string_text() == p.name) info = &p;
        }
        if (info != nullptr) return Status();
        std::string w = "unknown registered proof \"";
        w += x.string_text().substr(0, 80);
        w += "\" (expected StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1, V1_1, "
             "V1_1_Feat_SyntheticPoRep or V1_2_Feat_NonInteractivePoRep)";
        return fail(w);
    }));
    out.registered_proof = info->proof;
    C1_TRY(member(root, "vanilla_proofs", [&](Value vp) -> Status {
        C1_TRY(object(vp));
        if (vp.size() != 1) {
            std::string w =
                "expected exactly one proof variant (e.g. \"StackedDrg2KiBV1\"), found ";
            w += num(vp.size());
            w += " members";
            return fail(w);
        }
        const util::json::Member m = *vp.members().begin();
        const char* want = vanilla_proof_variant_name(info->sector_size);
        if (m.key != want) {
            std::string w = "variant \"";
            w += m.key.substr(0, 64);
            w += "\" does not match registered_proof ";
            w += info->name;
            w += " (expected \"";
            w += want;
            w += "\")";
            return fail(w);
        }
        return member(vp, m.key, [&](Value parts) {
            out.vanilla_proofs.resize(parts.size());
            return each(parts, "an array of partitions", [&](Value part, size_t k) {
                auto& dst = out.vanilla_proofs[k];
                dst.resize(part.size());
                return each(part, "an array of challenge proofs",
                            [&](Value p, size_t c) { return vanilla(p, dst[c]); });
            });
        });
    }));
    C1_TRY(member(root, "comm_r", [&](Value x) { return domain(x, out.comm_r); }));
    C1_TRY(member(root, "comm_d", [&](Value x) { return domain(x, out.comm_d); }));
    C1_TRY(member(root, "replica_id", [&](Value x) { return domain(x, out.replica_id); }));
    C1_TRY(member(root, "seed", [&](Value x) { return domain(x, out.seed); }));
    return member(root, "ticket", [&](Value x) { return domain(x, out.ticket); });
}

Status prefix_error(const Status& s, std::string_view prefix) {
    std::string msg(prefix);
    msg += s.message();
    return Status(s.code(), std::move(msg));
}

}  // namespace

util::Result<SealCommitPhase1Output> decode_c1(Value root, const C1ValidateOptions& options) {
    SealCommitPhase1Output out;
    Decoder d;
    C1_TRY(d.c1(root, out));
    C1_TRY(validate_c1(out, options));
    return out;
}

util::Result<SealCommitPhase1Output> parse_c1_json(std::string text,
                                                   const C1ParseOptions& options) {
    auto doc = util::json::Document::parse(std::move(text), options.json);
    if (!doc.ok()) return prefix_error(doc.status(), "C1: ");
    return decode_c1(doc->root(), options.validate);
}

util::Result<C1File> parse_c1_file(std::string text, const C1ParseOptions& options) {
    std::string inner;
    C1Envelope env;
    {
        auto doc = util::json::Document::parse(std::move(text), options.json);
        if (!doc.ok()) return prefix_error(doc.status(), "C1: ");
        const Value root = doc->root();
        const std::optional<Value> p1 = root.is_object() ? root.find("Phase1Out") : std::nullopt;
        if (!p1) {
            if (root.is_object() && (root.find("SectorNum") || root.find("SectorSize"))) {
                return util::invalid_argument(
                    "C1 envelope: missing field \"Phase1Out\" (the base64 C1 JSON)");
            }
            C1File file;
            CUZK_ASSIGN_OR_RETURN(file.c1, decode_c1(root, options.validate));
            return file;
        }
        if (!p1->is_string()) {
            std::string msg = "C1 envelope: Phase1Out: expected a base64 string, found ";
            msg += util::json::type_name(p1->type());
            return util::invalid_argument(std::move(msg));
        }
        const std::optional<Value> num_v = root.find("SectorNum");
        const std::optional<Value> size_v = root.find("SectorSize");
        if (!num_v) return util::invalid_argument("C1 envelope: missing field \"SectorNum\"");
        if (!size_v) return util::invalid_argument("C1 envelope: missing field \"SectorSize\"");
        auto sector_num = num_v->get_i64();
        if (!sector_num.ok()) return prefix_error(sector_num.status(), "C1 envelope: SectorNum: ");
        auto sector_size = size_v->get_u64();
        if (!sector_size.ok()) {
            return prefix_error(sector_size.status(), "C1 envelope: SectorSize: ");
        }
        env.sector_num = *sector_num;
        env.sector_size = *sector_size;
        auto decoded = util::base64_decode_to_string(p1->string_text());
        if (!decoded.ok()) return prefix_error(decoded.status(), "C1 envelope: Phase1Out: ");
        inner = std::move(decoded).value();
    }  // the envelope document is released before the inner one is parsed
    auto c1 = parse_c1_json(std::move(inner), options);
    if (!c1.ok()) return prefix_error(c1.status(), "C1 envelope: Phase1Out (decoded): ");
    const SealProofInfo& info = seal_proof_info(c1->registered_proof);
    if (env.sector_size != info.sector_size) {
        std::string msg = "C1 envelope: SectorSize ";
        msg += num(env.sector_size);
        msg += " does not match registered_proof ";
        msg += info.name;
        msg += " (";
        msg += num(info.sector_size);
        msg += " bytes)";
        return util::invalid_argument(std::move(msg));
    }
    C1File file;
    file.c1 = std::move(c1).value();
    file.envelope = env;
    return file;
}

// ---------------------------------------------------------------------------------------------
// Writing (serde_json compact form)

namespace {

struct ByteText {
    char text[256][4];  // decimal, NUL-terminated
    uint8_t len[256];
    constexpr ByteText() : text(), len() {
        for (int b = 0; b < 256; ++b) {
            int n = 0;
            if (b >= 100) text[b][n++] = static_cast<char>('0' + b / 100);
            if (b >= 10) text[b][n++] = static_cast<char>('0' + (b / 10) % 10);
            text[b][n++] = static_cast<char>('0' + b % 10);
            len[b] = static_cast<uint8_t>(n);
        }
    }
};
constexpr ByteText kByteText;

class C1Writer {
   public:
    std::string out;

    void domain(const Domain& d) {
        out += '[';
        for (size_t i = 0; i < 32; ++i) {
            if (i) out += ',';
            out.append(kByteText.text[d[i]], kByteText.len[d[i]]);
        }
        out += ']';
    }
    void domains(const std::vector<Domain>& v) {
        out += '[';
        for (size_t i = 0; i < v.size(); ++i) {
            if (i) out += ',';
            domain(v[i]);
        }
        out += ']';
    }
    void u64(uint64_t v) { out += std::to_string(v); }
    void path(const InclusionPath& p) {
        out += "{\"path\":[";
        for (size_t i = 0; i < p.size(); ++i) {
            if (i) out += ',';
            out += "{\"hashes\":";
            domains(p[i].hashes);
            out += ",\"index\":";
            u64(p[i].index);
            out += '}';
        }
        out += "]}";
    }
    void merkle(const MerkleProof& m) {
        out += "{\"data\":{\"";
        out += merkle_proof_kind_name(m.kind);
        out += "\":{";
        // SingleProof {root, leaf, path}; SubProof {base_proof, sub_proof, root, leaf};
        // TopProof {base_proof, sub_proof, top_proof, root, leaf} (storage-proofs-core
        // merkle/proof.rs).
        if (m.kind == MerkleProofKind::kSingle) {
            out += "\"root\":";
            domain(m.root);
            out += ",\"leaf\":";
            domain(m.leaf);
            out += ",\"path\":";
            path(m.base);
        } else {
            out += "\"base_proof\":";
            path(m.base);
            out += ",\"sub_proof\":";
            path(m.sub);
            if (m.kind == MerkleProofKind::kTop) {
                out += ",\"top_proof\":";
                path(m.top);
            }
            out += ",\"root\":";
            domain(m.root);
            out += ",\"leaf\":";
            domain(m.leaf);
        }
        out += "}}}";
    }
    void column_proof(const ColumnProof& c) {
        out += "{\"column\":{\"index\":";
        u64(c.column.index);
        out += ",\"rows\":";
        domains(c.column.rows);
        out += ",\"_h\":null},\"inclusion_proof\":";
        merkle(c.inclusion_proof);
        out += '}';
    }
    void column_proofs(const std::vector<ColumnProof>& v) {
        out += '[';
        for (size_t i = 0; i < v.size(); ++i) {
            if (i) out += ',';
            column_proof(v[i]);
        }
        out += ']';
    }
    template <class P>
    void labeling(const P& p) {
        out += "{\"parents\":";
        domains(p.parents);
        out += ",\"layer_index\":";
        u64(p.layer_index);
        out += ",\"node\":";
        u64(p.node);
        out += '}';
    }
    void vanilla(const VanillaProof& p) {
        out += "{\"comm_d_proofs\":";
        merkle(p.comm_d_proofs);
        out += ",\"comm_r_last_proof\":";
        merkle(p.comm_r_last_proof);
        out += ",\"replica_column_proofs\":{\"c_x\":";
        column_proof(p.replica_column_proofs.c_x);
        out += ",\"drg_parents\":";
        column_proofs(p.replica_column_proofs.drg_parents);
        out += ",\"exp_parents\":";
        column_proofs(p.replica_column_proofs.exp_parents);
        out += "},\"labeling_proofs\":[";
        for (size_t i = 0; i < p.labeling_proofs.size(); ++i) {
            if (i) out += ',';
            labeling(p.labeling_proofs[i]);
        }
        out += "],\"encoding_proof\":";
        labeling(p.encoding_proof);
        out += '}';
    }
};

}  // namespace

std::string write_c1_json(const SealCommitPhase1Output& c1) {
    const SealProofInfo& info = seal_proof_info(c1.registered_proof);
    C1Writer w;
    w.out += "{\"registered_proof\":\"";
    w.out += info.name;
    w.out += "\",\"vanilla_proofs\":{\"";
    const char* variant = vanilla_proof_variant_name(info.sector_size);
    w.out += variant ? variant : "?";
    w.out += "\":[";
    for (size_t k = 0; k < c1.vanilla_proofs.size(); ++k) {
        if (k) w.out += ',';
        w.out += '[';
        for (size_t c = 0; c < c1.vanilla_proofs[k].size(); ++c) {
            if (c) w.out += ',';
            w.vanilla(c1.vanilla_proofs[k][c]);
        }
        w.out += ']';
    }
    w.out += "]},\"comm_r\":";
    w.domain(c1.comm_r);
    w.out += ",\"comm_d\":";
    w.domain(c1.comm_d);
    w.out += ",\"replica_id\":";
    w.domain(c1.replica_id);
    w.out += ",\"seed\":";
    w.domain(c1.seed);
    w.out += ",\"ticket\":";
    w.domain(c1.ticket);
    w.out += '}';
    return std::move(w.out);
}

std::string write_c1_envelope(const SealCommitPhase1Output& c1, int64_t sector_num) {
    const std::string raw = write_c1_json(c1);
    std::string out = "{\"SectorNum\":";
    out += std::to_string(sector_num);
    out += ",\"Phase1Out\":\"";
    out += util::base64_encode(std::string_view(raw));
    out += "\",\"SectorSize\":";
    out += num(seal_proof_info(c1.registered_proof).sector_size);
    out += '}';
    return out;
}

}  // namespace cuzk::porep
