// Every RunConfig key as the form shows it: where it lives (JSON pointer, group), its type, a
// label, a tooltip, allowed values and a spin box range. Built by walking protocol's visit_config,
// so a key added to RunConfig gets an editor without any change here (with a generic label and
// tooltip until it is described in config_field_catalog.cpp). No Qt: plain data, easy to test.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace moe::ui {

enum class FieldType { kInteger, kNumber, kBoolean, kString };

struct ConfigField {
  std::string pointer;     // "/moe/bias_balancing/rate"
  std::string section;     // first path component, "" for top-level keys ("moe")
  std::string subsection;  // a nested object inside the section, else "" ("bias_balancing")
  std::string key;         // the last path component ("rate")
  FieldType type = FieldType::kString;
  std::string label;                 // "Rate"
  std::string help;                  // tooltip text
  std::vector<std::string> choices;  // allowed values of an enum-valued string, else empty
  int64_t min = 0, max = 0;          // integer spin box range (validation may be stricter)
  bool read_only = false;            // shown, but the form does not edit it (schema)
  bool is_path = false;              // a file or folder on this machine: offer a browse button
  bool takes_auto = false;           // an integer >= 0 or "auto" (config_fields.h, int_or_auto)
};

// Every field, in documented key order. Computed once.
const std::vector<ConfigField>& configFields();

// The field at `pointer`, or null.
const ConfigField* findConfigField(const std::string& pointer);

// The group heading for a section key ("moe" -> "MoE", "" -> "Experiment").
std::string sectionTitle(const std::string& section);

// "/moe/top_k" -> "moe.top_k", the spelling of `--set` and of messages.
std::string dottedKey(const std::string& pointer);

}  // namespace moe::ui
