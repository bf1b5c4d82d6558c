// moe-train run (docs/PROTOCOL.md, "moe-train commands"): a new run from --config, or --resume of
// an existing run.
#include <filesystem>
#include <iostream>

#include "commands.h"
#include "config_input.h"
#include "protocol/config_overrides.h"
#include "protocol/telemetry_writer.h"
#include "train/checkpoint.h"
#include "train/engine_support.h"
#include "train/run_directory.h"
#include "train/run_log.h"
#include "train/stop_signal.h"
#include "train/trainer.h"

namespace moe::train {

namespace {

struct RunOptions {
  std::string config, run_dir, runs_root = "runs", resume;
  std::vector<std::string> overrides;
};

// Problems this build cannot run (float16 on CPU...), in validate's `file: <pointer>: msg` form.
void check_runnable(const protocol::RunConfig& config, const std::string& file) {
  const auto problems = unsupported_here(config);
  if (!problems.empty()) throw InputError(problems_message(file, problems));
}

int run_training(const RunOptions& o) {
  const bool resuming = !o.resume.empty();
  if (resuming && !o.config.empty()) throw InputError("--resume and --config: give one of them");
  if (!resuming && o.config.empty())
    throw InputError("run: --config FILE or --resume DIR is required");

  RunDirectory dir;
  protocol::RunConfig config;
  std::optional<std::string> checkpoint;
  if (resuming) {
    dir = existing_run_directory(o.resume);
    config = load_valid_config(dir.config(), o.overrides);
    check_runnable(config, dir.config());
    checkpoint = latest_checkpoint(dir.checkpoints());
    if (!checkpoint) {
      throw InputError("--resume " + o.resume + ": no complete checkpoint in " + dir.checkpoints() +
                       " (set train.checkpoint_every to make them)");
    }
  } else {
    config = load_valid_config(o.config, o.overrides);
    check_runnable(config, o.config);
    dir = o.run_dir.empty() ? create_run_directory(o.runs_root, config.name)
                            : use_run_directory(o.run_dir);
  }
  const auto save_config = [&] { protocol::save_config_file(dir.config(), config); };
  if (!resuming) save_config();

  install_stop_handlers();
  protocol::TelemetryWriter telemetry(&std::cout, dir.metrics());
  RunLog log(&telemetry, dir.stderr_log());
  TrainerOptions options{MOE_ENGINE_VERSION, checkpoint, {}};
  // A resumed run's overrides replace config.json only once the checkpoint fits them: a --set
  // that does not fit must not spoil the next plain --resume.
  if (resuming && !o.overrides.empty()) options.on_resumed = save_config;
  Trainer trainer(config, dir, telemetry, log, options);
  int status = trainer.run();
  // Closing can report what writing did not (NFS, quotas): the files are then incomplete.
  telemetry.close_file();
  log.close_file();
  for (const std::string& lost : {telemetry.file_error(), log.file_error()}) {
    if (lost.empty() || status != kExitOk) continue;
    std::cerr << "moe-train: error: " << lost << "\n";
    status = kExitRuntimeFailure;
  }
  return status;
}

}  // namespace

Command add_run_command(CLI::App& app) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* cmd = app.add_subcommand("run", "Train a model (docs/PROTOCOL.md)");
  cmd->add_option("--config", options->config, "RunConfig JSON file");
  cmd->add_option("--resume", options->resume,
                  "Continue the run in DIR from its newest complete checkpoint");
  cmd->add_option("--run-dir", options->run_dir, "Directory for this run (default: RUNS/<run_id>)");
  cmd->add_option("--runs-root", options->runs_root, "Where new run directories go")
      ->capture_default_str();
  cmd->add_option("--set", options->overrides, "Override a config key: key.path=value")
      ->type_name("KEY=VALUE");
  return [options] { return run_training(*options); };
}

}  // namespace moe::train
