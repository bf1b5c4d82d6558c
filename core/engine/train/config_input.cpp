#include "train/config_input.h"

#include "protocol/config_overrides.h"
#include "protocol/config_validation.h"

namespace moe::train {

std::string problems_message(const std::string& file,
                             const std::vector<protocol::ConfigProblem>& problems) {
  std::string message;
  for (const auto& p : problems) message += file + ": " + protocol::format_problem(p) + "\n";
  if (!message.empty()) message.pop_back();
  return message;
}

protocol::RunConfig load_valid_config(const std::string& path,
                                      const std::vector<std::string>& overrides) {
  std::string message;
  try {
    auto json = protocol::read_config_json_file(path);
    for (const auto& assignment : overrides) protocol::apply_override(json, assignment);
    protocol::RunConfig config;
    auto problems = protocol::check(json, &config);
    if (problems.empty()) return config;
    message = problems_message(path, problems);
  } catch (const protocol::ConfigError& e) {
    message = e.what();
  }
  throw InputError(message);
}

}  // namespace moe::train
