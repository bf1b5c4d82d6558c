#include "base/report/analysis_section.h"

#include <QFileInfo>
#include <QObject>

#include "base/report/analysis_charts.h"
#include "base/report/report_format.h"

namespace moe::ui {

namespace {

constexpr size_t kReportTopTokens = 5;  // per expert in the report's table

}  // namespace

void routingAnalysisSection(ReportDocument* doc, const AnalysisReport& a) {
  doc->heading(QObject::tr("Routing analysis"), QStringLiteral("analysis"));
  doc->paragraph(QObject::tr("moe-train analyze ran %1 tokens of %2 through %3 without training "
                             "(%4) and counted each MoE layer's routing.")
                     .arg(a.tokens)
                     .arg(a.data.isEmpty() ? QObject::tr("a corpus") : a.data,
                          a.model.isEmpty() ? QObject::tr("the model") : a.model,
                          QFileInfo(a.path).fileName()));
  doc->table(balanceTable(a));
  doc->chart(loadShareMatrix(a), kHeatmapChart,
             QObject::tr("Each expert's share of its layer's choices. Grey: dead experts (no "
                         "token); framed: overloaded experts, above %1 times the mean load.")
                 .arg(kOverloaded));
  doc->chart(droppedShareCurves(a), kWideChart,
             QObject::tr("The share of each layer's choices a capacity factor would drop (over "
                         "an expert's capacity C = k·floor(f·ceil(N/E)))."));
  const AnalyzedLayer& worst = a.layers[worstBalancedLayer(a)];
  doc->chart(coSelectionMatrix(worst),
             QSize(kHeatmapChart.height() * 2, kHeatmapChart.height() * 2),
             QObject::tr("Layer %1, the least balanced (largest cv): the share of tokens choosing "
                         "both experts i and j; the diagonal (the load) is left out.")
                 .arg(worst.layer));
  doc->paragraph(QObject::tr("Layer %1: each expert's most frequent tokens.").arg(worst.layer));
  doc->table(topTokensTable(worst, kReportTopTokens));
}

}  // namespace moe::ui
