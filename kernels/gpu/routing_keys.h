#pragma once
// Integer keys of routing scores, the same as the CPU's (cpu/routing.cpp): a larger key is a
// larger score, -0 equals +0, NaN is below every number. A top-k key packs the expert index
// below the score so that ties go to the lower expert and keys of one row are distinct.
#include <cstdint>
#include <cstring>

#include "portable.h"

namespace moe::kernels::gpu {

__extension__ typedef unsigned __int128 uint128;

MOE_HD inline uint64_t double_bits(double v) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return static_cast<uint64_t>(__double_as_longlong(v));
#else
  uint64_t u;
  std::memcpy(&u, &v, sizeof u);
  return u;
#endif
}

// Order-preserving map of IEEE bits to unsigned: flip all bits of negatives, the sign of others.
MOE_HD inline uint32_t order_bits(float v) {
  const uint32_t sign = 0x80000000u;
  const uint32_t u = v == 0.0f ? 0u : float_bits(v);  // -0 -> +0
  return v != v ? 0u : ((u & sign) ? ~u : (u | sign));
}
MOE_HD inline uint64_t order_bits(double v) {
  const uint64_t sign = uint64_t(1) << 63;
  const uint64_t u = v == 0.0 ? uint64_t(0) : double_bits(v);
  return v != v ? uint64_t(0) : ((u & sign) ? ~u : (u | sign));
}

// The top-k key type of a score type: the score's bits above 32 bits of expert index.
template <typename T>
struct TopkKey;
template <>
struct TopkKey<float> {
  using type = uint64_t;
};
template <>
struct TopkKey<double> {
  using type = uint128;
};

// Every real key is > 0 (its low bits are >= 2^31), so zero marks an empty place.
template <typename T>
MOE_HD inline typename TopkKey<T>::type score_key(T v, int32_t e) {
  using Key = typename TopkKey<T>::type;
  return (Key(order_bits(v)) << 32) | Key(0xffffffffu - static_cast<uint32_t>(e));
}

template <typename Key>
MOE_HD inline int32_t key_expert(Key key) {
  return static_cast<int32_t>(0xffffffffu - static_cast<uint32_t>(key & Key(0xffffffffu)));
}

}  // namespace moe::kernels::gpu
