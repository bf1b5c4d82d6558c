#pragma once
// Data parallelism's gradient step: after backward, the gradients of the parameters every rank
// holds (everything but split experts) are averaged over the ranks, in buckets of about 25 MiB that
// are all in flight at once; split experts' gradients, which already hold every rank's tokens (the
// all-to-all brought them), are only divided by W, so that every rank's loss counts 1/W as in the
// mean over the concatenated batch. The gradient norm sums the split experts over the ranks.
#include <torch/torch.h>

#include <vector>

#include "dist/process_group.h"

namespace moe::train {

class GradientSync {
 public:
  // split_copies: split parameters that other ranks hold identical copies of (fc2's bias when an
  // expert is sharded): scaled like the split ones, and counted in the norm by the rank that
  // holds the first copy only (so pass them on that rank, and as split_copies elsewhere).
  GradientSync(dist::ProcessGroup& group, std::vector<at::Tensor> replicated,
               std::vector<at::Tensor> split, std::vector<at::Tensor> split_copies = {},
               int64_t bucket_bytes = 25 << 20);

  // Averages / scales the gradients now in the parameters. A parameter without a gradient on this
  // rank takes part with zeros (every rank must send the same buckets).
  void average();

  // L2 norm of every gradient of the model (split experts summed over the ranks), float64; with
  // max_norm > 0 and a larger norm every gradient is scaled to it. Returns the norm before.
  double clip_norm(double max_norm);

 private:
  dist::ProcessGroup& group_;
  std::vector<at::Tensor> replicated_, split_, split_copies_;
  std::vector<std::vector<size_t>> buckets_;  // indices into replicated_
};

}  // namespace moe::train
