// ChartFrame: what every report chart has around its data, laid out for one size and device:
// the axes with their ticks, tick labels, titles and dotted grid, the legend in rows under the
// x axis' title, and room on the right for a colour scale. The chart draws its data in
// plotRect() through the map functions.
#pragma once

#include <QColor>
#include <QFont>
#include <QPainter>
#include <QRectF>
#include <QSizeF>
#include <QString>

#include <vector>

namespace moe::ui {

struct FrameAxis {
  QString label;
  double lower = 0, upper = 1;
  bool integers = false;  // ticks on whole numbers only (ranks, experts)
};

struct LegendEntry {
  enum class Swatch { kLine, kDashedMarker, kBox };
  QString name;
  QColor colour;
  Swatch swatch = Swatch::kLine;
  double width = 1.5;
};

class ChartFrame {
 public:
  // `y2`: a right axis, or null; `right_room`: pixels kept free right of the plot (a colour
  // scale).
  ChartFrame(QPainter& painter, QSizeF size, FrameAxis x, FrameAxis y, const FrameAxis* y2,
             std::vector<LegendEntry> legend, double right_room = 0);

  QRectF plotRect() const { return plot_; }
  double mapX(double x) const;
  double mapY(double y, bool right = false) const;
  const QFont& font() const { return font_; }

  // The white background and the grid, under the data.
  void drawBackground();
  // Axes, ticks, labels and legend, over the data.
  void drawAxes();
  // A vertical axis at `x` (tick labels to its right) for [lower, upper] over the plot's height,
  // titled `label`: the colour scale's.
  void drawSideAxis(double x, double lower, double upper, const QString& label);

  static constexpr double kTick = 5;  // tick length, inward

 private:
  struct Ticks {
    std::vector<double> at;
    double step = 1;
  };
  // About one tick per 80 pixels `across` (x), per 30 up; never fewer than 3.
  Ticks ticksFor(const FrameAxis& axis, double length, bool across) const;
  double labelWidth(const Ticks& ticks) const;

  QPainter& painter_;
  QSizeF size_;
  FrameAxis x_, y_, y2_;
  bool has_y2_;
  std::vector<LegendEntry> legend_;
  QFont font_;
  double line_h_ = 12;
  QRectF plot_;
  Ticks xt_, yt_, y2t_;
  std::vector<std::vector<int>> legend_rows_;  // entry indices per row
  std::vector<double> entry_w_;
};

// The font every chart writes in: the application's, a little smaller (the dashboard's axes').
QFont chartFont();

}  // namespace moe::ui
