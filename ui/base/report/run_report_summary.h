#pragma once
// The Summary section of a run's report (run_report_document.h): which run, how it ended, where
// it ran, and the final and best value of each headline metric.
#include <vector>

namespace moe::ui {

class ReportDocument;
struct RunReport;

void summarySection(ReportDocument* doc, const RunReport& r);
// The median of the finite values; NaN when there are none.
double reportMedian(std::vector<double> values);

}  // namespace moe::ui
