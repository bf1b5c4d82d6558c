// RunRecord: the summary of one run directory that the run store keeps and the runs table shows.
// Plain data; unknown values are std::nullopt (or an empty string / invalid QDateTime).
#pragma once

#include <QDateTime>
#include <QString>

#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

namespace moe::ui {

// The values of RunRecord::status. "incomplete": no run_end and not known to be live (a crash, a
// killed process, a copy taken mid-run). "missing": the store knew the directory, it is gone now.
// A remote run without run_end has the state its remote.json last saw (see indexRunDirectory).
namespace run_status {
inline const QString kRunning = QStringLiteral("running");
inline const QString kFinished = QStringLiteral("finished");
inline const QString kFailed = QStringLiteral("failed");
inline const QString kCancelled = QStringLiteral("cancelled");
inline const QString kIncomplete = QStringLiteral("incomplete");
inline const QString kMissing = QStringLiteral("missing");
// A remote run queued or starting on its target, with no telemetry yet.
inline const QString kStarting = QStringLiteral("starting");
}  // namespace run_status

struct RunRecord {
  static inline const QString kLocalTarget = QStringLiteral("local");

  QString id;      // run_start's run_id, else the directory name
  QString name;    // the config's "name"
  QString status;  // one of run_status
  QString error;   // run_end's error (failed runs)
  // Telemetry has no wall clock (its t counts from the run's start), so these come from the run_id
  // (<yyyymmdd-hhmmss>-<name>, local time) or, failing that, the metrics.jsonl file times.
  QDateTime started_at, ended_at;
  QString host, device;
  // Where it ran: kLocalTarget, or the remote target's name (the run directory's remote.json).
  QString target = kLocalTarget;
  std::optional<int64_t> world_size;
  nlohmann::json config = nlohmann::json::object();  // the resolved RunConfig ({} when unknown)
  QString config_hash;  // SHA-256 hex of config.dump() (sorted keys); empty when no config
  QString run_dir;      // absolute and canonical: the store's key
  std::optional<int64_t> steps_done, total_steps;  // total: train.steps
  int64_t restarts = 0;  // times every rank was started again after a failure (--max-restarts)

  // Metrics. "last" is the newest finite value, so a diverged run still shows where it was.
  std::optional<double> loss_last, loss_min, loss_max;
  std::optional<double> eval_loss_last, eval_loss_best;  // best = lowest
  std::optional<double> accuracy_last, accuracy_best;    // best = highest; only where evals have it
  std::optional<double> tokens_per_s_last, tokens_per_s_max;
  std::optional<double> step_ms_last;

  // metrics.jsonl as it was when indexed: a rescan re-reads the file only when these changed.
  QDateTime metrics_modified;
  std::optional<int64_t> metrics_size;

  QString displayName() const { return name.isEmpty() ? id : name; }
};

}  // namespace moe::ui
