#include "widgets/capture_markers.h"

#include <algorithm>

#include "widgets/time_series_plot.h"

namespace moe::ui {

namespace {
const QColor kMarkerColor(13, 148, 136);  // teal: apart from the curves and adaptive_r's violet
}  // namespace

CaptureMarkers::CaptureMarkers(TimeSeriesPlot* plot)
    : StepMarkers(plot, kMarkerColor, Qt::DotLine, /*label_y=*/0) {
  connect(plot, &QCustomPlot::itemClick, this, &CaptureMarkers::clickedItem);
}

void CaptureMarkers::show(const std::vector<protocol::CaptureEvent>& captures) {
  std::vector<protocol::CaptureEvent> steps;
  for (const protocol::CaptureEvent& e : captures)
    if (steps.empty() || steps.back().step != e.step) steps.push_back(e);
  auto same = [](const protocol::CaptureEvent& a, const protocol::CaptureEvent& b) {
    return a.step == b.step && a.t == b.t;
  };
  if (std::equal(steps.begin(), steps.end(), steps_.begin(), steps_.end(), same)) return;
  steps_ = std::move(steps);
  clear();
  for (const protocol::CaptureEvent& e : steps_) {
    QCPItemText* diamond = add(e.step, e.t);
    diamond->setText(QStringLiteral("◆"));
    QFont big = diamond->font();
    big.setPointSizeF(big.pointSizeF() * 1.4);  // a target for the pointer
    diamond->setFont(big);
    diamond->setPositionAlignment(Qt::AlignHCenter | Qt::AlignTop);
  }
  plot()->requestReplot();
}

QPointF CaptureMarkers::labelPixel(int marker) const {
  // The diamond hangs below its anchor: its middle is half a line further down.
  const QPointF anchor = labelItem(marker)->position->pixelPosition();
  return anchor + QPointF(0, labelItem(marker)->font().pointSizeF() * 0.8);
}

// A click on the line or the diamond of a marker (QCustomPlot reports the item under the
// pointer, selectable or not).
void CaptureMarkers::clickedItem(QCPAbstractItem* item, QMouseEvent*) {
  const int marker = markerOf(item);
  if (marker >= 0) emit clicked(step(marker));
}

}  // namespace moe::ui
