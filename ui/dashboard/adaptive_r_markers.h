// The decisions of parallel.adaptive_r "auto" (adaptive_r events) where a reader sees them: as
// markers on a plot over steps (a dashed line at the decision's step, labelled with its r) and as
// a line of the dashboard's log.
#pragma once

#include <QObject>
#include <QString>
#include <QVector>

#include <vector>

#include "telemetry/telemetry_protocol.h"

class QCPItemStraightLine;
class QCPItemText;

namespace moe::ui {

class TimeSeriesPlot;

// "adaptive r at step 50: r = 1 (tried r=0 12.5 ms, r=1 9.1 ms): fastest"
QString adaptiveRLogLine(const protocol::AdaptiveREvent& e);

class AdaptiveRMarkers : public QObject {
 public:
  // A child of `plot`, which owns the marker items; they follow its x mode (step or time).
  explicit AdaptiveRMarkers(TimeSeriesPlot* plot);

  // Shows these decisions (by step), replacing the markers when they differ from those shown.
  void show(const std::vector<protocol::AdaptiveREvent>& decisions);
  int count() const { return static_cast<int>(lines_.size()); }
  QString label(int marker) const;  // "r=1"
  double x(int marker) const;       // where it stood on the x-axis when last drawn

 private:
  void place();                  // at each decision's step or time, as the plot's x mode says
  double key(int marker) const;  // that step or time

  TimeSeriesPlot* plot_;
  std::vector<protocol::AdaptiveREvent> shown_;
  QVector<QCPItemStraightLine*> lines_;
  QVector<QCPItemText*> labels_;
};

}  // namespace moe::ui
