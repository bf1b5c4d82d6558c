// ChartFrame (chart_frame.h).
#include "draw/chart_frame.h"

#include <QFontMetricsF>
#include <QGuiApplication>

#include <algorithm>
#include <cmath>
#include <utility>

#include "draw/axis_ticks.h"

namespace moe::ui {

namespace {

constexpr double kGap = 6;            // between a tick label, an axis title and the next thing
constexpr double kSwatch = 24;        // a legend entry's sample
constexpr int kLegendColumns = 4;     // entries per legend row
constexpr double kEntrySpacing = 18;  // between legend entries

const QColor kAxisColour(90, 90, 90);
const QColor kGridColour(0, 0, 0, 28);
const QColor kTextColour(40, 40, 40);

}  // namespace

QFont chartFont() {
  QFont font = QGuiApplication::font();
  font.setPointSizeF(font.pointSizeF() * 0.95);
  return font;
}

ChartFrame::ChartFrame(QPainter& painter, QSizeF size, FrameAxis x, FrameAxis y,
                       const FrameAxis* y2, std::vector<LegendEntry> legend, double right_room)
    : painter_(painter),
      size_(size),
      x_(std::move(x)),
      y_(std::move(y)),
      y2_(y2 ? *y2 : FrameAxis{}),
      has_y2_(y2 != nullptr),
      legend_(std::move(legend)),
      font_(chartFont()) {
  const QFontMetricsF fm(font_, painter_.device());
  line_h_ = fm.height();
  // Legend rows first: they take from the bottom.
  std::vector<int> row;
  for (size_t i = 0; i < legend_.size(); ++i) {
    entry_w_.push_back(kSwatch + 4 + fm.horizontalAdvance(legend_[i].name) + kEntrySpacing);
    row.push_back(static_cast<int>(i));
    if (row.size() == kLegendColumns) legend_rows_.push_back(std::exchange(row, {}));
  }
  if (!row.empty()) legend_rows_.push_back(row);
  const double legend_h = legend_rows_.empty() ? 0 : legend_rows_.size() * (line_h_ + 2) + 4;
  // The y tick labels' width depends on the ticks, which depend on the plot's height: two passes.
  double left = 60, right = has_y2_ ? 60 : 12;
  const double top = 8;
  const double bottom = kGap + line_h_ + kGap + (x_.label.isEmpty() ? 0 : line_h_ + 2) + legend_h;
  for (int pass = 0; pass < 2; ++pass) {
    const double height = std::max(20.0, size_.height() - top - bottom);
    yt_ = ticksFor(y_, height, false);
    left = kGap + (y_.label.isEmpty() ? 0 : line_h_ + kGap) + labelWidth(yt_) + kGap;
    if (has_y2_) {
      y2t_ = ticksFor(y2_, height, false);
      right = kGap + labelWidth(y2t_) + kGap + (y2_.label.isEmpty() ? 0 : line_h_ + kGap);
    }
  }
  plot_ = QRectF(left, top, std::max(20.0, size_.width() - left - right - right_room),
                 std::max(20.0, size_.height() - top - bottom));
  xt_ = ticksFor(x_, plot_.width(), true);
}

ChartFrame::Ticks ChartFrame::ticksFor(const FrameAxis& axis, double length, bool across) const {
  Ticks t;
  const int target = std::max(3, static_cast<int>(length / (across ? 80.0 : 30.0)));
  t.at = niceTicks(axis.lower, axis.upper, target, axis.integers);
  t.step = t.at.size() > 1 ? t.at[1] - t.at[0] : 1;
  return t;
}

double ChartFrame::labelWidth(const Ticks& ticks) const {
  const QFontMetricsF fm(font_, painter_.device());
  double w = 0;
  for (double t : ticks.at) w = std::max(w, fm.horizontalAdvance(tickLabel(t, ticks.step)));
  return w;
}

double ChartFrame::mapX(double x) const {
  const double span = x_.upper - x_.lower;
  return plot_.left() + (span > 0 ? (x - x_.lower) / span : 0.5) * plot_.width();
}

double ChartFrame::mapY(double y, bool right) const {
  const FrameAxis& axis = right && has_y2_ ? y2_ : y_;
  const double span = axis.upper - axis.lower;
  return plot_.bottom() - (span > 0 ? (y - axis.lower) / span : 0.5) * plot_.height();
}

void ChartFrame::drawBackground() {
  painter_.fillRect(QRectF(QPointF(0, 0), size_), Qt::white);
  QPen grid(kGridColour, 1, Qt::DotLine);
  grid.setCosmetic(true);
  painter_.setPen(grid);
  for (double t : xt_.at)
    painter_.drawLine(QPointF(mapX(t), plot_.top()), QPointF(mapX(t), plot_.bottom()));
  for (double t : yt_.at)
    painter_.drawLine(QPointF(plot_.left(), mapY(t)), QPointF(plot_.right(), mapY(t)));
}

void ChartFrame::drawAxes() {
  painter_.save();
  painter_.setRenderHint(QPainter::Antialiasing, false);
  painter_.setFont(font_);
  QPen axis_pen(kAxisColour, 1);
  painter_.setPen(axis_pen);
  painter_.drawLine(plot_.bottomLeft(), plot_.bottomRight());
  painter_.drawLine(plot_.bottomLeft(), plot_.topLeft());
  if (has_y2_) painter_.drawLine(plot_.bottomRight(), plot_.topRight());
  for (double t : xt_.at) {
    const double x = mapX(t);
    painter_.drawLine(QPointF(x, plot_.bottom()), QPointF(x, plot_.bottom() - kTick));
  }
  for (double t : yt_.at) {
    const double y = mapY(t);
    painter_.drawLine(QPointF(plot_.left(), y), QPointF(plot_.left() + kTick, y));
  }
  for (double t : y2t_.at) {
    const double y = mapY(t, true);
    painter_.drawLine(QPointF(plot_.right(), y), QPointF(plot_.right() - kTick, y));
  }
  painter_.setPen(kTextColour);
  const double label_w = 200;
  for (double t : xt_.at) {
    painter_.drawText(QRectF(mapX(t) - label_w / 2, plot_.bottom() + kGap, label_w, line_h_),
                      Qt::AlignHCenter | Qt::AlignTop, tickLabel(t, xt_.step));
  }
  for (double t : yt_.at) {
    painter_.drawText(QRectF(0, mapY(t) - line_h_ / 2, plot_.left() - kGap, line_h_),
                      Qt::AlignRight | Qt::AlignVCenter, tickLabel(t, yt_.step));
  }
  for (double t : y2t_.at) {
    painter_.drawText(QRectF(plot_.right() + kGap, mapY(t, true) - line_h_ / 2, label_w, line_h_),
                      Qt::AlignLeft | Qt::AlignVCenter, tickLabel(t, y2t_.step));
  }
  // Titles: x under its tick labels, y turned up left of its tick labels, y2 turned down.
  const double x_title_top = plot_.bottom() + kGap + line_h_ + 2;
  painter_.drawText(QRectF(plot_.left(), x_title_top, plot_.width(), line_h_),
                    Qt::AlignHCenter | Qt::AlignTop, x_.label);
  painter_.save();
  painter_.translate(kGap, plot_.center().y());
  painter_.rotate(-90);
  painter_.drawText(QRectF(-plot_.height() / 2, 0, plot_.height(), line_h_),
                    Qt::AlignHCenter | Qt::AlignTop, y_.label);
  painter_.restore();
  if (has_y2_ && !y2_.label.isEmpty()) {
    painter_.save();
    painter_.translate(size_.width() - kGap, plot_.center().y());
    painter_.rotate(90);
    painter_.drawText(QRectF(-plot_.height() / 2, 0, plot_.height(), line_h_),
                      Qt::AlignHCenter | Qt::AlignTop, y2_.label);
    painter_.restore();
  }
  // The legend, in rows under the x axis' title.
  double row_y = x_title_top + (x_.label.isEmpty() ? 0 : line_h_ + 2) + 4;
  painter_.setRenderHint(QPainter::Antialiasing, true);
  for (const std::vector<int>& row : legend_rows_) {
    double x = plot_.left();
    for (int i : row) {
      const LegendEntry& e = legend_[static_cast<size_t>(i)];
      const double mid = row_y + line_h_ / 2;
      if (e.swatch == LegendEntry::Swatch::kBox) {
        painter_.fillRect(QRectF(x + 6, mid - 5, kSwatch - 12, 10), e.colour);
      } else {
        QPen pen(e.colour, e.width,
                 e.swatch == LegendEntry::Swatch::kDashedMarker ? Qt::DashLine : Qt::SolidLine);
        painter_.setPen(pen);
        painter_.drawLine(QPointF(x, mid), QPointF(x + kSwatch, mid));
        if (e.swatch == LegendEntry::Swatch::kDashedMarker) {
          painter_.setPen(QPen(e.colour, 1.2));
          painter_.setBrush(Qt::white);
          painter_.drawEllipse(QPointF(x + kSwatch / 2, mid), 3, 3);
          painter_.setBrush(Qt::NoBrush);
        }
      }
      painter_.setPen(kTextColour);
      painter_.drawText(QRectF(x + kSwatch + 4, row_y, entry_w_[static_cast<size_t>(i)], line_h_),
                        Qt::AlignLeft | Qt::AlignVCenter, e.name);
      x += entry_w_[static_cast<size_t>(i)];
    }
    row_y += line_h_ + 2;
  }
  painter_.restore();
}

void ChartFrame::drawSideAxis(double x, double lower, double upper, const QString& label) {
  painter_.save();
  painter_.setFont(font_);
  const std::vector<double> ticks =
      niceTicks(lower, upper, std::max(2, static_cast<int>(plot_.height() / 40)));
  const double step = ticks.size() > 1 ? ticks[1] - ticks[0] : 1;
  const auto at = [&](double v) {
    return plot_.bottom() - (upper > lower ? (v - lower) / (upper - lower) : 0) * plot_.height();
  };
  painter_.setPen(QPen(kAxisColour, 1));
  painter_.drawLine(QPointF(x, plot_.top()), QPointF(x, plot_.bottom()));
  double widest = 0;
  const QFontMetricsF fm(font_, painter_.device());
  for (double t : ticks) {
    painter_.setPen(QPen(kAxisColour, 1));
    painter_.drawLine(QPointF(x, at(t)), QPointF(x + 3, at(t)));
    painter_.setPen(kTextColour);
    const QString text = tickLabel(t, step);
    widest = std::max(widest, fm.horizontalAdvance(text));
    painter_.drawText(QRectF(x + kGap, at(t) - line_h_ / 2, 200, line_h_),
                      Qt::AlignLeft | Qt::AlignVCenter, text);
  }
  painter_.translate(x + kGap + widest + kGap + line_h_, plot_.center().y());
  painter_.rotate(90);
  painter_.drawText(QRectF(-plot_.height() / 2, 0, plot_.height(), line_h_),
                    Qt::AlignHCenter | Qt::AlignTop, label);
  painter_.restore();
}

}  // namespace moe::ui
