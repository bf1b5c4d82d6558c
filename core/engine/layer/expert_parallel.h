#pragma once
// Expert parallelism (docs/ROUTING.md, "Expert parallelism"): the experts of a layer split over
// the ranks of a process group, and the collectives that carry tokens or weights between them,
// as autograd operations so that backward sends gradients the same way back. How the tokens
// travel is a TokenDispatcher's (token_dispatcher.h).
#include <torch/torch.h>

#include "dist/process_group.h"
#include "layer/experts.h"

namespace moe::layer {

// How one layer's experts sit on the group, and r, Tutel's adaptive parallelism degree
// (docs/ROUTING.md, "Adaptive parallelism"):
//   r = 0: every rank gathers all experts' weights and runs its own tokens through them (pure
//          data parallelism, no all-to-all of tokens).
//   r >= 1 (a divisor of the shards s; 1 when E >= W): tokens travel by all-to-all. The s ranks
//          of an expert form s / r groups; each group takes its share of the expert's slots, and
//          its r ranks each compute a 1/r slice of the hidden dimension on all of them; the
//          partial outputs are summed where the tokens came from. r = s needs no weight gathering.
// The parameter layout is the same for every r, so r may change between steps.
struct ExpertPlacementOnGroup {
  dist::ProcessGroup* group = nullptr;  // not owned; outlives the model
  ExpertPartition partition;
  bool sharded = false;  // false: every rank holds every expert (experts replicated)
  int64_t r = 1;
  int64_t overlap_degree = 1;  // parallel.a2a_overlap_degree (overlapped_experts.h)
  // Slots per expert of this rank's buffer must be a multiple of this: the s / r groups that
  // share an expert's slots, times the overlap chunks.
  int64_t slot_alignment() const { return (r >= 1 ? partition.shards / r : 1) * overlap_degree; }
};

// Equal-split all-to-all along dim 0; backward is the same exchange of the gradients.
at::Tensor all_to_all(const at::Tensor& x, dist::ProcessGroup& group);
// Sum over the group; backward sums the gradients over the group too (every rank's loss then
// depends on every rank's input: docs/ROUTING.md, "Auxiliary losses across ranks").
at::Tensor all_reduce_sum(const at::Tensor& x, dist::ProcessGroup& group);

// Expert tensors gathered whole from every rank's part (r = 0, or r < s where a rank computes
// more than its shard); backward sums every rank's gradient and keeps this rank's part. `whole`:
// the part is a whole copy in each shard (an output bias). An undefined part stays undefined.
at::Tensor gather_experts(const at::Tensor& part, const ExpertPlacementOnGroup& placement,
                          bool whole);
// Every weight of `experts` gathered so (ExpertsImpl::weights() order).
std::vector<at::Tensor> gathered_weights(ExpertsImpl& experts,
                                         const ExpertPlacementOnGroup& placement);

}  // namespace moe::layer
