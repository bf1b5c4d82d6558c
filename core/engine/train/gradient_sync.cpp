#include "train/gradient_sync.h"

#include <cmath>

#include <torch/csrc/autograd/utils/lambda_post_hook.h>

#include "train/grad_clip.h"

namespace moe::train {

namespace {

at::Tensor& grad_of(at::Tensor& param) {
  if (!param.mutable_grad().defined()) param.mutable_grad() = at::zeros_like(param);
  return param.mutable_grad();
}

}  // namespace

GradientSync::GradientSync(dist::ProcessGroup& group, std::vector<at::Tensor> replicated,
                           std::vector<at::Tensor> split, std::vector<at::Tensor> split_copies,
                           int64_t bucket_bytes)
    : group_(group),
      replicated_(std::move(replicated)),
      split_(std::move(split)),
      split_copies_(std::move(split_copies)) {
  // Buckets hold one dtype each (they are flattened into one tensor), in reverse parameter order:
  // backward reaches the last layers first, so their buckets fill first.
  int64_t bytes = 0;
  bucket_of_.assign(replicated_.size(), 0);
  for (size_t k = replicated_.size(); k-- > 0;) {
    const at::Tensor& p = replicated_[k];
    const int64_t size = p.numel() * static_cast<int64_t>(p.element_size());
    const bool new_bucket = buckets_.empty() || bytes + size > bucket_bytes ||
                            replicated_[buckets_.back().front()].scalar_type() != p.scalar_type();
    if (new_bucket) {
      buckets_.emplace_back();
      bytes = 0;
    }
    buckets_.back().push_back(k);
    bucket_of_[k] = buckets_.size() - 1;
    bytes += size;
  }
  if (!group_.is_single()) watch_gradients();
}

void GradientSync::watch_gradients() {
  // A hook after each parameter's gradient accumulation (as torch's DDP does); the accumulators
  // are kept so that the hooks live as long as this object.
  for (size_t k = 0; k < replicated_.size(); ++k) {
    auto accumulator = torch::autograd::impl::grad_accumulator(replicated_[k]);
    accumulator->add_post_hook(std::make_unique<torch::autograd::utils::LambdaPostHook>(
        [this, k](const torch::autograd::variable_list& outputs,
                  const torch::autograd::variable_list&) {
          gradient_ready(k);
          return outputs;
        }));
    accumulators_.push_back(std::move(accumulator));
  }
}

void GradientSync::arm() {
  if (group_.is_single()) return;
  armed_ = true;
  ready_.assign(buckets_.size(), 0);
  flat_.assign(buckets_.size(), at::Tensor());
  pending_.assign(buckets_.size(), dist::PendingWork());
  launched_ = 0;
}

void GradientSync::gradient_ready(size_t k) {
  if (!armed_) return;
  ++ready_[bucket_of_[k]];
  // Every rank starts the buckets in the same order: the next one only once it is full.
  while (launched_ < buckets_.size() && ready_[launched_] == buckets_[launched_].size()) {
    launch(launched_++);
  }
}

void GradientSync::launch(size_t b) {
  at::NoGradGuard no_grad;
  std::vector<at::Tensor> parts;
  for (size_t k : buckets_[b]) parts.push_back(grad_of(replicated_[k]).reshape({-1}));
  flat_[b] = at::cat(parts);
  pending_[b] = group_.all_reduce_sum_async(flat_[b]);
}

void GradientSync::average() {
  if (group_.is_single()) return;
  if (!armed_) arm();
  armed_ = false;
  at::NoGradGuard no_grad;
  // Buckets with a parameter that got no gradient this step start now (with zeros for it).
  while (launched_ < buckets_.size()) launch(launched_++);
  const double world = static_cast<double>(group_.world_size());
  for (auto* list : {&split_, &split_copies_}) {
    for (auto& p : *list) {
      if (p.grad().defined()) p.mutable_grad().div_(world);
    }
  }
  for (size_t b = 0; b < buckets_.size(); ++b) {
    pending_[b].wait();
    flat_[b].div_(world);
    int64_t offset = 0;
    for (size_t k : buckets_[b]) {
      at::Tensor& g = grad_of(replicated_[k]);
      g.copy_(flat_[b].narrow(0, offset, g.numel()).view_as(g));
      offset += g.numel();
    }
  }
}

double GradientSync::clip_norm(double max_norm) {
  // The split parameters' part is summed over the ranks (each holds a slice), the replicated part
  // is the same everywhere; both stay on the device until the one read of the total.
  auto split_sq = squared_grad_norm(split_).reshape({1});
  group_.all_reduce_sum(split_sq);
  const at::Tensor replicated_sq = squared_grad_norm(replicated_).to(split_sq.device());
  const double norm = std::sqrt((replicated_sq + split_sq[0]).item<double>());
  clip_grads_to(replicated_, norm, max_norm);
  clip_grads_to(split_, norm, max_norm);
  clip_grads_to(split_copies_, norm, max_norm);
  return norm;
}

}  // namespace moe::train
