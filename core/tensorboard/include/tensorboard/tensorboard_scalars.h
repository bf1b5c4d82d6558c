#pragma once
// Which telemetry events become TensorBoard scalars, and under which tags (docs/PROTOCOL.md, "The
// run directory"). Built from the event as written to metrics.jsonl, so the two always agree.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace moe::tensorboard {

struct TensorBoardScalars {
  int64_t step = 0;
  std::vector<std::pair<std::string, float>> values;  // tag -> value
};

// The scalars of one telemetry event: `step` (train/..., speed/...), `eval` (eval/...),
// `expert_load` (balance/layer<i>/...) and `phases` (phases/<name>_ms); nullopt for other
// events. A field that is null (NaN in metrics.jsonl) gives NaN; an absent optional field, none.
std::optional<TensorBoardScalars> tensorboard_scalars(const nlohmann::json& event);

}  // namespace moe::tensorboard
