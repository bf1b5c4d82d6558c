// A report chart as an SVG document of its size (pixels at 96 dpi, a viewBox of the same).
#pragma once

#include <QByteArray>
#include <QString>

#include "base/report/report_document.h"

namespace moe::ui {

QByteArray chartSvg(const ReportChart& chart, const QString& title);

// QSvgGenerator's output with browser fallbacks after every font family: Qt names the family it
// resolved, often fontconfig's "Sans Serif", which no browser knows, and without fallbacks they
// draw the labels in a serif face. Every SVG the app writes goes through it.
QByteArray withFontFallbacks(const QByteArray& svg);

}  // namespace moe::ui
