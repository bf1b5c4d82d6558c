// The shared expert of a run's decoder (moe.shared_hidden > 0: Qwen2-MoE's, DeepSeek's), read
// from its resolved config: every token goes through it, so it is no routed expert and the load
// views show it apart from the routed experts' bars (docs/MODELS.md, "The decoder").
#pragma once

#include <QString>

#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

namespace moe::ui {

struct SharedExpert {
  int64_t hidden = 0;  // moe.shared_hidden: its MLP's width
  bool gated = false;  // moe.shared_gate: scaled by sigmoid(x · w) (Qwen2-MoE)
};

// The shared expert the config (run_start's, the full resolved RunConfig) describes; nullopt
// when it has none, or the keys are missing or ill-typed.
std::optional<SharedExpert> sharedExpertOf(const nlohmann::json& config);

// One line for the load page: "Shared expert (width 1408, gated): every token, 4096 tokens/step
// — not routed, not in the bars". `tokens_per_step` NaN or <= 0: not known yet, left out.
QString sharedExpertText(const SharedExpert& shared, double tokens_per_step);

}  // namespace moe::ui
