// What a safetensors file holds for `moe-train replay` (docs/ROUTING.md, "Parameter names"): its
// MoE layers, each found by its gate's weight under some prefix ("" for a capture,
// "blocks.3.moe." in a model's checkpoint), with the sizes its parameters give; and the layer
// input, `input` [N, M]. From these the What-if view writes the config replay needs when the file
// comes with none, or checks the one it comes with.
#pragma once

#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/whatif/safetensors_header.h"

namespace moe::ui {

struct RoutingLayerShape {
  std::string prefix;        // before each parameter name
  std::string gate = "top";  // "top" (gates.0.wg.weight) or "cosine" (gates.0.sim_matrix)
  int64_t experts = 0, dim = 0, hidden = 0;
  int64_t cosine_proj_dim = 0;              // cosine gate only
  bool fc1_bias = false, fc2_bias = false;  // glu: the gate/up biases, the down bias
  std::string expert_ffn = "mlp";           // "mlp" (batched_fc1_w, fc2) or "glu" (gate, up, down)
  bool gate_bias = false;                   // the router's bias (gates.0.wg.bias)
};

struct RoutingTensors {
  std::vector<RoutingLayerShape> layers;  // by prefix
  std::vector<int64_t> input_shape;       // empty: the file has no `input`
  std::string input_dtype;
  int64_t tokens = 0;  // rows of `input`: the product of its sizes but the last

  const RoutingLayerShape* layer(const std::string& prefix) const;
};

// The layers of `header` (the file `file`, for messages). nullopt with *error when no layer is
// complete: a gate without its experts' weights, or shapes that do not agree, are named.
std::optional<RoutingTensors> findRoutingLayers(const SafetensorsHeader& header,
                                                const QString& file, QString* error);

// The problem, if any, with routing `layer`'s tokens: no `input`, an `input` whose last size is not
// the layer's dim, or one of a dtype replay does not take.
QString inputProblem(const RoutingTensors& tensors, const RoutingLayerShape& layer,
                     const QString& file);

// The RunConfig JSON `moe-train replay` gets for `layer`: model.dim and a moe section, the keys of
// `moe` (a run's config; empty: the defaults) with the sizes the tensors fix in place of its own.
nlohmann::json replayConfig(const RoutingLayerShape& layer, const nlohmann::json& moe);

// Whether `config` (a run's config.json; a missing key is the engine's default) describes `layer`:
// same dim, experts, hidden size, gate and biases. Otherwise *why says the first difference.
bool configMatches(const RoutingLayerShape& layer, const nlohmann::json& config, QString* why);

}  // namespace moe::ui
