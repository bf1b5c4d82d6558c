#pragma once
// The config `moe-train plan --config` plans: a RunConfig file, or the name of a shipped
// published model (resources/plan-configs: deepseek-v3, mixtral-8x7b, ...; docs/PLANNER.md).
#include <string>
#include <vector>

#include "protocol/run_config.h"

namespace moe::train {

// FILE when it exists, else the shipped config of that name; overrides applied, validated.
// InputError (exit 2) naming every problem, or, for neither a file nor a shipped name, listing
// the shipped names.
protocol::RunConfig load_plan_config(const std::string& file_or_name,
                                     const std::vector<std::string>& overrides);

}  // namespace moe::train
