// A report chart as an SVG document of its size (pixels at 96 dpi, a viewBox of the same).
#pragma once

#include <QByteArray>
#include <QString>

#include "base/report/report_document.h"

namespace moe::ui {

QByteArray chartSvg(const ReportChart& chart, const QString& title);

}  // namespace moe::ui
