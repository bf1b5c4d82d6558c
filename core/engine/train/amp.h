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
      : enabled_(enabled), type_(device.is_cuda() ? at::kCUDA : at::kCPU) {
    if (!enabled_) return;
    previous_ = runtime::autocast_enabled(type_);
    runtime::set_autocast(type_, true, at::kBFloat16);
  }
  ~AutocastScope() {
    if (!enabled_) return;
    runtime::set_autocast(type_, previous_, at::kBFloat16);
    at::autocast::clear_cache();
  }
  AutocastScope(const AutocastScope&) = delete;
  AutocastScope& operator=(const AutocastScope&) = delete;

 private:
  bool enabled_;
  at::DeviceType type_;
  bool previous_ = false;
};

}  // namespace moe::train
