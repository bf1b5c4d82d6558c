// TimeSeriesPlot: what the graphs draw. Rows go into each curve's decimator; the graph gets the
// decimated whole run, or, zoomed in, the rows in view decimated afresh. A plot on a hidden page
// of a shown window draws nothing until it is shown.
#include <algorithm>
#include <cmath>
#include <limits>

#include "widgets/time_series_plot.h"

namespace moe::ui {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}

void TimeSeriesPlot::appendToGraph(int curve, int first_row) {
  Curve& c = curves_[curve];
  const QVector<double>& keys = keyColumn(c);
  const qsizetype rows = rowCount(c);
  for (qsizetype i = first_row; i < rows; ++i) {
    if (!std::isfinite(keys[i])) continue;  // a row without a time has no place on the axis
    const double value = c.value[i];
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
  const QVector<double>& keys = keyColumn(c);
  const qsizetype rows = rowCount(c);
  const QCPRange view = xAxis->range();
  const auto end = keys.cbegin() + rows;
  const bool sorted = std::is_sorted(keys.cbegin(), end);
  const qsizetype first =
      sorted ? std::max<qsizetype>(
                   0, std::lower_bound(keys.cbegin(), end, view.lower) - keys.cbegin() - 1)
             : 0;
  const qsizetype last =
      sorted ? std::min<qsizetype>(
                   rows, std::upper_bound(keys.cbegin(), end, view.upper) - keys.cbegin() + 1)
             : rows;
  CurveDecimator in_view;
  for (qsizetype i = first; i < last; ++i) {
    if (!std::isfinite(keys[i])) continue;
    const double value = c.value[i];
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

}  // namespace moe::ui
