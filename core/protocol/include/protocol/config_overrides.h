// `--set key.path=value` overrides (docs/PROTOCOL.md, "moe-train commands"), applied to a config's
// JSON before parsing, so the result goes through the same parse and validation as a file.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "protocol/config_error.h"

namespace moe::protocol {

// A bad assignment. what() is "<key.path>: <message>" with the key as the user typed it, e.g.
// `moe.top_k: expected an integer, got "abc"`; problems() holds the same message at the JSON
// pointer ("/moe/top_k").
class OverrideError : public ConfigError {
 public:
  OverrideError(std::string key, std::string message);
  const std::string& key() const { return key_; }

 private:
  std::string key_;
};

// Applies "key.path=value" to `config_json` (a config object; null counts as an empty one).
// The key must name a value of RunConfig (not a section); value is read as that key's type:
// integers and numbers as JSON numbers (8, 8.0, 3e-4; integers must be integral), booleans as
// true/false, strings verbatim (everything after the first '=', so `name=a=b` sets "a=b"); a key
// that takes "auto" (parallel.adaptive_r) takes `auto` or an integer >= 0.
// Missing sections are created. Throws OverrideError; `config_json` is unchanged on error.
void apply_override(nlohmann::json& config_json, const std::string& assignment);

// Applies each in order; stops at the first error (OverrideError).
void apply_overrides(nlohmann::json& config_json, const std::vector<std::string>& assignments);

}  // namespace moe::protocol
