#pragma once
// The capacity rule: how many slots C each expert has in one MoE layer call. One definition for
// the routing kernel and the experiment editor's estimates; header-only and free of Torch, so the
// GUI includes it too.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace moe::kernels {

// C for N routed tokens, E experts and k choices per token (k = min(top_k, E)):
//   factor > 0   C = k * floor(factor * ceil(N / E))                  fixed
//   factor == 0  C = max_demand (the busiest expert's demand)         dropless
//   factor < 0   C = min(max_demand, k * floor(-factor * ceil(N / E)))  bounded
// then rounded up to a multiple of `alignment` (<= 1: none). C may be 0 (every choice dropped).
// Sizes no machine holds saturate at 2^62 instead of overflowing. E <= 0 counts as 1 and a NaN
// factor gives 0: callers that must refuse them check first.
inline int64_t capacity_slots(double factor, int64_t N, int64_t E, int64_t k, int64_t max_demand,
                              int64_t alignment) {
  constexpr double kMaxSlots = 4611686018427387904.0;  // 2^62
  const double tokens_per_expert =
      N > 0 ? std::ceil(static_cast<double>(N) / static_cast<double>(std::max<int64_t>(E, 1)))
            : 0.0;
  const auto from_factor = [&](double f) {
    return static_cast<double>(k) * std::floor(f * tokens_per_expert);
  };
  double c = 0;
  if (factor > 0) {
    c = from_factor(factor);
  } else if (factor == 0) {
    c = static_cast<double>(max_demand);
  } else if (factor < 0) {
    c = std::min(static_cast<double>(max_demand), from_factor(-factor));
  }
  if (!(c > 0)) c = 0;  // negative, or NaN (an infinite factor times 0 tokens)
  c = std::min(c, kMaxSlots);
  auto slots = static_cast<int64_t>(c);
  if (alignment > 1 && slots % alignment != 0) {
    slots += std::min(alignment - slots % alignment, std::numeric_limits<int64_t>::max() - slots);
  }
  return slots;
}

// capacity_slots after refusing E <= 0 and a NaN factor (std::invalid_argument): what routing
// calls. max_demand is max_e d[e] over the whole expert-parallel group.
inline int64_t capacity(double capacity_factor, int64_t N, int64_t E, int64_t k, int64_t max_demand,
                        int64_t alignment) {
  if (E <= 0) throw std::invalid_argument("moe_kernels::capacity: E must be positive");
  if (std::isnan(capacity_factor)) {
    throw std::invalid_argument("moe_kernels::capacity: capacity_factor is NaN");
  }
  return capacity_slots(capacity_factor, N, E, k, max_demand, alignment);
}

}  // namespace moe::kernels
