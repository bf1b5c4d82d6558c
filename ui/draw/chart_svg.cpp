// Report charts as SVG (chart_svg.h).
#include "draw/chart_svg.h"

#include <QBuffer>
#include <QPainter>
#include <QRegularExpression>
#include <QSvgGenerator>

#include "draw/chart_painter.h"

namespace moe::ui {

QByteArray chartSvg(const ReportChart& chart, const QString& title) {
  QBuffer buffer;
  buffer.open(QIODevice::WriteOnly);
  QSvgGenerator svg;
  svg.setOutputDevice(&buffer);
  svg.setSize(chart.size);
  svg.setViewBox(QRect(QPoint(0, 0), chart.size));
  svg.setResolution(96);  // the screen's: a 9 pt label is as large against the chart as shown
  svg.setTitle(title);
  QPainter painter;
  if (!painter.begin(&svg)) return {};
  paintChart(painter, chart.content, QSizeF(chart.size));
  painter.end();
  return withFontFallbacks(buffer.data());
}

QByteArray withFontFallbacks(const QByteArray& svg) {
  static const QRegularExpression kFamily(QStringLiteral(R"re(font-family="([^"]*)")re"));
  QString text = QString::fromUtf8(svg);
  text.replace(kFamily, QStringLiteral(R"(font-family="\1, DejaVu Sans, Arial, sans-serif")"));
  return text.toUtf8();
}

}  // namespace moe::ui
