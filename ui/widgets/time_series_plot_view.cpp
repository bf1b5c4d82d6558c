// TimeSeriesPlot: following the data and fitting the axes to it.
#include <algorithm>
#include <cmath>

#include "widgets/time_series_plot.h"

namespace moe::ui {

namespace {

// Pads a value range so curves do not touch the frame; multiplicative on a log axis.
QCPRange withHeadroom(QCPRange r, bool log) {
  if (log) {
    const double ratio = r.upper / r.lower;
    const double f = ratio > 1.0001 ? std::pow(ratio, 0.05) : 1.5;
    return QCPRange(r.lower / f, r.upper * f);
  }
  const double span = r.upper - r.lower;
  const double pad = span > 0 ? span * 0.05 : (r.upper != 0 ? std::abs(r.upper) * 0.1 : 1.0);
  return QCPRange(r.lower - pad, r.upper + pad);
}

}  // namespace

bool TimeSeriesPlot::followsData() const {
  return follows_;
}

void TimeSeriesPlot::stopFollowing() {
  if (!follows_) return;
  follows_ = false;
  emit followChanged(false);
}

void TimeSeriesPlot::resetView() {
  follows_ = true;
  syncGraphs();
  fitAxes();
  replot(rpQueuedReplot);
  emit followChanged(true);
}

void TimeSeriesPlot::refreshView() {
  // Fitting and drawing cost time in the length of the run: none for a page out of view.
  if (drawingDeferred()) {
    view_deferred_ = true;
    return;
  }
  if (follows_) fitAxes();
  if (!std::isnan(hover_x_)) showHover(hover_x_);  // the values under the mouse may be new
  replot(rpQueuedReplot);
}

void TimeSeriesPlot::requestReplot() {
  if (drawingDeferred())
    view_deferred_ = true;
  else
    replot(rpQueuedReplot);
}

void TimeSeriesPlot::fitAxes() {
  bool have_x = false;
  QCPRange x;
  for (const Curve& c : curves_) {
    if (!c.visible) continue;
    bool found = false;
    const QCPRange r = c.graph->getKeyRange(found, QCP::sdBoth);
    if (!found) continue;
    if (have_x)
      x.expand(r);
    else
      x = r;
    have_x = true;
  }
  if (!have_x) return;
  if (x.size() <= 0) x = QCPRange(x.lower - 0.5, x.upper + 0.5);
  xAxis->setRange(x);
  fitY(QCPRange());
}

void TimeSeriesPlot::fitY(const QCPRange& key_range) {
  bool have_y = false;
  QCPRange y;
  const QCP::SignDomain domain = log_y_ ? QCP::sdPositive : QCP::sdBoth;
  for (const Curve& c : curves_) {
    if (!c.visible) continue;
    bool found = false;
    const QCPRange r = c.graph->getValueRange(found, domain, key_range);
    if (!found) continue;
    if (have_y)
      y.expand(r);
    else
      y = r;
    have_y = true;
  }
  if (have_y) yAxis->setRange(withHeadroom(y, log_y_));
}

void TimeSeriesPlot::onXRangeChanged() {
  if (user_input_) stopFollowing();
  if (follows_) return;
  if (drawingDeferred()) {
    view_deferred_ = true;
    return;
  }
  // Zooming is about steps; y fits what is in view so a zoomed-in stretch shows its detail.
  syncGraphs();
  fitY(xAxis->range());
}

}  // namespace moe::ui
