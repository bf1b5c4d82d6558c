#pragma once
// What the dispatch/combine kernels (dispatch_rows.h, dispatch_dot.h) share: element loads and
// stores in the accumulation type, the packs rows move in, and the choice/slot index helpers.
//
// A row moves in packs of V elements: V = 16 / sizeof(T) (one 16-byte load or store) when every
// row the operation touches is 16-byte aligned, else V = 1. The host picks V at run time
// (pack_width); the arithmetic is per element either way, so both paths give the same bits.
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "moe_kernels/backend.h"
#include "portable.h"

namespace moe::kernels::gpu::dispatch_detail {

// Element loads in the accumulation type and stores from it, rounding as the CPU kernels do.
MOE_HD inline float load(float v) {
  return v;
}
MOE_HD inline double load(double v) {
  return v;
}
MOE_HD inline float load(bfloat16 v) {
  return to_float(v);
}
MOE_HD inline float load(float16 v) {
  return to_float(v);
}

MOE_HD inline void store(float& dst, float v) {
  dst = v;
}
MOE_HD inline void store(double& dst, double v) {
  dst = v;
}
MOE_HD inline void store(bfloat16& dst, float v) {
  dst = to_bfloat16(v);
}
MOE_HD inline void store(float16& dst, float v) {
  dst = to_float16(v);
}

// V elements moved together; T{} is all-zero bits (+0) for every element type.
template <typename T, int V>
struct alignas(sizeof(T) * V) Pack {
  T v[V];
};

#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
// The host emulation stops where the device would fault on a misaligned pack.
template <typename T, int V>
inline void check_aligned(const T* at) {
  if (reinterpret_cast<uintptr_t>(at) % alignof(Pack<T, V>) != 0) std::abort();
}
#endif

// Pack p of a row. The device reads it as one 16-byte access; the host emulation copies bytes
// (no aliasing through a cast).
template <typename T, int V>
MOE_HD inline Pack<T, V> load_pack(const T* row, int64_t p) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return reinterpret_cast<const Pack<T, V>*>(row)[p];
#else
  check_aligned<T, V>(row + p * V);
  Pack<T, V> out;
  std::memcpy(&out, row + p * V, sizeof out);
  return out;
#endif
}

template <typename T, int V>
MOE_HD inline void store_pack(T* row, int64_t p, const Pack<T, V>& value) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  reinterpret_cast<Pack<T, V>*>(row)[p] = value;
#else
  check_aligned<T, V>(row + p * V);
  std::memcpy(row + p * V, &value, sizeof value);
#endif
}

template <typename T, int V>
MOE_HD inline Pack<T, V> zero_pack() {
  Pack<T, V> z;
  for (int i = 0; i < V; ++i) z.v[i] = T{};
  return z;
}

// w * x element by element, rounded to T.
template <typename T, int V>
MOE_HD inline Pack<T, V> scale_pack(acc_t<T> w, const Pack<T, V>& x) {
  Pack<T, V> out;
  for (int i = 0; i < V; ++i) store(out.v[i], w * load(x.v[i]));
  return out;
}

// A choice c = j * N + n is kept when its location is a slot of its expert.
MOE_HD inline bool is_kept(const int32_t* loc, int64_t C, int64_t c) {
  const int32_t s = loc[c];
  return s >= 0 && s < C;
}

// Threads per row for element-wise row kernels: enough to cover a row's packs once, at most a
// block (powers of two, so rows never straddle blocks).
inline int group_for(int64_t packs, int threads) {
  int g = 1;
  while (g < threads && g < packs) g *= 2;
  return g;
}

inline bool aligned16(const void* p) {
  return reinterpret_cast<uintptr_t>(p) % 16 == 0;
}

// Elements per pack for rows of M elements at these base pointers (null ones do not count).
template <typename T>
int pack_width(int64_t M, const void* a, const void* b, const void* c = nullptr) {
  const bool rows_fit = (M * static_cast<int64_t>(sizeof(T))) % 16 == 0;
  return rows_fit && aligned16(a) && aligned16(b) && aligned16(c) ? 16 / sizeof(T) : 1;
}

}  // namespace moe::kernels::gpu::dispatch_detail
