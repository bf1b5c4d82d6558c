// ReportDocument -> PDF (report_pdf.h).
#include "report/report_pdf.h"

#include <QAbstractTextDocumentLayout>
#include <QFile>
#include <QPageLayout>
#include <QPdfWriter>
#include <QTextDocument>

#include <qcustomplot.h>

#include <algorithm>

#include "report/report_document.h"
#include "report/report_html.h"

namespace moe::ui {

namespace {

constexpr int kDpi = 96;               // layout units are pixels at 96 dpi, as on screen
constexpr double kGap = 8;             // between blocks
constexpr double kFooter = 22;         // the footer's band at the bottom of a page
constexpr double kKeepWithNext = 250;  // a heading needs this much room below it
constexpr int kRowsPerTable = 38;      // longer tables go on in another block
constexpr double kCaption = 30;        // room for a chart's caption

const char* const kTextStyle =
    "h1 { font-size: 20pt; } h2 { font-size: 14pt; color: #1f2328; }"
    "p.subtitle { color: #57606a; } p.warning { color: #8a4b00; }"
    "th { background-color: #f0f2f4; text-align: left; } td, th { padding: 3px; }"
    "pre { font-family: monospace; font-size: 8pt; } a { color: #0b61c4; }"
    "p.caption { color: #57606a; font-size: 8pt; }";

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

// Lays blocks out top to bottom over as many pages as they take.
class PdfFlow {
 public:
  PdfFlow(QPdfWriter* writer, const QString& footer) : writer_(writer), footer_(footer) {
    painter_.begin(writer_);
    painter_.setMode(QCPPainter::pmVectorized);
    painter_.setMode(QCPPainter::pmNoCaching);
    const QRect paint = writer_->pageLayout().paintRectPixels(kDpi);
    width_ = paint.width();
    height_ = paint.height() - kFooter;
    font_ = QFont(QStringLiteral("DejaVu Sans"));
    font_.setPointSizeF(9);
  }

  bool isActive() const { return painter_.isActive(); }
  double width() const { return width_; }

  void text(const QString& html, double keep_below = 0) {
    QTextDocument doc;
    doc.setDefaultFont(font_);
    doc.setDefaultStyleSheet(QLatin1String(kTextStyle));
    doc.setDocumentMargin(0);
    doc.documentLayout()->setPaintDevice(writer_);
    doc.setHtml(html);
    doc.setTextWidth(width_);
    const double h = doc.size().height();
    if (h + keep_below <= height_) {
      room(h + keep_below);
      painter_.save();
      painter_.translate(0, y_);
      doc.drawContents(&painter_, QRectF(0, 0, width_, h));
      painter_.restore();
      y_ += h + kGap;
      return;
    }
    // Taller than a page: slice it.
    for (double from = 0; from < h;) {
      if (y_ >= height_ - 40) newPage();
      const double slice = std::min(h - from, height_ - y_);
      painter_.save();
      painter_.translate(0, y_ - from);
      doc.drawContents(&painter_, QRectF(0, from, width_, slice));
      painter_.restore();
      from += slice;
      y_ += slice;
    }
    y_ += kGap;
  }

  void chart(QCustomPlot* plot, QSize size) {
    const int w = static_cast<int>(width_);
    const int h = std::max(150, size.height() * w / std::max(1, size.width()));
    room(h + kCaption);  // the caption stays with its chart
    painter_.save();
    painter_.translate(0, y_);
    plot->toPainter(&painter_, w, h);
    painter_.restore();
    y_ += h + 2;
  }

  void finish() {
    drawFooter();
    painter_.end();
  }

 private:
  void room(double h) {
    if (y_ > 0 && y_ + h > height_) newPage();
  }

  void newPage() {
    drawFooter();
    writer_->newPage();
    y_ = 0;
    ++page_;
  }

  void drawFooter() {
    painter_.save();
    QFont small = font_;
    small.setPointSizeF(7.5);
    painter_.setFont(small);
    painter_.setPen(QColor(110, 119, 129));
    const QRectF band(0, height_ + 6, width_, kFooter - 6);
    const QString page = QObject::tr("page %1").arg(page_);
    painter_.drawText(band, Qt::AlignRight | Qt::AlignVCenter, page);
    const QString title = painter_.fontMetrics().elidedText(
        footer_, Qt::ElideMiddle,
        static_cast<int>(width_) - painter_.fontMetrics().horizontalAdvance(page) - 20);
    painter_.drawText(band, Qt::AlignLeft | Qt::AlignVCenter, title);
    painter_.restore();
  }

  QPdfWriter* writer_;
  QString footer_;
  QCPPainter painter_;
  QFont font_;
  double width_ = 0, height_ = 0, y_ = 0;
  int page_ = 1;
};

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
  writer.setResolution(kDpi);
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
  for (const ReportBlock& b : doc.blocks) {
    switch (b.kind) {
      case ReportBlock::Kind::kHeading:
        flow.text("<h2>" + htmlEscaped(b.text) + "</h2>", kKeepWithNext);
        break;
      case ReportBlock::Kind::kParagraph:
        flow.text("<p>" + htmlEscaped(b.text) + "</p>");
        break;
      case ReportBlock::Kind::kWarning:
        flow.text("<p class=\"warning\">\u26a0 " + htmlEscaped(b.text) + "</p>");
        break;
      case ReportBlock::Kind::kFacts:
      case ReportBlock::Kind::kTable: {
        const int rows = static_cast<int>(b.table.rows.size());
        for (int first = 0; first < std::max(rows, 1); first += kRowsPerTable)
          flow.text(tableHtml(b.table, b.kind == ReportBlock::Kind::kFacts, first,
                              std::min(rows, first + kRowsPerTable)));
        break;
      }
      case ReportBlock::Kind::kCode:
        flow.text("<pre>" + htmlEscaped(b.text) + "</pre>");
        break;
      case ReportBlock::Kind::kLink:
        flow.text("<p><a href=\"" + htmlEscaped(b.href) + "\">" + htmlEscaped(b.text) + "</a></p>");
        break;
      case ReportBlock::Kind::kChart: {
        const ReportChart& chart = doc.charts[static_cast<size_t>(b.chart)];
        flow.chart(chart.plot.get(), chart.size);
        flow.text("<p class=\"caption\">" + htmlEscaped(b.text) + "</p>");
        break;
      }
    }
  }
  flow.finish();
  return true;
}

}  // namespace moe::ui
