// The comparison report of several runs (docs/REPORTS.md): a table of the runs, their loss,
// eval loss and throughput overlaid on one chart each, and the config keys that differ between
// them (runs/config_diff.h). The runs are read with loadRunReport; reading and the document
// need no GUI thread.
#pragma once

#include <QString>
#include <QStringList>

#include <vector>

#include "base/report/report_document.h"
#include "base/report/run_report.h"

namespace moe::ui {

// Reads every run directory; false with *error naming the first one that is no run.
bool loadRunReports(const QStringList& run_dirs, std::vector<RunReport>* out, QString* error);

// "#1 name" (the config's name, else the run id): how a run is called in a comparison.
QString comparisonLabel(const RunReport& run, size_t index);

ReportDocument comparisonDocument(const std::vector<RunReport>& runs);

}  // namespace moe::ui
