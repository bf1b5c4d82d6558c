#pragma once
// Expert parallelism (docs/ROUTING.md, "Expert parallelism"): the experts of a layer split over
// the ranks of a process group, and the collectives that carry tokens or weights between them,
// as autograd operations so that backward sends gradients the same way back.
#include <torch/torch.h>

#include "dist/process_group.h"
#include "moe/experts.h"

namespace moe {

// How one layer's experts sit on the group. r is Tutel's adaptive parallelism degree:
//   r = 1: each rank owns `local_experts` experts; tokens travel to them by all-to-all.
//   r = 0: the same parameters, but every rank gathers all experts' weights and runs its own
//          tokens through them (pure data parallelism, no all-to-all of tokens).
// The parameter layout is the same for both, so r may change between steps.
struct ExpertPlacementOnGroup {
  dist::ProcessGroup* group = nullptr;  // not owned; outlives the model
  int64_t first_expert = 0, local_experts = 0;
  bool sharded = false;  // false: every rank holds every expert (experts replicated)
  int64_t r = 1;
};

// Equal-split all-to-all along dim 0; backward is the same exchange of the gradients.
at::Tensor all_to_all(const at::Tensor& x, dist::ProcessGroup& group);
// Sum over the group; backward sums the gradients over the group too (every rank's loss then
// depends on every rank's input: docs/ROUTING.md, "Auxiliary losses across ranks").
at::Tensor all_reduce_sum(const at::Tensor& x, dist::ProcessGroup& group);

// The experts' part of the layer: dispatched [E, C, M] of this rank's tokens -> [E, C, M].
at::Tensor run_experts(const at::Tensor& dispatched, ExpertsImpl& experts,
                       const ExpertPlacementOnGroup& placement);

}  // namespace moe
