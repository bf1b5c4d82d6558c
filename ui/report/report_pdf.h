// A ReportDocument as a PDF: A4 pages, text and tables laid out by QTextDocument, charts drawn as
// vectors (draw/chart_painter.h on the PDF's painter) at the page's width, tables split
// between rows at a page's end, a heading never left alone at the bottom of a page, and the title
// and page number in each page's footer (the page flow is report_pdf_flow.h). Every text goes
// through htmlEscaped() into QTextDocument's HTML.
#pragma once

#include <QString>

namespace moe::ui {

struct ReportDocument;

// Writes `path`. False with *error when the file cannot be written. Any thread (a
// QGuiApplication must exist).
bool writeReportPdf(const ReportDocument& document, const QString& path, QString* error);

}  // namespace moe::ui
