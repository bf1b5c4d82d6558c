#pragma once
// LiveRunRecorder: summarises this session's runs (RunManager's) for the run store. A run is
// recorded once its run directory is known (run_start), again every few seconds while it trains,
// and with its final state (with the failure text when the process died without a run_end) when it
// ends. It hands the records out (runRecorded); RunsView::updateRun stores and shows them.
#include <QObject>
#include <QTimer>
#include <optional>

#include "base/runs/run_record.h"

namespace moe::ui {

class Run;
class RunManager;

class LiveRunRecorder : public QObject {
  Q_OBJECT

 public:
  static constexpr int kRefreshMs = 5000;

  explicit LiveRunRecorder(RunManager* runs, QObject* parent = nullptr);

  // The run's current summary; nullopt before its run_start.
  static std::optional<RunRecord> summarize(const Run& run);
  // Emits the run's summary now; false when it has none yet.
  bool record(Run* run);

 signals:
  void runRecorded(const moe::ui::RunRecord& record);

 private:
  void recordActive();

  RunManager* runs_;
  QTimer timer_;
};

}  // namespace moe::ui
