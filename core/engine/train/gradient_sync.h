#pragma once
// Data parallelism's gradient step: the gradients of the parameters every rank holds (everything
// but split experts) are averaged over the ranks in buckets of about 25 MiB; a bucket's all-reduce
// starts during the last micro-batch's backward as soon as its last gradient is accumulated (hooks
// on the gradient accumulators, as torch's DDP), so it overlaps the rest of backward; split
// experts' gradients, which already hold every rank's tokens (the all-to-all brought them), are
// only divided by W, so that every rank's loss counts 1/W as in the mean over the concatenated
// batch. The gradient norm sums the split experts over the ranks.
#include <torch/torch.h>

#include <utility>
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

  // Before the last micro-batch's backward: from now on full buckets start their all-reduce.
  void arm();
  // After it: starts what has not started (a parameter without a gradient takes part with zeros:
  // every rank must send the same buckets), waits, and leaves the averages in the parameters;
  // split experts' gradients are divided by W.
  void average();

  // L2 norm of every gradient of the model (split experts summed over the ranks), float64; with
  // max_norm > 0 and a larger norm every gradient is scaled to it. Returns the norm before.
  double clip_norm(double max_norm);

 private:
  void watch_gradients();
  void gradient_ready(size_t k);
  void launch(size_t bucket);

  dist::ProcessGroup& group_;
  std::vector<at::Tensor> replicated_, split_, split_copies_;
  std::vector<std::vector<size_t>> buckets_;  // indices into replicated_
  std::vector<size_t> bucket_of_;             // replicated_ index -> bucket
  // What grad_accumulator returns: a shared_ptr to the node in older LibTorch, an intrusive_ptr
  // in newer ones.
  using AccumulatorPtr =
      decltype(torch::autograd::impl::grad_accumulator(std::declval<const at::Tensor&>()));
  std::vector<AccumulatorPtr> accumulators_;
  // The step in flight: gradients ready per bucket, buckets started, their flat tensors.
  bool armed_ = false;
  std::vector<size_t> ready_;
  size_t launched_ = 0;
  std::vector<at::Tensor> flat_;
  std::vector<dist::PendingWork> pending_;
};

}  // namespace moe::train
