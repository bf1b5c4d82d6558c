// ReportDocument -> PDF (report_pdf.h).
#include "report/report_pdf.h"

#include <QFile>
#include <QPageLayout>
#include <QPdfWriter>

#include <algorithm>

#include "base/report/report_document.h"
#include "report/report_html.h"
#include "report/report_pdf_flow.h"

namespace moe::ui {

namespace {

constexpr double kKeepWithNext = 250;  // at most this much of a section stays with its heading
constexpr int kTableRowsKept = 4;      // of a table at a section's start, rows kept with it

QString tableHtml(const ReportTable& table, bool facts, int first_row, int last_row) {
  QString out = QStringLiteral(
      "<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" width=\"100%\" "
      "style=\"border-color: #d0d7de; border-style: solid;\">");
  if (!table.header.isEmpty()) {
    out += QStringLiteral("<thead><tr>");
    for (const QString& h : table.header) out += "<th>" + htmlEscaped(h) + "</th>";
    out += QStringLiteral("</tr></thead>");
  }
  for (int r = first_row; r < last_row; ++r) {
    const QStringList& row = table.rows[r];
    out += QStringLiteral("<tr>");
    for (int c = 0; c < row.size(); ++c) {
      const QString text = htmlEscaped(row[c]);
      if (facts && c == 0)
        out += "<th width=\"28%\">" + text + "</th>";
      else if (table.numeric_columns.contains(c))
        out += "<td align=\"right\">" + text + "</td>";
      else
        out += "<td>" + text + "</td>";
    }
    out += QStringLiteral("</tr>");
  }
  return out + QStringLiteral("</table>");
}

PdfFlow::TableRows tableRows(const ReportBlock& b) {
  const bool facts = b.kind == ReportBlock::Kind::kFacts;
  return [&b, facts](int first, int last) { return tableHtml(b.table, facts, first, last); };
}

bool isTable(const ReportBlock& b) {
  return b.kind == ReportBlock::Kind::kFacts || b.kind == ReportBlock::Kind::kTable;
}

QString captionHtml(const ReportBlock& b) {
  return "<p class=\"caption\">" + htmlEscaped(b.text) + "</p>";
}

// The markup of a text block (not a table or chart).
QString textHtml(const ReportBlock& b) {
  switch (b.kind) {
    case ReportBlock::Kind::kHeading:
      return "<h2>" + htmlEscaped(b.text) + "</h2>";
    case ReportBlock::Kind::kWarning:
      return "<p class=\"warning\">\u26a0 " + htmlEscaped(b.text) + "</p>";
    case ReportBlock::Kind::kCode:
      return "<pre>" + htmlEscaped(b.text) + "</pre>";
    case ReportBlock::Kind::kLink:
      return "<p><a href=\"" + htmlEscaped(b.href) + "\">" + htmlEscaped(b.text) + "</a></p>";
    default:
      return "<p>" + htmlEscaped(b.text) + "</p>";
  }
}

// How much of the section after the heading at `heading` must share its page: its paragraphs up
// to and with its first chart or table (a table's first rows; the rest may follow on the next
// page), at most kKeepWithNext unless that chart needs more, so a heading never ends a page.
double sectionStart(const ReportDocument& doc, size_t heading, const PdfFlow& flow) {
  double h = 0;
  for (size_t i = heading + 1; i < doc.blocks.size(); ++i) {
    const ReportBlock& b = doc.blocks[i];
    if (b.kind == ReportBlock::Kind::kHeading) break;
    if (b.kind == ReportBlock::Kind::kChart) {
      const ReportChart& chart = doc.charts[static_cast<size_t>(b.chart)];
      return h + flow.chartBlockHeight(chart.size, captionHtml(b));
    }
    if (isTable(b)) {
      const int rows = std::min(static_cast<int>(b.table.rows.size()), kTableRowsKept);
      return std::min(h + flow.textHeight(tableRows(b)(0, rows)), kKeepWithNext);
    }
    h += flow.textHeight(textHtml(b)) + PdfFlow::kGap;
    if (h >= kKeepWithNext) return kKeepWithNext;
  }
  return h;
}

}  // namespace

bool writeReportPdf(const ReportDocument& doc, const QString& path, QString* error) {
  {
    QFile probe(path);  // QPdfWriter says nothing about a file it cannot write
    if (!probe.open(QIODevice::WriteOnly)) {
      *error = path + QStringLiteral(": ") + probe.errorString();
      return false;
    }
  }
  QPdfWriter writer(path);
  writer.setResolution(PdfFlow::kDpi);
  writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                                   QMarginsF(16, 14, 16, 12), QPageLayout::Millimeter));
  writer.setTitle(doc.title);
  writer.setCreator(QStringLiteral("MoE Studio"));
  PdfFlow flow(&writer, doc.title);
  if (!flow.isActive()) {
    *error = path + QStringLiteral(": cannot draw into the PDF");
    return false;
  }
  QString head = "<h1>" + htmlEscaped(doc.title) + "</h1>";
  if (!doc.subtitle.isEmpty())
    head += "<p class=\"subtitle\">" + htmlEscaped(doc.subtitle) + "</p>";
  flow.text(head);
  for (size_t i = 0; i < doc.blocks.size(); ++i) {
    const ReportBlock& b = doc.blocks[i];
    if (b.kind == ReportBlock::Kind::kHeading) {
      flow.text(textHtml(b), sectionStart(doc, i, flow));
    } else if (isTable(b)) {
      flow.table(tableRows(b), static_cast<int>(b.table.rows.size()));
    } else if (b.kind == ReportBlock::Kind::kChart) {
      const ReportChart& chart = doc.charts[static_cast<size_t>(b.chart)];
      flow.chart(chart, captionHtml(b));
    } else {
      flow.text(textHtml(b));
    }
  }
  flow.finish();
  return true;
}

}  // namespace moe::ui
