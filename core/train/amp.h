#pragma once
// train.amp: bfloat16 autocast around the forward pass (matmuls and convolutions run in bfloat16,
// reductions and losses stay float32) on the device the model computes on, restored and its
// weight cache cleared on exit. The MoE layer handles autocast itself (moe_layer.h).
#include <ATen/autocast_mode.h>

#include "runtime/autocast.h"

namespace moe::train {

class AutocastScope {
 public:
  AutocastScope(bool enabled, const at::Device& device)
      : enabled_(enabled), cuda_(device.is_cuda()) {
    if (!enabled_) return;
    if (cuda_) {
      previous_ = cuda_autocast_enabled();
      set_cuda_autocast(true, at::kBFloat16);
      return;
    }
    previous_ = at::autocast::is_cpu_enabled();
    at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
    at::autocast::set_cpu_enabled(true);
  }
  ~AutocastScope() {
    if (!enabled_) return;
    if (cuda_) {
      set_cuda_autocast(previous_, at::kBFloat16);
    } else {
      at::autocast::set_cpu_enabled(previous_);
    }
    at::autocast::clear_cache();
  }
  AutocastScope(const AutocastScope&) = delete;
  AutocastScope& operator=(const AutocastScope&) = delete;

 private:
  bool enabled_, cuda_;
  bool previous_ = false;
};

}  // namespace moe::train
