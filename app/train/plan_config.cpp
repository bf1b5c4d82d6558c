#include "plan_config.h"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "plan/shipped_configs.h"
#include "protocol/config_error.h"
#include "protocol/config_overrides.h"
#include "protocol/config_validation.h"
#include "train/config_input.h"

namespace moe::train {
namespace {

// A shipped config's JSON with the overrides, validated as a file would be; problems are
// prefixed with the name.
protocol::RunConfig valid_shipped_config(const std::string& name, const std::string& text,
                                         const std::vector<std::string>& overrides) {
  std::string message;
  try {
    auto json = nlohmann::json::parse(text);
    protocol::apply_overrides(json, overrides);
    protocol::RunConfig config;
    const auto problems = protocol::check(json, &config);
    if (problems.empty()) return config;
    message = problems_message(name + " (shipped)", problems);
  } catch (const protocol::ConfigError& e) {
    message = name + " (shipped): " + e.what();
  }
  throw InputError(message);
}

}  // namespace

protocol::RunConfig load_plan_config(const std::string& file_or_name,
                                     const std::vector<std::string>& overrides) {
  std::error_code error;
  if (std::filesystem::exists(file_or_name, error))
    return load_valid_config(file_or_name, overrides);
  if (const std::string* text = plan::shipped_config_text(file_or_name)) {
    return valid_shipped_config(file_or_name, *text, overrides);
  }
  throw InputError(
      "--config: \"" + file_or_name +
      "\" is neither a file nor a shipped config; shipped configs: " + plan::shipped_config_list());
}

}  // namespace moe::train
