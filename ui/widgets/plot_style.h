#pragma once
// One look for every plot: light background, readable axis labels, a quiet grid, and the
// palette the dashboard uses for series.
#include <QColor>
#include <QString>

#include "draw/palette.h"  // seriesColor

class QCustomPlot;

namespace moe::ui {

void stylePlot(QCustomPlot* plot, const QString& x_label, const QString& y_label);

}  // namespace moe::ui
