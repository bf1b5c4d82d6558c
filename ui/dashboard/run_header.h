#pragma once
// The strip above a run's dashboard: its name, its state (with the error and exit status when it
// failed), the best eval accuracy when the run's evals report one, a progress bar with step /
// total and, while the run goes on, its ETA, and Cancel. A live run (a Run) reports its own
// state; once it ended the bar says how far it got and how long it ran. A replayed run
// directory is described from its telemetry (run_end or not).
#include <QPointer>
#include <QWidget>

#include "base/run/run.h"
#include "base/telemetry/series_columns.h"

class QLabel;
class QProgressBar;
class QPushButton;

namespace moe::ui {

class RunHeader : public QWidget {
  Q_OBJECT

 public:
  // `run` may be null: a replayed run directory, described by showRecord().
  RunHeader(Run* run, const QString& run_dir, QWidget* parent = nullptr);

  // For a replayed run: name, status and progress from its telemetry.
  void showRecord(const RunInfo& info, const std::optional<protocol::RunEndEvent>& end,
                  qint64 last_step);
  QString stateText() const;
  // The evals so far (all of them): shows the highest accuracy, hidden while none has one.
  void showEvals(const std::vector<protocol::EvalEvent>& evals);
  QString accuracyText() const;
  // The progress bar's text: "step 12 / 100   ETA 4:05" while running.
  QString progressText() const;

 signals:
  // Resume pressed: continue the run from its newest checkpoint.
  void resumeRequested();

 private:
  void showState();
  void showProgress(qint64 step, qint64 total, double eta_seconds);
  // The live run reached Finished, Failed or Cancelled.
  bool runEnded() const;
  // Its process's wall time, start to end; -1 when it never started.
  double runSeconds() const;
  void setStateText(const QString& text, const QString& colour, const QString& tooltip);
  // Resume is offered for a run that stopped early (cancelled, failed, or no run_end at all)
  // and left a checkpoint (a live run's canResume()).
  void offerResume(bool stopped_early);

  QPointer<Run> run_;
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
// A run that ended: the steps it reached and how long it ran, "step 1344 / 1000000   ran 7:04:59";
// "step 1344" when the total is unknown (0), "no steps" for none, no duration when unknown
// (negative).
QString formatEndedProgress(qint64 step, qint64 total, double seconds);

}  // namespace moe::ui
