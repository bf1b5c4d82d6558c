// Reports to files: a run's report or a comparison report as HTML or PDF, picked by the output's
// suffix (.html/.htm or .pdf, any case). The parts a caller can run off the GUI thread (reading
// the run directories) are separate from the part that must run on it (charts, writing), so the
// window reads on a worker and the command line does both in a row.
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

// Writes `document` as `path`'s format says. False with *error. GUI thread.
bool writeReport(const ReportDocument& document, const QString& path, QString* error);

// Read (any thread) then write (GUI thread).
bool writeRunReport(const RunReport& report, const QString& path, QString* error);
bool writeComparisonReport(const std::vector<RunReport>& runs, const QString& path, QString* error);

}  // namespace moe::ui
