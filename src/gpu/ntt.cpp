// Host side of ntt.hpp: power tables, pass plans, launches.
#include "gpu/ntt.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gpu/cuda_status.hpp"
#include "gpu/device.hpp"
#include "gpu/ntt_launch.hpp"
#include "ntt/domain.hpp"

namespace cuzk::gpu {

namespace {

using ff::Fr;

// Host copy of a two-level power table of x covering exponents < 2^exponent_bits.
struct HostPowers {
    std::vector<Fr> lo, hi;
};

// Powers x^e for e < 2^exponent_bits; the lo table at most 2^lo_bits_max wide (the remaining
// exponent bits index hi).
HostPowers make_powers(const Fr& x, unsigned exponent_bits,
                       unsigned lo_bits_max = detail::kPowLoBits) {
    HostPowers t;
    const unsigned lo_bits = exponent_bits < lo_bits_max ? exponent_bits : lo_bits_max;
    t.lo.resize(size_t{1} << lo_bits);
    Fr acc = Fr::one();
    for (Fr& v : t.lo) {
        v = acc;
        acc *= x;
    }
    const unsigned hi_bits = exponent_bits - lo_bits;
    t.hi.resize(size_t{1} << hi_bits);
    const Fr step = x.pow(uint64_t{1} << lo_bits);
    acc = Fr::one();
    for (Fr& v : t.hi) {
        v = acc;
        acc *= step;
    }
    return t;
}

// One butterfly pass of a transform: its k stages on the index bits [r, r + k).
struct Pass {
    unsigned r, k;
};

// The L stages in passes of at most kPassLogElements, balanced (27 → 9 + 9 + 9). DIF runs the
// high bits first (r = L − k for the first pass), DIT the low bits first (r = 0).
std::vector<Pass> pass_plan(unsigned L, bool dif) {
    std::vector<Pass> plan;
    const unsigned passes = (L + detail::kPassLogElements - 1) / detail::kPassLogElements;
    unsigned done = 0;  // stages already covered
    for (unsigned p = 0; p < passes; ++p) {
        const unsigned k = (L - done) / (passes - p);  // balanced split of what is left
        plan.push_back({dif ? L - done - k : done, k});
        done += k;
    }
    return plan;
}

// The passes whose inter-pass twiddles get their own table (NttOptions::pass_twiddle_tables):
// those with r > 0 and k + r < L, i.e. ω' = ω^(2^(L − k − r)) a proper root — the middle pass
// of three. Their exponent bits k + r (≤ 20 for L ≤ 28: a table of ≤ 32 MiB).
bool has_pass_table(const Pass& p, unsigned L) { return p.r > 0 && p.k + p.r < L; }

// The outer pass of a plan of more than one pass: its sub-problems span the whole domain
// (k + r = L), so its inter-pass twiddles are ω^x for any x < m (NttOptions::full_twiddle_table).
bool is_outer_pass(const Pass& p, unsigned L) { return p.r > 0 && p.k + p.r == L; }

DeviceFr* as_device(Fr* p) { return reinterpret_cast<DeviceFr*>(p); }
detail::FieldArith arith(const NttOptions& o) {
    if (!o.ptx_mul) return detail::FieldArith::kWide;
    if (o.karatsuba_product) return detail::FieldArith::kPtxKaratsuba;
    if (!o.sparse_reduction) return detail::FieldArith::kPtx;
    switch (o.fp64_products) {
        case 1: return detail::FieldArith::kHybridFp64;
        case 2: return detail::FieldArith::kFp64;
        default:
            return o.lazy_difference ? detail::FieldArith::kPtxSparseLazyDifference
                                     : detail::FieldArith::kPtxSparse;
    }
}
DeviceFr to_device(const Fr& x) {
    DeviceFr d;
    for (size_t i = 0; i < DeviceFr::kLimbs; ++i) d.limb[i] = x.limb[i];
    return d;
}

}  // namespace

// The power tables in one device allocation.
struct NttDomain::Tables {
    DeviceBuffer buffer;
    detail::PowerTable omega, omega_inv, g, g_inv;  // ω^e, e < m; g^i, i < m
    // Per exponent width b of a middle pass (pass_plan, has_pass_table): (ω^(2^(L − b)))^x for
    // x < 2^b in one table, forward [0] and inverse [1].
    std::vector<std::pair<unsigned, detail::PowerTable>> pass_tables[2];
    const DeviceFr* roots = nullptr;                 // the passes' 2^kmax-th roots (ntt_launch.hpp)
    const DeviceFr* roots_inv = nullptr;
    // NttOptions::full_twiddle_table: ω^e for every e < m (fill_full_twiddles); empty when not
    // built.
    DeviceBuffer full_buffer;
    Fr size_inv;
    Fr z_inv;  // (g^m − 1)⁻¹
};

NttDomain::NttDomain(unsigned log_size) : log_size_(log_size) {}
NttDomain::~NttDomain() = default;

bool NttDomain::has_full_twiddle_table() const { return tables_->full_buffer.data() != nullptr; }

bool NttDomain::uses_full_twiddles() const { return log_size_ > detail::kPassLogElements; }

util::Status NttDomain::fill_full_twiddles(Fr* out, CUstream_st* stream) const {
    CUZK_CUDA_RETURN_IF_ERROR(
        detail::launch_fill_powers(as_device(out), size(), tables_->omega, stream));
    return util::Status();
}

util::Result<std::unique_ptr<NttDomain>> NttDomain::create(unsigned log_size,
                                                           const NttOptions& options) {
    if (log_size > kMaxLogSize) {
        std::string m = "gpu::NttDomain: 2^";
        m += std::to_string(log_size);
        m += " is above the largest supported size 2^";
        m += std::to_string(kMaxLogSize);
        return util::invalid_argument(std::move(m));
    }
    CUZK_RETURN_IF_ERROR(check_device_available());
    auto domain_r = ntt::EvaluationDomain::create(size_t{1} << log_size);
    if (!domain_r.ok()) return domain_r.status();
    const ntt::EvaluationDomain& d = *domain_r;
    std::vector<HostPowers> host = {
        make_powers(d.omega(), log_size), make_powers(d.omega_inv(), log_size),
        make_powers(d.coset_generator(), log_size), make_powers(d.coset_generator_inv(), log_size)};
    // The middle passes' own tables, for both algorithms' plans, forward and inverse.
    std::vector<unsigned> pass_bits;
    for (bool dif : {true, false})
        for (const Pass& p : pass_plan(log_size, dif))
            if (has_pass_table(p, log_size) &&
                std::find(pass_bits.begin(), pass_bits.end(), p.k + p.r) == pass_bits.end())
                pass_bits.push_back(p.k + p.r);
    for (int inv = 0; inv < 2; ++inv)
        for (unsigned b : pass_bits)
            host.push_back(make_powers(
                (inv ? d.omega_inv() : d.omega()).pow(uint64_t{1} << (log_size - b)), b, b));
    // The 2^kmax-th roots for the passes' inner DFTs, forward and inverse.
    const unsigned kmax = log_size < detail::kPassLogElements ? log_size : detail::kPassLogElements;
    const size_t small = kmax == 0 ? 0 : size_t{1} << (kmax - 1);
    std::vector<Fr> roots[2];
    for (int inv = 0; inv < 2; ++inv) {
        const Fr step = (inv ? d.omega_inv() : d.omega()).pow(uint64_t{1} << (log_size - kmax));
        Fr acc = Fr::one();
        for (size_t j = 0; j < small; ++j, acc *= step) roots[inv].push_back(acc);
    }
    size_t total = 2 * small;
    for (const HostPowers& h : host) total += h.lo.size() + h.hi.size();
    std::vector<Fr> packed;
    packed.reserve(total);
    for (const HostPowers& h : host) {
        packed.insert(packed.end(), h.lo.begin(), h.lo.end());
        packed.insert(packed.end(), h.hi.begin(), h.hi.end());
    }
    for (const auto& r : roots) packed.insert(packed.end(), r.begin(), r.end());
    auto tables = std::make_unique<Tables>();
    CUZK_ASSIGN_OR_RETURN(tables->buffer, DeviceBuffer::allocate(total * sizeof(Fr)));
    CUZK_RETURN_IF_ERROR(tables->buffer.upload(packed.data(), total * sizeof(Fr)));
    const DeviceFr* base = static_cast<const DeviceFr*>(tables->buffer.data());
    std::vector<detail::PowerTable*> slots = {&tables->omega, &tables->omega_inv, &tables->g,
                                              &tables->g_inv};
    for (int inv = 0; inv < 2; ++inv) {
        tables->pass_tables[inv].reserve(pass_bits.size());
        for (unsigned b : pass_bits) {
            tables->pass_tables[inv].push_back({b, detail::PowerTable{nullptr, nullptr, b}});
            slots.push_back(&tables->pass_tables[inv].back().second);
        }
    }
    size_t offset = 0;
    for (size_t i = 0; i < slots.size(); ++i) {
        slots[i]->lo = base + offset;
        offset += host[i].lo.size();
        slots[i]->hi = base + offset;
        offset += host[i].hi.size();
    }
    tables->roots = base + offset;
    tables->roots_inv = base + offset + small;
    tables->size_inv = d.size_inv();
    tables->z_inv = d.z_on_coset_inverse();
    std::unique_ptr<NttDomain> out(new NttDomain(log_size));
    out->tables_ = std::move(tables);
    if (options.full_twiddle_table && out->uses_full_twiddles()) {
        // Where the m·32 bytes do not fit, the domain goes without (transforms use the
        // two-level table).
        auto full = DeviceBuffer::allocate(out->size() * sizeof(Fr));
        if (full.ok()) {
            CUZK_RETURN_IF_ERROR(out->fill_full_twiddles(static_cast<Fr*>(full->data()), nullptr));
            CUZK_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(nullptr));
            out->tables_->full_buffer = std::move(*full);
        } else if (full.status().code() != util::StatusCode::kResourceExhausted) {
            return full.status();
        }
    }
    return out;
}

// The passes of pass_plan. reorder = false leaves out the bit-reversal pass: DIF then ends in
// bit-reversed order, DIT starts from it.
util::Status NttDomain::transform(Fr* data, CUstream_st* stream, bool inverse_roots,
                                  const NttOptions& options, bool reorder) const {
    const unsigned L = log_size_;
    if (L == 0) return util::Status();
    const unsigned threads = options.pass_threads;
    if (threads < 32 || threads > 512 || (threads & (threads - 1)) != 0)
        return util::invalid_argument(
            "NTT: pass_threads (env CUZK_NTT_PASS_THREADS) must be a power of two in 32..512, "
            "not " + std::to_string(threads));
    if (options.pass_min_blocks != 0 && options.pass_min_blocks != 5 &&
        options.pass_min_blocks != 6)
        return util::invalid_argument(
            "NTT: pass_min_blocks (env CUZK_NTT_PASS_MIN_BLOCKS) must be 0, 5 or 6, not " +
            std::to_string(options.pass_min_blocks));
    if (options.register_stages == 0 || options.register_stages > detail::kMaxRegisterStages)
        return util::invalid_argument(
            "NTT: register_stages (env CUZK_NTT_REGISTER_STAGES) must be 1.." +
            std::to_string(detail::kMaxRegisterStages) + ", not " +
            std::to_string(options.register_stages));
    const bool dif = options.algorithm == NttAlgorithm::kDif;
    const detail::PowerTable tw = inverse_roots ? tables_->omega_inv : tables_->omega;
    const DeviceFr* roots = inverse_roots ? tables_->roots_inv : tables_->roots;
    DeviceFr* d = as_device(data);
    // The outer pass's table of all m powers of ω: the caller's, else the domain's if asked for.
    const DeviceFr* full = reinterpret_cast<const DeviceFr*>(options.full_twiddles);
    if (full == nullptr && options.full_twiddle_table && has_full_twiddle_table())
        full = static_cast<const DeviceFr*>(tables_->full_buffer.data());
    if (!dif && reorder)
        CUZK_CUDA_RETURN_IF_ERROR(
            detail::launch_bit_reverse(d, L, options.tiled_bit_reverse, stream));
    for (const Pass& p : pass_plan(L, dif)) {
        detail::PowerTable table = tw;
        unsigned shift = L - p.k - p.r;
        bool prefetch = false;
        if (options.pass_twiddle_tables && has_pass_table(p, L)) {
            for (const auto& [bits, t] : tables_->pass_tables[inverse_roots ? 1 : 0])
                if (bits == p.k + p.r) table = t, shift = 0;
            if (shift != 0) return util::internal_error("NTT: no twiddle table for a middle pass");
        }
        if (full != nullptr && is_outer_pass(p, L)) {  // shift is 0 here
            // ω^e at index e: read forward for ω, backwards (negate_bits) for ω⁻¹.
            table = detail::PowerTable{full, nullptr, L, inverse_roots ? L : 0};
            prefetch = dif && options.twiddle_prefetch;
        }
        CUZK_CUDA_RETURN_IF_ERROR(detail::launch_ntt_pass(d, L, p.r, p.k, dif, arith(options),
                                                          table, shift, roots, threads,
                                                          options.register_stages, prefetch,
                                                          options.pass_min_blocks,
                                                          options.direct_rounds,
                                                          options.vector_io,
                                                          options.dif_partial_round_first,
                                                          stream));
    }
    if (dif && reorder)
        CUZK_CUDA_RETURN_IF_ERROR(
            detail::launch_bit_reverse(d, L, options.tiled_bit_reverse, stream));
    return util::Status();
}

namespace {
NttOptions with_algorithm(NttOptions o, NttAlgorithm a) {
    o.algorithm = a;
    return o;
}
}  // namespace

util::Status NttDomain::forward(Fr* data, CUstream_st* stream, const NttOptions& options) const {
    return transform(data, stream, false, options);
}

util::Status NttDomain::inverse(Fr* data, CUstream_st* stream, const NttOptions& options) const {
    CUZK_RETURN_IF_ERROR(transform(data, stream, true, options));
    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_scale_by_powers(
        as_device(data), size(), to_device(tables_->size_inv), detail::PowerTable{nullptr, nullptr},
        arith(options), stream));
    return util::Status();
}

util::Status NttDomain::coset_forward(Fr* data, CUstream_st* stream,
                                      const NttOptions& options) const {
    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_scale_by_powers(
        as_device(data), size(), to_device(Fr::one()), tables_->g, arith(options), stream));
    return transform(data, stream, false, options);
}

util::Status NttDomain::coset_inverse(Fr* data, CUstream_st* stream,
                                      const NttOptions& options) const {
    CUZK_RETURN_IF_ERROR(transform(data, stream, true, options));
    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_scale_by_powers(
        as_device(data), size(), to_device(tables_->size_inv), tables_->g_inv, arith(options),
        stream));
    return util::Status();
}

util::Status NttDomain::inverse_then_coset_forward(Fr* data, CUstream_st* stream,
                                                   const NttOptions& options) const {
    if (options.bit_reversal_free) {  // DIF leaves bit-reversed order, DIT takes it back
        CUZK_RETURN_IF_ERROR(
            transform(data, stream, true, with_algorithm(options, NttAlgorithm::kDif), false));
        CUZK_CUDA_RETURN_IF_ERROR(detail::launch_scale_by_powers(
            as_device(data), size(), to_device(tables_->size_inv), tables_->g, arith(options),
            stream, log_size_));
        return transform(data, stream, false, with_algorithm(options, NttAlgorithm::kDit), false);
    }
    CUZK_RETURN_IF_ERROR(transform(data, stream, true, options));
    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_scale_by_powers(
        as_device(data), size(), to_device(tables_->size_inv), tables_->g, arith(options),
        stream));
    return transform(data, stream, false, options);
}

util::Status NttDomain::h_from_coset_product(Fr* a, const Fr* b, Fr* c, CUstream_st* stream,
                                            const NttOptions& options) const {
    // Unscaled inverse transforms T = Σ_j v_j ω^(−ij); icoset(a·b)[i] = g^−i·T_ab[i]/m and
    // iNTT(c)[i] = T_c[i]/m, so H[i] = (g^−i·T_ab[i] − T_c[i])·(z⁻¹/m). With
    // bit_reversal_free both transforms stay in bit-reversed order (DIF, no reordering), the
    // combination follows it, and one bit reversal ends the step.
    const bool reversed = options.bit_reversal_free;
    const NttOptions o = reversed ? with_algorithm(options, NttAlgorithm::kDif) : options;
    DeviceFr* d = as_device(a);
    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_product(
        d, reinterpret_cast<const DeviceFr*>(b), size(), arith(options), stream));
    CUZK_RETURN_IF_ERROR(transform(a, stream, true, o, !reversed));
    CUZK_RETURN_IF_ERROR(transform(c, stream, true, o, !reversed));
    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_scale_by_powers_minus(
        d, as_device(c), size(), to_device(tables_->z_inv * tables_->size_inv), tables_->g_inv,
        arith(options), stream, reversed ? log_size_ : 0));
    if (reversed)
        CUZK_CUDA_RETURN_IF_ERROR(
            detail::launch_bit_reverse(d, log_size_, options.tiled_bit_reverse, stream));
    return util::Status();
}

util::Status NttDomain::multiply_pointwise(Fr* a, const Fr* b, CUstream_st* stream,
                                           const NttOptions& options) const {
    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_product(
        as_device(a), reinterpret_cast<const DeviceFr*>(b), size(), arith(options), stream));
    return util::Status();
}

util::Status NttDomain::quotient_on_coset(Fr* a, const Fr* b, const Fr* c,
                                          CUstream_st* stream) const {
    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_quotient(
        as_device(a), reinterpret_cast<const DeviceFr*>(b), reinterpret_cast<const DeviceFr*>(c),
        size(), to_device(tables_->z_inv), stream));
    return util::Status();
}

namespace {

enum class Kind { kForward, kInverse, kCosetForward, kCosetInverse };

util::Status run_on_host(std::span<Fr> a, Kind kind, const NttOptions& options) {
    const size_t n = a.size();
    if (n == 0 || (n & (n - 1)) != 0) {
        std::string m = "gpu::ntt: length ";
        m += std::to_string(n);
        m += " is not a power of two";
        return util::invalid_argument(std::move(m));
    }
    const unsigned log_n = static_cast<unsigned>(__builtin_ctzll(n));
    CUZK_ASSIGN_OR_RETURN(auto domain, NttDomain::create(log_n, options));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer buf, DeviceBuffer::allocate(a.size_bytes()));
    CUZK_RETURN_IF_ERROR(buf.upload(a.data(), a.size_bytes()));
    Fr* d = static_cast<Fr*>(buf.data());
    switch (kind) {
        case Kind::kForward: CUZK_RETURN_IF_ERROR(domain->forward(d, nullptr, options)); break;
        case Kind::kInverse: CUZK_RETURN_IF_ERROR(domain->inverse(d, nullptr, options)); break;
        case Kind::kCosetForward:
            CUZK_RETURN_IF_ERROR(domain->coset_forward(d, nullptr, options));
            break;
        case Kind::kCosetInverse:
            CUZK_RETURN_IF_ERROR(domain->coset_inverse(d, nullptr, options));
            break;
    }
    CUZK_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(nullptr));
    return buf.download(a.data(), a.size_bytes());
}

}  // namespace

util::Status ntt_forward(std::span<Fr> a, const NttOptions& options) {
    return run_on_host(a, Kind::kForward, options);
}
util::Status ntt_inverse(std::span<Fr> a, const NttOptions& options) {
    return run_on_host(a, Kind::kInverse, options);
}
util::Status ntt_coset_forward(std::span<Fr> a, const NttOptions& options) {
    return run_on_host(a, Kind::kCosetForward, options);
}
util::Status ntt_coset_inverse(std::span<Fr> a, const NttOptions& options) {
    return run_on_host(a, Kind::kCosetInverse, options);
}

}  // namespace cuzk::gpu
