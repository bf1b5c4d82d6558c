#include "train/gradient_sync.h"

#include <cmath>

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
  // Buckets hold one dtype each (they are flattened into one tensor), in parameter order.
  int64_t bytes = 0;
  for (size_t i = 0; i < replicated_.size(); ++i) {
    const at::Tensor& p = replicated_[i];
    const int64_t size = p.numel() * static_cast<int64_t>(p.element_size());
    const bool new_bucket = buckets_.empty() || bytes + size > bucket_bytes ||
                            replicated_[buckets_.back().front()].scalar_type() != p.scalar_type();
    if (new_bucket) {
      buckets_.emplace_back();
      bytes = 0;
    }
    buckets_.back().push_back(i);
    bytes += size;
  }
}

void GradientSync::average() {
  if (group_.is_single()) return;
  at::NoGradGuard no_grad;
  const double world = static_cast<double>(group_.world_size());
  std::vector<at::Tensor> flat(buckets_.size());
  std::vector<dist::PendingWork> pending(buckets_.size());
  for (size_t b = 0; b < buckets_.size(); ++b) {
    std::vector<at::Tensor> parts;
    for (size_t i : buckets_[b]) parts.push_back(grad_of(replicated_[i]).reshape({-1}));
    flat[b] = at::cat(parts);
    pending[b] = group_.all_reduce_sum_async(flat[b]);
  }
  for (auto* list : {&split_, &split_copies_}) {
    for (auto& p : *list) {
      if (p.grad().defined()) p.mutable_grad().div_(world);
    }
  }
  for (size_t b = 0; b < buckets_.size(); ++b) {
    pending[b].wait();
    flat[b].div_(world);
    int64_t offset = 0;
    for (size_t i : buckets_[b]) {
      at::Tensor& g = grad_of(replicated_[i]);
      g.copy_(flat[b].narrow(0, offset, g.numel()).view_as(g));
      offset += g.numel();
    }
  }
}

double GradientSync::clip_norm(double max_norm) {
  auto split_sq = at::tensor({squared_grad_norm(split_)}, at::kDouble);
  group_.all_reduce_sum(split_sq);
  const double norm = std::sqrt(squared_grad_norm(replicated_) + split_sq.item<double>());
  clip_grads_to(replicated_, norm, max_norm);
  clip_grads_to(split_, norm, max_norm);
  clip_grads_to(split_copies_, norm, max_norm);
  return norm;
}

}  // namespace moe::train
