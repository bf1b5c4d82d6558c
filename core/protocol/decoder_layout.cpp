#include "protocol/decoder_layout.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace moe::protocol {

std::vector<int64_t> parse_layer_list(const std::string& text) {
  std::vector<int64_t> layers;
  size_t i = 0;
  while (i < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (std::isspace(c) || c == ',') {
      ++i;
      continue;
    }
    if (!std::isdigit(c)) {
      throw std::invalid_argument("expected layer indices such as \"0, 3\", found '" +
                                  std::string(1, text[i]) + "' at character " +
                                  std::to_string(i + 1));
    }
    int64_t value = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      value = value * 10 + (text[i] - '0');
      if (value > (int64_t{1} << 30)) throw std::invalid_argument("layer index too large");
      ++i;
    }
    if (std::find(layers.begin(), layers.end(), value) != layers.end()) {
      throw std::invalid_argument("layer " + std::to_string(value) + " is listed twice");
    }
    layers.push_back(value);
  }
  std::sort(layers.begin(), layers.end());
  return layers;
}

std::string format_layer_list(const std::vector<int64_t>& layers) {
  std::string out;
  for (int64_t layer : layers) out += (out.empty() ? "" : ", ") + std::to_string(layer);
  return out;
}

std::vector<bool> moe_layer_mask(const RunConfig& config) {
  const int64_t n = std::max<int64_t>(config.model.layers, 0);
  std::vector<bool> mask(static_cast<size_t>(n), true);
  if (config.model.kind == ModelKind::Decoder) {
    std::vector<int64_t> dense;
    try {
      dense = parse_layer_list(config.model.dense_layers);
    } catch (const std::invalid_argument&) {
    }
    for (int64_t layer : dense) {
      if (layer < n) mask[static_cast<size_t>(layer)] = false;
    }
  } else {
    const int64_t every = std::max<int64_t>(config.moe.every, 1);
    for (int64_t i = 0; i < n; ++i) mask[static_cast<size_t>(i)] = i % every == 0;
  }
  return mask;
}

int64_t attention_head_dim(const ModelConfig& model) {
  if (model.attention == AttentionKind::Mla) return model.qk_nope_dim + model.qk_rope_dim;
  if (model.head_dim > 0) return model.head_dim;
  return model.heads > 0 ? model.dim / model.heads : model.dim;
}

std::vector<bool> sliding_layer_mask(const ModelConfig& model) {
  const size_t layers = static_cast<size_t>(std::max<int64_t>(model.layers, 0));
  if (model.sliding_window <= 0) return std::vector<bool>(layers, false);
  if (model.sliding_layers.empty()) return std::vector<bool>(layers, true);
  std::vector<bool> mask(layers, false);
  try {
    for (int64_t layer : parse_layer_list(model.sliding_layers)) {
      if (layer < model.layers) mask[static_cast<size_t>(layer)] = true;
    }
  } catch (const std::invalid_argument&) {
  }
  return mask;
}

int64_t rotary_dim(const ModelConfig& model) {
  return model.attention == AttentionKind::Mla ? model.qk_rope_dim : attention_head_dim(model);
}

int64_t value_head_dim(const ModelConfig& model) {
  return model.attention == AttentionKind::Mla ? model.v_head_dim : attention_head_dim(model);
}

int64_t attention_kv_heads(const ModelConfig& model) {
  return model.kv_heads > 0 ? model.kv_heads : model.heads;
}

int64_t dense_mlp_hidden(const RunConfig& config) {
  return config.model.dense_hidden > 0 ? config.model.dense_hidden : config.moe.hidden;
}

}  // namespace moe::protocol
