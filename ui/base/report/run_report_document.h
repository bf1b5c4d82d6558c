// The sections of a run's report (docs/REPORTS.md): summary, loss, throughput, load balance, expert
// load, phases, routing warnings, ranks (multi-process runs), log problems, checkpoints, config,
// command lines, trace. Section anchors are stable (`#summary`, `#loss`, ...) so links and tests
// can name them. Any thread: the charts are data (report_chart.h).
#pragma once

#include <QStringList>

#include "base/report/report_document.h"

namespace moe::ui {

struct RunReport;

// The anchors of the sections a report of `report` has, in order.
QStringList runReportSections(const RunReport& report);

ReportDocument runReportDocument(const RunReport& report);

}  // namespace moe::ui
