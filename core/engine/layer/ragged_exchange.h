#pragma once
// The all-to-all of expert parallelism without its padding (docs/ROUTING.md, "Expert
// parallelism"). A rank's dispatched buffer [E, S, M] has S slots per expert, enough for the
// largest share any rank has of any expert, but rank q fills only the first shares[q * E + e]
// slots of expert e (group_routing.h). Only those rows travel: each local expert receives every
// rank's rows of it, packed in rank order into [El, R, M], R the most rows any local expert got.
// So a rank computes on the tokens its experts kept, not on W times the largest share.
#include <torch/torch.h>

#include <vector>

#include "dist/process_group.h"

namespace moe::layer {

// Which rows go where, for piece `piece` of `pieces` (the chunks of parallel.a2a_overlap_degree:
// each share cut into `pieces` nearly equal runs of slots; one piece is the whole share).
struct RaggedRoute {
  at::Tensor send_rows;    // [n] int64: rows of the flattened [E * S, M] buffer, in send order
  at::Tensor expert_rows;  // [m] int64: the flattened [El * R, M] row of each received row
  std::vector<int64_t> send_splits, recv_splits;   // rows to and from each rank
  int64_t local_experts = 0, rows_per_expert = 0;  // El and R (R >= 1: no empty buffer)
};

// shares: [W * E], rank-major. Rank q holds experts [q * El, (q + 1) * El), El = E / W.
// The index tensors are made on `device`.
RaggedRoute ragged_route(const std::vector<int64_t>& shares, int64_t world, int64_t rank,
                         int64_t slots, int64_t piece, int64_t pieces, const at::Device& device);

// The four moves around the exchange, as plain tensor ops (autograd follows them):
// dispatched [E, S, M] -> the rows sent [n, M]; received [m, M] -> the experts' rows [El, R, M];
// the experts' rows -> the rows sent back [m, M]; the rows come back [n, M] -> into `out`'s
// [E, S, M] (rows of other pieces, and slots nobody filled, left as they are).
at::Tensor rows_to_send(const at::Tensor& dispatched, const RaggedRoute& route);
at::Tensor rows_for_experts(const at::Tensor& received, const RaggedRoute& route);
at::Tensor rows_to_return(const at::Tensor& expert_rows, const RaggedRoute& route);
at::Tensor rows_returned(at::Tensor out, const at::Tensor& returned, const RaggedRoute& route);

// dispatched [E, S, M] -> the experts' rows [El, R, M] and back, differentiable: backward sends
// the gradients the same ways back.
at::Tensor ragged_to_experts(const at::Tensor& dispatched, const RaggedRoute& route,
                             dist::ProcessGroup& group);
at::Tensor ragged_from_experts(const at::Tensor& expert_out, const RaggedRoute& route,
                               dist::ProcessGroup& group, int64_t experts, int64_t slots);

}  // namespace moe::layer
