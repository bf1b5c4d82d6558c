// A report chart (base/report/report_chart.h) drawn on any QPainter: an SVG, a PDF page, an
// image. Laid out for the size it is given, in pixels at the device's resolution, in the
// dashboard's look (palette.h). Any thread that may use QPainter on its device.
#pragma once

#include <QPainter>
#include <QSizeF>

#include "base/report/report_document.h"

namespace moe::ui {

// Draws `chart` into the rectangle (0, 0, size) of the painter's current coordinates.
void paintChart(QPainter& painter, const ChartContent& chart, QSizeF size);

}  // namespace moe::ui
