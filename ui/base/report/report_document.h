// ReportDocument: what a report says, as a list of blocks (headings, paragraphs, tables, charts,
// code), independent of the file it becomes. Every text in a block is plain text as the user or
// the run wrote it, never markup: the HTML writer (report_html.h) and the PDF writer
// (report_pdf.h) escape it, each in one place, so no block can inject markup into a report.
#pragma once

#include <QList>
#include <QSize>
#include <QString>
#include <QStringList>

#include <vector>

#include "base/report/report_chart.h"

namespace moe::ui {

struct ReportTable {
  QStringList header;
  QList<QStringList> rows;
  QList<int> numeric_columns;  // right-aligned
};

// A chart as data (report_chart.h); `size` is what it is laid out at (pixels at 96 dpi).
struct ReportChart {
  ChartContent content;
  QSize size;
};

struct ReportBlock {
  enum class Kind {
    kHeading,    // text; id is the anchor the contents link to
    kParagraph,  // text
    kWarning,    // text, shown as a warning
    kFacts,      // table: rows of (name, value)
    kTable,      // table
    kChart,      // chart (index into ReportDocument::charts), text is its caption
    kCode,       // text, monospaced, lines kept
    kLink,       // text, shown as a link to href (a relative path into the run directory)
  };
  Kind kind = Kind::kParagraph;
  QString text, id, href;
  ReportTable table;
  int chart = -1;
};

struct ReportDocument {
  QString title;     // the page title and first heading
  QString subtitle;  // one line under it
  std::vector<ReportBlock> blocks;
  std::vector<ReportChart> charts;

  void heading(const QString& text, const QString& id);
  void paragraph(const QString& text);
  void warning(const QString& text);
  void facts(const QList<QStringList>& name_value_rows);
  void table(ReportTable table);
  void code(const QString& text);
  void link(const QString& text, const QString& href);
  // `caption` says what the chart shows.
  void chart(ChartContent content, QSize size, const QString& caption);
  // The headings, in order (the contents).
  std::vector<const ReportBlock*> headings() const;
};

}  // namespace moe::ui
