#include "model_input.h"

#include <filesystem>

#include "hf/hf_folder.h"
#include "protocol/config_overrides.h"
#include "protocol/config_validation.h"
#include "train/checkpoint.h"
#include "train/input_error.h"
#include "train/model_state.h"

namespace moe::train {

namespace fs = std::filesystem;

ModelInput read_model_input(const std::string& path) {
  if (!fs::is_directory(path)) throw InputError(path + ": not a folder");
  ModelInput input;
  if (hf::is_hf_folder(path)) {
    auto model = hf::read_hf_folder(path);
    input.config = std::move(model.config);
    input.weights = std::move(model.weights);
    input.tokenizer_dir = path;
    input.what = "Hugging Face folder " + path;
    return input;
  }
  // A step directory, or a run directory with checkpoints/.
  std::string step_dir = path, run_dir;
  if (checkpoint_step(fs::path(path).lexically_normal().string())) {
    run_dir = fs::path(path).lexically_normal().parent_path().parent_path().string();
  } else {
    run_dir = path;
    const auto latest = latest_checkpoint((fs::path(path) / "checkpoints").string());
    if (!latest) {
      throw InputError(path +
                       ": neither a Hugging Face folder (config.json with a model_type) nor a run "
                       "directory with a checkpoint (set train.checkpoint_every)");
    }
    step_dir = *latest;
  }
  const auto config_path = (fs::path(run_dir) / "config.json").string();
  if (!fs::exists(config_path)) throw InputError(run_dir + ": has no config.json");
  input.config = protocol::load_config_file(config_path);
  input.weights = load_checkpoint(step_dir).model;
  // A run started from a Hugging Face folder keeps its tokenizer beside the config.
  for (const auto& name : hf::tokenizer_files()) {
    if (fs::exists(fs::path(run_dir) / name)) input.tokenizer_dir = run_dir;
  }
  input.what = "run " + run_dir + " (" + fs::path(step_dir).filename().string() + ")";
  input.run_dir = run_dir;
  return input;
}

ModelInput with_overrides(ModelInput input, const std::vector<std::string>& overrides) {
  if (overrides.empty()) return input;
  auto json = protocol::to_json(input.config);
  try {
    protocol::apply_overrides(json, overrides);
  } catch (const std::exception& e) {
    throw InputError(std::string("--set: ") + e.what());
  }
  input.config = protocol::config_from_json(json);
  const auto problems = protocol::validate(input.config, {});
  if (!problems.empty()) {
    throw InputError("--set: " + problems.front().pointer + ": " + problems.front().message);
  }
  return input;
}

at::ScalarType compute_dtype(const ModelInput& input, const std::string& name) {
  if (name.empty()) return model::torch_dtype(input.config.train.dtype);
  if (name == "float32") return at::kFloat;
  if (name == "float64") return at::kDouble;
  if (name == "bfloat16") return at::kBFloat16;
  throw InputError("--dtype: \"" + name + "\" is not one of float32, float64, bfloat16");
}

void require_decoder(const ModelInput& input, const std::string& command) {
  if (input.config.model.kind == protocol::ModelKind::Decoder) return;
  throw InputError(input.what + ": " + command + " runs decoders (model.kind \"decoder\"), got \"" +
                   protocol::to_string(input.config.model.kind) + "\"");
}

std::optional<tokenize::Tokenizer> read_tokenizer(const ModelInput& input) {
  if (input.tokenizer_dir.empty()) return std::nullopt;
  const auto file = fs::path(input.tokenizer_dir) / "tokenizer.json";
  if (!fs::exists(file)) return std::nullopt;
  return tokenize::Tokenizer::from_file(file.string());
}

std::shared_ptr<model::ModelImpl> build_model(const ModelInput& input, at::ScalarType dtype) {
  auto model = model::make_model(input.config);
  model->to(dtype);
  try {
    load_model_tensors(*model, input.weights);
  } catch (const std::invalid_argument& e) {
    throw InputError(input.what + ": " + e.what());
  }
  return model;
}

}  // namespace moe::train
