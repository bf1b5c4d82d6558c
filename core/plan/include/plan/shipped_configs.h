// The configs of published MoE models the planner ships (resources/plan-configs, compiled in):
// their architecture as Hugging Face publishes it (config.json) as a decoder RunConfig, for
// planning runs of them and for checking the planner's counts against the published figures
// (docs/PLANNER.md, "Shipped model configs").
#pragma once

#include <string>
#include <vector>

#include "protocol/run_config.h"

namespace moe::plan {

// The shipped configs' names ("deepseek-v3", "mixtral-8x7b", "qwen3-30b-a3b"), sorted.
std::vector<std::string> shipped_config_names();
// The names as one list for messages: "deepseek-v3, mixtral-8x7b, qwen3-30b-a3b".
std::string shipped_config_list();
// The JSON text of a shipped config; nullptr for an unknown name.
const std::string* shipped_config_text(const std::string& name);
// The parsed config; std::invalid_argument naming the shipped ones for an unknown name.
protocol::RunConfig shipped_config(const std::string& name);

}  // namespace moe::plan
