#pragma once
// The tensors of a Hugging Face checkpoint and the engine's parameters of the same decoder
// (docs/MODELS.md, "Tensor mapping"), both ways. Experts come in either layout in circulation:
// one tensor per expert (`experts.<e>.w1.weight`, `experts.<e>.gate_proj.weight`, ...) or the fused
// 3-D `experts.gate_up_proj` [E, 2H, M] and `experts.down_proj` [E, M, H] of transformers 5.
#include <string>

#include "io/safetensors.h"
#include "protocol/run_config.h"

namespace moe::hf {

// The engine's parameters from the checkpoint's tensors (in their stored dtype). HfError names
// every tensor it does not know and every expert that is missing; `where` names the folder.
io::TensorMap weights_from_hf(const protocol::RunConfig& config, const io::TensorMap& hf,
                              const std::string& where);

// The checkpoint's tensors from the engine's parameters, one tensor per expert, as
// save_pretrained writes them.
io::TensorMap weights_to_hf(const protocol::RunConfig& config, const io::TensorMap& ours);

}  // namespace moe::hf
