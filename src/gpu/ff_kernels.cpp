// Host side of ff_kernels.hpp: size checks, device buffers, launches, CUDA errors → Status.
#include "gpu/ff_kernels.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <type_traits>

#include "gpu/batch_inverse_launch.hpp"
#include "gpu/cuda_status.hpp"
#include "gpu/device.hpp"
#include "gpu/device_curve.cuh"
#include "gpu/device_field.cuh"
#include "gpu/kernel_launch.hpp"

namespace cuzk::gpu {

namespace {

// Host buffers go to the device byte for byte: each host type must have exactly the layout of
// its device counterpart.
template <class Host, class Device>
constexpr bool same_layout() {
    return sizeof(Host) == sizeof(Device) && alignof(Host) == alignof(Device) &&
           std::is_trivially_copyable_v<Host> && std::is_trivially_copyable_v<Device> &&
           std::is_standard_layout_v<Host> && std::is_standard_layout_v<Device>;
}
static_assert(same_layout<ff::Fp, DeviceFp>(), "ff::Fp and gpu::DeviceFp must share a layout");
static_assert(same_layout<ff::Fr, DeviceFr>(), "ff::Fr and gpu::DeviceFr must share a layout");
static_assert(same_layout<ec::G1Affine, DeviceG1Affine>());
static_assert(same_layout<ec::G1Xyzz, DeviceG1Xyzz>());
static_assert(same_layout<ff::Fp2, DeviceFp2>());
static_assert(sizeof(ff::Fp) == ff::FpParams::kBytes && sizeof(ff::Fr) == ff::FrParams::kBytes);

// The device constants are the host's (both come from params.hpp; this guards the plumbing).
template <class Host, class Device>
constexpr bool same_limbs(const Host& h, const Device& d) {
    for (size_t i = 0; i < Host::kLimbs; ++i)
        if (h.limb[i] != d.limb[i]) return false;
    return true;
}
static_assert(same_limbs(ff::Fp::one(), DeviceFp::one()));
static_assert(same_limbs(ff::Fr::one(), DeviceFr::one()));
static_assert(same_limbs(ec::G1Curve::b(), DeviceG1Curve::b()), "G1: b = 4 on both sides");

// Copies a and b to the device, runs launch(device a, device b, device out, n), synchronises,
// and copies the result into out.
template <class A, class B, class Out, class Launch>
util::Status run_elementwise(const char* name, std::span<const A> a, std::span<const B> b,
                             std::span<Out> out, Launch launch) {
    if (a.size() != b.size() || a.size() != out.size()) {
        return util::invalid_argument(std::string("gpu::") + name + ": sizes differ (" +
                                      std::to_string(a.size()) + ", " + std::to_string(b.size()) +
                                      " inputs, " + std::to_string(out.size()) + " outputs)");
    }
    if (a.empty()) return util::Status();
    CUZK_RETURN_IF_ERROR(check_device_available());

    util::Result<DeviceBuffer> dev_a = DeviceBuffer::allocate(a.size_bytes());
    if (!dev_a.ok()) return dev_a.status();
    util::Result<DeviceBuffer> dev_b = DeviceBuffer::allocate(b.size_bytes());
    if (!dev_b.ok()) return dev_b.status();
    util::Result<DeviceBuffer> dev_out = DeviceBuffer::allocate(out.size_bytes());
    if (!dev_out.ok()) return dev_out.status();
    CUZK_RETURN_IF_ERROR(dev_a->upload(a.data(), a.size_bytes()));
    CUZK_RETURN_IF_ERROR(dev_b->upload(b.data(), b.size_bytes()));

    const cudaStream_t stream = nullptr;  // the default stream
    CUZK_RETURN_IF_ERROR(cuda_status(launch(dev_a->data(), dev_b->data(), dev_out->data(),
                                            a.size(), stream),
                                     std::string("gpu::") + name + ": kernel launch"));
    CUZK_RETURN_IF_ERROR(cuda_status(cudaStreamSynchronize(stream),
                                     std::string("gpu::") + name + ": kernel execution"));
    return dev_out->download(out.data(), out.size_bytes());
}

template <class Host, class Device>
util::Status run_field_op(const char* name, detail::BinaryOp op, std::span<const Host> a,
                          std::span<const Host> b, std::span<Host> out) {
    return run_elementwise(name, a, b, out,
                           [op](const void* da, const void* db, void* dout, size_t n,
                                cudaStream_t stream) {
                               return detail::launch_elementwise(
                                   op, static_cast<const Device*>(da),
                                   static_cast<const Device*>(db), static_cast<Device*>(dout), n,
                                   stream);
                           });
}

// Uploads in, inverts on the device with the levelled batch inversion, downloads into out.
template <class Host, class Device>
util::Status run_batch_inverse(const char* name, std::span<const Host> in, std::span<Host> out) {
    const std::string what = std::string("gpu::batch_inverse(") + name + ")";
    if (in.size() != out.size()) {
        return util::invalid_argument(what + ": " + std::to_string(in.size()) + " inputs but " +
                                      std::to_string(out.size()) + " outputs");
    }
    for (size_t i = 0; i < in.size(); ++i)
        if (in[i].is_zero())
            return util::invalid_argument(what + ": element " + std::to_string(i) + " is zero");
    if (in.empty()) return util::Status();
    CUZK_RETURN_IF_ERROR(check_device_available());
    const size_t scratch = detail::batch_inverse_scratch_elements(in.size());
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer dev_in, DeviceBuffer::allocate(in.size_bytes()));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer dev_out, DeviceBuffer::allocate(out.size_bytes()));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer dev_scratch,
                          DeviceBuffer::allocate(std::max<size_t>(scratch, 1) * sizeof(Device)));
    CUZK_RETURN_IF_ERROR(dev_in.upload(in.data(), in.size_bytes()));
    const cudaStream_t stream = nullptr;
    CUZK_RETURN_IF_ERROR(cuda_status(
        detail::launch_batch_inverse(static_cast<const Device*>(dev_in.data()),
                                     static_cast<Device*>(dev_out.data()), in.size(),
                                     static_cast<Device*>(dev_scratch.data()), stream),
        what + ": kernel launch"));
    CUZK_RETURN_IF_ERROR(cuda_status(cudaStreamSynchronize(stream), what + ": kernel execution"));
    return dev_out.download(out.data(), out.size_bytes());
}

}  // namespace

util::Status batch_inverse(std::span<const ff::Fp> in, std::span<ff::Fp> out) {
    return run_batch_inverse<ff::Fp, DeviceFp>("Fp", in, out);
}
util::Status batch_inverse(std::span<const ff::Fp2> in, std::span<ff::Fp2> out) {
    return run_batch_inverse<ff::Fp2, DeviceFp2>("Fp2", in, out);
}

util::Status elementwise_mul(std::span<const ff::Fp> a, std::span<const ff::Fp> b,
                             std::span<ff::Fp> out) {
    return run_field_op<ff::Fp, DeviceFp>("elementwise_mul(Fp)", detail::BinaryOp::kMul, a, b, out);
}
util::Status elementwise_mul(std::span<const ff::Fr> a, std::span<const ff::Fr> b,
                             std::span<ff::Fr> out) {
    return run_field_op<ff::Fr, DeviceFr>("elementwise_mul(Fr)", detail::BinaryOp::kMul, a, b, out);
}
util::Status elementwise_mul_sparse(std::span<const ff::Fr> a, std::span<const ff::Fr> b,
                                    std::span<ff::Fr> out) {
    return run_field_op<ff::Fr, DeviceFr>("elementwise_mul_sparse(Fr)",
                                          detail::BinaryOp::kMulSparse, a, b, out);
}
util::Status elementwise_mul_fp64(std::span<const ff::Fr> a, std::span<const ff::Fr> b,
                                  std::span<ff::Fr> out) {
    return run_field_op<ff::Fr, DeviceFr>("elementwise_mul_fp64(Fr)", detail::BinaryOp::kMulFp64,
                                          a, b, out);
}
util::Status elementwise_mul_karatsuba(std::span<const ff::Fp> a, std::span<const ff::Fp> b,
                                       std::span<ff::Fp> out) {
    return run_field_op<ff::Fp, DeviceFp>("elementwise_mul_karatsuba(Fp)",
                                          detail::BinaryOp::kMulKaratsuba, a, b, out);
}
util::Status elementwise_mul_karatsuba(std::span<const ff::Fr> a, std::span<const ff::Fr> b,
                                       std::span<ff::Fr> out) {
    return run_field_op<ff::Fr, DeviceFr>("elementwise_mul_karatsuba(Fr)",
                                          detail::BinaryOp::kMulKaratsuba, a, b, out);
}
util::Status elementwise_square(std::span<const ff::Fp> a, std::span<ff::Fp> out) {
    return run_field_op<ff::Fp, DeviceFp>("elementwise_square(Fp)", detail::BinaryOp::kSquare, a,
                                          a, out);
}
util::Status elementwise_mul(std::span<const ff::Fp2> a, std::span<const ff::Fp2> b,
                             std::span<ff::Fp2> out, bool lazy_product) {
    if (lazy_product)
        return run_field_op<ff::Fp2, DeviceFp2Lazy>("elementwise_mul(Fp2, lazy)",
                                                    detail::BinaryOp::kMul, a, b, out);
    return run_field_op<ff::Fp2, DeviceFp2>("elementwise_mul(Fp2, Karatsuba)",
                                            detail::BinaryOp::kMul, a, b, out);
}
util::Status elementwise_add(std::span<const ff::Fp> a, std::span<const ff::Fp> b,
                             std::span<ff::Fp> out) {
    return run_field_op<ff::Fp, DeviceFp>("elementwise_add(Fp)", detail::BinaryOp::kAdd, a, b, out);
}
util::Status elementwise_add(std::span<const ff::Fr> a, std::span<const ff::Fr> b,
                             std::span<ff::Fr> out) {
    return run_field_op<ff::Fr, DeviceFr>("elementwise_add(Fr)", detail::BinaryOp::kAdd, a, b, out);
}
util::Status elementwise_sub(std::span<const ff::Fp> a, std::span<const ff::Fp> b,
                             std::span<ff::Fp> out) {
    return run_field_op<ff::Fp, DeviceFp>("elementwise_sub(Fp)", detail::BinaryOp::kSub, a, b, out);
}
util::Status elementwise_sub(std::span<const ff::Fr> a, std::span<const ff::Fr> b,
                             std::span<ff::Fr> out) {
    return run_field_op<ff::Fr, DeviceFr>("elementwise_sub(Fr)", detail::BinaryOp::kSub, a, b, out);
}

util::Status g1_add_mixed(std::span<const ec::G1Xyzz> p, std::span<const ec::G1Affine> q,
                          std::span<ec::G1Xyzz> out) {
    return run_elementwise("g1_add_mixed", p, q, out,
                           [](const void* dp, const void* dq, void* dout, size_t n,
                              cudaStream_t stream) {
                               return detail::launch_g1_add_mixed(
                                   static_cast<const DeviceG1Xyzz*>(dp),
                                   static_cast<const DeviceG1Affine*>(dq),
                                   static_cast<DeviceG1Xyzz*>(dout), n, stream);
                           });
}

}  // namespace cuzk::gpu
