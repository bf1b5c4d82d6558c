#pragma once
// The strip above a run's dashboard: its name, its state (with the error and exit status when it
// failed), the best eval accuracy when the run's evals report one, a progress bar with step /
// total and ETA, and Cancel. A live run (LocalRun) reports
// its own state; a replayed run directory is described from its telemetry (run_end or not).
#include <QPointer>
#include <QWidget>

#include "dashboard/series_columns.h"
#include "launch/local_run.h"

class QLabel;
class QProgressBar;
class QPushButton;

namespace moe::ui {

class RunHeader : public QWidget {
  Q_OBJECT

 public:
  // `run` may be null: a replayed run directory, described by showRecord().
  RunHeader(LocalRun* run, const QString& run_dir, QWidget* parent = nullptr);

  // For a replayed run: name, status and progress from its telemetry.
  void showRecord(const RunInfo& info, const std::optional<protocol::RunEndEvent>& end,
                  qint64 last_step);
  QString stateText() const;
  // The evals so far (all of them): shows the highest accuracy, hidden while none has one.
  void showEvals(const std::vector<protocol::EvalEvent>& evals);
  QString accuracyText() const;

  // Whether `run_dir` holds a complete checkpoint to resume from (checkpoints/step-N/).
  static bool hasCheckpoint(const QString& run_dir);

 signals:
  // Resume pressed: continue the run from its newest checkpoint.
  void resumeRequested();

 private:
  void showState();
  void showProgress(qint64 step, qint64 total, double eta_seconds);
  void setStateText(const QString& text, const QString& colour, const QString& tooltip);
  // Resume is offered for a run that stopped early (cancelled, failed, or no run_end at all)
  // and left a checkpoint.
  void offerResume(bool stopped_early);

  QPointer<LocalRun> run_;
  QString run_dir_;
  QLabel* title_;
  QLabel* state_;
  QLabel* where_;
  QLabel* accuracy_;
  QProgressBar* progress_;
  QPushButton* cancel_;
  QPushButton* resume_;
  bool resume_checked_ = false, resume_checked_for_ = false;  // offerResume's last question
};

// "ETA 1:02:03" / "ETA 4:05"; "ETA –" when unknown (negative).
QString formatEta(double seconds);

}  // namespace moe::ui
