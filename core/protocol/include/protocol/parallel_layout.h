// How one run is laid out over its ranks (docs/PROTOCOL.md, "Parallel layout"): where the experts
// live and which parallel settings the layout admits. One definition for the validator, the
// editor and the engine, which checks the world it was actually started in (a run resumed on
// another number of ranks included). Torch-free.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "protocol/config_error.h"
#include "protocol/run_config.h"

namespace moe::protocol {

// The config's own world, nodes x nproc, when both are in [1, limits::kMaxProcs] and so is the
// product; nullopt otherwise (validate() says why). Safe on any parsed config: no overflow.
std::optional<int64_t> config_world(const ParallelConfig& parallel);

// Each rank holds `local_experts` experts, or a 1/`shards` slice of one expert.
struct ExpertPlacement {
  int64_t world = 1, experts = 1, local_experts = 1, shards = 1;
};

// E >= W, E % W == 0: local_experts = E/W, shards = 1 (experts split over the ranks).
// E < W, W % E == 0: local_experts = 1, shards = W/E (each expert sharded over W/E ranks).
// expert_parallel false or W == 1: local_experts = E, shards = 1 (experts replicated).
// Any other pair (which layout_problems reports) is placed as replicated too.
ExpertPlacement expert_placement(int64_t experts, int64_t world, bool expert_parallel);

// The adaptive_r values the placement admits: 0 (experts replicated, no all-to-all), then the
// divisors of `shards` in increasing order (1 included).
std::vector<int64_t> valid_adaptive_r(const ExpertPlacement& placement);

// Every problem of running `c` on `world` ranks, with JSON pointers: moe.experts neither a
// multiple nor a divisor of W (with expert parallelism), parallel.adaptive_r not admitted by the
// placement (unless "auto"), train.batch_size not divisible by W (or smaller than W), an
// a2a_overlap_degree < 1, the nccl backend with a CPU device. Values that are out of range on
// their own (experts < 1, batch_size < 1) are left to validate().
std::vector<ConfigProblem> layout_problems(const RunConfig& c, int64_t world);

}  // namespace moe::protocol
