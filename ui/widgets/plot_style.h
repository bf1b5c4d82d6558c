#pragma once
// One look for every plot: light background, readable axis labels, a quiet grid, and the
// palette the dashboard uses for series.
#include <QColor>
#include <QString>

class QCustomPlot;

namespace moe::ui {

void stylePlot(QCustomPlot* plot, const QString& x_label, const QString& y_label);

// Series colours, in the order plots use them (colour-blind safe, Okabe–Ito).
QColor seriesColor(int index);

}  // namespace moe::ui
