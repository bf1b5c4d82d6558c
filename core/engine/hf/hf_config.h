#pragma once
// A Hugging Face config.json and the RunConfig of the same model (docs/MODELS.md, "Config
// mapping"), both ways. Every key of config.json is either mapped, checked to have a value the
// engine computes the same way, or known not to change the computation; any other key or value is
// refused by name (HfError), so an imported model is never silently a different model.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "protocol/run_config.h"

namespace moe::hf {

struct HfConfigImport {
  protocol::RunConfig config;
  std::vector<std::string> notes;  // what was read, for the user ("hidden_size 4096 -> model.dim")
};

// `json` is config.json's content; `where` names the file in messages.
HfConfigImport config_from_hf(const nlohmann::json& json, const std::string& where);

// config.json for `config` (model.kind "decoder"), in its model.family's format; HfError naming
// the key when the config uses something the family cannot express.
nlohmann::ordered_json config_to_hf(const protocol::RunConfig& config);

// The family's model_type ("mixtral", "qwen2_moe", ...).
std::string hf_model_type(protocol::ModelFamily family);

}  // namespace moe::hf
