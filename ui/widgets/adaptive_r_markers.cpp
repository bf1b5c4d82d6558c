#include "widgets/adaptive_r_markers.h"

#include <QStringList>

#include <cmath>

#include "widgets/time_series_plot.h"

namespace moe::ui {

namespace {

const QColor kMarkerColor(124, 58, 237);  // violet: apart from the Okabe–Ito curve colours

bool sameDecisions(const std::vector<protocol::AdaptiveREvent>& a,
                   const std::vector<protocol::AdaptiveREvent>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].step != b[i].step || a[i].r != b[i].r || a[i].t != b[i].t) return false;
  }
  return true;
}

}  // namespace

QString adaptiveRLogLine(const protocol::AdaptiveREvent& e) {
  QStringList tried;
  for (const auto& [r, ms] : e.tried) {
    tried << QString("r=%1 %2 ms")
                 .arg(r)
                 .arg(std::isfinite(ms) ? QString::number(ms, 'f', 1) : QStringLiteral("–"));
  }
  QString line = QString("adaptive r at step %1: r = %2").arg(e.step).arg(e.r);
  if (!tried.isEmpty()) line += " (tried " + tried.join(", ") + ")";
  if (!e.reason.empty()) line += ": " + QString::fromStdString(e.reason);
  return line;
}

AdaptiveRMarkers::AdaptiveRMarkers(TimeSeriesPlot* plot)
    : StepMarkers(plot, kMarkerColor, Qt::DashLine, /*label_y=*/0.02) {}

void AdaptiveRMarkers::show(const std::vector<protocol::AdaptiveREvent>& decisions) {
  if (sameDecisions(decisions, shown_)) return;
  shown_ = decisions;
  clear();
  for (const protocol::AdaptiveREvent& e : shown_) addBoxed(e.step, e.t, QString("r=%1").arg(e.r));
  plot()->requestReplot();
}

QString AdaptiveRMarkers::label(int marker) const {
  return labelItem(marker)->text();
}

}  // namespace moe::ui
