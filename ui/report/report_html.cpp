// ReportDocument -> HTML (report_html.h).
#include "report/report_html.h"

#include <QDateTime>
#include <QRegularExpression>

#include "base/report/report_document.h"
#include "draw/chart_svg.h"

namespace moe::ui {

namespace {

// Print-friendly and quiet: system fonts, one column, tables that scroll rather than overflow.
const char* const kStyle = R"(
body { margin: 0; background: #f4f5f7; color: #1f2328;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; }
main { max-width: 960px; margin: 0 auto; padding: 28px 32px 40px; background: #fff; }
h1 { font-size: 26px; margin: 0 0 4px; word-break: break-word; }
h2 { font-size: 19px; margin: 34px 0 10px; padding-bottom: 4px; border-bottom: 1px solid #d0d7de; }
.subtitle { color: #57606a; margin: 0 0 18px; }
nav ol { columns: 2; margin: 0 0 8px; padding-left: 22px; }
nav a, a { color: #0b61c4; }
table { border-collapse: collapse; margin: 8px 0 14px; font-size: 13px; display: block;
  overflow-x: auto; max-width: 100%; }
th, td { border: 1px solid #d0d7de; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f0f2f4; font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.facts th { width: 190px; background: #f7f8fa; }
table.facts td { word-break: break-word; }
.warning { background: #fff4e5; border-left: 4px solid #d97706; padding: 8px 12px; margin: 8px 0; }
figure { margin: 10px 0 18px; }
figure svg { width: 100%; height: auto; display: block; border: 1px solid #e4e7eb; }
figcaption { color: #57606a; font-size: 12.5px; margin-top: 4px; }
pre { background: #f6f8fa; border: 1px solid #e4e7eb; padding: 8px 10px; font-size: 12.5px;
  overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
footer { margin-top: 36px; color: #6e7781; font-size: 12px; }
@media print { body { background: #fff; } main { padding: 0; } figure, table { break-inside: avoid; } }
)";

QString tableHtml(const ReportTable& table, const char* css_class) {
  QString out = css_class ? QStringLiteral("<table class=\"%1\">").arg(QLatin1String(css_class))
                          : QStringLiteral("<table>");
  if (!table.header.isEmpty()) {
    out += QStringLiteral("<thead><tr>");
    for (const QString& h : table.header) out += "<th>" + htmlEscaped(h) + "</th>";
    out += QStringLiteral("</tr></thead>");
  }
  out += QStringLiteral("<tbody>");
  const bool facts = css_class && QLatin1String(css_class) == QLatin1String("facts");
  for (const QStringList& row : table.rows) {
    out += QStringLiteral("<tr>");
    for (int c = 0; c < row.size(); ++c) {
      if (facts && c == 0) {
        out += "<th>" + htmlEscaped(row[c]) + "</th>";
      } else if (table.numeric_columns.contains(c)) {
        out += "<td class=\"num\">" + htmlEscaped(row[c]) + "</td>";
      } else {
        out += "<td>" + htmlEscaped(row[c]) + "</td>";
      }
    }
    out += QStringLiteral("</tr>");
  }
  return out + QStringLiteral("</tbody></table>\n");
}

}  // namespace

QString htmlEscaped(const QString& text) {
  QString out;
  out.reserve(text.size() + text.size() / 8);
  for (const QChar c : text) {
    switch (c.unicode()) {
      case '&':
        out += QLatin1String("&amp;");
        break;
      case '<':
        out += QLatin1String("&lt;");
        break;
      case '>':
        out += QLatin1String("&gt;");
        break;
      case '"':
        out += QLatin1String("&quot;");
        break;
      case '\'':
        out += QLatin1String("&#39;");
        break;
      default:
        // Control characters other than tab and line breaks are not allowed in XML.
        if (c.unicode() < 0x20 && c != '\t' && c != '\n' && c != '\r')
          out += QChar(0xFFFD);
        else
          out += c;
    }
  }
  return out;
}

// The chart's SVG as an element of the page.
QString embeddedSvg(const ReportChart& chart, const QString& id_prefix) {
  QString text = QString::fromUtf8(chartSvg(chart, QStringLiteral("chart")));
  const qsizetype root = text.indexOf(QLatin1String("<svg"));
  if (root < 0) return QString();
  text.remove(0, root);
  // The root's size in millimetres becomes the page's to decide; the viewBox keeps the shape.
  static const QRegularExpression kRootSize(
      QStringLiteral(R"re(^<svg width="[^"]*" height="[^"]*")re"));
  text.replace(kRootSize, QStringLiteral("<svg"));
  // Ids (clip paths, gradients) are per document in HTML: each chart gets its own.
  static const QRegularExpression kId(QStringLiteral(R"re(\bid="([^"]+)\")re"));
  static const QRegularExpression kRef(QStringLiteral(R"re(url\(#([^)]+)\))re"));
  static const QRegularExpression kHref(QStringLiteral(R"re(href="#([^"]+)")re"));
  text.replace(kId, QStringLiteral("id=\"%1\\1\"").arg(id_prefix));
  text.replace(kRef, QStringLiteral("url(#%1\\1)").arg(id_prefix));
  text.replace(kHref, QStringLiteral("href=\"#%1\\1\"").arg(id_prefix));
  return text.trimmed();
}

QByteArray reportHtml(const ReportDocument& doc) {
  QString out;
  out += QStringLiteral(
      "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
      "<meta charset=\"utf-8\"/>\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
      "<meta name=\"generator\" content=\"MoE Studio\"/>\n");
  out += "<title>" + htmlEscaped(doc.title) + "</title>\n<style>" + QLatin1String(kStyle) +
         "</style>\n</head>\n<body>\n<main>\n";
  out += "<h1>" + htmlEscaped(doc.title) + "</h1>\n";
  if (!doc.subtitle.isEmpty())
    out += "<p class=\"subtitle\">" + htmlEscaped(doc.subtitle) + "</p>\n";

  out += QStringLiteral("<nav><ol>");
  for (const ReportBlock* h : doc.headings())
    out += "<li><a href=\"#" + htmlEscaped(h->id) + "\">" + htmlEscaped(h->text) + "</a></li>";
  out += QStringLiteral("</ol></nav>\n");

  for (const ReportBlock& b : doc.blocks) {
    switch (b.kind) {
      case ReportBlock::Kind::kHeading:
        out += "<h2 id=\"" + htmlEscaped(b.id) + "\">" + htmlEscaped(b.text) + "</h2>\n";
        break;
      case ReportBlock::Kind::kParagraph:
        out += "<p>" + htmlEscaped(b.text) + "</p>\n";
        break;
      case ReportBlock::Kind::kWarning:
        out += "<p class=\"warning\">" + htmlEscaped(b.text) + "</p>\n";
        break;
      case ReportBlock::Kind::kFacts:
        out += tableHtml(b.table, "facts");
        break;
      case ReportBlock::Kind::kTable:
        out += tableHtml(b.table, nullptr);
        break;
      case ReportBlock::Kind::kCode:
        out += "<pre>" + htmlEscaped(b.text) + "</pre>\n";
        break;
      case ReportBlock::Kind::kLink:
        out += "<p><a href=\"" + htmlEscaped(b.href) + "\">" + htmlEscaped(b.text) + "</a></p>\n";
        break;
      case ReportBlock::Kind::kChart: {
        const ReportChart& chart = doc.charts[static_cast<size_t>(b.chart)];
        out += "<figure>" + embeddedSvg(chart, QStringLiteral("c%1-").arg(b.chart));
        out += "<figcaption>" + htmlEscaped(b.text) + "</figcaption></figure>\n";
        break;
      }
    }
  }
  out += "<footer>" +
         htmlEscaped(QStringLiteral("Made by MoE Studio on %1.")
                         .arg(QDateTime::currentDateTime().toString(Qt::ISODate))) +
         "</footer>\n</main>\n</body>\n</html>\n";
  return out.toUtf8();
}

}  // namespace moe::ui
