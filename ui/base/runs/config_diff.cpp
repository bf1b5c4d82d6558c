// Config flattening and comparison (config_diff.h).
#include "base/runs/config_diff.h"

#include <set>

namespace moe::ui {

namespace {

void flattenInto(const nlohmann::json& node, const std::string& prefix,
                 std::map<std::string, nlohmann::json>* out) {
  if (!node.is_object() || (node.empty() && !prefix.empty())) {
    (*out)[prefix] = node;
    return;
  }
  for (const auto& [key, value] : node.items()) {
    flattenInto(value, prefix.empty() ? key : prefix + "." + key, out);
  }
}

}  // namespace

std::map<std::string, nlohmann::json> flattenConfig(const nlohmann::json& config) {
  std::map<std::string, nlohmann::json> out;
  if (config.is_object()) flattenInto(config, "", &out);
  return out;
}

QString configValueText(const nlohmann::json& value) {
  if (value.is_string()) return QString::fromStdString(value.get<std::string>());
  return QString::fromStdString(
      value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

ConfigDiff diffConfigs(const std::vector<nlohmann::json>& configs) {
  std::vector<std::map<std::string, nlohmann::json>> flat;
  std::set<std::string> keys;
  for (const auto& config : configs) {
    flat.push_back(flattenConfig(config));
    for (const auto& entry : flat.back()) keys.insert(entry.first);
  }
  ConfigDiff diff;
  for (const std::string& key : keys) {
    ConfigDiffRow row;
    row.key = key;
    const nlohmann::json* first = nullptr;
    bool first_seen = false;
    for (const auto& config : flat) {
      const auto it = config.find(key);
      const nlohmann::json* value = it == config.end() ? nullptr : &it->second;
      row.values.push_back(value ? configValueText(*value) : kAbsentValue);
      if (!first_seen) {
        first = value;
        first_seen = true;
      } else if ((first == nullptr) != (value == nullptr) || (value && *first != *value)) {
        row.differs = true;
      }
    }
    if (row.differs) ++diff.differing;
    diff.rows.push_back(std::move(row));
  }
  return diff;
}

}  // namespace moe::ui
