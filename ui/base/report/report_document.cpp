// ReportDocument's builders (report_document.h).
#include "base/report/report_document.h"

namespace moe::ui {

void ReportDocument::heading(const QString& text, const QString& id) {
  ReportBlock b;
  b.kind = ReportBlock::Kind::kHeading;
  b.text = text;
  b.id = id;
  blocks.push_back(std::move(b));
}

void ReportDocument::paragraph(const QString& text) {
  ReportBlock b;
  b.text = text;
  blocks.push_back(std::move(b));
}

void ReportDocument::warning(const QString& text) {
  ReportBlock b;
  b.kind = ReportBlock::Kind::kWarning;
  b.text = text;
  blocks.push_back(std::move(b));
}

void ReportDocument::facts(const QList<QStringList>& name_value_rows) {
  ReportBlock b;
  b.kind = ReportBlock::Kind::kFacts;
  b.table.rows = name_value_rows;
  blocks.push_back(std::move(b));
}

void ReportDocument::table(ReportTable table) {
  ReportBlock b;
  b.kind = ReportBlock::Kind::kTable;
  b.table = std::move(table);
  blocks.push_back(std::move(b));
}

void ReportDocument::code(const QString& text) {
  ReportBlock b;
  b.kind = ReportBlock::Kind::kCode;
  b.text = text;
  blocks.push_back(std::move(b));
}

void ReportDocument::link(const QString& text, const QString& href) {
  ReportBlock b;
  b.kind = ReportBlock::Kind::kLink;
  b.text = text;
  b.href = href;
  blocks.push_back(std::move(b));
}

void ReportDocument::chart(ChartContent content, QSize size, const QString& caption) {
  ReportBlock b;
  b.kind = ReportBlock::Kind::kChart;
  b.text = caption;
  b.chart = static_cast<int>(charts.size());
  charts.push_back({std::move(content), size});
  blocks.push_back(std::move(b));
}

std::vector<const ReportBlock*> ReportDocument::headings() const {
  std::vector<const ReportBlock*> out;
  for (const ReportBlock& b : blocks) {
    if (b.kind == ReportBlock::Kind::kHeading) out.push_back(&b);
  }
  return out;
}

}  // namespace moe::ui
