#include "base/whatif/routing_tensors.h"

#include <QStringList>

#include "protocol/run_config.h"

namespace moe::ui {

namespace {

constexpr std::string_view kTopGate = "gates.0.wg.weight";
constexpr std::string_view kCosineGate = "gates.0.sim_matrix";

bool endsWith(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

bool shapeIs(const TensorEntry* t, const std::vector<int64_t>& shape) {
  return t && t->shape == shape;
}

// The layer whose gate is `gate_name`; an empty string when it is complete, else what is wrong.
QString readLayer(const SafetensorsHeader& h, const std::string& prefix, bool cosine,
                  RoutingLayerShape* out) {
  out->prefix = prefix;
  const auto name = [&](std::string_view n) { return prefix + std::string(n); };
  const auto q = [](const std::string& n) { return "'" + QString::fromStdString(n) + "'"; };
  // Plain experts (fc1, fc2) or gated ones (gate, up, down: moe.expert_ffn "glu"), [E, H, M] each.
  const bool glu = h.find(name("experts.batched_gate_w")) != nullptr;
  out->expert_ffn = glu ? "glu" : "mlp";
  const std::string first = glu ? "experts.batched_gate_w" : "experts.batched_fc1_w";
  const TensorEntry* fc1 = h.find(name(first));
  if (!fc1) return QStringLiteral("no tensor %1").arg(q(name(first)));
  if (fc1->shape.size() != 3) {
    return QStringLiteral("%1 has shape %2, expected [E, H, M]")
        .arg(q(name(first)), shapeText(fc1->shape));
  }
  out->experts = fc1->shape[0];
  out->hidden = fc1->shape[1];
  out->dim = fc1->shape[2];
  const int64_t E = out->experts, H = out->hidden, M = out->dim;
  const std::vector<std::string> others =
      glu ? std::vector<std::string>{"experts.batched_up_w", "experts.batched_down_w"}
          : std::vector<std::string>{"experts.batched_fc2_w"};
  for (const auto& other : others) {
    const TensorEntry* t = h.find(name(other));
    if (!shapeIs(t, {E, H, M})) {
      return QStringLiteral("%1 %2, expected %3 as %4")
          .arg(q(name(other)),
               t ? "has shape " + shapeText(t->shape) : QStringLiteral("is missing"),
               shapeText({E, H, M}), q(name(first)));
    }
  }
  if (!cosine) {
    out->gate = "top";
    const TensorEntry* wg = h.find(name(kTopGate));
    if (!shapeIs(wg, {E, M})) {
      return QStringLiteral("%1 has shape %2, expected %3 (experts x dim of the experts)")
          .arg(q(name(kTopGate)), shapeText(wg->shape), shapeText({E, M}));
    }
  } else {
    out->gate = "cosine";
    const TensorEntry* sim = h.find(name(kCosineGate));
    const TensorEntry* proj = h.find(name("gates.0.cosine_projector.weight"));
    if (sim->shape.size() != 2 || sim->shape[1] != E) {
      return QStringLiteral("%1 has shape %2, expected [D, %3]")
          .arg(q(name(kCosineGate)), shapeText(sim->shape))
          .arg(E);
    }
    out->cosine_proj_dim = sim->shape[0];
    if (!shapeIs(proj, {out->cosine_proj_dim, M})) {
      return QStringLiteral("%1 is missing or not %2")
          .arg(q(name("gates.0.cosine_projector.weight")), shapeText({out->cosine_proj_dim, M}));
    }
  }
  const auto has = [&](std::string_view n) { return h.find(name(n)) != nullptr; };
  out->fc1_bias = has(glu ? "experts.batched_gate_bias" : "experts.batched_fc1_bias");
  out->fc2_bias = has(glu ? "experts.batched_down_bias" : "experts.batched_fc2_bias");
  out->gate_bias = !cosine && has("gates.0.wg.bias");
  return {};
}

}  // namespace

const RoutingLayerShape* RoutingTensors::layer(const std::string& prefix) const {
  for (const RoutingLayerShape& l : layers)
    if (l.prefix == prefix) return &l;
  return nullptr;
}

std::optional<RoutingTensors> findRoutingLayers(const SafetensorsHeader& header,
                                                const QString& file, QString* error) {
  RoutingTensors out;
  QStringList problems;
  for (const auto& [name, entry] : header.tensors) {
    const bool top = endsWith(name, kTopGate);
    if (!top && !endsWith(name, kCosineGate)) continue;
    const std::string prefix = name.substr(0, name.size() - (top ? kTopGate : kCosineGate).size());
    RoutingLayerShape layer;
    const QString problem = readLayer(header, prefix, !top, &layer);
    if (problem.isEmpty()) {
      out.layers.push_back(layer);
    } else {
      problems << problem;
    }
  }
  if (const TensorEntry* input = header.find("input")) {
    out.input_shape = input->shape;
    out.input_dtype = input->dtype;
    out.tokens = input->shape.empty() ? 0 : 1;
    for (size_t i = 0; i + 1 < input->shape.size(); ++i) out.tokens *= input->shape[i];
  }
  if (out.layers.empty()) {
    if (error) {
      *error = problems.isEmpty()
                   ? file + QStringLiteral(
                                ": no MoE layer in it (no tensor named "
                                "'gates.0.wg.weight' or 'gates.0.sim_matrix', with or "
                                "without a prefix)")
                   : file + ": " + problems.join("; ");
    }
    return std::nullopt;
  }
  return out;
}

QString inputProblem(const RoutingTensors& tensors, const RoutingLayerShape& layer,
                     const QString& file) {
  if (tensors.input_shape.empty()) {
    return QStringLiteral("%1: no tensor 'input' (the layer's input activations, [N, %2]) to route")
        .arg(file)
        .arg(layer.dim);
  }
  if (tensors.input_shape.size() < 2 || tensors.input_shape.back() != layer.dim) {
    return QStringLiteral("%1: tensor 'input' has shape %2, expected [N, %3] (the layer's dim)")
        .arg(file, shapeText(tensors.input_shape))
        .arg(layer.dim);
  }
  if (tensors.input_dtype != "F32" && tensors.input_dtype != "F64" &&
      tensors.input_dtype != "BF16") {
    return QStringLiteral("%1: tensor 'input' is %2; replay takes F32, F64 or BF16")
        .arg(file, QString::fromStdString(tensors.input_dtype));
  }
  return {};
}

nlohmann::json replayConfig(const RoutingLayerShape& layer, const nlohmann::json& moe) {
  nlohmann::json section = moe.is_object() ? moe : nlohmann::json::object();
  section["experts"] = layer.experts;
  section["hidden"] = layer.hidden;
  section["gate"] = layer.gate;
  section["fc1_bias"] = layer.fc1_bias;
  section["fc2_bias"] = layer.fc2_bias;
  section["expert_ffn"] = layer.expert_ffn;
  section["gate_bias"] = layer.gate_bias;
  if (layer.gate == "cosine") section["cosine_proj_dim"] = layer.cosine_proj_dim;
  // The default top-2 does not fit a one-expert layer; a run's own top_k is left as it was.
  if (!moe.contains("top_k") && layer.experts < 2) section["top_k"] = 1;
  return {{"model", {{"dim", layer.dim}}}, {"moe", section}};
}

bool configMatches(const RoutingLayerShape& layer, const nlohmann::json& config, QString* why) {
  // Missing keys take the engine's defaults, as the engine reads the file.
  const protocol::RunConfig c = protocol::parse_config(config, nullptr);
  auto differs = [&](const char* key, const QString& theirs) {
    if (why) *why = QStringLiteral("%1 is not the tensors' %2").arg(key, theirs);
    return false;
  };
  const QString yes = QStringLiteral("true"), no = QStringLiteral("false");
  if (c.model.dim != layer.dim) return differs("model.dim", QString::number(layer.dim));
  if (c.moe.experts != layer.experts) return differs("moe.experts", QString::number(layer.experts));
  if (c.moe.hidden != layer.hidden) return differs("moe.hidden", QString::number(layer.hidden));
  if (protocol::enum_name(c.moe.gate) != layer.gate)
    return differs("moe.gate", QString::fromStdString(layer.gate));
  if (c.moe.fc1_bias != layer.fc1_bias) return differs("moe.fc1_bias", layer.fc1_bias ? yes : no);
  if (c.moe.fc2_bias != layer.fc2_bias) return differs("moe.fc2_bias", layer.fc2_bias ? yes : no);
  if (protocol::enum_name(c.moe.expert_ffn) != layer.expert_ffn)
    return differs("moe.expert_ffn", QString::fromStdString(layer.expert_ffn));
  if (c.moe.gate_bias != layer.gate_bias)
    return differs("moe.gate_bias", layer.gate_bias ? yes : no);
  return true;
}

}  // namespace moe::ui
