#pragma once
// Element types the kernels work on. bfloat16 is stored as the upper 16 bits of a float32,
// bit-compatible with c10::BFloat16, so Torch tensors can be passed by pointer.
#include <cstdint>
#include <cstring>

namespace moe::kernels {

struct bfloat16 {
  uint16_t bits;
};

inline float to_float(float v) {
  return v;
}
inline double to_float(double v) {
  return v;
}
inline float to_float(bfloat16 v) {
  uint32_t u = static_cast<uint32_t>(v.bits) << 16;
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// Round to nearest even, NaN kept as a quiet NaN (the rounding c10::BFloat16 uses). Written
// without a branch so that the dispatch/combine loops that store bfloat16 still vectorise.
inline bfloat16 to_bfloat16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  const uint32_t rounded = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
  // A signed compare (the masked value fits): SSE2 has no unsigned one.
  const bool nan = static_cast<int32_t>(u & 0x7fffffffu) > 0x7f800000;
  return bfloat16{static_cast<uint16_t>(nan ? 0x7fc0u : rounded)};
}

template <typename T>
inline T from_float(float v);
template <>
inline float from_float<float>(float v) {
  return v;
}
template <>
inline double from_float<double>(float v) {
  return v;
}
template <>
inline bfloat16 from_float<bfloat16>(float v) {
  return to_bfloat16(v);
}

// The accumulation type of an element type: float32 for float32 and bfloat16, double for double.
template <typename T>
struct accumulate {
  using type = float;
};
template <>
struct accumulate<double> {
  using type = double;
};
template <typename T>
using acc_t = typename accumulate<T>::type;

}  // namespace moe::kernels
