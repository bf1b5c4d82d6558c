// plotCsv(): the data behind a plot as CSV (declared in plot_export.h).
#include <QTextStream>

#include <charconv>
#include <cmath>

#include "base/storage/csv_text.h"
#include "widgets/plot_export.h"
#include "widgets/time_series_plot.h"

namespace moe::ui {

namespace {

// The same for a value a TimeSeriesPlot keeps as float: the shortest decimal that reads back as
// that float ("0.9", not the double 0.89999997615814209), written as csvNumber writes it.
QString csvFloat(double v) {
  if (!std::isfinite(v)) return csvNumber(v);
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, static_cast<float>(v)).ptr;
  double shortest = v;
  std::from_chars(text, end, shortest);  // locale-independent, unlike strtod
  return csvNumber(shortest);
}

QString axisName(const QCPAxis* axis, const char* fallback) {
  return axis && !axis->label().isEmpty() ? axis->label() : QString::fromLatin1(fallback);
}

void writeRow(QTextStream& out, const QString& series, double x, double y) {
  out << csvField(series) << ',' << csvNumber(x) << ',' << csvNumber(y) << '\n';
}

template <typename Container>
void writeKeyValueRows(QTextStream& out, const QString& series, const Container& data) {
  for (auto it = data.constBegin(); it != data.constEnd(); ++it)
    writeRow(out, series, it->key, it->value);
}

// A TimeSeriesPlot exports its raw rows: a log axis hides non-positive values in the graph
// data, and the CSV should still hold them.
QString timeSeriesCsv(const TimeSeriesPlot* plot) {
  QString text;
  QTextStream out(&text);
  out << "series," << csvField(axisName(plot->xAxis, "x")) << ','
      << csvField(axisName(plot->yAxis, "y")) << '\n';
  const bool by_step = plot->xMode() == TimeSeriesPlot::XMode::Step;
  for (int c = 0; c < plot->curveCount(); ++c) {
    if (!plot->curveVisible(c)) continue;
    const TimeSeriesPlot::Rows& rows = plot->rows(c);
    const QVector<double>& keys = by_step ? rows.step : rows.t;
    const QString name = csvField(plot->curveName(c));
    for (qsizetype i = 0; i < keys.size(); ++i)
      out << name << ',' << csvNumber(keys[i]) << ',' << csvFloat(rows.value[i]) << '\n';
  }
  out.flush();
  return text;
}

}  // namespace

QString plotCsv(const QCustomPlot* const_plot) {
  if (!const_plot) return QString();
  if (auto* series = qobject_cast<const TimeSeriesPlot*>(const_plot)) return timeSeriesCsv(series);
  // QCustomPlot's accessors (plottable(), cell()) are not const; nothing here modifies.
  auto* plot = const_cast<QCustomPlot*>(const_plot);

  QString text;
  QTextStream out(&text);
  bool header_written = false, wrote_any = false;
  for (int i = 0; i < plot->plottableCount(); ++i) {
    QCPAbstractPlottable* p = plot->plottable(i);
    if (!p->visible() || qobject_cast<QCPColorMap*>(p)) continue;
    if (!header_written) {
      out << "series," << csvField(axisName(p->keyAxis(), "x")) << ','
          << csvField(axisName(p->valueAxis(), "y")) << '\n';
      header_written = wrote_any = true;
    }
    if (auto* graph = qobject_cast<QCPGraph*>(p))
      writeKeyValueRows(out, p->name(), *graph->data());
    else if (auto* curve = qobject_cast<QCPCurve*>(p))
      writeKeyValueRows(out, p->name(), *curve->data());
    else if (auto* bars = qobject_cast<QCPBars*>(p))
      writeKeyValueRows(out, p->name(), *bars->data());
  }
  // Colour maps: one section per map, a row per cell at the cell's centre.
  for (int i = 0; i < plot->plottableCount(); ++i) {
    auto* map = qobject_cast<QCPColorMap*>(plot->plottable(i));
    if (!map || !map->visible()) continue;
    if (wrote_any) out << '\n';
    out << "x,y,value\n";
    wrote_any = true;
    QCPColorMapData* data = map->data();
    for (int xi = 0; xi < data->keySize(); ++xi) {
      for (int yi = 0; yi < data->valueSize(); ++yi) {
        double x = 0, y = 0;
        data->cellToCoord(xi, yi, &x, &y);
        out << csvNumber(x) << ',' << csvNumber(y) << ',' << csvNumber(data->cell(xi, yi)) << '\n';
      }
    }
  }
  out.flush();
  return text;
}

}  // namespace moe::ui
