#pragma once
// topk_choices on the device: each token's k largest scores (+ selection bias) by packed keys
// (common/topk_keys.h), so the answer is the CPU's bit for bit.
#include <stdexcept>
#include <string>

#include "common/topk_keys.h"
#include "moe_kernels/backend.h"
#include "routing_items.h"
#include "scratch.h"

namespace moe::kernels::gpu {

template <typename T>
struct TopkParams {
  const T* scores;    // [N, E]
  const float* bias;  // [E], nullable
  int64_t N, E, k;
  int32_t* idx;  // [k, N]
  int64_t first_item;
  bool keys_in_shared;
};

template <typename T>
MOE_HD inline typename TopkKey<T>::type topk_key(const TopkParams<T>& p, int64_t n, int64_t e) {
  const T s = p.scores[n * p.E + e];
  return score_key<T>(p.bias ? s + static_cast<T>(p.bias[e]) : s, static_cast<int32_t>(e));
}

// k <= 8: one thread per token keeps the K best keys in registers, sorted descending; a key that
// beats the last one is inserted without branches.
template <typename T, int K>
struct TopkInsertionKernel {
  using Params = TopkParams<T>;
  struct Local {};
  static constexpr int kPhases = 1;
  MOE_HD static void run(int, const Thread& t, const Params& p, Local&, unsigned char*) {
    using Key = typename TopkKey<T>::type;
    for (int64_t n = t.global(); n < p.N; n += t.stride()) {
      Key best[K];
      for (int i = 0; i < K; ++i) best[i] = Key(0);
      for (int64_t e = 0; e < p.E; ++e) {
        const Key key = topk_key(p, n, e);
        if (!(key > best[K - 1])) continue;
        for (int i = K - 1; i > 0; --i) {
          const Key prev = best[i - 1], cur = best[i];
          best[i] = key > prev ? prev : (key > cur ? key : cur);
        }
        best[0] = key > best[0] ? key : best[0];
      }
      for (int j = 0; j < K; ++j) p.idx[j * p.N + n] = key_expert(best[j]);
    }
  }
};

// Any k: one block per token; the rank of expert e is the number of larger keys in the row (keys
// are distinct), and e is the rank-th choice if rank < k. The row's keys go to shared memory
// first when they fit (keys_in_shared), else each comparison recomputes them from the scores.
// Cost O(E^2 / threads) per token. float64 keys are 16 bytes: the launcher's shared memory must be
// 16-byte aligned (__align__(16) on the extern __shared__ array).
template <typename T>
struct TopkRankKernel {
  using Params = TopkParams<T>;
  using Key = typename TopkKey<T>::type;
  struct Local {};
  static constexpr int kPhases = 2;
  MOE_HD static void run(int phase, const Thread& t, const Params& p, Local&,
                         unsigned char* shared) {
    const int64_t n = p.first_item + t.block;
    Key* keys = reinterpret_cast<Key*>(shared);
    if (phase == 0) {
      if (p.keys_in_shared) {
        for (int64_t e = t.thread; e < p.E; e += t.threads) keys[e] = topk_key(p, n, e);
      }
      return;
    }
    for (int64_t e = t.thread; e < p.E; e += t.threads) {
      const Key mine = p.keys_in_shared ? keys[e] : topk_key(p, n, e);
      int64_t rank = 0;
      for (int64_t other = 0; other < p.E; ++other) {
        rank += (p.keys_in_shared ? keys[other] : topk_key(p, n, other)) > mine ? 1 : 0;
      }
      if (rank < p.k) p.idx[rank * p.N + n] = static_cast<int32_t>(e);
    }
  }
};

// Shared memory a rank kernel may use for a row's keys (well under every device's 48 KiB).
constexpr size_t kTopkSharedKeyBytes = 32 * 1024;

template <typename Device, typename T>
void topk_typed(const Launch<Device>& launch, TopkParams<T> p) {
  const int64_t blocks = blocks_for(p.N, launch.threads);
  switch (p.k) {
    case 1:
      return launch.template run<TopkInsertionKernel<T, 1>>(blocks, 0, p);
    case 2:
      return launch.template run<TopkInsertionKernel<T, 2>>(blocks, 0, p);
    case 3:
      return launch.template run<TopkInsertionKernel<T, 3>>(blocks, 0, p);
    case 4:
      return launch.template run<TopkInsertionKernel<T, 4>>(blocks, 0, p);
    case 5:
      return launch.template run<TopkInsertionKernel<T, 5>>(blocks, 0, p);
    case 6:
      return launch.template run<TopkInsertionKernel<T, 6>>(blocks, 0, p);
    case 7:
      return launch.template run<TopkInsertionKernel<T, 7>>(blocks, 0, p);
    case 8:
      return launch.template run<TopkInsertionKernel<T, 8>>(blocks, 0, p);
    default:
      break;
  }
  using Key = typename TopkKey<T>::type;
  const size_t key_bytes = static_cast<size_t>(p.E) * sizeof(Key);
  p.keys_in_shared = key_bytes <= kTopkSharedKeyBytes;
  run_items<TopkRankKernel<T>>(launch, p.N, p.keys_in_shared ? key_bytes : 0, p);
}

template <typename Device>
void topk_choices(const Launch<Device>& launch, DType dtype, const void* scores, int64_t N,
                  int64_t E, int64_t k, const float* selection_bias, int32_t* idx) {
  if (k < 0 || k > E) {
    throw std::invalid_argument("moe_kernels::topk_choices: need 0 <= k <= E (k=" +
                                std::to_string(k) + ", E=" + std::to_string(E) + ")");
  }
  visit_score_dtype(dtype, "topk_choices", [&](auto tag) {
    using T = decltype(tag);
    if (N <= 0 || k == 0) return;
    topk_typed<Device, T>(launch, TopkParams<T>{static_cast<const T*>(scores), selection_bias, N, E,
                                                k, idx, 0, false});
  });
}

}  // namespace moe::kernels::gpu
