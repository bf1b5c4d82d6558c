#pragma once
// How one layer's expert tensors split over the W ranks of a group (docs/ROUTING.md, "Expert
// parallelism"). With E >= W every rank holds E / W whole experts; with E < W each expert is
// sharded over s = W / E ranks along its hidden dimension (rank q holds hidden slice q % s of
// expert q / s), and fc2's bias, which has no hidden dimension, is held whole by each of them.
// Either way rank q's part of a full tensor is full.reshape({W, local shape})[q], which is what
// makes gathering (for checkpoints and r = 0) a reshape.
#include <torch/torch.h>

namespace moe::layer {

struct ExpertPartition {
  int64_t world = 1, rank = 0, experts = 1, hidden = 1;
  int64_t local_experts = 1, shards = 1;

  static ExpertPartition of(int64_t experts, int64_t hidden, int64_t world, int64_t rank);

  int64_t first_expert() const { return rank / shards * local_experts; }
  int64_t shard() const { return rank % shards; }
  // Tensors that keep their whole width on every shard: the output bias [E, M] (the FFN experts'
  // fc2 bias, the gated experts' down bias) when s > 1.
  static bool whole_in_shards(const std::string& parameter_name);

  // This rank's part of `full` (a parameter's or its optimizer state's full shape, E first).
  at::Tensor part_of(const at::Tensor& full, bool whole_in_shards) const;
  // The full tensor from every rank's part, gathered as [W, part shape...].
  at::Tensor whole_from(const at::Tensor& gathered, bool whole_in_shards) const;
  // The inverse of whole_from for gradients: [W, part shape...] with each rank's part of `full`.
  at::Tensor parts_of(const at::Tensor& full, bool whole_in_shards) const;
};

}  // namespace moe::layer
