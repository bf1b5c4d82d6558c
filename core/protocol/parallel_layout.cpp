#include "protocol/parallel_layout.h"

#include <algorithm>
#include <string>

#include "protocol/config_validation.h"

namespace moe::protocol {
namespace {

std::string str(int64_t v) {
  return std::to_string(v);
}

std::string plural(int64_t n, const std::string& word) {
  return str(n) + " " + word + (n == 1 ? "" : "s");
}

// "0, 1, 2, 4"
std::string join(const std::vector<int64_t>& values) {
  std::string out;
  for (int64_t v : values) out += (out.empty() ? "" : ", ") + str(v);
  return out;
}

// Why the placement admits these r: where the experts are.
std::string describe(const ExpertPlacement& p, bool expert_parallel) {
  const std::string where = plural(p.experts, "expert") + " on " + plural(p.world, "rank");
  if (p.world == 1) return where;
  if (!expert_parallel) return where + " without expert parallelism (replicated)";
  if (p.shards > 1) return where + " (each expert in " + str(p.shards) + " shards)";
  return where + " (" + str(p.local_experts) + " per rank)";
}

// False when the experts cannot be placed on `world` ranks (so there is no r to check).
bool check_experts(const RunConfig& c, int64_t world, std::vector<ConfigProblem>& out) {
  const int64_t experts = c.moe.experts;
  if (experts < 1) return false;  // validate() reports the range
  if (c.parallel.expert_parallel && world > 1 && experts % world != 0 && world % experts != 0) {
    out.push_back({"/moe/experts", "must be a multiple or a divisor of the number of ranks (" +
                                       str(world) + ") with expert parallelism, got " +
                                       str(experts)});
    return false;
  }
  // A sharded expert splits its hidden units evenly over its shards.
  const ExpertPlacement p = expert_placement(experts, world, c.parallel.expert_parallel);
  if (p.shards > 1 && c.moe.hidden >= 1 && c.moe.hidden % p.shards != 0) {
    out.push_back({"/moe/hidden", "must be a multiple of " + str(p.shards) +
                                      " to shard each expert over " + str(p.shards) +
                                      " ranks, got " + str(c.moe.hidden)});
  }
  return true;
}

void check_adaptive_r(const RunConfig& c, int64_t world, std::vector<ConfigProblem>& out) {
  const int64_t r = c.parallel.adaptive_r;
  if (r == kAdaptiveRAuto) return;
  const bool ep = c.parallel.expert_parallel;
  const ExpertPlacement placement = expert_placement(c.moe.experts, world, ep);
  const std::vector<int64_t> valid = valid_adaptive_r(placement);
  if (std::find(valid.begin(), valid.end(), r) != valid.end()) return;
  out.push_back({"/parallel/adaptive_r", "must be \"auto\" or one of " + join(valid) + " for " +
                                             describe(placement, ep) + ", got " + str(r)});
}

void check_batch(const RunConfig& c, int64_t world, std::vector<ConfigProblem>& out) {
  const int64_t batch = c.train.batch_size;
  if (batch < 1 || batch % world == 0) return;
  // Every rank takes an equal slice of the global batch (data parallel).
  std::string message =
      "must be divisible by the number of ranks (" + str(world) + "), got " + str(batch);
  if (batch < world) message += ": more ranks than the batch has rows";
  out.push_back({"/train/batch_size", std::move(message)});
}

}  // namespace

std::optional<int64_t> config_world(const ParallelConfig& p) {
  const auto in_range = [](int64_t v) { return v >= 1 && v <= limits::kMaxProcs; };
  if (!in_range(p.nodes) || !in_range(p.nproc) || !in_range(p.world_size())) return std::nullopt;
  return p.world_size();
}

ExpertPlacement expert_placement(int64_t experts, int64_t world, bool expert_parallel) {
  ExpertPlacement p;
  p.world = world;
  p.experts = experts;
  p.local_experts = experts;  // replicated unless split or sharded below
  if (!expert_parallel || world <= 1 || experts < 1) return p;
  if (experts % world == 0) {
    p.local_experts = experts / world;
  } else if (world % experts == 0) {
    p.local_experts = 1;
    p.shards = world / experts;
  }
  return p;
}

std::vector<int64_t> valid_adaptive_r(const ExpertPlacement& placement) {
  std::vector<int64_t> out{0};
  for (int64_t d = 1; d <= placement.shards; ++d) {
    if (placement.shards % d == 0) out.push_back(d);
  }
  return out;
}

std::vector<ConfigProblem> layout_problems(const RunConfig& c, int64_t world) {
  std::vector<ConfigProblem> out;
  if (world < 1) {
    out.push_back({"/parallel/nproc", "a run needs at least 1 rank, got " + str(world)});
    return out;
  }
  // In key order: moe, then parallel, then train.
  const bool placed = check_experts(c, world, out);
  if (c.parallel.backend == Backend::Nccl && c.train.device == Device::Cpu) {
    out.push_back({"/parallel/backend", "\"nccl\" needs a GPU, but train.device is \"cpu\""});
  }
  if (placed) check_adaptive_r(c, world, out);
  if (c.parallel.a2a_overlap_degree < 1) {
    out.push_back({"/parallel/a2a_overlap_degree",
                   "must be >= 1, got " + str(c.parallel.a2a_overlap_degree)});
  }
  check_batch(c, world, out);
  return out;
}

}  // namespace moe::protocol
