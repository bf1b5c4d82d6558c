// The profile file's fields (docs/PLANNER.md, "Profile files"): JSON to HardwareProfile and
// back, every missing or bad figure named with its JSON pointer. A device profile names its
// inter-node network (a shipped one) or carries an "inter_node" object of its own.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "plan/hardware_profile.h"

namespace moe::plan {

HardwareProfile profile_from_json(const nlohmann::json& doc, const std::string& origin);
LinkProfile link_from_json(const nlohmann::json& doc, const std::string& where);
nlohmann::json profile_to_json(const HardwareProfile& profile);

// The text of a shipped profile file by name (resources/profiles/<name>.json); nullptr if none.
const std::string* shipped_profile_text(const std::string& name);

}  // namespace moe::plan
