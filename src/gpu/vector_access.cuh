// 16-byte device-memory accesses (device code only): load16 / store16 move a value whose size
// is a multiple of 16 bytes (DeviceFr 32, DeviceFp 48, an affine G1 point 96) as ulonglong2
// words, i.e. LDG.E.128 / STG.E.128 — where the value types' 8-byte alignment makes the
// compiler use 8-byte accesses, twice as many instructions for the same bytes.
//
// Precondition: p is 16-byte aligned. The types keep their 8-byte alignment (the host layout),
// so nothing guarantees it: a kernel takes these paths only after its launcher has checked the
// pointers it derives addresses from (aligned16) and the element sizes (a multiple of 16).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace cuzk::gpu::detail {

inline bool aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15) == 0; }

#if defined(__CUDACC__)
template <class T>
__device__ __forceinline__ T load16(const T* p) {
    static_assert(sizeof(T) % 16 == 0 && std::is_trivially_copyable_v<T>);
    constexpr int kWords = sizeof(T) / 16;
    const ulonglong2* q = reinterpret_cast<const ulonglong2*>(p);
    ulonglong2 w[kWords];
#pragma unroll
    for (int i = 0; i < kWords; ++i) w[i] = q[i];
    T out;
    memcpy(&out, w, sizeof(T));
    return out;
}

template <class T>
__device__ __forceinline__ void store16(T* p, const T& v) {
    static_assert(sizeof(T) % 16 == 0 && std::is_trivially_copyable_v<T>);
    constexpr int kWords = sizeof(T) / 16;
    ulonglong2 w[kWords];
    memcpy(w, &v, sizeof(T));
    ulonglong2* q = reinterpret_cast<ulonglong2*>(p);
#pragma unroll
    for (int i = 0; i < kWords; ++i) q[i] = w[i];
}

// *p, or load16(p) where kVec (a kernel's compile-time choice).
template <bool kVec, class T>
__device__ __forceinline__ T load_maybe16(const T* p) {
    if constexpr (kVec) return load16(p);
    else return *p;
}
template <bool kVec, class T>
__device__ __forceinline__ void store_maybe16(T* p, const T& v) {
    if constexpr (kVec) store16(p, v);
    else *p = v;
}
#endif

}  // namespace cuzk::gpu::detail
