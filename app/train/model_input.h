#pragma once
// The model a command reads (forward, export-hf, run --init-from): a Hugging Face folder
// (config.json with a model_type), a run directory (its config.json and newest checkpoint) or a
// checkpoint's step directory.
#include <memory>
#include <string>

#include "io/safetensors.h"
#include "model/model.h"
#include "protocol/run_config.h"

namespace moe::train {

struct ModelInput {
  protocol::RunConfig config;
  io::TensorMap weights;      // the engine's parameter names
  std::string tokenizer_dir;  // where tokenizer.json may be ("" when nowhere)
  std::string what;           // for messages: "Hugging Face folder X", "run X step 40"
};

// InputError / hf::HfError / SafetensorsError naming the path and what is wrong.
ModelInput read_model_input(const std::string& path);

// A model of input.config in `dtype` with input.weights loaded; InputError when they do not fit.
std::shared_ptr<model::ModelImpl> build_model(const ModelInput& input, at::ScalarType dtype);

}  // namespace moe::train
