// What to launch: the moe-train command line of one local run (docs/PROTOCOL.md, "moe-train
// commands"), as plain data: `moe-train run`, or `moe-train launch` for several processes.
#pragma once

#include <optional>

#include <QString>
#include <QStringList>

#include "protocol/run_config.h"

namespace moe::ui {

struct LaunchSpec {
  QString program;        // the moe-train executable; empty: defaultTrainProgram()
  QString config_file;    // a new run: --config FILE
  QString run_dir;        // a new run: --run-dir DIR; with resume: the run to continue
  QString runs_root;      // a new run without run_dir: --runs-root ROOT (moe-train names the run)
  bool resume = false;    // --resume run_dir instead of --config
  QStringList overrides;  // --set key.path=value, each
  QString init_from;      // a new run: --init-from DIR (a Hugging Face folder, a run, a step)
  QString working_dir;    // the process's working directory; empty: the app's
  int cancel_grace_ms = 10000;  // after cancel()'s SIGINT, kill when still running this long

  // The arguments after the program: `run --config F --run-dir D --init-from I --set ...` or
  // `run --resume D`;
  // when the run has more than one process per node (parallel.nproc > 1 in config()),
  // `launch --nproc-per-node N -- run ...`: the launcher starts the ranks and forwards SIGINT
  // (cancel()) to all of them.
  QStringList arguments() const;
  // The train.steps the run will take, from config(); 0 when it cannot be read (the engine will
  // say why).
  qint64 expectedSteps() const;
  // The config the run will use: the config file (or run_dir/config.json when resuming) with the
  // overrides applied, as parse_config reads it; nullopt when the file or an override cannot be
  // read.
  std::optional<protocol::RunConfig> config() const;
};

// moe-train next to the application's binary, else in the build tree's app/train/, else on PATH;
// "moe-train" (not found: start() fails with a clear message) when none is.
QString defaultTrainProgram();

}  // namespace moe::ui
