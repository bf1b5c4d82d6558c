// The shipped model configs (compiled in from resources/plan-configs by embed_profiles.cmake).
#include "plan/shipped_configs.h"

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <utility>

namespace moe::plan {

const std::vector<std::pair<std::string, std::string>>& embedded_configs();  // plan_config_data.cpp

std::vector<std::string> shipped_config_names() {
  std::vector<std::string> names;
  for (const auto& [name, text] : embedded_configs()) names.push_back(name);
  return names;
}

std::string shipped_config_list() {
  std::string names;
  for (const auto& name : shipped_config_names()) names += (names.empty() ? "" : ", ") + name;
  return names;
}

const std::string* shipped_config_text(const std::string& name) {
  for (const auto& [n, text] : embedded_configs()) {
    if (n == name) return &text;
  }
  return nullptr;
}

protocol::RunConfig shipped_config(const std::string& name) {
  const std::string* text = shipped_config_text(name);
  if (!text) {
    throw std::invalid_argument("no shipped config \"" + name + "\": shipped ones are " +
                                shipped_config_list());
  }
  return protocol::config_from_json(nlohmann::json::parse(*text));
}

}  // namespace moe::plan
