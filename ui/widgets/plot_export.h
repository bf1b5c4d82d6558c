#pragma once
// Export of any QCustomPlot (line plots, bars, colour maps) to PNG, SVG, PDF or CSV, and the
// context menu every dashboard plot carries ("Export as PNG/SVG/PDF/CSV…", "Reset view").
//
// CSV content: for graphs, curves and bars one header line then rows "series,x,y" (the header
// names the axes: `series,<x label>,<y label>`); for colour maps "x,y,value" per cell. Values
// are written with full precision; texts with commas or quotes are quoted (RFC 4180).
#include <QByteArray>
#include <QSize>
#include <QString>

class QCustomPlot;
class QWidget;

namespace moe::ui {

enum class PlotFormat { Png, Svg, Pdf, Csv };

// Picks the format from the file's suffix (.png .svg .pdf .csv, case-insensitive).
bool plotFormatForPath(const QString& path, PlotFormat* format);

// Writes the plot at its current on-screen size (PNG at 2x for sharpness). False with *error.
bool exportPlot(QCustomPlot* plot, const QString& path, QString* error);
QString plotCsv(const QCustomPlot* plot);
// The plot as an SVG document of `size` pixels at 96 dpi, drawn as vectors, its text's font
// families followed by fallbacks a browser knows. Empty when it cannot be drawn.
QByteArray plotSvg(QCustomPlot* plot, QSize size, const QString& title);

// Adds the context menu to `plot`. `base_name` seeds the file name the dialog proposes
// (e.g. "loss" -> loss.png); the dialog starts in the last directory used (QSettings).
void installPlotMenu(QCustomPlot* plot, const QString& base_name);

}  // namespace moe::ui
