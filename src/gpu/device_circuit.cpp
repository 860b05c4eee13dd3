// Host side of device_circuit.hpp: uploads a compiled circuit and launches its kernels
// (spmv_kernels.cu).
#include "gpu/device_circuit.hpp"

#include <cuda_runtime_api.h>

#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "gpu/cuda_status.hpp"
#include "gpu/device.hpp"
#include "gpu/spmv_launch.hpp"

namespace cuzk::gpu {

namespace {

// The indices of the set bits of `bits`, each plus `offset`, appended to `out`.
void append_set_bits(const r1cs::DensityBits& bits, uint32_t offset, std::vector<uint32_t>& out) {
    const std::vector<uint64_t>& words = bits.words();
    for (size_t w = 0; w < words.size(); ++w) {
        for (uint64_t word = words[w]; word != 0; word &= word - 1)
            out.push_back(offset + static_cast<uint32_t>(w * 64 + static_cast<unsigned>(
                                                                     __builtin_ctzll(word))));
    }
}

template <class T>
util::Result<DeviceBuffer> upload_vector(const std::vector<T>& v) {
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer b, DeviceBuffer::allocate(std::max<size_t>(
                                              v.size() * sizeof(T), 1)));
    if (!v.empty()) CUZK_RETURN_IF_ERROR(b.upload(v.data(), v.size() * sizeof(T)));
    return b;
}

uint32_t index_of(const std::vector<ff::Fr>& table, const ff::Fr& value) {
    for (size_t i = 0; i < table.size(); ++i)
        if (table[i] == value) return static_cast<uint32_t>(i);
    return detail::kNoCoefficient;
}

const uint64_t* u64(const void* p) { return static_cast<const uint64_t*>(p); }
const uint32_t* u32(const void* p) { return static_cast<const uint32_t*>(p); }

}  // namespace

struct DeviceCircuit::Buffers {
    DeviceBuffer row_ptr[3], col[3], coeff[3];
    DeviceBuffer table;
    DeviceBuffer a_list, b_list;
    uint32_t one_index = detail::kNoCoefficient, minus_one_index = detail::kNoCoefficient;
};

DeviceCircuit::~DeviceCircuit() = default;

util::Result<std::unique_ptr<DeviceCircuit>> DeviceCircuit::upload(
    const groth16::CompiledCircuit& circuit) {
    CUZK_RETURN_IF_ERROR(check_device_available());
    const r1cs::ShapeRecorder& shape = circuit.shape();
    if (!shape.finished())
        return util::invalid_argument("gpu::DeviceCircuit: the compiled shape is not finished");
    if (shape.num_columns() >= std::numeric_limits<uint32_t>::max())
        return util::invalid_argument("gpu::DeviceCircuit: 2^32 or more variables");
    std::unique_ptr<DeviceCircuit> dc(new DeviceCircuit);
    dc->buffers_ = std::make_unique<Buffers>();
    Buffers& buf = *dc->buffers_;
    dc->num_inputs_ = circuit.num_inputs();
    dc->num_aux_ = circuit.num_aux();
    dc->num_rows_ = circuit.num_rows();
    const r1cs::CsrMatrix* m[3] = {&shape.a(), &shape.b(), &shape.c()};
    for (int i = 0; i < 3; ++i) {
        if (m[i]->rows() != dc->num_rows_)
            return util::internal_error("gpu::DeviceCircuit: the matrices differ in rows");
        dc->nnz_[i] = m[i]->nnz();
        CUZK_ASSIGN_OR_RETURN(buf.row_ptr[i], upload_vector(m[i]->row_ptr));
        CUZK_ASSIGN_OR_RETURN(buf.col[i], upload_vector(m[i]->col));
        CUZK_ASSIGN_OR_RETURN(buf.coeff[i], upload_vector(m[i]->coeff));
    }
    const std::vector<ff::Fr>& table = shape.coefficients();
    CUZK_ASSIGN_OR_RETURN(buf.table, upload_vector(table));
    buf.one_index = index_of(table, ff::Fr::one());
    buf.minus_one_index = index_of(table, -ff::Fr::one());
    // The gather lists, in groth16::gather_msm_scalars's order.
    const uint32_t ni = static_cast<uint32_t>(dc->num_inputs_);
    std::vector<uint32_t> list;
    list.reserve(dc->num_columns());
    for (uint32_t i = 0; i < ni; ++i) list.push_back(i);
    append_set_bits(shape.a_aux_density(), ni, list);
    dc->a_count_ = list.size();
    CUZK_ASSIGN_OR_RETURN(buf.a_list, upload_vector(list));
    list.clear();
    append_set_bits(shape.b_input_density(), 0, list);
    append_set_bits(shape.b_aux_density(), ni, list);
    dc->b_count_ = list.size();
    CUZK_ASSIGN_OR_RETURN(buf.b_list, upload_vector(list));
    return dc;
}

size_t DeviceCircuit::device_bytes() const {
    if (!buffers_) return 0;
    size_t total = buffers_->table.size() + buffers_->a_list.size() + buffers_->b_list.size();
    for (int i = 0; i < 3; ++i)
        total += buffers_->row_ptr[i].size() + buffers_->col[i].size() + buffers_->coeff[i].size();
    return total;
}

util::Status DeviceCircuit::multiply(const ff::Fr* z, ff::Fr* a, ff::Fr* b, ff::Fr* c,
                                     size_t padded_len, const SpmvOptions& options) const {
    if (padded_len < num_rows_) {
        std::string msg = "gpu::DeviceCircuit::multiply: padded length ";
        msg += std::to_string(padded_len);
        msg += " is below the ";
        msg += std::to_string(num_rows_);
        msg += " rows";
        return util::invalid_argument(std::move(msg));
    }
    if (z == nullptr || a == nullptr || b == nullptr || c == nullptr)
        return util::invalid_argument("gpu::DeviceCircuit::multiply: a null device pointer");
    ff::Fr* out[3] = {a, b, c};
    for (int i = 0; i < 3; ++i) {
        CUZK_CUDA_RETURN_IF_ERROR(detail::launch_csr_multiply(
            u64(buffers_->row_ptr[i].data()), u32(buffers_->col[i].data()),
            u32(buffers_->coeff[i].data()), u64(buffers_->table.data()), buffers_->one_index,
            buffers_->minus_one_index, reinterpret_cast<const uint64_t*>(z), num_rows_,
            padded_len, options.warp_row_min, reinterpret_cast<uint64_t*>(out[i])));
    }
    return util::Status();
}

util::Status DeviceCircuit::gather_a(const ff::Fr* z, ff::Fr* out) const {
    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_gather_fr(reinterpret_cast<const uint64_t*>(z),
                                                       u32(buffers_->a_list.data()), a_count_,
                                                       reinterpret_cast<uint64_t*>(out)));
    return util::Status();
}

util::Status DeviceCircuit::gather_b(const ff::Fr* z, ff::Fr* out) const {
    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_gather_fr(reinterpret_cast<const uint64_t*>(z),
                                                       u32(buffers_->b_list.data()), b_count_,
                                                       reinterpret_cast<uint64_t*>(out)));
    return util::Status();
}

util::Result<size_t> first_unsatisfied_row_device(const ff::Fr* a, const ff::Fr* b,
                                                  const ff::Fr* c, size_t rows) {
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer first, DeviceBuffer::allocate(sizeof(unsigned long long)));
    unsigned long long answer = std::numeric_limits<unsigned long long>::max();
    CUZK_RETURN_IF_ERROR(first.upload(&answer, sizeof answer));
    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_first_unsatisfied(
        reinterpret_cast<const uint64_t*>(a), reinterpret_cast<const uint64_t*>(b),
        reinterpret_cast<const uint64_t*>(c), rows, static_cast<unsigned long long*>(first.data())));
    CUZK_RETURN_IF_ERROR(first.download(&answer, sizeof answer));
    if (answer == std::numeric_limits<unsigned long long>::max())
        return std::numeric_limits<size_t>::max();
    return static_cast<size_t>(answer);
}

}  // namespace cuzk::gpu
