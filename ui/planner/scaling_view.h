// ScalingView: the planner's answer for one config against the number of GPUs (1, 2, 4 … 1024
// on a log2 axis) on the chosen hardware profile: tokens/s of the best layout at each size
// (labelled r=<r>), memory per rank against the device's, and the step's compute / all-to-all /
// all-reduce split as stacked bars. Sizes whose best layout does not fit in memory are drawn in
// red and say so; sizes the config cannot run on (experts or batch not divisible) are left out.
// Hovering a size shows its layout (nodes x ranks per node) and every r tried.
// Exports: CSV (one row per size and r, scaling_table.h; written on a worker) and the three
// charts as PNG, SVG or PDF (widgets/plot_export.h).
#pragma once

#include <QWidget>

#include <optional>
#include <vector>

#include "base/planner/plan_model.h"
#include "planner/scaling_table.h"
#include "protocol/run_config.h"

class QCustomPlot;
class QLabel;
class QPushButton;

namespace moe::ui {

class PlannerProfileChoice;
class PlannerProfileCombo;

class ScalingView : public QWidget {
  Q_OBJECT

 public:
  static constexpr int64_t kMaxRanks = 1024;

  explicit ScalingView(QWidget* parent = nullptr);

  // The config to plan for; redrawn at once when a profile is loaded.
  void setConfig(const protocol::RunConfig& config);

  PlannerProfileChoice* profileChoice() const { return choice_; }
  PlannerProfileCombo* profileCombo() const { return combo_; }
  const std::optional<plan::HardwareProfile>& profile() const { return profile_; }
  const std::vector<plan::LayoutPrediction>& table() const { return table_; }
  const std::vector<ScalingPoint>& points() const { return points_; }
  // What the plots say of one world size (for tests): the label over its throughput point
  // ("r=2", with "does not fit" under it when it does not) and its tooltip; empty when the
  // size has no point.
  QString pointLabel(int64_t world) const;
  QString pointToolTip(int64_t world) const;
  QString statusText() const;

  QCustomPlot* throughputPlot() const { return throughput_; }
  QCustomPlot* memoryPlot() const { return memory_; }
  QCustomPlot* breakdownPlot() const { return breakdown_; }

  // .csv: the table, written on a worker (exported() tells the end). .png/.svg/.pdf: the three
  // charts beside `path` as <name>-throughput, -memory, -breakdown, then exported().
  void exportTo(const QString& path);

 signals:
  void redrawn();
  void exported(const QString& path, const QString& error);

 private:
  void recompute();
  void drawThroughput();
  void drawMemory();
  void drawBreakdown();
  void showStatus(const QString& text, bool problem);
  void chooseExportPath();
  void showHover(QCustomPlot* plot, QMouseEvent* event);
  const ScalingPoint* pointAt(int64_t world) const;

  PlannerProfileChoice* choice_;
  PlannerProfileCombo* combo_;
  QPushButton* export_;
  QLabel* status_;
  QCustomPlot* throughput_;
  QCustomPlot* memory_;
  QCustomPlot* breakdown_;
  std::optional<protocol::RunConfig> config_;
  std::optional<plan::HardwareProfile> profile_;
  std::vector<plan::LayoutPrediction> table_;
  std::vector<ScalingPoint> points_;
};

}  // namespace moe::ui
