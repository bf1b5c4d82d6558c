// The steps telemetry.capture_every captured (capture events) as markers on a plot over steps
// (StepMarkers): a dotted line at each captured step, a diamond at its top. A click on a marker
// asks for the What-if view of that step (RunDashboard::whatIfRequested).
#pragma once

#include <QPointF>

#include <cstdint>
#include <vector>

#include "base/telemetry/telemetry_protocol.h"
#include "widgets/step_markers.h"

class QMouseEvent;

namespace moe::ui {

class CaptureMarkers : public StepMarkers {
  Q_OBJECT

 public:
  // A child of `plot`, which owns the marker items; they follow its x mode (step or time).
  explicit CaptureMarkers(TimeSeriesPlot* plot);

  // Shows the steps of these captures (by step, then layer: one marker per step).
  void show(const std::vector<protocol::CaptureEvent>& captures);
  int64_t step(int marker) const { return steps_[static_cast<size_t>(marker)].step; }
  QPointF labelPixel(int marker) const;  // where its diamond is on the plot, in pixels

 signals:
  void clicked(qint64 step);

 private:
  void clickedItem(QCPAbstractItem* item, QMouseEvent* event);

  std::vector<protocol::CaptureEvent> steps_;  // the first capture of each step
};

}  // namespace moe::ui
