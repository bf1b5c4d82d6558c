// A routing analysis (base/analyze/analysis_report.h) as chart data, shared by the Analyze view and
// the run report's "Routing analysis" section: the load share of every layer's experts, one
// layer's co-selection matrix and the dropped share against the capacity factor. Any thread.
#pragma once

#include "base/analyze/analysis_report.h"
#include "base/report/report_document.h"

namespace moe::ui {

// Layers x experts, each cell the expert's percent of its layer's choices; dead experts and those
// above kOverloaded times the mean marked.
MatrixChart loadShareMatrix(const AnalysisReport& report);

// Experts x experts, each cell the percent of the layer's tokens choosing both; the diagonal (the
// load, which would swamp the scale) is left blank.
MatrixChart coSelectionMatrix(const AnalyzedLayer& layer);

// Per layer, the percent of its choices each capacity factor drops, against the factor.
CurveChart droppedShareCurves(const AnalysisReport& report);

// The balance figures per layer, with a column per capacity factor's dropped share.
ReportTable balanceTable(const AnalysisReport& report);

// Per expert of `layer`: its share of the choices and its `max_tokens` most frequent tokens with
// their counts.
ReportTable topTokensTable(const AnalyzedLayer& layer, size_t max_tokens);

// The layer whose load is least even (the largest cv): the one a report shows in detail.
size_t worstBalancedLayer(const AnalysisReport& report);

}  // namespace moe::ui
