// Comparing RunConfigs side by side: each config flattened to dotted keys ("moe.top_k"), then one
// row per key with every config's value. Plain C++ apart from QString values for the view.
#pragma once

#include <QString>

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace moe::ui {

// Leaves of a JSON object by dotted path. Arrays are leaves (one value, e.g. a list of layers
// compares as a whole); so are empty objects. A non-object config flattens to nothing.
std::map<std::string, nlohmann::json> flattenConfig(const nlohmann::json& config);

// How a leaf reads in the table: strings without quotes, everything else as compact JSON.
QString configValueText(const nlohmann::json& value);

inline const QString kAbsentValue = QStringLiteral("\u2014");  // an em dash: the key is absent

struct ConfigDiffRow {
  std::string key;
  std::vector<QString> values;  // one per config; kAbsentValue where the config lacks the key
  bool differs = false;         // not every config has the same value (absent counts as a value)
};

struct ConfigDiff {
  std::vector<ConfigDiffRow> rows;  // every key of any config, sorted
  int differing = 0;                // rows with differs

  int total() const { return static_cast<int>(rows.size()); }
};

// Values compare as JSON (1 equals 1.0).
ConfigDiff diffConfigs(const std::vector<nlohmann::json>& configs);

}  // namespace moe::ui
