// TimeSeriesPlot: mouse handling (follow stops on a user drag or zoom, double-click resets),
// the hover line and the read-out.
#include <QMouseEvent>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/plot_data/readout_format.h"
#include "widgets/time_series_plot.h"

namespace moe::ui {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Index of the row whose key is nearest to x among the first `rows` of a sorted key column;
// -1 when none.
qsizetype nearestRow(const QVector<double>& keys, qsizetype rows, double x) {
  if (rows <= 0) return -1;
  const auto end = keys.cbegin() + rows;
  const auto it = std::lower_bound(keys.cbegin(), end, x);
  if (it == keys.cbegin()) return 0;
  if (it == end) return rows - 1;
  const qsizetype hi = it - keys.cbegin();
  return (x - keys[hi - 1] <= keys[hi] - x) ? hi - 1 : hi;
}

}  // namespace

QStringList TimeSeriesPlot::readoutParts(double x, double* row_key) const {
  QStringList parts;
  if (std::isnan(x)) return parts;
  for (const Curve& c : curves_) {
    if (!c.visible) continue;
    const QVector<double>& keys = keyColumn(c);
    const qsizetype i = nearestRow(keys, rowCount(c), x);
    if (i < 0) continue;
    if (parts.isEmpty()) {  // the x part comes from the first curve with data
      if (row_key) *row_key = keys[i];
      parts << (x_mode_ == XMode::Step
                    ? QStringLiteral("step ") + formatReadoutStep(c.keys->step()[i])
                    : QStringLiteral("t ") + formatReadoutWallTime(c.keys->t()[i]));
    }
    parts << c.name + QLatin1Char(' ') + formatReadoutValue(c.value[i]);
  }
  return parts;
}

QString TimeSeriesPlot::readoutAt(double x) const {
  return readoutParts(x, nullptr).join(QStringLiteral("   "));
}

void TimeSeriesPlot::showHover(double x) {
  double row_key = x;
  const QStringList parts = readoutParts(x, &row_key);
  const bool show = !parts.isEmpty();
  hover_x_ = x;  // kept while the mouse is over, so refreshView() can show data that arrives
  if (!show && !hover_line_->visible()) return;  // nothing shown, nothing to hide
  hover_line_->setVisible(show);
  hover_text_->setVisible(show);
  if (show) {
    // The line sits on the row the read-out describes, not between rows.
    hover_line_->point1->setCoords(row_key, 0);
    hover_line_->point2->setCoords(row_key, 1);
    hover_text_->setText(parts.join(QLatin1Char('\n')));
    // Beside the line, on the side with more room, so it covers the curves away from the mouse
    // rather than the start of the run.
    const QRect area = axisRect()->rect();
    const double px = xAxis->coordToPixel(row_key);
    const bool right_half = px > area.center().x();
    hover_text_->position->setCoords(px + (right_half ? -8 : 8), area.top() + 4);
    hover_text_->setPositionAlignment(Qt::AlignTop | (right_half ? Qt::AlignRight : Qt::AlignLeft));
  }
  hover_layer_->replot();
}

void TimeSeriesPlot::mouseMoveEvent(QMouseEvent* event) {
  const QPointF pos = event->position();
  if (axisRect()->rect().contains(pos.toPoint())) {
    const double x = xAxis->pixelToCoord(pos.x());
    showHover(x);
    emit hoverMoved(x);
  } else if (!std::isnan(hover_x_)) {
    showHover(kNaN);
    emit hoverMoved(kNaN);
  }
  // A range change while a button is held is the user's drag.
  user_input_ = event->buttons() != Qt::NoButton;
  QCustomPlot::mouseMoveEvent(event);
  user_input_ = false;
}

void TimeSeriesPlot::wheelEvent(QWheelEvent* event) {
  user_input_ = true;
  QCustomPlot::wheelEvent(event);
  user_input_ = false;
}

void TimeSeriesPlot::mouseDoubleClickEvent(QMouseEvent* event) {
  QCustomPlot::mouseDoubleClickEvent(event);
  resetView();
}

void TimeSeriesPlot::leaveEvent(QEvent* event) {
  QCustomPlot::leaveEvent(event);
  showHover(kNaN);
  emit hoverMoved(kNaN);
}

}  // namespace moe::ui
