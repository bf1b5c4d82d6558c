#pragma once
// Errors in what the user gave us (arguments, configs, files): moe-train exits with status 2.
#include <stdexcept>
#include <string>
#include <vector>

#include "protocol/run_config.h"

namespace moe::train {

constexpr int kExitOk = 0;
constexpr int kExitRuntimeFailure = 1;
constexpr int kExitBadInput = 2;

struct BadInput : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Every problem as `<file>: <pointer>: <message>`, one per line.
std::string problems_message(const std::string& file,
                             const std::vector<protocol::ConfigProblem>& problems);

// Loads FILE, applies `key.path=value` overrides and validates; BadInput lists every problem,
// one per line, each prefixed with the file name.
protocol::RunConfig load_valid_config(const std::string& path,
                                      const std::vector<std::string>& overrides = {});

}  // namespace moe::train
