#pragma once
// How a layer's dispatched buffer reaches its experts and comes back (docs/ROUTING.md, "Expert
// parallelism"): one TokenDispatcher per strategy. The layer asks token_dispatcher_for() at every
// forward pass, since r may change from one step to the next (parallel.adaptive_r).
#include <torch/torch.h>

#include "layer/expert_parallel.h"
#include "layer/experts.h"
#include "layer/routing_plan.h"

namespace moe::layer {

class TokenDispatcher {
 public:
  virtual ~TokenDispatcher() = default;
  // dispatched [E, C, M] of this rank's tokens -> the experts' outputs for them, [E, C, M]; the
  // plan's rank_shares say which slots hold tokens (every slot on one process).
  virtual at::Tensor run(const at::Tensor& dispatched, ExpertsImpl& experts,
                         const ExpertPlacementOnGroup& placement,
                         const RoutingPlan& plan) const = 0;
};

// The experts on the rank's own buffer, as held: one process, or every rank holding every expert
// (parallel.expert_parallel false). On one process with dropless routing (ragged_experts), the
// experts run over each expert's routed rows only, not over the padding to the largest demand
// (ExpertsImpl::forward_rows), unless a PaddedExpertsScope is alive on the thread.
// own_buffer_dispatch.cpp
class LocalDispatcher final : public TokenDispatcher {
 public:
  at::Tensor run(const at::Tensor&, ExpertsImpl&, const ExpertPlacementOnGroup&,
                 const RoutingPlan&) const override;
};

// r = 0: every expert's weights gathered, the rank's own tokens through them.
// own_buffer_dispatch.cpp
class GatheredWeightsDispatcher final : public TokenDispatcher {
 public:
  at::Tensor run(const at::Tensor&, ExpertsImpl&, const ExpertPlacementOnGroup&,
                 const RoutingPlan&) const override;
};

// r = 1 with whole experts (E >= W): the filled slots to the experts' ranks and back by an uneven
// all-to-all (ragged_exchange.h). all_to_all_dispatch.cpp
class AllToAllDispatcher final : public TokenDispatcher {
 public:
  at::Tensor run(const at::Tensor&, ExpertsImpl&, const ExpertPlacementOnGroup&,
                 const RoutingPlan&) const override;
};

// The same in parallel.a2a_overlap_degree pieces, overlapped with the experts
// (overlapped_experts.h). all_to_all_dispatch.cpp
class OverlappedAllToAllDispatcher final : public TokenDispatcher {
 public:
  at::Tensor run(const at::Tensor&, ExpertsImpl&, const ExpertPlacementOnGroup&,
                 const RoutingPlan&) const override;
};

// r >= 1 with experts sharded along their hidden units (E < W): see ExpertPlacementOnGroup.
// sharded_dispatch.cpp
class ShardedDispatcher final : public TokenDispatcher {
 public:
  at::Tensor run(const at::Tensor&, ExpertsImpl&, const ExpertPlacementOnGroup&,
                 const RoutingPlan&) const override;
};

// Whether LocalDispatcher runs the experts over the routed rows alone, for a plan of one process:
// on the CPU (a GPU would wait for the counts), nothing dropped (kept == demand, [E] int64: each
// expert's tokens in its first kept[e] slots) and at most 90 % of the buffer's rows routed. With
// less padding the GEMMs one expert at a time gain less than they cost beside one batched GEMM
// (docs/BENCHMARKS.md, "Ragged expert GEMMs").
bool ragged_experts(const at::Tensor& kept, const at::Tensor& demand, int64_t buffer_rows,
                    bool cpu);

// While alive, LocalDispatcher computes on the whole padded buffer on this thread: what the layer
// benchmark and the tests set the ragged path against.
class PaddedExpertsScope {
 public:
  PaddedExpertsScope();
  ~PaddedExpertsScope();
  PaddedExpertsScope(const PaddedExpertsScope&) = delete;
  PaddedExpertsScope& operator=(const PaddedExpertsScope&) = delete;
  static bool active();

 private:
  bool previous_;
};

const TokenDispatcher& token_dispatcher_for(const ExpertPlacementOnGroup& placement);

}  // namespace moe::layer
