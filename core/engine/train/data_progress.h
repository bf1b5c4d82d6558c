#pragma once
// How a run shows the building of a token cache (docs/MODELS.md, "Data for these models"): a
// progress line on a terminal after every batch, and a log event (the app's log pane, stderr.log)
// every few seconds with the share read, the speed and an ETA; one line when it is done or reused.
// A stop signal ends a build between two batches of documents.
#include <stdexcept>

#include "data/batch_source.h"
#include "train/run_log.h"

namespace moe::train {

// Thrown from a token cache build when a stop signal came (SIGINT, SIGTERM, SIGHUP): no cache
// is left behind, and the run ends with status 128 + signal as a stopped run does.
struct StoppedWhileTokenizing : std::runtime_error {
  explicit StoppedWhileTokenizing(int sig)
      : std::runtime_error("stopped by signal " + std::to_string(sig) +
                           " while tokenizing (no token cache was written)"),
        signal(sig) {}
  int signal;
};

// The data options of a run in `run_dir` that logs to `log` (which must outlive the source's
// construction).
data::SourceOptions run_data_options(const std::string& run_dir, RunLog& log);

}  // namespace moe::train
