// Where a run started again (a resume, or a restart of every rank after a failure under
// `moe-train launch --max-restarts`) as markers on a plot over steps (StepMarkers): a red
// dash-dotted line at the checkpoint step it went on from, labelled "restart k" or "resumed".
#pragma once

#include <QString>

#include <vector>

#include "base/telemetry/series_columns.h"
#include "widgets/step_markers.h"

namespace moe::ui {

class RestartMarkers : public StepMarkers {
  Q_OBJECT

 public:
  // A child of `plot`, which owns the marker items; they follow its x mode (step or time).
  explicit RestartMarkers(TimeSeriesPlot* plot);

  // Shows these starts, replacing the markers when they differ from those shown.
  void show(const std::vector<RunRestart>& restarts);
  QString label(int marker) const;

 private:
  std::vector<RunRestart> shown_;
};

}  // namespace moe::ui
