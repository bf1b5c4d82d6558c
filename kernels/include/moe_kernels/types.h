#pragma once
// Element types the kernels work on. bfloat16 is stored as the upper 16 bits of a float32,
// bit-compatible with c10::BFloat16, and float16 as IEEE binary16, bit-compatible with c10::Half,
// so Torch tensors can be passed by pointer. Every function here also compiles for the device
// (nvcc, hipcc): the GPU kernels convert exactly as the CPU ones do.
#include <cstdint>
#include <cstring>

#if defined(__CUDACC__) || defined(__HIPCC__)
#define MOE_TYPES_HD __host__ __device__
#else
#define MOE_TYPES_HD
#endif

namespace moe::kernels {

struct bfloat16 {
  uint16_t bits;
};
struct float16 {
  uint16_t bits;
};

MOE_TYPES_HD inline uint32_t float_bits(float f) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return __float_as_uint(f);
#else
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
#endif
}
MOE_TYPES_HD inline float bits_float(uint32_t u) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return __uint_as_float(u);
#else
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
#endif
}

MOE_TYPES_HD inline float to_float(float v) {
  return v;
}
MOE_TYPES_HD inline double to_float(double v) {
  return v;
}
MOE_TYPES_HD inline float to_float(bfloat16 v) {
  return bits_float(static_cast<uint32_t>(v.bits) << 16);
}
MOE_TYPES_HD inline float to_float(float16 v) {
  const uint32_t sign = static_cast<uint32_t>(v.bits & 0x8000u) << 16;
  const uint32_t exponent = (v.bits >> 10) & 0x1fu, mantissa = v.bits & 0x3ffu;
  if (exponent == 0x1f) return bits_float(sign | 0x7f800000u | (mantissa << 13));  // inf, NaN
  if (exponent != 0) return bits_float(sign | ((exponent + 112) << 23) | (mantissa << 13));
  // Zero or subnormal: mantissa * 2^-24, exact in float32.
  return bits_float(sign | float_bits(static_cast<float>(mantissa) * 5.9604644775390625e-8f));
}

// Round to nearest even, overflow to infinity, NaN to a quiet NaN of the same sign (the
// conversion c10::Half uses).
MOE_TYPES_HD inline float16 to_float16(float f) {
  uint32_t x = float_bits(f);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  x &= 0x7fffffffu;
  uint32_t h;
  if (x >= 0x7f800000u) {
    h = x > 0x7f800000u ? 0x7e00u : 0x7c00u;
  } else if (x >= 0x477ff000u) {  // 65520 and above round to infinity
    h = 0x7c00u;
  } else if (x >= 0x38800000u) {  // normal: rebias 127 -> 15, round 23 -> 10 mantissa bits
    const uint32_t y = x - 0x38000000u;
    h = (y + 0xfffu + ((y >> 13) & 1u)) >> 13;
  } else {  // subnormal or zero: round(f * 2^24)
    const uint32_t e = x >> 23;
    if (e < 102) {
      h = 0;
    } else {
      const uint32_t m = (x & 0x7fffffu) | 0x800000u, shift = 126 - e;
      const uint32_t q = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
      h = q + ((rem > half || (rem == half && (q & 1u))) ? 1u : 0u);
    }
  }
  return float16{static_cast<uint16_t>(sign | h)};
}

// Round to nearest even, NaN kept as a quiet NaN (the rounding c10::BFloat16 uses). Written
// without a branch so that the dispatch/combine loops that store bfloat16 still vectorise.
MOE_TYPES_HD inline bfloat16 to_bfloat16(float f) {
  const uint32_t u = float_bits(f);
  const uint32_t rounded = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
  // A signed compare (the masked value fits): SSE2 has no unsigned one.
  const bool nan = static_cast<int32_t>(u & 0x7fffffffu) > 0x7f800000;
  return bfloat16{static_cast<uint16_t>(nan ? 0x7fc0u : rounded)};
}

template <typename T>
MOE_TYPES_HD inline T from_float(float v);
template <>
MOE_TYPES_HD inline float from_float<float>(float v) {
  return v;
}
template <>
MOE_TYPES_HD inline double from_float<double>(float v) {
  return v;
}
template <>
MOE_TYPES_HD inline bfloat16 from_float<bfloat16>(float v) {
  return to_bfloat16(v);
}
template <>
MOE_TYPES_HD inline float16 from_float<float16>(float v) {
  return to_float16(v);
}

// The accumulation type of an element type: float32 for float32, float16 and bfloat16, double for
// double.
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
