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

// Bit-for-bit the same value (NaN equal to NaN).
bool same(double a, double b) {
  return a == b || (std::isnan(a) && std::isnan(b));
}

}  // namespace

void PlotKeys::replaceFrom(double from, const QVector<double>& step, const QVector<double>& t) {
  Q_ASSERT(step.size() == t.size());
  const qsizetype n = std::min(step.size(), t.size());
  if (std::isnan(from)) from = std::numeric_limits<double>::infinity();  // NaN: append only
  // Rows are sorted by step: everything from the first step >= from goes.
  qsizetype keep = std::lower_bound(step_.cbegin(), step_.cend(), from) - step_.cbegin();
  // Rows sent again unchanged (a reader's version can fall back a little) stay as they are.
  qsizetype same_rows = 0;
  while (keep + same_rows < step_.size() && same_rows < n &&
         same(step_[keep + same_rows], step[same_rows]) && same(t_[keep + same_rows], t[same_rows]))
    ++same_rows;
  keep += same_rows;
  changed_from_ = keep;
  step_.resize(keep);
  t_.resize(keep);
  step_.append(step.mid(same_rows, n - same_rows));
  t_.append(t.mid(same_rows, n - same_rows));
}

void PlotKeys::reserve(qsizetype rows) {
  if (step_.capacity() >= rows) return;
  step_.reserve(rows);
  t_.reserve(rows);
}

void PlotKeys::clear() {
  step_.clear();
  t_.clear();
  changed_from_ = 0;
}

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
  // Topmost, with the (empty) overlay layer drawn into the main buffer instead of one of its
  // own: QCustomPlot gives a buffered layer a paint buffer, and one more for any layers above
  // it, each the plot's size in pixels. Two buffers a plot, not three.
  layer(QStringLiteral("overlay"))->setMode(QCPLayer::lmLogical);
  addLayer(QStringLiteral("hover"), layer(QStringLiteral("overlay")), QCustomPlot::limAbove);
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
  curve.own = std::make_shared<PlotKeys>();
  curve.keys = curve.own;
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
    if (c.own) c.own->reserve(rows);  // shared keys are their owner's to reserve
    if (c.value.capacity() < rows) c.value.reserve(rows);
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

void TimeSeriesPlot::setListedOnlyWithRows(int curve, bool on) {
  if (curve < 0 || curve >= curves_.size()) return;
  curves_[curve].listed_only_with_rows = on;
  updateLegend();
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
  Curve& c = curves_[curve];
  if (!c.own) {  // it shared keys: from now on it keeps its own, as far as it has values
    const Rows mine = rows(curve);
    c.own = std::make_shared<PlotKeys>();
    c.own->replaceFrom(-std::numeric_limits<double>::infinity(), mine.step, mine.t);
    c.keys = c.own;
  }
  c.own->replaceFrom(from, step, t);
  takeValues(curve, from, value);
}

void TimeSeriesPlot::replaceValuesFrom(int curve, double from, const QVector<double>& value) {
  if (curve < 0 || curve >= curves_.size()) return;
  takeValues(curve, from, value);
}

void TimeSeriesPlot::takeValues(int curve, double from, const QVector<double>& value) {
  Curve& c = curves_[curve];
  const PlotKeys& keys = *c.keys;
  // The keys are updated already; rows before `from` did not change, so this is where the
  // given values start in the old rows as in the new. Append only: after the curve's values.
  const bool append = std::isnan(from) || from == std::numeric_limits<double>::infinity();
  const qsizetype start =
      append
          ? std::min(c.value.size(), keys.size())
          : std::lower_bound(keys.step().cbegin(), keys.step().cend(), from) - keys.step().cbegin();
  const qsizetype n = std::min(value.size(), keys.size() - start);
  // Rows sent again unchanged (same key, same value) stay as they are: only a real
  // replacement pays for a rebuild.
  const qsizetype old_size = c.value.size();
  qsizetype same_rows = 0;
  while (start + same_rows < std::min(old_size, keys.changedFrom()) && same_rows < n &&
         same(c.value[start + same_rows], static_cast<float>(value[same_rows])))
    ++same_rows;
  const qsizetype keep = std::min(start + same_rows, old_size);
  const bool dropped = keep < old_size;
  c.value.resize(keep);
  // A curve that missed an update of its shared keys has no values for those rows: gaps.
  if (keep < start) c.value.insert(keep, start - keep, std::numeric_limits<float>::quiet_NaN());
  for (qsizetype i = same_rows; i < n; ++i) c.value.append(static_cast<float>(value[i]));
  // Appending is the common case (a live run); only a resumed run needs a rebuild.
  if (dropped)
    rebuildGraph(curve);
  else
    appendToGraph(curve, static_cast<int>(keep));
  if (c.listed_only_with_rows) updateLegend();
}

void TimeSeriesPlot::setRows(int curve, const Rows& rows) {
  if (curve < 0 || curve >= curves_.size()) return;
  Curve& c = curves_[curve];
  auto own = std::make_shared<PlotKeys>();
  own->replaceFrom(-std::numeric_limits<double>::infinity(), rows.step, rows.t);
  c.own = own;
  c.keys = std::move(own);
  c.value.clear();
  c.value.reserve(rows.value.size());
  for (double v : rows.value) c.value.append(static_cast<float>(v));
  rebuildGraph(curve);
  if (c.listed_only_with_rows) updateLegend();
}

void TimeSeriesPlot::shareKeys(int curve, std::shared_ptr<const PlotKeys> keys) {
  if (curve < 0 || curve >= curves_.size() || !keys) return;
  Curve& c = curves_[curve];
  c.own.reset();
  c.keys = std::move(keys);
  c.value.clear();
  c.value.reserve(reserved_rows_);
  rebuildGraph(curve);
  if (c.listed_only_with_rows) updateLegend();
}

TimeSeriesPlot::Rows TimeSeriesPlot::rows(int curve) const {
  if (curve < 0 || curve >= curves_.size()) return {};
  const Curve& c = curves_[curve];
  const qsizetype n = rowCount(c);
  // QVector copies share their data; first(n) would copy the rows.
  auto column = [n](const QVector<double>& v) { return v.size() == n ? v : v.first(n); };
  QVector<double> values(c.value.cbegin(), c.value.cbegin() + n);
  return {column(c.keys->step()), column(c.keys->t()), std::move(values)};
}

qsizetype TimeSeriesPlot::rowCount(int curve) const {
  return curve >= 0 && curve < curves_.size() ? rowCount(curves_[curve]) : 0;
}

double TimeSeriesPlot::value(int curve, qsizetype row) const {
  return curves_[curve].value[row];
}

qsizetype TimeSeriesPlot::rowCount(const Curve& c) {
  return std::min(c.keys->size(), c.value.size());
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

const QVector<double>& TimeSeriesPlot::keyColumn(const Curve& c) const {
  return x_mode_ == XMode::Step ? c.keys->step() : c.keys->t();
}

void TimeSeriesPlot::updateLegend() {
  QVector<bool> listed;
  listed.reserve(curves_.size());
  for (const Curve& c : curves_)
    listed.append(c.visible && (!c.listed_only_with_rows || rowCount(c) > 0));
  if (listed == legend_listed_) return;
  legend_listed_ = listed;
  legend->clearItems();
  int shown = 0;
  for (qsizetype i = 0; i < curves_.size(); ++i) {
    if (!listed[i]) continue;
    curves_[i].graph->addToLegend();
    ++shown;
  }
  legend->setVisible(shown > 1);
}

}  // namespace moe::ui
