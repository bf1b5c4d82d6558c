#pragma once
// A model's weights as named tensors, for checkpoints and exports: parameters and buffers by their
// module path (the docs/ROUTING.md parameter names under each MoE layer's prefix) plus each MoE
// layer's aux-loss-free selection bias as "<prefix>selection_bias" (not a parameter, but it decides
// the routing).
#include <torch/torch.h>

#include "io/safetensors.h"
#include "layer/moe_layer.h"

namespace moe::train {

io::TensorMap model_tensors(torch::nn::Module& model);

// Every MoE layer of `model` with its name prefix ("blocks.2.moe." or "" for a bare layer).
std::vector<std::pair<std::string, layer::MoeLayerImpl*>> moe_layers_by_prefix(
    torch::nn::Module& model);

// Copies `tensors` into the model. std::invalid_argument naming the tensor when one is missing,
// unexpected, or of another shape; dtypes are converted to the model's.
void load_model_tensors(torch::nn::Module& model, const io::TensorMap& tensors);

}  // namespace moe::train
