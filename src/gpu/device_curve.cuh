// BLS12-381 G1 for device code: the curve type that instantiates the shared point formulas of
// ec/point.hpp (Affine, Jacobian, Xyzz) with the device base field.
//
//   G1: E(Fp): y² = x³ + 4.
//
// Layout matches the host ec::G1Affine / ec::G1Xyzz (the coordinates are DeviceFp, which matches
// ff::Fp), so host point buffers go to the device as they are; ff_kernels.cpp static_asserts it,
// together with b() equalling the host curve's constant.
#pragma once

#include "ec/point.hpp"
#include "gpu/device_field.cuh"
#include "util/hd.hpp"

namespace cuzk::gpu {

struct DeviceG1Curve {
    using Field = DeviceFp;
    static constexpr CUZK_HD Field b() { return Field::constant_u64<4>(); }
};

using DeviceG1Affine = ec::Affine<DeviceG1Curve>;
using DeviceG1Jacobian = ec::Jacobian<DeviceG1Curve>;
using DeviceG1Xyzz = ec::Xyzz<DeviceG1Curve>;

}  // namespace cuzk::gpu
