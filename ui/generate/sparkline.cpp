#include "generate/sparkline.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

#include "draw/palette.h"

namespace moe::ui {

Sparkline::Sparkline(QWidget* parent) : QWidget(parent) {
  setMinimumSize(80, 30);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void Sparkline::setValues(std::vector<double> values) {
  values_ = std::move(values);
  update();
}

void Sparkline::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  const QRectF area = QRectF(rect()).adjusted(3, 3, -3, -3);
  painter.setPen(QPen(QColor(220, 220, 220), 1));
  painter.drawLine(area.bottomLeft(), area.bottomRight());
  if (values_.size() < 2) return;
  double top = 0;
  for (double v : values_) {
    if (std::isfinite(v)) top = std::max(top, v);
  }
  if (top <= 0) return;
  const double dx = area.width() / static_cast<double>(values_.size() - 1);
  QPainterPath line;
  for (size_t i = 0; i < values_.size(); ++i) {
    const double v = std::isfinite(values_[i]) ? values_[i] : 0;
    const QPointF point(area.left() + dx * static_cast<double>(i),
                        area.bottom() - v / top * area.height());
    if (i == 0) {
      line.moveTo(point);
    } else {
      line.lineTo(point);
    }
  }
  const QColor color = seriesColor(2);  // the dashboard's tokens/s green
  painter.setPen(QPen(color, 1.5));
  painter.drawPath(line);
  painter.setBrush(color);
  painter.drawEllipse(line.currentPosition(), 2.5, 2.5);
}

}  // namespace moe::ui
