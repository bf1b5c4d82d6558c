#pragma once
// The dashboard's training page: loss (raw, smoothed, eval), aux and z-loss, learning rate,
// gradient norm, tokens/s and step time, one TimeSeriesPlot each, zoomed together; and eval
// accuracy beside the gradient norm once the run's evals report one (a classifier). The loss plot
// marks the steps telemetry.capture_every captured (CaptureMarkers) and where the run started
// again (RestartMarkers: a resume, a restart after a failure).
//
// It keeps its curves in step with the run from RunSeries::changesSince deltas: a frame costs
// the new rows only. The smoothed loss is recomputed from the raw rows when the weight changes
// or a resumed run replaces rows, and extended row by row otherwise.
#include <QList>
#include <QWidget>

#include <memory>
#include <vector>

#include "base/plot_data/smoothing.h"
#include "base/telemetry/series_columns.h"
#include "widgets/time_series_plot.h"

namespace moe::ui {

class CaptureMarkers;
class RestartMarkers;
class PlotSync;

class TrainingPage : public QWidget {
  Q_OBJECT

 public:
  explicit TrainingPage(PlotSync* sync, QWidget* parent = nullptr);

  void apply(const RunSnapshot& delta);
  void setSmoothing(double weight);
  double smoothing() const { return smoother_.weight(); }

  QList<TimeSeriesPlot*> plots() const { return plots_; }
  TimeSeriesPlot* lossPlot() const { return loss_; }
  TimeSeriesPlot* accuracyPlot() const { return accuracy_; }    // hidden until an eval has one
  CaptureMarkers* captureMarkers() const { return captures_; }  // on the loss plot
  RestartMarkers* restartMarkers() const { return restarts_; }  // on the loss plot

 private:
  TimeSeriesPlot* addPlot(const QString& y_label, const QString& export_name);
  void resmoothFrom(double from);
  void showAccuracy(bool on);

  QList<TimeSeriesPlot*> plots_;
  TimeSeriesPlot *loss_, *aux_, *lr_, *grad_, *speed_, *step_time_, *accuracy_;
  class QGridLayout* grid_;
  CaptureMarkers* captures_;
  RestartMarkers* restarts_;
  int raw_ = 0, smooth_ = 0, eval_ = 0, aux_curve_ = 0, z_curve_ = 0;
  EmaSmoother smoother_{0.9};
  // The smoother's state before row i * kSmoothCheckpointRows, so that a delta replacing rows
  // from some step on resumes the average near them instead of replaying the run from row 0 (a
  // live delta starts at its first step every frame).
  static constexpr qsizetype kSmoothCheckpointRows = 256;
  std::vector<EmaSmoother> smooth_checkpoints_;
  // The step and time column every per-step curve shares (not the evals'): one copy, not eight.
  std::shared_ptr<PlotKeys> step_keys_ = std::make_shared<PlotKeys>();
};

}  // namespace moe::ui
