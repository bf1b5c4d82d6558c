#include "protocol/config_error.h"

#include <utility>

namespace moe::protocol {
namespace {

std::string join_problems(const std::vector<ConfigProblem>& problems, const std::string& file) {
  std::string out;
  for (const ConfigProblem& p : problems) {
    if (!out.empty()) out += '\n';
    if (!file.empty()) out += file + ": ";
    out += format_problem(p);
  }
  if (out.empty()) out = file.empty() ? "invalid config" : file + ": invalid config";
  return out;
}

}  // namespace

std::string format_problem(const ConfigProblem& problem) {
  if (problem.pointer.empty()) return problem.message;
  return problem.pointer + ": " + problem.message;
}

ConfigError::ConfigError(std::vector<ConfigProblem> problems, std::string file)
    : std::runtime_error(join_problems(problems, file)),
      problems_(std::move(problems)),
      file_(std::move(file)) {}

ConfigError::ConfigError(std::vector<ConfigProblem> problems, std::string file,
                         const std::string& what)
    : std::runtime_error(what), problems_(std::move(problems)), file_(std::move(file)) {}

std::string escape_pointer_token(const std::string& key) {
  std::string out;
  out.reserve(key.size());
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace moe::protocol
