#pragma once
// The dashboard's "Predicted vs measured" page: the planner's model (core/plan) against the run
// it shows. The measured median step time after the warm-up beside the planner's predicted step
// for the run's config and layout on the app's chosen hardware profile, and the error; measured
// and predicted phase shares as two stacked bars in the Phases page's colours; for a multi-process
// run the slowest rank's compute, all-to-all and all-reduce beside the predicted ones. The
// profile is picked here (the app-wide choice); a shipped GPU profile against a CPU run gets a
// hint to calibrate this machine.
//
// updateFrom() re-reads the series when its version changed (the dashboard calls it a few times
// a second while the page is in view); a new profile recomputes from what was read.
#include <QString>
#include <QWidget>

#include <cstdint>
#include <optional>
#include <vector>

#include "base/rules/plan_check.h"

class QCPBars;
class QMouseEvent;
class QCustomPlot;
class QLabel;
class QTableWidget;

namespace moe::ui {

class PlannerProfileChoice;
class PlannerProfileCombo;
class RunSeries;

// What the page shows.
struct PlanCheckResult {
  bool started = false;  // a run_start was seen
  MeasuredRun measured;
  RunLayout layout;
  std::optional<plan::StepPrediction> predicted;
  QString problem;        // why there is no prediction: the config, the layout, the profile
  QString profile;        // the choice the prediction used
  bool cpu_hint = false;  // a shipped (GPU) profile against a run on the CPU
};

class PlanCheckPage : public QWidget {
  Q_OBJECT

 public:
  explicit PlanCheckPage(QWidget* parent = nullptr);

  void updateFrom(const RunSeries& series);

  const PlanCheckResult& result() const { return result_; }
  PlannerProfileChoice* profileChoice() const { return choice_; }
  PlannerProfileCombo* profileCombo() const { return combo_; }
  QLabel* calibrateHint() const { return hint_; }
  QLabel* message() const { return message_; }
  QCustomPlot* sharesPlot() const { return plot_; }
  // One row per phase of both bars (kPhaseNames order), bottom of the stack first; each with the
  // predicted share at key 0 and the measured one at key 1, in percent.
  const std::vector<QCPBars*>& shareBars() const { return bars_; }
  QTableWidget* ranksTable() const { return ranks_table_; }
  // "Measured: 12.3 ms per step" then "gate  1.2 ms (9.8 %)" per phase, for the bar at `key`
  // (0: predicted, 1: measured); empty off the bars.
  QString tooltipAt(double key) const;

 signals:
  // The figures were computed again (new steps, another profile).
  void recomputed();

 private:
  QWidget* buildFigures();
  void buildPlot();
  void recompute();
  void showFigures();
  void showShares();
  void showRanks();
  QString detailText() const;
  void showTooltip(QMouseEvent* event);

  PlannerProfileChoice* choice_;
  PlannerProfileCombo* combo_;
  QLabel* hint_;
  QLabel* message_;
  QWidget* figures_;
  QLabel* measured_value_;
  QLabel* predicted_value_;
  QLabel* error_value_;
  QLabel* detail_;
  QCustomPlot* plot_;
  std::vector<QCPBars*> bars_;
  QLabel* ranks_title_;
  QTableWidget* ranks_table_;

  // What the last read of the series gave.
  RunInfo info_;
  std::optional<protocol::RunConfig> config_;
  QString config_error_;
  std::vector<protocol::AdaptiveREvent> decisions_;
  PlanCheckResult result_;
  QString profile_error_;

  const RunSeries* source_ = nullptr;
  uint64_t source_version_ = 0;
};

}  // namespace moe::ui
