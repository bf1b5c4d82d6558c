// moe-train import-hf DIR and moe-train export-hf RUN_DIR OUT (docs/MODELS.md): Hugging Face model
// folders into a RunConfig the engine trains, and a run's weights back into a folder that
// transformers loads.
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "commands.h"
#include "hf/hf_config.h"
#include "hf/hf_folder.h"
#include "model_input.h"
#include "protocol/config_validation.h"
#include "train/input_error.h"

namespace moe::train {

namespace fs = std::filesystem;

namespace {

std::string billions(int64_t n) {
  std::ostringstream s;
  if (n >= 1000000000) {
    s << std::fixed << std::setprecision(2) << n / 1e9 << "B";
  } else if (n >= 1000000) {
    s << std::fixed << std::setprecision(2) << n / 1e6 << "M";
  } else {
    s << n;
  }
  return s.str();
}

std::string folder_name(const std::string& dir) {
  auto p = fs::path(dir).lexically_normal();
  if (p.filename().empty()) p = p.parent_path();
  return p.filename().string();
}

}  // namespace

Command add_import_hf_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "import-hf", "Read a Hugging Face model folder into a RunConfig (weights checked to load)");
  auto dir = std::make_shared<std::string>();
  auto config_out = std::make_shared<std::string>();
  cmd->add_option("DIR", *dir, "folder with config.json and model.safetensors")->required();
  cmd->add_option("--config-out", *config_out,
                  "RunConfig file to write (default: <folder name>.json here)");
  return [=]() {
    const ModelInput input = read_model_input(*dir);
    if (!hf::is_hf_folder(*dir)) throw InputError(*dir + ": not a Hugging Face model folder");
    auto config = input.config;
    config.name = folder_name(*dir);
    const auto problems = protocol::validate(config, {});
    if (!problems.empty()) {
      throw InputError(*dir + ": the imported config is not valid here: " +
                       problems.front().pointer + ": " + problems.front().message);
    }
    auto model = build_model(input, model::torch_dtype(config.train.dtype));
    const auto counts = model->parameter_counts();
    const double active_share =
        static_cast<double>(config.moe.top_k) / static_cast<double>(config.moe.experts);
    const auto active = counts.dense + static_cast<int64_t>(counts.experts * active_share);
    const std::string out = config_out->empty() ? config.name + ".json" : *config_out;
    protocol::save_config_file(out, config);
    std::cout << "import-hf: " << *dir << ": " << hf::hf_model_type(config.model.family) << ", "
              << config.model.layers << " layers, dim " << config.model.dim << ", "
              << config.moe.experts << " experts top-" << config.moe.top_k << ", "
              << billions(counts.total()) << " parameters (" << billions(active)
              << " active per token)\n"
              << "import-hf: wrote " << out << "; fine-tune with: moe-train run --config " << out
              << " --init-from " << *dir << "\n";
    return kExitOk;
  };
}

Command add_export_hf_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "export-hf", "Write a run's weights as a Hugging Face model folder transformers loads");
  auto run = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  cmd->add_option("RUN_DIR", *run, "run directory (newest checkpoint) or a step directory")
      ->required();
  cmd->add_option("OUT", *out, "folder to write")->required();
  return [=]() {
    if (fs::exists(*out) && !fs::is_empty(*out)) {
      throw InputError(*out + ": exists and is not empty (nothing is overwritten)");
    }
    const ModelInput input = read_model_input(*run);
    hf::write_hf_folder(*out, input.config, input.weights, input.tokenizer_dir);
    std::cout << "export-hf: " << input.what << " -> " << *out << "\n";
    return kExitOk;
  };
}

}  // namespace moe::train
