// Reports to files (report_export.h).
#include "report/report_export.h"

#include <QFileInfo>

#include "base/report/comparison_report.h"
#include "base/report/report_document.h"
#include "base/report/run_report_document.h"
#include "base/storage/whole_file.h"
#include "report/report_html.h"
#include "report/report_pdf.h"

namespace moe::ui {

bool reportFormatForPath(const QString& path, ReportFormat* format) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == QLatin1String("html") || suffix == QLatin1String("htm")) {
    *format = ReportFormat::kHtml;
    return true;
  }
  if (suffix == QLatin1String("pdf")) {
    *format = ReportFormat::kPdf;
    return true;
  }
  return false;
}

bool writeReport(const ReportDocument& document, const QString& path, QString* error) {
  ReportFormat format;
  if (!reportFormatForPath(path, &format)) {
    *error = path + QStringLiteral(": a report is .html or .pdf");
    return false;
  }
  if (format == ReportFormat::kPdf) return writeReportPdf(document, path, error);
  const QByteArray html = reportHtml(document);
  QString why;
  if (saveWhole(path, html, &why)) return true;
  *error = path + QStringLiteral(": ") + why;
  return false;
}

bool writeRunReport(const RunReport& report, const QString& path, QString* error) {
  return writeReport(runReportDocument(report), path, error);
}

bool writeComparisonReport(const std::vector<RunReport>& runs, const QString& path,
                           QString* error) {
  return writeReport(comparisonDocument(runs), path, error);
}

}  // namespace moe::ui
