#pragma once
// train.amp on the CPU: bfloat16 autocast around the forward pass (matmuls and convolutions run in
// bfloat16, reductions and losses stay float32), restored and its weight cache cleared on exit.
#include <ATen/autocast_mode.h>

namespace moe::train {

class AutocastScope {
 public:
  explicit AutocastScope(bool enabled) : enabled_(enabled) {
    if (!enabled_) return;
    previous_ = at::autocast::is_cpu_enabled();
    at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
    at::autocast::set_cpu_enabled(true);
  }
  ~AutocastScope() {
    if (!enabled_) return;
    at::autocast::set_cpu_enabled(previous_);
    at::autocast::clear_cache();
  }
  AutocastScope(const AutocastScope&) = delete;
  AutocastScope& operator=(const AutocastScope&) = delete;

 private:
  bool enabled_;
  bool previous_ = false;
};

}  // namespace moe::train
