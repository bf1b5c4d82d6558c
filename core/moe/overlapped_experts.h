#pragma once
// parallel.a2a_overlap_degree d > 1 (docs/ROUTING.md, "Overlapping the all-to-all"): the slots of
// every expert are cut into d chunks; all chunks' all-to-alls start at once, and the experts work
// on chunk i as soon as it has arrived while the later chunks are still on the wire; each chunk's
// results start back as soon as they are computed. Backward does the same with the gradients.
// The results are those of d = 1 (only the order of the weight-gradient sums changes).
#include <torch/torch.h>

#include "dist/process_group.h"
#include "moe/experts.h"

namespace moe {

// dispatched [E, C, M] (C a multiple of degree) with this rank's E / W whole experts in `experts`.
at::Tensor overlapped_experts(const at::Tensor& dispatched, ExpertsImpl& experts,
                              dist::ProcessGroup& group, int64_t degree);

}  // namespace moe
