#include "dashboard/capture_markers.h"

#include <algorithm>

#include "widgets/time_series_plot.h"

namespace moe::ui {

namespace {
const QColor kMarkerColor(13, 148, 136);  // teal: apart from the curves and adaptive_r's violet
}  // namespace

CaptureMarkers::CaptureMarkers(TimeSeriesPlot* plot) : QObject(plot), plot_(plot) {
  connect(plot_, &QCustomPlot::beforeReplot, this, [this] { place(); });
  connect(plot_, &QCustomPlot::itemClick, this, &CaptureMarkers::clickedItem);
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
  for (QCPItemStraightLine* line : lines_) plot_->removeItem(line);
  for (QCPItemText* text : labels_) plot_->removeItem(text);
  lines_.clear();
  labels_.clear();
  for (size_t i = 0; i < steps_.size(); ++i) {
    auto* line = new QCPItemStraightLine(plot_);
    line->setPen(QPen(kMarkerColor, 1, Qt::DotLine));
    line->setSelectable(false);  // presses go through to the axis rect's drag
    for (QCPItemPosition* p : {line->point1, line->point2}) {
      p->setTypeX(QCPItemPosition::ptPlotCoords);
      p->setTypeY(QCPItemPosition::ptAxisRectRatio);
    }
    auto* text = new QCPItemText(plot_);
    text->setText(QStringLiteral("◆"));
    text->setColor(kMarkerColor);
    QFont big = text->font();
    big.setPointSizeF(big.pointSizeF() * 1.4);  // a target for the pointer
    text->setFont(big);
    text->setPositionAlignment(Qt::AlignHCenter | Qt::AlignTop);
    text->position->setTypeX(QCPItemPosition::ptPlotCoords);
    text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    text->setSelectable(false);
    lines_.push_back(line);
    labels_.push_back(text);
  }
  place();
  plot_->requestReplot();
}

void CaptureMarkers::place() {
  const bool by_step = plot_->xMode() == TimeSeriesPlot::XMode::Step;
  for (int i = 0; i < count(); ++i) {
    const protocol::CaptureEvent& e = steps_[static_cast<size_t>(i)];
    const double at = by_step ? static_cast<double>(e.step) : e.t;
    lines_[i]->point1->setCoords(at, 0);
    lines_[i]->point2->setCoords(at, 1);
    labels_[i]->position->setCoords(at, 0);
  }
}

double CaptureMarkers::x(int marker) const {
  return lines_[marker]->point1->coords().x();
}

QPointF CaptureMarkers::labelPixel(int marker) const {
  // The diamond hangs below its anchor: its middle is half a line further down.
  const QPointF anchor = labels_[marker]->position->pixelPosition();
  return anchor + QPointF(0, labels_[marker]->font().pointSizeF() * 0.8);
}

// A click on the line or the diamond of a marker (QCustomPlot reports the item under the
// pointer, selectable or not).
void CaptureMarkers::clickedItem(QCPAbstractItem* item, QMouseEvent*) {
  for (int i = 0; i < count(); ++i) {
    if (item == lines_[i] || item == labels_[i]) {
      emit clicked(step(i));
      return;
    }
  }
}

}  // namespace moe::ui
