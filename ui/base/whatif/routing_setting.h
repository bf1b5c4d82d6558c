// The routing knobs the What-if view turns (docs/ROUTING.md): capacity factor, top-k,
// batch-prioritized routing, gate noise (with the seed of its draw) and normalize_gate, and their
// form in a `moe-train replay --serve` request (docs/PROTOCOL.md, "moe-train replay").
#pragma once

#include <QMetaType>

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace moe::ui {

struct RoutingSetting {
  double capacity_factor = 1.0;  // > 0 fixed, 0 dropless, < 0 dropless up to a cap
  int64_t top_k = 2;
  bool batch_prioritized_routing = false;
  double gate_noise = 0.0;
  bool normalize_gate = true;
  int64_t seed = 1;  // the draw of the gate noise

  bool operator==(const RoutingSetting& o) const {
    return capacity_factor == o.capacity_factor && top_k == o.top_k &&
           batch_prioritized_routing == o.batch_prioritized_routing && gate_noise == o.gate_noise &&
           normalize_gate == o.normalize_gate && seed == o.seed;
  }
  bool operator!=(const RoutingSetting& o) const { return !(*this == o); }
};

// The setting of a config's `moe` section; a key it lacks (or of the wrong type) keeps the
// engine's default.
RoutingSetting routingSettingFrom(const nlohmann::json& moe);

// The moe keys of `s`, as a config's `moe` section holds them.
nlohmann::json moeKeys(const RoutingSetting& s);

// One request line, newline included:
// {"id":7,"moe":{"capacity_factor":1.25,...},"seed":1}
std::string replayRequestLine(int64_t id, const RoutingSetting& s);

}  // namespace moe::ui

Q_DECLARE_METATYPE(moe::ui::RoutingSetting)
