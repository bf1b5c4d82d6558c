#pragma once
// parallel.a2a_overlap_degree d > 1 (docs/ROUTING.md, "Overlapping the all-to-all"): every rank's
// share of every expert is cut into d nearly equal pieces (ragged_exchange.h); all pieces'
// all-to-alls start at once, and the experts work on piece i as soon as it has arrived while the
// later pieces are still on the wire; each piece's results start back as soon as they are
// computed. Backward does the same with the gradients.
// The results are those of d = 1 (only the order of the weight-gradient sums changes).
#include <torch/torch.h>

#include "dist/process_group.h"
#include "layer/experts.h"

namespace moe::layer {

// dispatched [E, C, M] with this rank's E / W whole experts in `experts`; rank_shares: the group
// plan's (RoutingPlan::rank_shares).
at::Tensor overlapped_experts(const at::Tensor& dispatched, ExpertsImpl& experts,
                              dist::ProcessGroup& group, int64_t degree,
                              const std::vector<int64_t>& rank_shares);

}  // namespace moe::layer
