#include "base/whatif/routing_setting.h"

#include <type_traits>

#include "protocol/replay_lines.h"
#include "protocol/run_config.h"

namespace moe::ui {

namespace {

template <class T>
void take(const nlohmann::json& moe, const char* key, T* value) {
  auto it = moe.find(key);
  if (it == moe.end()) return;
  if constexpr (std::is_same_v<T, bool>) {
    if (it->is_boolean()) *value = it->get<bool>();
  } else if constexpr (std::is_integral_v<T>) {
    if (it->is_number_integer()) *value = it->get<T>();
  } else {
    if (it->is_number()) *value = it->get<T>();
  }
}

}  // namespace

RoutingSetting routingSettingFrom(const nlohmann::json& moe) {
  const protocol::MoeConfig defaults;
  RoutingSetting s;
  s.capacity_factor = defaults.capacity_factor;
  s.top_k = defaults.top_k;
  s.batch_prioritized_routing = defaults.batch_prioritized_routing;
  s.gate_noise = defaults.gate_noise;
  s.normalize_gate = defaults.normalize_gate;
  if (!moe.is_object()) return s;
  take(moe, "capacity_factor", &s.capacity_factor);
  take(moe, "top_k", &s.top_k);
  take(moe, "batch_prioritized_routing", &s.batch_prioritized_routing);
  take(moe, "gate_noise", &s.gate_noise);
  take(moe, "normalize_gate", &s.normalize_gate);
  return s;
}

nlohmann::json moeKeys(const RoutingSetting& s) {
  return {{"capacity_factor", s.capacity_factor},
          {"top_k", s.top_k},
          {"batch_prioritized_routing", s.batch_prioritized_routing},
          {"gate_noise", s.gate_noise},
          {"normalize_gate", s.normalize_gate}};
}

std::string replayRequestLine(int64_t id, const RoutingSetting& s) {
  return protocol::replay_request_line({id, moeKeys(s), s.seed}) + "\n";
}

}  // namespace moe::ui
