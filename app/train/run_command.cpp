// moe-train run (docs/PROTOCOL.md, "moe-train commands"): a new run from --config, or --resume of
// an existing run.
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>

#include "commands.h"
#include "dist/process_group.h"
#include "hf/hf_folder.h"
#include "launch/launch_note.h"
#include "model_input.h"
#include "protocol/config_overrides.h"
#include "protocol/telemetry_writer.h"
#include "train/checkpoint.h"
#include "train/config_input.h"
#include "train/data_progress.h"
#include "train/engine_support.h"
#include "train/model_state.h"
#include "train/run_directory.h"
#include "train/run_log.h"
#include "train/stop_signal.h"
#include "train/trainer.h"

namespace moe::train {

namespace {

struct RunOptions {
  std::string config, run_dir, runs_root = "runs", resume, init_from;
  std::vector<std::string> overrides;
};

// Problems this build cannot run (float16 on CPU...) on `world` ranks, in validate's
// `file: <pointer>: msg` form.
void check_runnable(const protocol::RunConfig& config, const std::string& file,
                    const launch::RankLayout& layout) {
  const auto problems = unsupported_here(config, layout.world_size, layout.local_world_size);
  if (!problems.empty()) throw InputError(problems_message(file, problems));
}

// A new run's directory: rank 0 makes it (and writes config.json), the other ranks are told where.
RunDirectory new_run_directory(const RunOptions& o, const protocol::RunConfig& config,
                               dist::ProcessGroup& group) {
  if (group.rank() != 0) {
    const std::string path = group.broadcast_string("", 0);
    if (path.empty()) throw InputError("rank 0 could not set up the run directory (see its error)");
    return existing_run_directory(path);
  }
  RunDirectory dir;
  try {
    dir = o.run_dir.empty() ? create_run_directory(o.runs_root, config.name)
                            : use_run_directory(o.run_dir);
    protocol::save_config_file(dir.config(), config);
  } catch (...) {
    group.broadcast_string("", 0);  // the others stop too, instead of waiting for a path
    throw;
  }
  group.broadcast_string(dir.path, 0);
  return dir;
}

// What rank 0 decides, on every rank.
std::string decided_by_rank_zero(dist::ProcessGroup& group,
                                 const std::function<std::string()>& decide) {
  return group.broadcast_string(group.rank() == 0 ? decide() : std::string(), 0);
}

// Rank 0 picks the checkpoint to resume from and tells the others: each rank's own listing of
// the directory (a stale one on another node) could name another step. "" when there is none.
std::string agreed_latest_checkpoint(const RunDirectory& dir, dist::ProcessGroup& group) {
  return decided_by_rank_zero(group,
                              [&] { return latest_checkpoint(dir.checkpoints()).value_or(""); });
}

std::string chosen_checkpoint(const RunOptions& o, const RunDirectory& dir,
                              dist::ProcessGroup& group) {
  const std::string path = agreed_latest_checkpoint(dir, group);
  if (path.empty()) {
    throw InputError("--resume " + o.resume + ": no complete checkpoint in " + dir.checkpoints() +
                     " (set train.checkpoint_every to make them)");
  }
  return path;
}

// Under `moe-train launch --max-restarts`: which start of the ranks this is (MOE_RESTART) and the
// file where rank 0 notes its run directory (MOE_LAUNCH_NOTE).
struct LaunchRestart {
  int64_t count = 0;
  std::string note;
};

LaunchRestart launch_restart() {
  LaunchRestart r;
  if (const char* note = std::getenv("MOE_LAUNCH_NOTE")) r.note = note;
  const char* count = std::getenv("MOE_RESTART");
  if (!count || !*count) return r;
  char* end = nullptr;
  const long long n = std::strtoll(count, &end, 10);
  if (*end != '\0' || n < 0)
    throw InputError(std::string("MOE_RESTART=") + count + ": not a whole number >= 0");
  r.count = n;
  return r;
}

// A restarted `run --config`: the run directory rank 0 noted before the failure, or "" when the
// failure came before it had one.
std::string restarted_run_directory(const LaunchRestart& restart, dist::ProcessGroup& group) {
  return decided_by_rank_zero(group, [&] {
    return restart.count > 0 && !restart.note.empty() ? launch::read_launch_note(restart.note)
                                                      : std::string();
  });
}

std::string rank_stderr_log(const RunDirectory& dir, const dist::ProcessGroup& group) {
  if (group.rank() == 0) return dir.stderr_log();
  return dir.path + "/stderr.rank" + std::to_string(group.rank()) + ".log";
}

// --init-from PATH: the weights of a Hugging Face folder or another run, loaded into the new
// model; rank 0 keeps the folder's tokenizer files beside config.json (export-hf copies them).
std::function<void(torch::nn::Module&)> initial_weights(const std::string& path,
                                                        const RunDirectory& dir, bool speaks) {
  auto input = std::make_shared<ModelInput>(read_model_input(path));
  if (speaks && !input->tokenizer_dir.empty()) {
    for (const auto& name : hf::tokenizer_files()) {
      const auto from = std::filesystem::path(input->tokenizer_dir) / name;
      if (!std::filesystem::exists(from)) continue;
      std::filesystem::copy_file(from, std::filesystem::path(dir.path) / name,
                                 std::filesystem::copy_options::overwrite_existing);
    }
  }
  return [input](torch::nn::Module& model) {
    try {
      load_model_tensors(model, input->weights);
    } catch (const std::invalid_argument& e) {
      throw InputError("--init-from " + input->what + ": " + e.what() +
                       " (the config must have the checkpoint's shapes: start from the config "
                       "import-hf writes)");
    }
  };
}

int run_training(const RunOptions& o) {
  const bool resuming = !o.resume.empty();
  if (resuming && !o.config.empty()) throw InputError("--resume and --config: give one of them");
  if (resuming && !o.init_from.empty())
    throw InputError("--resume and --init-from: a resumed run has its checkpoint's weights");
  if (!resuming && o.config.empty())
    throw InputError("run: --config FILE or --resume DIR is required");

  const launch::RankLayout layout = launch::rank_layout_from_environment();
  RunDirectory dir;
  protocol::RunConfig config;
  std::optional<std::string> checkpoint;
  if (resuming) {
    dir = existing_run_directory(o.resume);
    config = load_valid_config(dir.config(), o.overrides);
    check_runnable(config, dir.config(), layout);
  } else {
    config = load_valid_config(o.config, o.overrides);
    check_runnable(config, o.config, layout);
  }
  install_stop_handlers();
  dist::ProcessGroup group(
      layout, config.parallel.backend,
      std::chrono::milliseconds(static_cast<int64_t>(config.parallel.timeout_s * 1000.0)));
  const LaunchRestart restart = launch_restart();
  if (resuming) {
    checkpoint = chosen_checkpoint(o, dir, group);
  } else if (const std::string again = restarted_run_directory(restart, group); !again.empty()) {
    // The same run goes on from its last checkpoint (from the start when it made none).
    dir = existing_run_directory(again);
    const std::string path = agreed_latest_checkpoint(dir, group);
    if (!path.empty()) checkpoint = path;
  } else {
    dir = new_run_directory(o, config, group);
    if (group.rank() == 0 && !restart.note.empty())
      launch::write_launch_note(restart.note, dir.path);
  }

  // Rank 0 speaks for the run (stdout, metrics.jsonl); every rank keeps its own stderr log.
  const bool speaks = group.rank() == 0;
  protocol::TelemetryWriter telemetry(speaks ? &std::cout : nullptr,
                                      speaks ? dir.metrics() : std::string());
  RunLog log(speaks ? &telemetry : nullptr, rank_stderr_log(dir, group));
  TrainerOptions options{MOE_ENGINE_VERSION, checkpoint, {}, restart.count, {}};
  if (!o.init_from.empty()) options.init_weights = initial_weights(o.init_from, dir, speaks);
  // A resumed run's overrides replace config.json only once the checkpoint fits them: a --set
  // that does not fit must not spoil the next plain --resume.
  if (resuming && !o.overrides.empty() && speaks) {
    options.on_resumed = [&] { protocol::save_config_file(dir.config(), config); };
  }
  std::unique_ptr<Trainer> made;
  try {
    made = std::make_unique<Trainer>(config, dir, telemetry, log, group, options);
  } catch (const StoppedWhileTokenizing& e) {
    log.info(e.what());
    return 128 + e.signal;
  }
  Trainer& trainer = *made;
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
  cmd->add_option("--init-from", options->init_from,
                  "Start from these weights: a Hugging Face folder, a run directory or a step "
                  "directory");
  return [options] { return run_training(*options); };
}

}  // namespace moe::train
