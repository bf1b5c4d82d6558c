#pragma once
// autograd keeps an operation's non-tensor state as IValues: a process group travels through a
// context as its address (the group outlives the model, so the address stays valid).
#include <torch/torch.h>

#include <cstdint>

#include "dist/process_group.h"

namespace moe::layer {

inline void save_group(torch::autograd::AutogradContext* ctx, dist::ProcessGroup* group) {
  ctx->saved_data["group"] = static_cast<int64_t>(reinterpret_cast<intptr_t>(group));
}

inline dist::ProcessGroup& saved_group(torch::autograd::AutogradContext* ctx) {
  return *reinterpret_cast<dist::ProcessGroup*>(
      static_cast<intptr_t>(ctx->saved_data["group"].toInt()));
}

}  // namespace moe::layer
