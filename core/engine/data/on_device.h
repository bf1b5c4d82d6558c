#pragma once
// A source whose batches arrive on the device the model trains on: the wrapper copies each
// batch there as the trainer takes it (a no-op on the CPU). Everything else is forwarded.
#include <torch/torch.h>

#include "data/batch_source.h"

namespace moe::data {

// On the CPU this returns inner itself.
std::unique_ptr<BatchSource> on_device(std::unique_ptr<BatchSource> inner,
                                       const at::Device& device);

}  // namespace moe::data
