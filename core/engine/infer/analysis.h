#pragma once
// Routing analysis of a decoder over a corpus (`moe-train analyze`, docs/INFERENCE.md, "Routing
// analysis"): each MoE layer's routing of every token, as the layer's own router decides it, summed
// into expert load, balance metrics, the share each capacity factor would drop, the expert
// co-selection matrix and each expert's most frequent token ids.
#include <torch/torch.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/decoder_model.h"

namespace moe::infer {

struct AnalysisOptions {
  std::vector<double> capacity_factors{1.0, 1.25, 2.0};
  int64_t top_tokens = 10;  // token ids listed per expert
  // Called with each MoE layer's input (its index among the MoE layers) before it is counted:
  // analyze --capture keeps the first batch's (train/layer_capture.h).
  std::function<void(size_t index, layer::MoeLayerImpl& layer, const at::Tensor& input)> on_input;
};

// One MoE layer's figures, summed over the batches.
struct LayerAnalysis {
  int64_t layer = 0;  // the decoder block's index
  int64_t experts = 0, top_k = 0;
  int64_t tokens = 0;                // tokens routed
  std::vector<int64_t> load;         // [E] choices per expert (every one of the k, before capacity)
  std::vector<int64_t> dropped;      // per capacity factor: choices over the expert's capacity
  std::vector<int64_t> co_selected;  // [E * E] tokens choosing both i and j (i == j: load)
  std::vector<std::unordered_map<int64_t, int64_t>> token_counts;  // per expert: id -> choices
};

// Installs itself as the MoE layers' routing observer for its lifetime: every forward pass of
// `model` (eval, no grad) is then counted from the routing the layers compute, so group-limited
// and sigmoid routers, selection biases and top-k are the layer's own.
class RoutingAnalysis {
 public:
  RoutingAnalysis(model::DecoderModelImpl& model, AnalysisOptions options);
  ~RoutingAnalysis();
  RoutingAnalysis(const RoutingAnalysis&) = delete;
  RoutingAnalysis& operator=(const RoutingAnalysis&) = delete;

  // Runs token ids [B, T] through the model and counts their routing; B * T is one batch's N.
  void add_batch(const at::Tensor& tokens);

  const std::vector<LayerAnalysis>& layers() const { return layers_; }
  int64_t tokens() const { return tokens_; }
  const AnalysisOptions& options() const { return options_; }

  // The JSON report; `piece` gives a token id's text ("" when there is no tokenizer: no "text").
  nlohmann::json report(const std::function<std::string(int64_t)>& piece = {}) const;

 private:
  void count(LayerAnalysis& layer, const layer::Routing& routing);

  model::DecoderModelImpl& model_;
  AnalysisOptions options_;
  std::vector<LayerAnalysis> layers_;
  std::vector<layer::MoeLayerImpl*> moes_;
  at::Tensor batch_ids_;  // [N] the current batch's ids, on the host
  int64_t tokens_ = 0;
};

}  // namespace moe::infer
