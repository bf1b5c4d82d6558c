// RunReport: what a report says about one run, read from its run directory (docs/PROTOCOL.md,
// "The run directory") off the GUI thread: the run's telemetry as the dashboard holds it (a
// RunSeries filled from metrics.jsonl), its config (config.json, else run_start's), the routing and
// slow-rank warnings the dashboard raised over the run, the log's warnings and errors, and
// whether a trace.json is there. Plain data apart from QString: no widget is made here.
#pragma once

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/analyze/analysis_report.h"
#include "base/report/warning_history.h"
#include "base/telemetry/series_columns.h"

namespace moe::ui {

struct RunReport {
  QString run_dir;  // absolute
  QString run_id;   // run_start's, else the directory's name
  QString name;     // the config's name
  RunInfo info;     // the latest run_start
  nlohmann::json config = nlohmann::json::object();
  QString config_source;  // "config.json" or "run_start"

  StepColumns steps;
  std::vector<LayerColumns> layers;
  std::vector<LoadMatrix> load;  // per layer: experts x at most kLoadBins bins of token counts
  PhaseColumns phases;
  RankColumns ranks;
  std::vector<protocol::EvalEvent> evals;
  std::vector<protocol::CheckpointEvent> checkpoints;
  std::vector<protocol::AdaptiveREvent> adaptive_r;
  std::vector<protocol::LogEvent> problem_logs;  // log events of level warn or error
  std::optional<protocol::RunEndEvent> run_end;

  std::vector<WarningEpisode> routing_warnings;  // in the order they were raised
  std::vector<WarningEpisode> rank_warnings;

  // `moe-train analyze`'s report kept in the run directory (<run>/analysis/analysis.json), when
  // there is one; analysis_error says why one that is there could not be read.
  std::optional<AnalysisReport> analysis;
  QString analysis_error;
  bool has_trace = false;  // trace.json is in the run directory
  qint64 trace_bytes = 0;
  qint64 metrics_bytes = 0;
  qint64 events = 0, malformed_lines = 0, unknown_lines = 0;
  QString last_malformed;  // why the latest malformed line was malformed

  static constexpr size_t kLoadBins = 160;

  // "completed", "failed", "cancelled", or "no run_end" (running elsewhere, or killed).
  QString status() const;
  // Seconds of the latest process, from its start to its run_end (or its latest step).
  double runSeconds() const;
  bool multiRank() const { return ranks.ranks.size() > 1; }
};

// Reads `run_dir`. False with *error ("RUN_DIR: no metrics.jsonl", "RUN_DIR/metrics.jsonl: no
// telemetry event in 3 lines (line 1: ...)", "... : no run_start event") when it is no run.
// Safe on any thread.
bool loadRunReport(const QString& run_dir, RunReport* out, QString* error);

}  // namespace moe::ui
