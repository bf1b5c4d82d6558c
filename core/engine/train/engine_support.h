#pragma once
// What this engine build can run, beyond what validate() checks (which does not know the machine:
// the GUI validates configs for remote GPUs too). Problems use the `<pointer>: <message>` form.
#include <string>
#include <vector>

#include "protocol/config_error.h"
#include "protocol/run_config.h"

namespace moe::train {

// Empty when this process can run `config` here, as one of `world` ranks (the world it was started
// in, which may differ from the config's own when a run resumes on another number of ranks), of
// which `local_ranks` run on this machine (NCCL needs a GPU for each).
std::vector<protocol::ConfigProblem> unsupported_here(const protocol::RunConfig& config,
                                                      int64_t world, int64_t local_ranks = 1);

// train.device resolved: "auto" is "cuda" where CUDA can be used here (runtime/device.h), else
// "cpu".
std::string resolved_device(const protocol::RunConfig& config);

// The intra-op threads train.threads asks for (0 = this rank's share of the cores: cores / ranks on
// this machine, at least 1, so that ranks do not oversubscribe the cores).
int resolved_threads(const protocol::RunConfig& config, int64_t local_ranks);

}  // namespace moe::train
