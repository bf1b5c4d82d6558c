// moe-train: the MoE Studio engine's command line (docs/PROTOCOL.md, "moe-train commands").
#include <CLI/CLI.hpp>

#include <iostream>
#include <map>

#include "commands.h"
#include "data/batch_source.h"
#include "hf/hf_error.h"
#include "io/safetensors.h"
#include "launch/launcher.h"
#include "launch/rank_layout.h"
#include "protocol/config_error.h"
#include "runtime/allocator.h"
#include "runtime/device.h"
#include "runtime/error_text.h"
#include "runtime/thread_pools.h"
#include "train/config_input.h"
#include "train/input_error.h"

using namespace moe::train;

namespace {

// Errors in what the user gave (config, arguments, files): exit status 2.
bool is_bad_input(const std::exception& e) {
  return dynamic_cast<const InputError*>(&e) ||
         dynamic_cast<const moe::protocol::ConfigError*>(&e) ||
         dynamic_cast<const moe::io::SafetensorsError*>(&e) ||
         dynamic_cast<const moe::data::DataError*>(&e) ||
         dynamic_cast<const moe::launch::LayoutError*>(&e) ||
         dynamic_cast<const moe::launch::LaunchError*>(&e) ||
         dynamic_cast<const moe::hf::HfError*>(&e);
}

}  // namespace

int main(int argc, char** argv) {
  moe::runtime::keep_freed_memory_in_process();
  moe::runtime::share_cores_between_thread_pools();
  CLI::App app{"moe-train: train, benchmark and replay Mixture-of-Experts layers", "moe-train"};
  app.require_subcommand(1);
  // LibTorch's version, whether CUDA is built in and the devices seen: what a bug report needs.
  app.set_version_flag("--version",
                       [] { return moe::runtime::engine_version_text(MOE_ENGINE_VERSION); });
  std::map<CLI::App*, Command> commands;
  auto add = [&](auto register_fn) {
    Command cmd = register_fn(app);
    commands[app.get_subcommands({}).back()] = std::move(cmd);
  };
  add(add_run_command);
  add(add_validate_command);
  add(add_replay_command);
  add(add_bench_command);
  add(add_launch_command);
  add(add_plan_command);
  add(add_tokenize_command);
  add(add_forward_command);
  add(add_generate_command);
  add(add_analyze_command);
  add(add_import_hf_command);
  add(add_export_hf_command);

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitBadInput;
  }
  try {
    for (auto* sub : app.get_subcommands()) return commands.at(sub)();
  } catch (const std::exception& e) {
    if (is_bad_input(e)) {
      std::cerr << "moe-train: " << e.what() << "\n";
      return kExitBadInput;
    }
    std::cerr << "moe-train: error: " << moe::runtime::error_text(e) << "\n";
    return kExitRuntimeFailure;
  }
  return kExitRuntimeFailure;
}
