#include "dashboard/adaptive_r_markers.h"

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

AdaptiveRMarkers::AdaptiveRMarkers(TimeSeriesPlot* plot) : QObject(plot), plot_(plot) {
  // Placed for each drawing, so an x mode switch (step / wall time) moves them along.
  connect(plot_, &QCustomPlot::beforeReplot, this, [this] { place(); });
}

void AdaptiveRMarkers::show(const std::vector<protocol::AdaptiveREvent>& decisions) {
  if (sameDecisions(decisions, shown_)) return;
  shown_ = decisions;
  for (QCPItemStraightLine* line : lines_) plot_->removeItem(line);
  for (QCPItemText* text : labels_) plot_->removeItem(text);
  lines_.clear();
  labels_.clear();
  for (const protocol::AdaptiveREvent& e : shown_) {
    auto* line = new QCPItemStraightLine(plot_);
    line->setPen(QPen(kMarkerColor, 1, Qt::DashLine));
    line->setSelectable(false);  // presses go through to the axis rect's drag
    for (QCPItemPosition* p : {line->point1, line->point2}) {
      p->setTypeX(QCPItemPosition::ptPlotCoords);
      p->setTypeY(QCPItemPosition::ptAxisRectRatio);
    }
    auto* text = new QCPItemText(plot_);
    text->setText(QString("r=%1").arg(e.r));
    text->setColor(kMarkerColor);
    text->setBrush(QBrush(QColor(255, 255, 255, 200)));
    text->setPadding(QMargins(2, 0, 2, 0));
    text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    text->position->setTypeX(QCPItemPosition::ptPlotCoords);
    text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    text->setSelectable(false);
    lines_.push_back(line);
    labels_.push_back(text);
  }
  place();
  plot_->requestReplot();
}

void AdaptiveRMarkers::place() {
  for (int i = 0; i < count(); ++i) {
    const double at = key(i);
    lines_[i]->point1->setCoords(at, 0);
    lines_[i]->point2->setCoords(at, 1);
    labels_[i]->position->setCoords(at, 0.02);
  }
}

QString AdaptiveRMarkers::label(int marker) const {
  return labels_[marker]->text();
}

double AdaptiveRMarkers::x(int marker) const {
  return lines_[marker]->point1->coords().x();
}

double AdaptiveRMarkers::key(int marker) const {
  const protocol::AdaptiveREvent& e = shown_[static_cast<size_t>(marker)];
  return plot_->xMode() == TimeSeriesPlot::XMode::Step ? static_cast<double>(e.step) : e.t;
}

}  // namespace moe::ui
