// The run report's "Routing analysis" section (docs/REPORTS.md): what `moe-train analyze` found for
// the run's model when the run directory keeps an analysis (<run>/analysis/analysis.json).
#pragma once

#include "base/analyze/analysis_report.h"
#include "base/report/report_document.h"

namespace moe::ui {

// The balance table, the load share and dropped share charts, and the co-selection matrix and top
// tokens of the worst-balanced layer.
void routingAnalysisSection(ReportDocument* doc, const AnalysisReport& analysis);

}  // namespace moe::ui
