// The export commands (report_cli.h).
#include "report/report_cli.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <cstdio>
#include <functional>

#include "base/report/comparison_report.h"
#include "base/report/config_export.h"
#include "base/report/metrics_csv.h"
#include "base/report/run_report.h"
#include "report/report_export.h"

namespace moe::ui {

namespace {

constexpr int kExitOk = 0, kExitFailure = 1, kExitBadInput = 2;

const QStringList kCommands{QStringLiteral("--export-report"),
                            QStringLiteral("--export-comparison"), QStringLiteral("--export-csv"),
                            QStringLiteral("--export-config")};

// Messages name the program that runs the command: moe-studio or moe-report.
QString program() {
  const QString name = QCoreApplication::applicationName();
  return name.isEmpty() ? QStringLiteral("moe-studio") : name;
}

int fail(int status, const QString& message) {
  std::fprintf(stderr, "%s: %s\n", qPrintable(program()), qPrintable(message));
  return status;
}

void progress(const QString& message) {
  std::fprintf(stderr, "%s: %s\n", qPrintable(program()), qPrintable(message));
}

int usage(const QString& problem) {
  const QString usage = QStringLiteral(
                            "usage: %1 --export-report RUN_DIR OUT.html|OUT.pdf\n"
                            "       %1 --export-comparison OUT.html|OUT.pdf RUN_DIR RUN_DIR...\n"
                            "       %1 --export-csv RUN_DIR OUT_DIR\n"
                            "       %1 --export-config RUN_DIR OUT.json")
                            .arg(program());
  return fail(kExitBadInput, problem + QLatin1Char('\n') + usage);
}

int exportReport(const QString& run_dir, const QString& out) {
  ReportFormat format;
  if (!reportFormatForPath(out, &format))
    return fail(kExitBadInput, out + QStringLiteral(": a report is .html or .pdf"));
  RunReport report;
  QString error;
  progress(QStringLiteral("reading %1").arg(run_dir));
  if (!loadRunReport(run_dir, &report, &error)) return fail(kExitBadInput, error);
  if (!writeRunReport(report, out, &error)) return fail(kExitFailure, error);
  progress(QStringLiteral("wrote %1").arg(out));
  return kExitOk;
}

int exportComparison(const QString& out, const QStringList& run_dirs) {
  ReportFormat format;
  if (!reportFormatForPath(out, &format))
    return fail(kExitBadInput, out + QStringLiteral(": a report is .html or .pdf"));
  std::vector<RunReport> runs;
  QString error;
  progress(QStringLiteral("reading %1 run(s)").arg(run_dirs.size()));
  if (!loadRunReports(run_dirs, &runs, &error)) return fail(kExitBadInput, error);
  if (!writeComparisonReport(runs, out, &error)) return fail(kExitFailure, error);
  progress(QStringLiteral("wrote %1").arg(out));
  return kExitOk;
}

// A run directory that is no run is bad input; an output that cannot be written is a failure.
int exportFiles(const QString& run_dir, const std::function<bool(QString*)>& write) {
  RunReport probe;
  QString error;
  if (!loadRunReport(run_dir, &probe, &error)) return fail(kExitBadInput, error);
  if (!write(&error)) return fail(kExitFailure, error);
  return kExitOk;
}

}  // namespace

bool isExportCommand(const QStringList& arguments) {
  return !arguments.isEmpty() && kCommands.contains(arguments.first());
}

int runExportCommand(const QStringList& arguments) {
  const QString command = arguments.value(0);
  const QStringList rest = arguments.mid(1);
  if (command == QLatin1String("--export-report")) {
    if (rest.size() != 2) return usage(QStringLiteral("--export-report takes RUN_DIR and OUT"));
    return exportReport(rest[0], rest[1]);
  }
  if (command == QLatin1String("--export-comparison")) {
    if (rest.size() < 3)
      return usage(QStringLiteral("--export-comparison takes OUT and at least two RUN_DIRs"));
    return exportComparison(rest[0], rest.mid(1));
  }
  if (command == QLatin1String("--export-csv")) {
    if (rest.size() != 2) return usage(QStringLiteral("--export-csv takes RUN_DIR and OUT_DIR"));
    return exportFiles(rest[0], [&](QString* error) {
      if (!exportMetricsCsv(rest[0], rest[1], error)) return false;
      progress(QStringLiteral("wrote %1 files into %2").arg(metricsCsvFiles().size()).arg(rest[1]));
      return true;
    });
  }
  if (command == QLatin1String("--export-config")) {
    if (rest.size() != 2)
      return usage(QStringLiteral("--export-config takes RUN_DIR and OUT.json"));
    return exportFiles(rest[0],
                       [&](QString* error) { return exportRunConfig(rest[0], rest[1], error); });
  }
  return usage(command.isEmpty() ? QStringLiteral("no command")
                                 : command + QStringLiteral(": not an export command"));
}

}  // namespace moe::ui
