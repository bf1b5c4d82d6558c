// What a local run (LocalRun: moe-train on this machine) cannot do, as config problems beside the
// validator's, so the editor shows them inline and the Run action stays off until they are fixed.
#pragma once

#include <vector>

#include "protocol/config_error.h"
#include "protocol/run_config.h"

namespace moe::ui {

// parallel.nodes > 1: the ranks of other machines need a cluster target (ssh, Slurm).
std::vector<protocol::ConfigProblem> localTargetProblems(const protocol::RunConfig& config);

}  // namespace moe::ui
