// Problems found in a RunConfig and the exception that carries them (docs/PROTOCOL.md,
// "RunConfig").
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace moe::protocol {

// One problem, located by an RFC 6901 JSON pointer into the config ("" = the whole document).
struct ConfigProblem {
  std::string pointer;
  std::string message;
};

// "<pointer>: <message>", or just the message when the pointer is "" (the root, or the file as a
// whole): ": message" would read like a typo.
std::string format_problem(const ConfigProblem& problem);

// Thrown by the parsing/loading functions. Carries every problem found, not just the first, so a
// user can fix a file in one go. what() is one formatted problem per line, each prefixed with
// "<file>: " when the problems come from a file.
class ConfigError : public std::runtime_error {
 public:
  explicit ConfigError(std::vector<ConfigProblem> problems, std::string file = "");

  const std::vector<ConfigProblem>& problems() const { return problems_; }
  // The file the problems come from, "" when the config did not come from a file.
  const std::string& file() const { return file_; }

 protected:
  ConfigError(std::vector<ConfigProblem> problems, std::string file, const std::string& what);

 private:
  std::vector<ConfigProblem> problems_;
  std::string file_;
};

// Escapes one object key for use inside a JSON pointer ("~" -> "~0", "/" -> "~1").
std::string escape_pointer_token(const std::string& key);

}  // namespace moe::protocol
