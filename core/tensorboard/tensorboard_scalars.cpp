#include "tensorboard/tensorboard_scalars.h"

#include <limits>

namespace moe::tensorboard {

namespace {

void add(TensorBoardScalars& s, const nlohmann::json& event, const char* field, std::string tag) {
  auto it = event.find(field);
  if (it == event.end()) return;
  if (it->is_null()) {
    s.values.emplace_back(std::move(tag), std::numeric_limits<float>::quiet_NaN());
  } else if (it->is_number()) {
    s.values.emplace_back(std::move(tag), static_cast<float>(it->get<double>()));
  }
}

}  // namespace

std::optional<TensorBoardScalars> tensorboard_scalars(const nlohmann::json& event) {
  if (!event.is_object()) return std::nullopt;
  const auto type = event.find("type");
  const auto step = event.find("step");
  if (type == event.end() || !type->is_string() || step == event.end() ||
      !step->is_number_integer()) {
    return std::nullopt;
  }
  TensorBoardScalars s;
  s.step = step->get<int64_t>();
  const std::string& kind = type->get_ref<const std::string&>();
  if (kind == "step") {
    for (const char* f : {"loss", "task_loss", "aux_loss", "z_loss", "lr", "grad_norm"}) {
      add(s, event, f, std::string("train/") + f);
    }
    for (const char* f : {"tokens_per_s", "step_ms", "tflops"}) {
      add(s, event, f, std::string("speed/") + f);
    }
  } else if (kind == "eval") {
    add(s, event, "loss", "eval/loss");
    add(s, event, "accuracy", "eval/accuracy");
  } else if (kind == "expert_load") {
    const auto layer = event.find("layer");
    if (layer == event.end() || !layer->is_number_integer()) return std::nullopt;
    const std::string prefix = "balance/layer" + std::to_string(layer->get<int64_t>()) + "/";
    for (const char* f : {"dropped_frac", "cv", "max_over_mean", "load_entropy", "router_entropy",
                          "dead_experts", "l_aux"}) {
      add(s, event, f, prefix + f);
    }
  } else if (kind == "phases") {
    const auto ms = event.find("ms");
    if (ms == event.end() || !ms->is_object()) return std::nullopt;
    for (const auto& item : ms->items()) {
      add(s, *ms, item.key().c_str(), "phases/" + item.key() + "_ms");
    }
  } else {
    return std::nullopt;
  }
  if (s.values.empty()) return std::nullopt;
  return s;
}

}  // namespace moe::tensorboard
