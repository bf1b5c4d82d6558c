#pragma once
// Naive reference implementations of routing (docs/ROUTING.md) and dispatch/combine
// (docs/ROUTING.md, "Dispatch, experts, combine"), written straight from the formulas, for checking
// every kernel backend. Deliberately simple and slow.
#include <moe_kernels/types.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace moe::kernels::ref {

inline float load(float v) {
  return v;
}
inline double load(double v) {
  return v;
}
inline float load(bfloat16 v) {
  return to_float(v);
}
inline float load(float16 v) {
  return to_float(v);
}
template <typename T>
T store(acc_t<T> v);
template <>
inline float store<float>(float v) {
  return v;
}
template <>
inline double store<double>(double v) {
  return v;
}
template <>
inline bfloat16 store<bfloat16>(float v) {
  return to_bfloat16(v);
}
template <>
inline float16 store<float16>(float v) {
  return to_float16(v);
}

// Full sort of each row: larger value first, ties to the lower expert index.
template <typename T>
std::vector<int32_t> topk(const std::vector<T>& scores, int64_t N, int64_t E, int64_t k,
                          const float* bias = nullptr) {
  std::vector<int32_t> idx(static_cast<size_t>(k * N));
  for (int64_t n = 0; n < N; ++n) {
    std::vector<int32_t> e(static_cast<size_t>(E));
    std::iota(e.begin(), e.end(), 0);
    auto value = [&](int32_t i) { return scores[n * E + i] + (bias ? T(bias[i]) : T(0)); };
    std::sort(e.begin(), e.end(), [&](int32_t a, int32_t b) {
      return value(a) > value(b) || (value(a) == value(b) && a < b);
    });
    for (int64_t j = 0; j < k; ++j) idx[j * N + n] = e[j];
  }
  return idx;
}

struct Slots {
  std::vector<int32_t> loc;     // [k, N]
  std::vector<int64_t> counts;  // [k, E]
};

// The literal formula of docs/ROUTING.md, "Slots (locations)": loc_j[n] = #{m before n in the
// order: idx_j[m] = idx_j[n]} + sum_{i<j} c_i[idx_j[n]]. O(k N^2): small N only.
inline Slots slot_locations(const std::vector<int32_t>& idx, int64_t N, int64_t E, int64_t k,
                            const std::vector<int64_t>* order = nullptr) {
  Slots out{std::vector<int32_t>(static_cast<size_t>(k * N)),
            std::vector<int64_t>(static_cast<size_t>(k * E), 0)};
  std::vector<int64_t> position(static_cast<size_t>(N));
  for (int64_t t = 0; t < N; ++t) position[order ? (*order)[t] : t] = t;
  for (int64_t j = 0; j < k; ++j) {
    for (int64_t n = 0; n < N; ++n) ++out.counts[j * E + idx[j * N + n]];
  }
  for (int64_t j = 0; j < k; ++j) {
    for (int64_t n = 0; n < N; ++n) {
      const int32_t e = idx[j * N + n];
      int64_t before = 0;
      for (int64_t m = 0; m < N; ++m) {
        if (idx[j * N + m] == e && position[m] < position[n]) ++before;
      }
      for (int64_t i = 0; i < j; ++i) before += out.counts[i * E + e];
      out.loc[j * N + n] = static_cast<int32_t>(before);
    }
  }
  return out;
}

// The same by sequential counting, O(k N): for large N.
inline Slots slot_locations_counting(const std::vector<int32_t>& idx, int64_t N, int64_t E,
                                     int64_t k, const std::vector<int64_t>* order = nullptr) {
  Slots out{std::vector<int32_t>(static_cast<size_t>(k * N)),
            std::vector<int64_t>(static_cast<size_t>(k * E), 0)};
  std::vector<int64_t> base(static_cast<size_t>(E), 0);
  for (int64_t j = 0; j < k; ++j) {
    for (int64_t t = 0; t < N; ++t) {
      const int64_t n = order ? (*order)[t] : t;
      const int32_t e = idx[j * N + n];
      out.loc[j * N + n] = static_cast<int32_t>(base[e] + out.counts[j * E + e]++);
    }
    for (int64_t e = 0; e < E; ++e) base[e] += out.counts[j * E + e];
  }
  return out;
}

inline std::vector<int64_t> slot_map(const std::vector<int32_t>& idx,
                                     const std::vector<int32_t>& loc, int64_t N, int64_t E,
                                     int64_t k, int64_t C) {
  std::vector<int64_t> map(static_cast<size_t>(E * C), -1);
  for (int64_t c = 0; c < k * N; ++c) {
    if (loc[c] < C) map[idx[c] * C + loc[c]] = c;
  }
  return map;
}

// Routing as the dispatch kernels see it.
struct Routing {
  int64_t N, E, k, C;
  std::vector<int32_t> idx, loc;
  std::vector<int64_t> map;
  bool kept(int64_t c) const { return loc[c] >= 0 && loc[c] < C; }
  int64_t row(int64_t c) const { return idx[c] * C + loc[c]; }
};

template <typename T>
acc_t<T> weight(const T* gates, int64_t c) {
  return gates ? load(gates[c]) : acc_t<T>(1);
}

template <typename T>
std::vector<T> dispatch_forward(const Routing& r, const std::vector<T>& x, const T* gates,
                                int64_t M) {
  std::vector<T> D(static_cast<size_t>(r.E * r.C * M), store<T>(0));
  for (int64_t c = 0; c < r.k * r.N; ++c) {
    if (!r.kept(c)) continue;
    const int64_t n = c % r.N;
    for (int64_t m = 0; m < M; ++m) {
      D[r.row(c) * M + m] = store<T>(weight(gates, c) * load(x[n * M + m]));
    }
  }
  return D;
}

template <typename T>
std::vector<T> combine_forward(const Routing& r, const std::vector<T>& Y, const T* gates,
                               int64_t M) {
  std::vector<T> out(static_cast<size_t>(r.N * M));
  for (int64_t n = 0; n < r.N; ++n) {
    for (int64_t m = 0; m < M; ++m) {
      acc_t<T> acc = 0;
      for (int64_t j = 0; j < r.k; ++j) {
        const int64_t c = j * r.N + n;
        if (r.kept(c)) acc += weight(gates, c) * load(Y[r.row(c) * M + m]);
      }
      out[n * M + m] = store<T>(acc);
    }
  }
  return out;
}

template <typename T>
struct Grads {
  std::vector<T> data;   // grad_x [N, M] or grad_buffer [E, C, M]
  std::vector<T> gates;  // [k, N]
};

template <typename T>
Grads<T> dispatch_backward(const Routing& r, const std::vector<T>& gD, const std::vector<T>& x,
                           const T* gates, int64_t M) {
  Grads<T> g{std::vector<T>(static_cast<size_t>(r.N * M)),
             std::vector<T>(static_cast<size_t>(r.k * r.N), store<T>(0))};
  for (int64_t n = 0; n < r.N; ++n) {
    for (int64_t m = 0; m < M; ++m) {
      acc_t<T> acc = 0;
      for (int64_t j = 0; j < r.k; ++j) {
        const int64_t c = j * r.N + n;
        if (r.kept(c)) acc += weight(gates, c) * load(gD[r.row(c) * M + m]);
      }
      g.data[n * M + m] = store<T>(acc);
    }
  }
  for (int64_t c = 0; c < r.k * r.N; ++c) {
    if (!r.kept(c)) continue;
    acc_t<T> dot = 0;
    for (int64_t m = 0; m < M; ++m) dot += load(gD[r.row(c) * M + m]) * load(x[(c % r.N) * M + m]);
    g.gates[c] = store<T>(dot);
  }
  return g;
}

template <typename T>
Grads<T> combine_backward(const Routing& r, const std::vector<T>& gout, const std::vector<T>& Y,
                          const T* gates, int64_t M) {
  Grads<T> g{std::vector<T>(static_cast<size_t>(r.E * r.C * M), store<T>(0)),
             std::vector<T>(static_cast<size_t>(r.k * r.N), store<T>(0))};
  for (int64_t c = 0; c < r.k * r.N; ++c) {
    if (!r.kept(c)) continue;
    const int64_t n = c % r.N;
    acc_t<T> dot = 0;
    for (int64_t m = 0; m < M; ++m) {
      g.data[r.row(c) * M + m] = store<T>(weight(gates, c) * load(gout[n * M + m]));
      dot += load(gout[n * M + m]) * load(Y[r.row(c) * M + m]);
    }
    g.gates[c] = store<T>(dot);
  }
  return g;
}

}  // namespace moe::kernels::ref
