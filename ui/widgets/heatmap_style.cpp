#include "widgets/heatmap_style.h"

#include <QToolTip>

#include <array>
#include <cmath>

#include "draw/palette.h"

namespace moe::ui {

QCPColorGradient viridisGradient() {
  QCPColorGradient g;
  g.clearColorStops();
  for (int i = 0; i < kViridisStops; ++i)
    g.setColorStopAt(static_cast<double>(i) / (kViridisStops - 1), viridisStop(i));
  g.setColorInterpolation(QCPColorGradient::ciRGB);
  g.setNanHandling(QCPColorGradient::nhTransparent);
  return g;
}

namespace {

// A diverging gradient: five colours at even steps, low end to high end; NaN is transparent.
QCPColorGradient divergingGradient(const std::array<QColor, 5>& stops) {
  QCPColorGradient g;
  g.clearColorStops();
  for (size_t i = 0; i < stops.size(); ++i) g.setColorStopAt(i / 4.0, stops[i]);
  g.setColorInterpolation(QCPColorGradient::ciRGB);
  g.setNanHandling(QCPColorGradient::nhTransparent);
  return g;
}

}  // namespace

QCPColorGradient balanceGradient() {
  return divergingGradient({QColor(0x21, 0x66, 0xac), QColor(0x92, 0xc5, 0xde),
                            QColor(0xf7, 0xf7, 0xf7), QColor(0xf4, 0xa5, 0x82),
                            QColor(0xb2, 0x18, 0x2b)});
}

QCPColorGradient biasGradient() {
  return divergingGradient({QColor(0x76, 0x2a, 0x83), QColor(0xc2, 0xa5, 0xcf),
                            QColor(0xf7, 0xf7, 0xf7), QColor(0xa6, 0xdb, 0xa0),
                            QColor(0x1b, 0x78, 0x37)});
}

QCPColorScale* addColorScale(QCustomPlot* plot, QCPColorMap* map, const QString& label) {
  auto* scale = new QCPColorScale(plot);
  plot->plotLayout()->addElement(0, 1, scale);
  scale->setType(QCPAxis::atRight);
  scale->setBarWidth(12);
  map->setColorScale(scale);
  QCPAxis* axis = scale->axis();
  axis->setLabel(label);
  axis->setLabelFont(plot->xAxis->labelFont());
  axis->setTickLabelFont(plot->xAxis->tickLabelFont());
  axis->setBasePen(plot->xAxis->basePen());
  axis->setTickPen(plot->xAxis->tickPen());
  axis->setSubTickPen(plot->xAxis->subTickPen());
  auto* margins = new QCPMarginGroup(plot);
  plot->axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
  scale->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
  return scale;
}

QCPRange cellCentreRange(double lo_edge, double hi_edge, int cells) {
  if (cells <= 1) return QCPRange(lo_edge, hi_edge);
  const double half = (hi_edge - lo_edge) / (2.0 * cells);
  return QCPRange(lo_edge + half, hi_edge - half);
}

int cellIndex(double coord, const QCPRange& range, int cells) {
  if (cells <= 0 || !std::isfinite(coord)) return -1;
  double lo = range.lower, hi = range.upper;
  if (cells > 1) {  // back from the outer cells' centres to their edges
    const double half = (hi - lo) / (2.0 * (cells - 1));
    lo -= half;
    hi += half;
  }
  if (!(hi > lo) || coord < lo || coord > hi) return -1;
  const int index = static_cast<int>((coord - lo) / (hi - lo) * cells);
  return index < cells ? index : cells - 1;
}

QString formatTooltipCount(double count) {
  if (!std::isfinite(count)) return QStringLiteral("–");
  const bool whole = std::abs(count - std::round(count)) < 0.05;
  return QString::number(count, 'f', whole || std::abs(count) >= 100 ? 0 : 1);
}

void showPlotTooltip(QCustomPlot* plot, QMouseEvent* event, const QString& text) {
  if (text.isEmpty()) {
    QToolTip::hideText();
  } else {
    QToolTip::showText(event->globalPosition().toPoint(), text, plot);
  }
}

}  // namespace moe::ui
