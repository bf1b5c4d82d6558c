#pragma once
// Integer keys of routing scores, one definition for the CPU backend (cpu/routing.cpp) and the
// GPU kernels (gpu/routing_topk.h, gpu/routing_priority.h), so both select bit for bit alike: a
// larger key is a larger score, -0 equals +0, NaN is below every number. A top-k key packs the
// expert index below the score so that ties go to the lower expert and the keys of one row are
// distinct: the selection has one answer, and comparisons are single integer compares.
#include <cstdint>
#include <cstring>

#include "moe_kernels/types.h"  // float_bits, MOE_TYPES_HD (host and device)

namespace moe::kernels {

__extension__ typedef unsigned __int128 uint128;

MOE_TYPES_HD inline uint64_t double_bits(double v) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return static_cast<uint64_t>(__double_as_longlong(v));
#else
  uint64_t u;
  std::memcpy(&u, &v, sizeof u);
  return u;
#endif
}

// Order-preserving map of IEEE bits to unsigned: flip all bits of negatives, the sign of others.
MOE_TYPES_HD inline uint32_t order_bits(float v) {
  const uint32_t sign = 0x80000000u;
  const uint32_t u = v == 0.0f ? 0u : float_bits(v);  // -0 -> +0
  return v != v ? 0u : ((u & sign) ? ~u : (u | sign));
}
MOE_TYPES_HD inline uint64_t order_bits(double v) {
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
MOE_TYPES_HD inline typename TopkKey<T>::type score_key(T v, int32_t e) {
  using Key = typename TopkKey<T>::type;
  return (Key(order_bits(v)) << 32) | Key(0xffffffffu - static_cast<uint32_t>(e));
}

template <typename Key>
MOE_TYPES_HD inline int32_t key_expert(Key key) {
  return static_cast<int32_t>(0xffffffffu - static_cast<uint32_t>(key & Key(0xffffffffu)));
}

}  // namespace moe::kernels
