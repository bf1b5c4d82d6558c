// TimeSeriesPlot: curves, rows and the x/y modes. What the graphs draw (decimation, deferral)
// is in time_series_plot_draw.cpp, following and fitting the axes in time_series_plot_view.cpp,
// mouse handling, hover and read-out in time_series_plot_hover.cpp.
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
  stylePlot(this, xLabel(x_mode_), y_label);
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
  hover_text_->position->setType(QCPItemPosition::ptAbsolute);  // placed by showHover()
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
