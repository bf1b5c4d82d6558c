// Routing of docs/ROUTING.md on the CPU: top-k choices, slot locations, demand, capacity, slot map.
#include "cpu/routing.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/topk_keys.h"
#include "cpu/threading.h"

namespace moe::kernels {
namespace {

// Work items per parallel_for chunk, so that small problems run inline.
constexpr int64_t kTargetChunkWork = 16384;

int64_t grain_for(int64_t work_per_item) {
  return std::max<int64_t>(1, kTargetChunkWork / std::max<int64_t>(1, work_per_item));
}

// Top-k selection on the integer keys of common/topk_keys.h (branch-free insertion below).

// Inserts key (known to beat best[k-1]) into best[0..k-1], sorted descending; drops the last.
template <typename Key>
inline void insert_sorted(Key* best, int64_t k, Key key) {
  for (int64_t i = k - 1; i > 0; --i) {
    const Key prev = best[i - 1], cur = best[i];
    best[i] = key > prev ? prev : (key > cur ? key : cur);
  }
  best[0] = key > best[0] ? key : best[0];
}

// best[0..K-1] = the K largest keys, descending. With K a constant the candidates live in
// registers; every real key is > 0 (its low bits are >= 1), so zeros mark empty places.
template <int K, typename Key>
inline void select_top_fixed(const Key* keys, int64_t E, Key* out) {
  Key best[K] = {};
  for (int64_t e = 0; e < E; ++e) {
    const Key key = keys[e];
    if (key > best[K - 1]) insert_sorted(best, K, key);
  }
  for (int j = 0; j < K; ++j) out[j] = best[j];
}

template <typename Key>
inline void select_top(const Key* keys, int64_t E, int64_t k, Key* out) {
  switch (k) {
    case 1:
      return select_top_fixed<1>(keys, E, out);
    case 2:
      return select_top_fixed<2>(keys, E, out);
    case 3:
      return select_top_fixed<3>(keys, E, out);
    case 4:
      return select_top_fixed<4>(keys, E, out);
    case 5:
      return select_top_fixed<5>(keys, E, out);
    case 6:
      return select_top_fixed<6>(keys, E, out);
    case 7:
      return select_top_fixed<7>(keys, E, out);
    case 8:
      return select_top_fixed<8>(keys, E, out);
    default:
      break;
  }
  std::fill(out, out + k, Key(0));
  for (int64_t e = 0; e < E; ++e) {
    if (keys[e] > out[k - 1]) insert_sorted(out, k, keys[e]);
  }
}

// Above this k a partial sort beats insertion.
constexpr int64_t kInsertionMaxK = 16;

void check_expert(int32_t e, int64_t E) {
  if (e < 0 || e >= E) {
    throw std::out_of_range("moe_kernels: expert index " + std::to_string(e) + " not in [0, " +
                            std::to_string(E) + ")");
  }
}

}  // namespace

template <typename T>
void topk_choices(const T* scores, int64_t N, int64_t E, int64_t k, const float* selection_bias,
                  int32_t* idx) {
  if (k < 0 || k > E) {
    throw std::invalid_argument("moe_kernels::topk_choices: need 0 <= k <= E (k=" +
                                std::to_string(k) + ", E=" + std::to_string(E) + ")");
  }
  if (N <= 0 || k == 0) return;
  using Key = typename TopkKey<T>::type;
  parallel_for(N, grain_for(E), [&](int64_t begin, int64_t end) {
    std::vector<Key> keys(static_cast<size_t>(E));
    std::vector<Key> best(static_cast<size_t>(k));
    for (int64_t n = begin; n < end; ++n) {
      const T* row = scores + n * E;
      for (int32_t e = 0; e < static_cast<int32_t>(E); ++e) {
        const T v = selection_bias ? row[e] + static_cast<T>(selection_bias[e]) : row[e];
        keys[e] = score_key(v, e);
      }
      if (k <= kInsertionMaxK) {
        select_top<Key>(keys.data(), E, k, best.data());
        for (int64_t j = 0; j < k; ++j) idx[j * N + n] = key_expert(best[j]);
      } else {
        std::partial_sort(keys.begin(), keys.begin() + k, keys.end(), std::greater<Key>());
        for (int64_t j = 0; j < k; ++j) idx[j * N + n] = key_expert(keys[j]);
      }
    }
  });
}

template <typename T>
void priority_order(const T* priority, int64_t N, int64_t* order) {
  if (N <= 0) return;
  std::iota(order, order + N, int64_t{0});
  // Descending, NaN last; stable, so ties keep the lower token index first.
  std::stable_sort(order, order + N, [priority](int64_t a, int64_t b) {
    T pa = priority[a], pb = priority[b];
    return pa > pb || (std::isnan(pb) && !std::isnan(pa));
  });
}

void slot_locations(const int32_t* idx, int64_t N, int64_t E, int64_t k, const int64_t* token_order,
                    int32_t* loc, int64_t* counts) {
  if (k <= 0 || E <= 0) return;
  std::fill(counts, counts + k * E, int64_t{0});
  if (N <= 0) return;

  // Token positions t = 0..N-1 (in claiming order) are cut into B blocks. Pass 1 counts, per
  // block, choice and expert, how many choices land there; an exclusive prefix over (choice,
  // block) then gives each block its first slot per expert; pass 2 assigns slots in order. The
  // result does not depend on B, so it is the same for every thread count.
  const int64_t min_block = grain_for(k);
  const int64_t B = std::max<int64_t>(1, std::min<int64_t>(num_threads(), N / min_block));
  auto block_begin = [&](int64_t b) { return N * b / B; };
  auto token_at = [&](int64_t t) { return token_order ? token_order[t] : t; };

  std::vector<int64_t> hist(static_cast<size_t>(B * k * E), 0);  // [B, k, E]
  parallel_for(B, 1, [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b) {
      int64_t* h = hist.data() + b * k * E;
      const int64_t t0 = block_begin(b), t1 = block_begin(b + 1);
      for (int64_t j = 0; j < k; ++j) {
        const int32_t* __restrict idx_j = idx + j * N;
        int64_t* __restrict h_j = h + j * E;
        for (int64_t t = t0; t < t1; ++t) {
          const int64_t n = token_at(t);
          if (n < 0 || n >= N) throw std::out_of_range("moe_kernels: bad token_order entry");
          const int32_t e = idx_j[n];
          check_expert(e, E);
          ++h_j[e];
        }
      }
    }
  });

  // counts[j][e] = sum over blocks; then hist becomes the first slot of (block, choice, expert):
  // sum_{i<j} c_i[e] + sum_{b'<b} hist[b'][j][e].
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t j = 0; j < k; ++j) {
      for (int64_t e = 0; e < E; ++e) counts[j * E + e] += hist[(b * k + j) * E + e];
    }
  }
  std::vector<int64_t> running(static_cast<size_t>(E), 0);
  for (int64_t j = 0; j < k; ++j) {
    for (int64_t b = 0; b < B; ++b) {
      for (int64_t e = 0; e < E; ++e) {
        int64_t& h = hist[(b * k + j) * E + e];
        const int64_t c = h;
        h = running[e];
        running[e] += c;
      }
    }
  }
  if (std::any_of(running.begin(), running.end(),
                  [](int64_t d) { return d > std::numeric_limits<int32_t>::max(); })) {
    throw std::overflow_error("moe_kernels::slot_locations: slot index exceeds int32");
  }

  parallel_for(B, 1, [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b) {
      int64_t* next = hist.data() + b * k * E;
      const int64_t t0 = block_begin(b), t1 = block_begin(b + 1);
      // Choice-major: each pass over the block reads idx and writes loc sequentially (token
      // order permitting), one row of counters at a time.
      for (int64_t j = 0; j < k; ++j) {
        const int32_t* __restrict idx_j = idx + j * N;
        int32_t* __restrict loc_j = loc + j * N;
        int64_t* __restrict next_j = next + j * E;
        for (int64_t t = t0; t < t1; ++t) {
          const int64_t n = token_at(t);
          loc_j[n] = static_cast<int32_t>(next_j[idx_j[n]]++);
        }
      }
    }
  });
}

void demand_from_counts(const int64_t* counts, int64_t E, int64_t k, int64_t* demand) {
  for (int64_t e = 0; e < E; ++e) {
    int64_t d = 0;
    for (int64_t j = 0; j < k; ++j) d += counts[j * E + e];
    demand[e] = d;
  }
}

void kept_counts(const int64_t* demand, int64_t E, int64_t C, int64_t* kept) {
  for (int64_t e = 0; e < E; ++e) kept[e] = std::min(demand[e], C);
}

void build_slot_map(const int32_t* idx, const int32_t* loc, int64_t N, int64_t E, int64_t k,
                    int64_t C, int64_t* slot_map) {
  if (E <= 0 || C <= 0) return;
  std::fill(slot_map, slot_map + E * C, int64_t{-1});
  if (N <= 0 || k <= 0) return;
  // Each kept choice owns its slot, so the scatter has no conflicting writes.
  // Scalars captured by value: the int64 stores below could otherwise alias them.
  parallel_for(N, grain_for(k), [=](int64_t begin, int64_t end) {
    for (int64_t j = 0; j < k; ++j) {
      for (int64_t n = begin; n < end; ++n) {
        const int64_t c = j * N + n;
        const int32_t s = loc[c];
        if (s < 0 || s >= C) continue;
        check_expert(idx[c], E);
        slot_map[idx[c] * C + s] = c;
      }
    }
  });
}

template void topk_choices<float>(const float*, int64_t, int64_t, int64_t, const float*, int32_t*);
template void topk_choices<double>(const double*, int64_t, int64_t, int64_t, const float*,
                                   int32_t*);
template void priority_order<float>(const float*, int64_t, int64_t*);
template void priority_order<double>(const double*, int64_t, int64_t*);

}  // namespace moe::kernels
