// The decoder's derived shapes (docs/MODELS.md): which layers hold a MoE layer, the attention's
// head width and key/value heads. The engine, the planner and the validator read them from here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "protocol/run_config.h"

namespace moe::protocol {

// model.dense_layers ("0, 3": comma- or space-separated layer indices) as sorted indices.
// std::invalid_argument naming what is wrong (not a number, negative, repeated).
std::vector<int64_t> parse_layer_list(const std::string& text);
// The inverse: "0, 3" ("" for none).
std::string format_layer_list(const std::vector<int64_t>& layers);

// One flag per model.layers block: true where it holds a MoE layer (lm: every moe.every-th from
// block 0; decoder: all but model.dense_layers). An unparsable dense_layers counts as none.
std::vector<bool> moe_layer_mask(const RunConfig& config);

// One flag per model.layers block: true where attention slides over model.sliding_window
// positions (model.sliding_layers, or every layer when that is empty; none without a window).
std::vector<bool> sliding_layer_mask(const ModelConfig& model);

// Attention's per-head query/key width (model.head_dim, or dim / heads; mla: qk_nope_dim +
// qk_rope_dim) and key/value heads.
int64_t attention_head_dim(const ModelConfig& model);
// The channels of a head that rotary embeddings turn (mla: qk_rope_dim) and a value head's width.
int64_t rotary_dim(const ModelConfig& model);
int64_t value_head_dim(const ModelConfig& model);
int64_t attention_kv_heads(const ModelConfig& model);
// The dense MLP's width in a decoder's dense layers (model.dense_hidden, or moe.hidden).
int64_t dense_mlp_hidden(const RunConfig& config);

}  // namespace moe::protocol
