// PdfFlow: lays a PDF's blocks out top to bottom over as many A4 pages as they take — HTML text
// through QTextDocument, tables split between rows where a page ends (each part with its
// header), charts as vectors at the page's width — and draws the title and page number in each
// footer. It measures a block as it would draw it, so the caller can keep a heading with what
// follows it.
#pragma once

#include <QFont>
#include <QSize>
#include <QString>

#include <QPainter>

#include "base/report/report_document.h"

#include <functional>

class QPdfWriter;

namespace moe::ui {

class PdfFlow {
 public:
  // The markup of a table's rows [first, last), header included.
  using TableRows = std::function<QString(int first, int last)>;
  static constexpr int kDpi = 96;    // the writer's resolution: layout units are pixels at 96 dpi
  static constexpr double kGap = 8;  // between blocks

  PdfFlow(QPdfWriter* writer, const QString& footer);

  bool isActive() const { return painter_.isActive(); }

  // Heights as drawn, pixels at 96 dpi, without the gap after a block.
  double textHeight(const QString& html) const;
  // A chart with its caption under it.
  double chartBlockHeight(QSize size, const QString& caption_html) const;

  // `keep_below`: room needed under the text (and its gap) on the same page: a heading's section
  // start. At most what a page has.
  void text(const QString& html, double keep_below = 0);
  // A chart and its caption, which stays with it.
  void chart(const ReportChart& chart, const QString& caption_html);
  void table(const TableRows& rows_html, int rows);
  // Draws the last footer and closes the file.
  void finish();

 private:
  double chartHeight(QSize size) const;
  void room(double h);
  void newPage();
  void drawFooter();
  // The most rows from `first` whose part fits in the room left on this page (0: none).
  int rowsThatFit(const TableRows& rows_html, int first, int rows) const;

  QPdfWriter* writer_;
  QString footer_;
  QPainter painter_;
  QFont font_;
  double width_ = 0, height_ = 0, y_ = 0;
  int page_ = 1;
};

}  // namespace moe::ui
