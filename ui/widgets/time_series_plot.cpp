// TimeSeriesPlot: curves, rows and the x/y modes. Following and fitting the axes are in
// time_series_plot_view.cpp, mouse handling, hover and read-out in time_series_plot_hover.cpp.
#include "widgets/time_series_plot.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "widgets/plot_style.h"

namespace moe::ui {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

QString xLabel(TimeSeriesPlot::XMode mode) {
  return mode == TimeSeriesPlot::XMode::Step ? QStringLiteral("step")
                                             : QStringLiteral("wall time (s)");
}

// Bit-for-bit the same row (NaN equal to NaN).
bool sameRow(const TimeSeriesPlot::Rows& rows, qsizetype i, double step, double t, double value) {
  auto same = [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); };
  return same(rows.step[i], step) && same(rows.t[i], t) && same(rows.value[i], value);
}

}  // namespace

TimeSeriesPlot::TimeSeriesPlot(const QString& y_label, QWidget* parent)
    : QCustomPlot(parent), hover_x_(kNaN) {
  style_plot(this, xLabel(x_mode_), y_label);
  setMouseTracking(true);
  // Zoom and drag move along the steps only; y follows the data in view (onXRangeChanged).
  setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  axisRect()->setRangeDrag(Qt::Horizontal);
  axisRect()->setRangeZoom(Qt::Horizontal);
  axisRect()->setRangeDragAxes(xAxis, nullptr);
  axisRect()->setRangeZoomAxes(xAxis, nullptr);

  QFont legend_font = font();
  legend_font.setPointSizeF(legend_font.pointSizeF() * 0.85);
  legend->setFont(legend_font);
  legend->setBrush(QBrush(QColor(255, 255, 255, 200)));
  legend->setBorderPen(QPen(QColor(0, 0, 0, 40)));
  legend->setVisible(false);
  axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);

  // The hover items live on their own buffered layer so moving the mouse redraws only them,
  // not 100k-point curves.
  addLayer(QStringLiteral("hover"), layer(QStringLiteral("overlay")), QCustomPlot::limBelow);
  hover_layer_ = layer(QStringLiteral("hover"));
  hover_layer_->setMode(QCPLayer::lmBuffered);
  hover_line_ = new QCPItemStraightLine(this);
  hover_line_->setLayer(hover_layer_);
  hover_line_->setPen(QPen(QColor(160, 160, 160), 1));
  for (QCPItemPosition* p : {hover_line_->point1, hover_line_->point2}) {
    p->setTypeX(QCPItemPosition::ptPlotCoords);
    p->setTypeY(QCPItemPosition::ptAxisRectRatio);
  }
  hover_line_->setSelectable(false);  // presses go through to the axis rect's drag
  hover_line_->setVisible(false);
  hover_text_ = new QCPItemText(this);
  hover_text_->setLayer(hover_layer_);
  hover_text_->position->setType(QCPItemPosition::ptAxisRectRatio);
  hover_text_->position->setCoords(0.01, 0.02);
  hover_text_->setPositionAlignment(Qt::AlignTop | Qt::AlignLeft);
  hover_text_->setTextAlignment(Qt::AlignLeft);
  hover_text_->setFont(legend_font);
  hover_text_->setBrush(QBrush(QColor(255, 255, 255, 210)));
  hover_text_->setPadding(QMargins(4, 2, 4, 2));
  hover_text_->setSelectable(false);
  hover_text_->setVisible(false);

  connect(xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
          &TimeSeriesPlot::onXRangeChanged);
}

int TimeSeriesPlot::addCurve(const QString& name, const QPen& pen, bool markers) {
  Curve curve;
  curve.name = name;
  curve.graph = addGraph(xAxis, yAxis);
  curve.graph->setName(name);
  curve.graph->setPen(pen);
  curve.graph->setAdaptiveSampling(true);  // draws long curves decimated; data stays whole
  if (markers) {
    curve.graph->setLineStyle(QCPGraph::lsNone);
    curve.graph->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, pen.color(), pen.color().lighter(150), 6));
  }
  curves_.append(curve);
  reserveRows(reserved_rows_);
  updateLegend();
  return static_cast<int>(curves_.size()) - 1;
}

void TimeSeriesPlot::reserveRows(qsizetype rows) {
  reserved_rows_ = rows;
  for (Curve& c : curves_) {
    if (c.rows.step.capacity() >= rows) continue;
    c.rows.step.reserve(rows);
    c.rows.t.reserve(rows);
    c.rows.value.reserve(rows);
  }
}

int TimeSeriesPlot::curveCount() const {
  return static_cast<int>(curves_.size());
}

QString TimeSeriesPlot::curveName(int curve) const {
  return curve >= 0 && curve < curves_.size() ? curves_[curve].name : QString();
}

void TimeSeriesPlot::setCurveVisible(int curve, bool visible) {
  if (curve < 0 || curve >= curves_.size() || curves_[curve].visible == visible) return;
  curves_[curve].visible = visible;
  curves_[curve].graph->setVisible(visible);
  updateLegend();
  refreshView();
}

bool TimeSeriesPlot::curveVisible(int curve) const {
  return curve >= 0 && curve < curves_.size() && curves_[curve].visible;
}

void TimeSeriesPlot::removeCurves() {
  for (const Curve& c : curves_) removeGraph(c.graph);
  curves_.clear();
  updateLegend();
  showHover(kNaN);
  replot(rpQueuedReplot);
}

void TimeSeriesPlot::replaceFrom(int curve, double from, const QVector<double>& step,
                                 const QVector<double>& t, const QVector<double>& value) {
  if (curve < 0 || curve >= curves_.size()) return;
  Q_ASSERT(step.size() == t.size() && step.size() == value.size());
  const qsizetype n = std::min({step.size(), t.size(), value.size()});
  if (std::isnan(from)) from = std::numeric_limits<double>::infinity();  // NaN: append only
  Rows& rows = curves_[curve].rows;
  // Rows are sorted by step: everything from the first step >= from goes.
  qsizetype keep =
      std::lower_bound(rows.step.cbegin(), rows.step.cend(), from) - rows.step.cbegin();
  // Rows sent again unchanged (a reader's version can fall back a little) stay as they are:
  // only a real replacement pays for a rebuild.
  qsizetype same = 0;
  while (keep + same < rows.step.size() && same < n &&
         sameRow(rows, keep + same, step[same], t[same], value[same]))
    ++same;
  keep += same;
  const bool dropped = keep < rows.step.size();
  rows.step.resize(keep);
  rows.t.resize(keep);
  rows.value.resize(keep);
  rows.step.append(step.mid(same, n - same));
  rows.t.append(t.mid(same, n - same));
  rows.value.append(value.mid(same, n - same));
  // Appending is the common case (a live run); only a resumed run needs a rebuild.
  if (dropped)
    rebuildGraph(curve);
  else
    appendToGraph(curve, static_cast<int>(keep));
}

void TimeSeriesPlot::setRows(int curve, const Rows& rows) {
  if (curve < 0 || curve >= curves_.size()) return;
  curves_[curve].rows = rows;
  rebuildGraph(curve);
}

const TimeSeriesPlot::Rows& TimeSeriesPlot::rows(int curve) const {
  static const Rows kEmpty;
  return curve >= 0 && curve < curves_.size() ? curves_[curve].rows : kEmpty;
}

TimeSeriesPlot::XMode TimeSeriesPlot::xMode() const {
  return x_mode_;
}

void TimeSeriesPlot::setXMode(XMode mode) {
  if (mode == x_mode_) return;
  x_mode_ = mode;
  xAxis->setLabel(xLabel(mode));
  rebuildGraphs();
  // A range in steps means nothing in seconds: show all data, following or not.
  fitAxes();
  showHover(kNaN);
  replot(rpQueuedReplot);
}

bool TimeSeriesPlot::logY() const {
  return log_y_;
}

void TimeSeriesPlot::setLogY(bool on) {
  if (on == log_y_) return;
  log_y_ = on;
  yAxis->setScaleType(on ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
  if (on)
    yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
  else
    yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
  rebuildGraphs();
  fitY(follows_ ? QCPRange() : xAxis->range());
  replot(rpQueuedReplot);
}

const QVector<double>& TimeSeriesPlot::keyColumn(const Rows& rows) const {
  return x_mode_ == XMode::Step ? rows.step : rows.t;
}

void TimeSeriesPlot::appendToGraph(int curve, int first_row) {
  Curve& c = curves_[curve];
  const QVector<double>& keys = keyColumn(c.rows);
  for (qsizetype i = first_row; i < keys.size(); ++i) {
    if (!std::isfinite(keys[i])) continue;  // a row without a time has no place on the axis
    const double value = c.rows.value[i];
    // NaN draws as a gap; non-positive values have no place on a log axis, inf none at all.
    const bool drawable = std::isfinite(value) && (!log_y_ || value > 0);
    c.decimated.add(keys[i], drawable ? value : kNaN);
  }
  syncGraph(curve);
}

void TimeSeriesPlot::rebuildGraph(int curve) {
  curves_[curve].decimated.clear();
  appendToGraph(curve, 0);
}

void TimeSeriesPlot::rebuildGraphs() {
  for (int i = 0; i < curves_.size(); ++i) rebuildGraph(i);
}

bool TimeSeriesPlot::drawingDeferred() const {
  return !isVisible() && window()->isVisible();
}

void TimeSeriesPlot::syncGraph(int curve) {
  Curve& c = curves_[curve];
  c.stale = drawingDeferred();
  if (c.stale) return;
  if (follows_) {
    c.graph->data()->set(c.decimated.points(), true);
    return;
  }
  // Zoomed in: the rows in view (and one either side, so lines run to the frame), decimated
  // afresh so the detail shows.
  const QVector<double>& keys = keyColumn(c.rows);
  const QCPRange view = xAxis->range();
  const bool sorted = std::is_sorted(keys.cbegin(), keys.cend());
  const qsizetype first =
      sorted ? std::max<qsizetype>(
                   0, std::lower_bound(keys.cbegin(), keys.cend(), view.lower) - keys.cbegin() - 1)
             : 0;
  const qsizetype last =
      sorted ? std::min<qsizetype>(
                   keys.size(),
                   std::upper_bound(keys.cbegin(), keys.cend(), view.upper) - keys.cbegin() + 1)
             : keys.size();
  CurveDecimator in_view;
  for (qsizetype i = first; i < last; ++i) {
    if (!std::isfinite(keys[i])) continue;
    const double value = c.rows.value[i];
    in_view.add(keys[i], std::isfinite(value) && (!log_y_ || value > 0) ? value : kNaN);
  }
  c.graph->data()->set(in_view.points(), true);
}

void TimeSeriesPlot::syncGraphs() {
  for (int i = 0; i < curves_.size(); ++i) syncGraph(i);
}

void TimeSeriesPlot::showEvent(QShowEvent* event) {
  QCustomPlot::showEvent(event);
  for (int i = 0; i < curves_.size(); ++i)
    if (curves_[i].stale) syncGraph(i);
  if (view_deferred_) {
    view_deferred_ = false;
    refreshView();
  }
}

void TimeSeriesPlot::updateLegend() {
  legend->clearItems();
  int shown = 0;
  for (const Curve& c : curves_) {
    if (!c.visible) continue;
    c.graph->addToLegend();
    ++shown;
  }
  legend->setVisible(shown > 1);
}

}  // namespace moe::ui
