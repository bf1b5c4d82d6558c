// exportPlot(): a plot to PNG, SVG, PDF or CSV on disk.
#include "widgets/plot_export.h"

#include <QBuffer>
#include <QFileInfo>
#include <QSvgGenerator>

#include <qcustomplot.h>

#include "base/storage/whole_file.h"
#include "draw/chart_svg.h"

namespace moe::ui {

namespace {

bool fail(QString* error, const QString& message) {
  if (error) *error = message;
  return false;
}

bool writeSvg(QCustomPlot* plot, const QString& path, int w, int h) {
  const QByteArray svg = plotSvg(plot, QSize(w, h), QStringLiteral("MoE Studio plot"));
  if (svg.isEmpty()) return false;
  return saveWhole(path, svg);
}

bool writeCsv(const QCustomPlot* plot, const QString& path, QString* error) {
  QString why;  // all or nothing: a failed export leaves no half-written file
  if (!saveWhole(path, plotCsv(plot).toUtf8(), &why))
    return fail(error, QStringLiteral("Cannot write %1: %2").arg(path, why));
  return true;
}

}  // namespace

QByteArray plotSvg(QCustomPlot* plot, QSize size, const QString& title) {
  QBuffer buffer;
  buffer.open(QIODevice::WriteOnly);
  QSvgGenerator svg;
  svg.setOutputDevice(&buffer);
  svg.setSize(size);
  svg.setViewBox(QRect(QPoint(0, 0), size));
  svg.setResolution(96);  // the screen's: a 9 pt label is as large against the plot as shown
  svg.setTitle(title);
  QCPPainter painter;
  if (!painter.begin(&svg)) return {};
  painter.setMode(QCPPainter::pmVectorized);
  painter.setMode(QCPPainter::pmNoCaching);
  plot->toPainter(&painter, size.width(), size.height());
  painter.end();
  return withFontFallbacks(buffer.data());
}

bool plotFormatForPath(const QString& path, PlotFormat* format) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  PlotFormat f;
  if (suffix == QLatin1String("png"))
    f = PlotFormat::Png;
  else if (suffix == QLatin1String("svg"))
    f = PlotFormat::Svg;
  else if (suffix == QLatin1String("pdf"))
    f = PlotFormat::Pdf;
  else if (suffix == QLatin1String("csv"))
    f = PlotFormat::Csv;
  else
    return false;
  if (format) *format = f;
  return true;
}

bool exportPlot(QCustomPlot* plot, const QString& path, QString* error) {
  if (!plot) return fail(error, QStringLiteral("No plot to export."));
  PlotFormat format;
  if (!plotFormatForPath(path, &format))
    return fail(error, QStringLiteral("Unknown file type for %1: use .png, .svg, .pdf or .csv.")
                           .arg(QFileInfo(path).fileName()));
  if (format == PlotFormat::Csv) return writeCsv(plot, path, error);

  const int w = plot->width(), h = plot->height();
  bool ok = false;
  switch (format) {
    case PlotFormat::Png:
      ok = plot->savePng(path, w, h, 2.0);  // 2x: sharp on high-density screens and in slides
      break;
    case PlotFormat::Pdf:
      ok = plot->savePdf(path, w, h);
      break;
    case PlotFormat::Svg:
      ok = writeSvg(plot, path, w, h);
      break;
    case PlotFormat::Csv:
      break;
  }
  // The writers' return values do not always notice a failed write; the file must be there.
  const QFileInfo written(path);
  if (!ok || !written.exists() || written.size() == 0)
    return fail(error, QStringLiteral("Cannot write %1.").arg(path));
  return true;
}

}  // namespace moe::ui
