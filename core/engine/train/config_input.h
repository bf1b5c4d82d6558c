#pragma once
// Configs as moe-train's commands load them: every problem at once, each naming the file.
#include <string>
#include <vector>

#include "protocol/run_config.h"
#include "train/input_error.h"

namespace moe::train {

// Every problem as `<file>: <pointer>: <message>`, one per line.
std::string problems_message(const std::string& file,
                             const std::vector<protocol::ConfigProblem>& problems);

// Loads FILE, applies `key.path=value` overrides and validates; InputError lists every problem,
// one per line, each prefixed with the file name.
protocol::RunConfig load_valid_config(const std::string& path,
                                      const std::vector<std::string>& overrides = {});

}  // namespace moe::train
