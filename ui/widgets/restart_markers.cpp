#include "widgets/restart_markers.h"

#include <algorithm>

#include "widgets/time_series_plot.h"

namespace moe::ui {

namespace {
const QColor kMarkerColor(220, 38, 38);  // red: a failure happened here (or a stop)
}  // namespace

RestartMarkers::RestartMarkers(TimeSeriesPlot* plot)
    : StepMarkers(plot, kMarkerColor, Qt::DashDotLine, /*label_y=*/0.12) {}

void RestartMarkers::show(const std::vector<RunRestart>& restarts) {
  const auto same = [](const RunRestart& a, const RunRestart& b) {
    return a.step == b.step && a.restart == b.restart && a.t == b.t;
  };
  if (std::equal(restarts.begin(), restarts.end(), shown_.begin(), shown_.end(), same)) return;
  shown_ = restarts;
  clear();
  for (const RunRestart& r : shown_)
    addBoxed(r.step, r.t,
             r.restart > 0 ? QString("restart %1").arg(r.restart) : QString("resumed"));
  plot()->requestReplot();
}

QString RestartMarkers::label(int marker) const {
  return labelItem(marker)->text();
}

}  // namespace moe::ui
