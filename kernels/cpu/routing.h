#pragma once
// The CPU backend's routing (docs/ROUTING.md) on host buffers: top-k choices, slot locations,
// demand and the slot map that lets dispatch/combine run partitioned by slot or by token without
// atomics.
//
// Layouts (all row-major, contiguous):
//   scores [N, E]; idx, loc, gates [k, N] (choice-major: idx[j * N + n] is token n's j-th choice);
//   counts [k, E] (c_j[e]); demand, kept [E]; slot_map [E, C].
#include <cstdint>

#include "moe_kernels/types.h"

namespace moe::kernels {

// idx[j*N+n] = index of token n's j-th largest score (ties: lower expert index first).
// selection_bias (nullable, [E]) is added to the scores for the choice only (docs/ROUTING.md:
// aux-loss-free balancing). T is float or double.
template <typename T>
void topk_choices(const T* scores, int64_t N, int64_t E, int64_t k, const float* selection_bias,
                  int32_t* idx);

// Batch-prioritized order (docs/ROUTING.md, "Batch-prioritized routing"): token indices sorted by
// descending priority (the top-1 score), ties broken by lower token index. order has N entries.
template <typename T>
void priority_order(const T* priority, int64_t N, int64_t* order);

// Slot of every choice (docs/ROUTING.md, "Slots (locations)") and the per-choice counts c_j[e].
// token_order (nullable, [N]) is the order in which tokens claim slots; null means 0..N-1.
void slot_locations(const int32_t* idx, int64_t N, int64_t E, int64_t k, const int64_t* token_order,
                    int32_t* loc, int64_t* counts);

// demand[e] = sum_j counts[j*E+e].
void demand_from_counts(const int64_t* counts, int64_t E, int64_t k, int64_t* demand);

// kept[e] = min(demand[e], C).
void kept_counts(const int64_t* demand, int64_t E, int64_t C, int64_t* kept);

// slot_map[e*C+s] = j*N+n for the kept choice that occupies slot s of expert e, else -1.
// Choices with loc >= C are dropped.
void build_slot_map(const int32_t* idx, const int32_t* loc, int64_t N, int64_t E, int64_t k,
                    int64_t C, int64_t* slot_map);

}  // namespace moe::kernels
