#pragma once
// A Hugging Face model folder (config.json, model.safetensors or a sharded
// model.safetensors.index.json, tokenizer files) read into a RunConfig and the engine's
// parameters, and written back from them (moe-train import-hf, export-hf, forward, run
// --init-from; docs/MODELS.md).
#include <string>
#include <vector>

#include "io/safetensors.h"
#include "protocol/run_config.h"

namespace moe::hf {

struct HfModel {
  protocol::RunConfig config;
  io::TensorMap weights;           // by the engine's parameter names, in the stored dtype
  std::vector<std::string> notes;  // what was read
};

// True when `dir` holds a config.json with a "model_type" (a run directory's config.json has
// none).
bool is_hf_folder(const std::string& dir);

// HfError (or io::SafetensorsError for a damaged file) naming the file and what is wrong.
HfModel read_hf_folder(const std::string& dir);

// Writes config.json and model.safetensors (in the parameters' dtype) into `dir` (created), and
// copies the tokenizer files of `tokenizer_from` when given.
void write_hf_folder(const std::string& dir, const protocol::RunConfig& config,
                     const io::TensorMap& weights, const std::string& tokenizer_from = "");

// The tokenizer files a folder may hold, copied along with the weights.
const std::vector<std::string>& tokenizer_files();

}  // namespace moe::hf
