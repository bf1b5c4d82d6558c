// PdfFlow (report_pdf_flow.h).
#include "report/report_pdf_flow.h"

#include <QAbstractTextDocumentLayout>
#include <QPageLayout>
#include <QPdfWriter>
#include <QTextDocument>

#include <algorithm>
#include <memory>

#include "draw/chart_painter.h"

namespace moe::ui {

namespace {

constexpr double kFooter = 22;    // the footer's band at the bottom of a page
constexpr double kMinSlice = 40;  // a text taller than a page is not begun in less room

const char* const kTextStyle =
    "h1 { font-size: 20pt; } h2 { font-size: 14pt; color: #1f2328; }"
    "p.subtitle { color: #57606a; } p.warning { color: #8a4b00; }"
    "th { background-color: #f0f2f4; text-align: left; } td, th { padding: 3px; }"
    "pre { font-family: monospace; font-size: 8pt; } a { color: #0b61c4; }"
    "p.caption { color: #57606a; font-size: 8pt; }";

std::unique_ptr<QTextDocument> laidOut(const QString& html, const QFont& font, QPdfWriter* writer,
                                       double width) {
  auto doc = std::make_unique<QTextDocument>();
  doc->setDefaultFont(font);
  doc->setDefaultStyleSheet(QLatin1String(kTextStyle));
  doc->setDocumentMargin(0);
  doc->documentLayout()->setPaintDevice(writer);
  doc->setHtml(html);
  doc->setTextWidth(width);
  return doc;
}

}  // namespace

PdfFlow::PdfFlow(QPdfWriter* writer, const QString& footer) : writer_(writer), footer_(footer) {
  painter_.begin(writer_);
  const QRect paint = writer_->pageLayout().paintRectPixels(kDpi);
  width_ = paint.width();
  height_ = paint.height() - kFooter;
  font_ = QFont(QStringLiteral("DejaVu Sans"));
  font_.setPointSizeF(9);
}

double PdfFlow::textHeight(const QString& html) const {
  return laidOut(html, font_, writer_, width_)->size().height();
}

double PdfFlow::chartHeight(QSize size) const {
  const int w = static_cast<int>(width_);
  return std::max(150, size.height() * w / std::max(1, size.width()));
}

double PdfFlow::chartBlockHeight(QSize size, const QString& caption_html) const {
  return chartHeight(size) + 2 + textHeight(caption_html);
}

void PdfFlow::text(const QString& html, double keep_below) {
  const auto doc = laidOut(html, font_, writer_, width_);
  const double h = doc->size().height();
  if (h <= height_) {
    room(keep_below > 0 ? h + std::min(kGap + keep_below, height_ - h) : h);
    painter_.save();
    painter_.translate(0, y_);
    doc->drawContents(&painter_, QRectF(0, 0, width_, h));
    painter_.restore();
    y_ += h + kGap;
    return;
  }
  // Taller than a page: slice it.
  for (double from = 0; from < h;) {
    if (y_ >= height_ - kMinSlice) newPage();
    const double slice = std::min(h - from, height_ - y_);
    painter_.save();
    painter_.translate(0, y_ - from);
    doc->drawContents(&painter_, QRectF(0, from, width_, slice));
    painter_.restore();
    from += slice;
    y_ += slice;
  }
  y_ += kGap;
}

void PdfFlow::chart(const ReportChart& chart, const QString& caption_html) {
  const int w = static_cast<int>(width_);
  const int h = static_cast<int>(chartHeight(chart.size));
  room(chartBlockHeight(chart.size, caption_html));
  painter_.save();
  painter_.translate(0, y_);
  paintChart(painter_, chart.content, QSizeF(w, h));
  painter_.restore();
  y_ += h + 2;
  text(caption_html);
}

int PdfFlow::rowsThatFit(const TableRows& rows_html, int first, int rows) const {
  const double left = height_ - y_;
  int fits = 0, over = rows - first + 1;  // binary search: `fits` rows fit, `over` do not
  while (over - fits > 1) {
    const int n = (fits + over) / 2;
    if (textHeight(rows_html(first, first + n)) <= left)
      fits = n;
    else
      over = n;
  }
  return fits;
}

void PdfFlow::table(const TableRows& rows_html, int rows) {
  if (rows == 0) {
    text(rows_html(0, 0));
    return;
  }
  for (int first = 0; first < rows;) {
    int n = rowsThatFit(rows_html, first, rows);
    if (n == 0 && y_ > 0) {
      newPage();
      n = rowsThatFit(rows_html, first, rows);
    }
    n = std::max(n, 1);  // a row taller than a page is sliced by text()
    text(rows_html(first, first + n));
    first += n;
  }
}

void PdfFlow::finish() {
  drawFooter();
  painter_.end();
}

void PdfFlow::room(double h) {
  if (y_ > 0 && y_ + h > height_) newPage();
}

void PdfFlow::newPage() {
  drawFooter();
  writer_->newPage();
  y_ = 0;
  ++page_;
}

void PdfFlow::drawFooter() {
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

}  // namespace moe::ui
