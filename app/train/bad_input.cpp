#include "bad_input.h"

#include "protocol/config_overrides.h"
#include "protocol/config_validation.h"

namespace moe::train {

protocol::RunConfig load_valid_config(const std::string& path,
                                      const std::vector<std::string>& overrides) {
  std::string message;
  try {
    auto json = protocol::read_config_json_file(path);
    for (const auto& assignment : overrides) protocol::apply_override(json, assignment);
    protocol::RunConfig config;
    auto problems = protocol::check(json, &config);
    if (problems.empty()) return config;
    for (const auto& p : problems) message += path + ": " + protocol::format_problem(p) + "\n";
  } catch (const protocol::ConfigError& e) {
    message = e.what();
  }
  if (!message.empty() && message.back() == '\n') message.pop_back();
  throw BadInput(message);
}

}  // namespace moe::train
