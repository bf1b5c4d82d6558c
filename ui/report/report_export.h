// Reports to files: a run's report or a comparison report as HTML or PDF, picked by the output's
// suffix (.html/.htm or .pdf, any case). Any thread: the charts are drawn with QPainter on an SVG
// or PDF device, no widget, so the window reads and writes on a worker (a QGuiApplication must
// exist, for the fonts).
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <vector>

#include "base/report/run_report.h"

namespace moe::ui {

struct ReportDocument;

enum class ReportFormat { kHtml, kPdf };

// False for any other suffix.
bool reportFormatForPath(const QString& path, ReportFormat* format);

// Writes `document` as `path`'s format says. False with *error.
bool writeReport(const ReportDocument& document, const QString& path, QString* error);

// Builds the report's document, then writes it.
bool writeRunReport(const RunReport& report, const QString& path, QString* error);
bool writeComparisonReport(const std::vector<RunReport>& runs, const QString& path, QString* error);

}  // namespace moe::ui
