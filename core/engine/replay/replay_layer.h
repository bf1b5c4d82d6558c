#pragma once
// What `moe-train replay` (one-shot and --serve) loads: the config, the tensors of one MoE layer
// from a safetensors file (weights under an optional name prefix, the `input` tokens) and the layer
// built from them (docs/PROTOCOL.md, "moe-train replay").
#include <string>

#include "layer/moe_layer.h"
#include "protocol/run_config.h"

namespace moe::replay {

struct ReplayLayer {
  protocol::RunConfig config;  // as loaded; the layer is built from config.moe with no gate noise
  at::Tensor input;            // the file's `input`, in its own dtype (F32, F64 or BF16)
  at::Tensor grad_output;      // the file's `grad_output` in input's dtype; undefined when absent
  layer::MoeLayer layer{nullptr};  // in input's dtype, training mode
};

// Reads `config_file` and `tensors_file`; the layer's parameters are the tensors `prefix` + name
// (Tutel's names: "gates.0.wg.weight", "experts.batched_fc1_w", ...), the selection bias
// `prefix` + "selection_bias" when the config balances with a bias. InputError naming the file and
// every missing or misshapen tensor.
ReplayLayer load_replay_layer(const std::string& config_file, const std::string& tensors_file,
                              const std::string& prefix);

// "[2, 3]"
std::string shape_text(at::IntArrayRef shape);

}  // namespace moe::replay
