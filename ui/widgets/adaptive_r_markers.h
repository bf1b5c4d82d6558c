// The decisions of parallel.adaptive_r "auto" (adaptive_r events) where a reader sees them: as
// markers on a plot over steps (StepMarkers: a dashed line at the decision's step, labelled with
// its r) and as a line of the dashboard's log.
#pragma once

#include <QString>

#include <vector>

#include "base/telemetry/telemetry_protocol.h"
#include "widgets/step_markers.h"

namespace moe::ui {

// "adaptive r at step 50: r = 1 (tried r=0 12.5 ms, r=1 9.1 ms): fastest"
QString adaptiveRLogLine(const protocol::AdaptiveREvent& e);

class AdaptiveRMarkers : public StepMarkers {
 public:
  // A child of `plot`, which owns the marker items; they follow its x mode (step or time).
  explicit AdaptiveRMarkers(TimeSeriesPlot* plot);

  // Shows these decisions (by step), replacing the markers when they differ from those shown.
  void show(const std::vector<protocol::AdaptiveREvent>& decisions);
  QString label(int marker) const;  // "r=1"

 private:
  std::vector<protocol::AdaptiveREvent> shown_;
};

}  // namespace moe::ui
