// A ReportDocument as one self-contained HTML file: an inline <style>, every chart an inline <svg>
// (QSvgGenerator; heatmaps hold their cells as an embedded PNG), no script, nothing loaded from
// anywhere. The markup is well-formed XML (XHTML-compatible), so a plain XML reader can check it.
// Every text of the document goes through htmlEscaped().
#pragma once

#include <QByteArray>
#include <QString>

namespace moe::ui {

struct ReportChart;
struct ReportDocument;

// & < > " ' as entities: safe in element text and in quoted attributes.
QString htmlEscaped(const QString& text);

// The chart as an <svg> element (no XML declaration) whose ids are prefixed with `id_prefix`, so
// several charts can share a page.
QString embeddedSvg(const ReportChart& chart, const QString& id_prefix);

// The whole HTML file, UTF-8 (it draws the charts: a QGuiApplication must exist).
QByteArray reportHtml(const ReportDocument& document);

}  // namespace moe::ui
