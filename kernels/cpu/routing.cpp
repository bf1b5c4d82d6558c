// Routing of SPEC 1.2 on the CPU: top-k choices, slot locations, demand, capacity, slot map.
#include "moe_kernels/routing.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "moe_kernels/threading.h"

namespace moe::kernels {
namespace {

// Work items per parallel_for chunk, so that small problems run inline.
constexpr int64_t kTargetChunkWork = 16384;

int64_t grain_for(int64_t work_per_item) {
  return std::max<int64_t>(1, kTargetChunkWork / std::max<int64_t>(1, work_per_item));
}

// a ranks before b: larger value first, NaN after every number, ties to the lower index.
template <typename T>
inline bool ranks_before(T a, int32_t ia, T b, int32_t ib) {
  if (a > b) return true;
  if (a == b) return ia < ib;
  return std::isnan(b) && !std::isnan(a);
}

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
  parallel_for(N, grain_for(E), [&](int64_t begin, int64_t end) {
    // Sorted top-k so far (best first), kept by insertion: O(E + inserts * k) per token.
    std::vector<T> best_v(static_cast<size_t>(k));
    std::vector<int32_t> best_i(static_cast<size_t>(k));
    for (int64_t n = begin; n < end; ++n) {
      const T* row = scores + n * E;
      int64_t filled = 0;
      for (int32_t e = 0; e < static_cast<int32_t>(E); ++e) {
        T v = row[e];
        if (selection_bias) v += static_cast<T>(selection_bias[e]);
        int64_t pos;
        if (filled < k) {
          pos = filled++;
        } else if (ranks_before(v, e, best_v[k - 1], best_i[k - 1])) {
          pos = k - 1;
        } else {
          continue;
        }
        while (pos > 0 && ranks_before(v, e, best_v[pos - 1], best_i[pos - 1])) {
          best_v[pos] = best_v[pos - 1];
          best_i[pos] = best_i[pos - 1];
          --pos;
        }
        best_v[pos] = v;
        best_i[pos] = e;
      }
      for (int64_t j = 0; j < k; ++j) idx[j * N + n] = best_i[j];
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
      for (int64_t t = block_begin(b); t < block_begin(b + 1); ++t) {
        const int64_t n = token_at(t);
        if (n < 0 || n >= N) throw std::out_of_range("moe_kernels: bad token_order entry");
        for (int64_t j = 0; j < k; ++j) {
          const int32_t e = idx[j * N + n];
          check_expert(e, E);
          ++h[j * E + e];
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
      for (int64_t t = block_begin(b); t < block_begin(b + 1); ++t) {
        const int64_t n = token_at(t);
        for (int64_t j = 0; j < k; ++j) {
          const int64_t c = j * N + n;
          loc[c] = static_cast<int32_t>(next[j * E + idx[c]]++);
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

int64_t capacity(double capacity_factor, int64_t N, int64_t E, int64_t k, int64_t max_demand,
                 int64_t alignment) {
  if (E <= 0) throw std::invalid_argument("moe_kernels::capacity: E must be positive");
  if (std::isnan(capacity_factor)) {
    throw std::invalid_argument("moe_kernels::capacity: capacity_factor is NaN");
  }
  const int64_t spe = N > 0 ? (N + E - 1) / E : 0;  // tokens per expert, rounded up
  auto factor_capacity = [&](double f) {
    return k * static_cast<int64_t>(std::floor(f * static_cast<double>(spe)));
  };
  int64_t C;
  if (capacity_factor > 0) {
    C = factor_capacity(capacity_factor);
  } else if (capacity_factor == 0) {
    C = max_demand;
  } else {
    C = std::min(max_demand, factor_capacity(-capacity_factor));
  }
  C = std::max<int64_t>(C, 0);
  if (alignment > 1) C = (C + alignment - 1) / alignment * alignment;
  return C;
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
  parallel_for(N, grain_for(k), [&](int64_t begin, int64_t end) {
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
