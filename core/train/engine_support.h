#pragma once
// What this engine build can run, beyond what validate() checks (which does not know the machine:
// the GUI validates configs for remote GPUs too). Problems use the `<pointer>: <message>` form.
#include <string>
#include <vector>

#include "protocol/config_error.h"
#include "protocol/run_config.h"

namespace moe::train {

// Empty when this process can run `config` here.
std::vector<protocol::ConfigProblem> unsupported_here(const protocol::RunConfig& config);

// "cpu" or "cuda" for train.device "auto".
std::string resolved_device(const protocol::RunConfig& config);

// The intra-op threads train.threads asks for (0 = every core).
int resolved_threads(const protocol::RunConfig& config);

}  // namespace moe::train
