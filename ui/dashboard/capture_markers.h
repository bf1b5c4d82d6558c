// The steps telemetry.capture_every captured (capture events) as markers on a plot over steps: a
// dotted line at each captured step, a diamond at its top. A click on a marker asks for the
// What-if view of that step (RunDashboard::whatIfRequested).
#pragma once

#include <QObject>
#include <QPointF>
#include <QVector>

#include <cstdint>
#include <vector>

#include "telemetry/telemetry_protocol.h"

class QCPAbstractItem;
class QCPItemStraightLine;
class QCPItemText;
class QMouseEvent;

namespace moe::ui {

class TimeSeriesPlot;

class CaptureMarkers : public QObject {
  Q_OBJECT

 public:
  // A child of `plot`, which owns the marker items; they follow its x mode (step or time).
  explicit CaptureMarkers(TimeSeriesPlot* plot);

  // Shows the steps of these captures (by step, then layer: one marker per step).
  void show(const std::vector<protocol::CaptureEvent>& captures);
  int count() const { return static_cast<int>(lines_.size()); }
  int64_t step(int marker) const { return steps_[static_cast<size_t>(marker)].step; }
  double x(int marker) const;            // where it stood on the x-axis when last drawn
  QPointF labelPixel(int marker) const;  // where its diamond is on the plot, in pixels

 signals:
  void clicked(qint64 step);

 private:
  void place();
  void clickedItem(QCPAbstractItem* item, QMouseEvent* event);

  TimeSeriesPlot* plot_;
  std::vector<protocol::CaptureEvent> steps_;  // the first capture of each step
  QVector<QCPItemStraightLine*> lines_;
  QVector<QCPItemText*> labels_;
};

}  // namespace moe::ui
