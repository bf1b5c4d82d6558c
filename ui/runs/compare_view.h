#pragma once
// CompareView: several runs side by side. One plot overlays the same metric for every run (x by
// step or wall time, log y, smoothing), and a config diff below shows how the runs' settings
// differ. Runs are given as series: a live run's own (the overlay keeps moving) or one replayed
// from a run directory.
#include <QList>
#include <QStringList>
#include <QTimer>
#include <QWidget>
#include <memory>

#include "base/telemetry/run_series.h"

class QComboBox;

namespace moe::ui {

class ConfigDiffView;
class DashboardControls;
class TimeSeriesPlot;

class CompareView : public QWidget {
  Q_OBJECT

 public:
  explicit CompareView(QWidget* parent = nullptr);

  // Adds a run shown under `title`.
  void addRun(const QString& title, std::shared_ptr<RunSeries> series);
  // Adds a run directory, replayed from its metrics.jsonl in the background.
  void addRunDirectory(const QString& run_dir);

  int runCount() const { return static_cast<int>(runs_.size()); }
  TimeSeriesPlot* plot() const { return plot_; }
  ConfigDiffView* configDiff() const { return diff_; }
  QComboBox* metricBox() const { return metric_; }
  // Rebuilds the plot and the diff now if any run changed (a timer does it otherwise).
  void refresh();

 private:
  struct Run {
    QString title;
    std::shared_ptr<RunSeries> series;
    uint64_t drawn_version = 0;
    bool started = false;  // its run_start (and so its config) has arrived
    bool stale = true;     // its curve does not show its telemetry yet
  };
  void rebuildCurves();
  void rebuildDiff();

  std::vector<Run> runs_;
  DashboardControls* controls_;
  QComboBox* metric_;
  TimeSeriesPlot* plot_;
  ConfigDiffView* diff_;
  QTimer timer_;
  bool dirty_ = false;  // every curve must be rebuilt (metric or smoothing changed)
};

}  // namespace moe::ui
