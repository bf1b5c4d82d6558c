#pragma once
// The model a command reads (forward, export-hf, run --init-from): a Hugging Face folder
// (config.json with a model_type), a run directory (its config.json and newest checkpoint) or a
// checkpoint's step directory.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/safetensors.h"
#include "model/model.h"
#include "protocol/run_config.h"
#include "tokenize/tokenizer.h"

namespace moe::train {

struct ModelInput {
  protocol::RunConfig config;
  io::TensorMap weights;      // the engine's parameter names
  std::string tokenizer_dir;  // where tokenizer.json may be ("" when nowhere)
  std::string what;           // for messages: "Hugging Face folder X", "run X step 40"
  std::string run_dir;  // the run directory the weights are from ("" for a Hugging Face folder)
};

// InputError / hf::HfError / SafetensorsError naming the path and what is wrong.
ModelInput read_model_input(const std::string& path);

// --set KEY=VALUE on the model's config: routing keys (moe.fp32_gate, moe.capacity_factor, ...);
// keys that change the parameters' shapes fail when the weights load. InputError naming the key.
ModelInput with_overrides(ModelInput input, const std::vector<std::string>& overrides);

// --dtype: "float32", "float64" or "bfloat16"; "" is the model's own (train.dtype).
at::ScalarType compute_dtype(const ModelInput& input, const std::string& name);

// InputError unless the model is a decoder (model.kind "decoder"): `command` runs decoders only.
void require_decoder(const ModelInput& input, const std::string& command);

// The model's tokenizer.json, when it has one.
std::optional<tokenize::Tokenizer> read_tokenizer(const ModelInput& input);

// A model of input.config in `dtype` with input.weights loaded; InputError when they do not fit.
std::shared_ptr<model::ModelImpl> build_model(const ModelInput& input, at::ScalarType dtype);

}  // namespace moe::train
