#include "widgets/step_markers.h"

#include "widgets/time_series_plot.h"

namespace moe::ui {

StepMarkers::StepMarkers(TimeSeriesPlot* plot, QColor color, Qt::PenStyle line_style,
                         double label_y)
    : QObject(plot), plot_(plot), color_(color), line_style_(line_style), label_y_(label_y) {
  connect(plot_, &QCustomPlot::beforeReplot, this, [this] { place(); });
}

void StepMarkers::clear() {
  for (const Marker& m : markers_) {
    plot_->removeItem(m.line);
    plot_->removeItem(m.label);
  }
  markers_.clear();
}

QCPItemText* StepMarkers::add(int64_t step, double t) {
  Marker m{step, t, new QCPItemStraightLine(plot_), new QCPItemText(plot_)};
  m.line->setPen(QPen(color_, 1, line_style_));
  m.line->setSelectable(false);  // presses go through to the axis rect's drag
  for (QCPItemPosition* p : {m.line->point1, m.line->point2}) {
    p->setTypeX(QCPItemPosition::ptPlotCoords);
    p->setTypeY(QCPItemPosition::ptAxisRectRatio);
  }
  m.label->setColor(color_);
  m.label->position->setTypeX(QCPItemPosition::ptPlotCoords);
  m.label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
  m.label->setSelectable(false);
  place(m, plot_->xMode() == TimeSeriesPlot::XMode::Step);
  markers_.push_back(m);
  return m.label;
}

QCPItemText* StepMarkers::addBoxed(int64_t step, double t, const QString& text) {
  QCPItemText* label = add(step, t);
  label->setText(text);
  label->setBrush(QBrush(QColor(255, 255, 255, 200)));
  label->setPadding(QMargins(2, 0, 2, 0));
  label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
  return label;
}

void StepMarkers::place() {
  const bool by_step = plot_->xMode() == TimeSeriesPlot::XMode::Step;
  for (const Marker& m : markers_) place(m, by_step);
}

void StepMarkers::place(const Marker& m, bool by_step) {
  const double at = by_step ? static_cast<double>(m.step) : m.t;
  m.line->point1->setCoords(at, 0);
  m.line->point2->setCoords(at, 1);
  m.label->position->setCoords(at, label_y_);
}

double StepMarkers::x(int marker) const {
  return markers_[marker].line->point1->coords().x();
}

int StepMarkers::markerOf(const QCPAbstractItem* item) const {
  for (int i = 0; i < count(); ++i) {
    if (item == markers_[i].line || item == markers_[i].label) return i;
  }
  return -1;
}

}  // namespace moe::ui
