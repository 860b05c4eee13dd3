// BLS12-381 G1 and G2 for device code: the curve types that instantiate the shared point
// formulas of ec/point.hpp (Affine, Jacobian, Xyzz) with the device base field.
//
//   G1: E(Fp):   y² = x³ + 4.
//   G2: E'(Fp2): y² = x³ + 4(1 + u)   (Fp2 = Fp[u]/(u² + 1), the M-type twist of ec/curves.hpp).
//
// DeviceFp2 is the host's Fp2 template (ff/fp2_ext.hpp, formulas CUZK_HD) over DeviceFp: c0, c1
// as two consecutive DeviceFp, exactly ff::Fp2's layout (96 bytes). The ring operations and
// inverse (through DeviceField::inverse, Fermat) are usable in device code.
//
// Layout matches the host ec::G1Affine / G1Xyzz / G2Affine / G2Xyzz (the coordinates are
// DeviceFp / DeviceFp2, which match ff::Fp / ff::Fp2), so host point buffers go to the device as
// they are. ff_kernels.cpp (G1) and msm.cpp (G2) static_assert it, together with b() equalling
// the host curve's constant; device_field_test.cpp checks the formulas against the host's.
#pragma once

#include "ec/point.hpp"
#include "ff/fp2_ext.hpp"
#include "gpu/device_field.cuh"
#include "util/hd.hpp"

namespace cuzk::gpu {

// The product of DeviceFp2 is the Karatsuba one (three Montgomery products); DeviceFp2Lazy's is
// lazily reduced (DeviceField::fp2_product: three double-width products, two reductions), for
// the A/B of the G2 MSM (GpuMsmOptions::g2_lazy_product) and of `cuzk bench gpu-arith` — on the
// H200 it measured no faster alone and slower in the MSM (bench/RESULTS.md, session 10). Same
// layout.
using DeviceFp2 = ff::Fp2T<DeviceFp, false>;
using DeviceFp2Lazy = ff::Fp2T<DeviceFp, true>;

// G1 over either form of Fp's square: DeviceG1SquareCurve's kernels square by the dedicated
// squaring (DeviceFpSquare), for GpuMsmOptions::dedicated_square. Same layout.
template <class Fp>
struct DeviceG1CurveOver {
    using Field = Fp;
    static constexpr CUZK_HD Field b() { return Field::template constant_u64<4>(); }
};
using DeviceG1Curve = DeviceG1CurveOver<DeviceFp>;
using DeviceG1SquareCurve = DeviceG1CurveOver<DeviceFpSquare>;
// Whether C is G1 (over either Fp form): the kernels' G1-only variants.
template <class C>
inline constexpr bool kIsG1Curve = sizeof(typename C::Field) == sizeof(DeviceFp);

// b = 4(1 + u) = 4 + 4u, over either Fp2 product.
template <class F2>
struct DeviceG2CurveOver {
    using Field = F2;
    static constexpr CUZK_HD Field b() {
        return {DeviceFp::constant_u64<4>(), DeviceFp::constant_u64<4>()};
    }
};
using DeviceG2Curve = DeviceG2CurveOver<DeviceFp2>;
using DeviceG2LazyCurve = DeviceG2CurveOver<DeviceFp2Lazy>;

using DeviceG1Affine = ec::Affine<DeviceG1Curve>;
using DeviceG1Jacobian = ec::Jacobian<DeviceG1Curve>;
using DeviceG1Xyzz = ec::Xyzz<DeviceG1Curve>;
using DeviceG2Affine = ec::Affine<DeviceG2Curve>;
using DeviceG2Jacobian = ec::Jacobian<DeviceG2Curve>;
using DeviceG2Xyzz = ec::Xyzz<DeviceG2Curve>;

static_assert(sizeof(ec::Affine<DeviceG1SquareCurve>) == sizeof(DeviceG1Affine));
static_assert(sizeof(ec::Xyzz<DeviceG1SquareCurve>) == sizeof(DeviceG1Xyzz));
static_assert(sizeof(DeviceFp2) == 2 * sizeof(DeviceFp));
static_assert(sizeof(DeviceFp2Lazy) == sizeof(DeviceFp2));
static_assert(sizeof(DeviceG2Affine) == 2 * sizeof(DeviceFp2));
static_assert(sizeof(DeviceG2Xyzz) == 4 * sizeof(DeviceFp2));

}  // namespace cuzk::gpu
