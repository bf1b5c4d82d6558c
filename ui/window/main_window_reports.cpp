// The window's report and export actions (main_window_reports.h).
#include "window/main_window_reports.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>
#include <QTabWidget>

#include <vector>

#include "base/report/comparison_report.h"
#include "base/report/config_export.h"
#include "base/report/metrics_csv.h"
#include "base/report/run_report.h"
#include "base/storage/worker_task.h"
#include "dashboard/run_dashboard.h"
#include "report/report_export.h"
#include "runs/compare_view.h"
#include "window/main_window.h"

namespace moe::ui {

ReportActions::ReportActions(MainWindow* window, QMenu* file) : QObject(window), window_(window) {
  report_ = file->addAction(tr("Export &Report…"), this, &ReportActions::chooseReport);
  report_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
  report_->setStatusTip(tr("The run (or comparison) in this tab as one HTML or PDF file"));
  csv_ = file->addAction(tr("Export Metrics as &CSV…"), this, &ReportActions::chooseCsv);
  csv_->setStatusTip(tr("The run's telemetry as CSV files, one per event type"));
  config_ =
      file->addAction(tr("Export Confi&g and Command Lines…"), this, &ReportActions::chooseConfig);
  config_->setStatusTip(
      tr("The run's config as JSON with the moe-train, torchrun and srun lines that start it"));
  connect(window_->tabs(), &QTabWidget::currentChanged, this, &ReportActions::updateActions);
  updateActions();
}

QStringList ReportActions::currentRunDirs() const {
  QWidget* page = window_->tabs()->currentWidget();
  if (auto* dashboard = qobject_cast<RunDashboard*>(page)) {
    return dashboard->runDir().isEmpty() ? QStringList() : QStringList{dashboard->runDir()};
  }
  if (qobject_cast<CompareView*>(page))
    return page->property(kCompareRunDirsProperty).toStringList();
  return {};
}

void ReportActions::updateActions() {
  const QStringList dirs = currentRunDirs();
  report_->setEnabled(!busy_ && !dirs.isEmpty());
  csv_->setEnabled(!busy_ && dirs.size() == 1);
  config_->setEnabled(!busy_ && dirs.size() == 1);
}

void ReportActions::chooseReport() {
  const QStringList dirs = currentRunDirs();
  if (dirs.isEmpty()) return;
  // A run's report goes next to it (report.html in the run directory) unless the user says
  // otherwise; a comparison beside the first run.
  const QString proposed = dirs.size() == 1
                               ? QDir(dirs.first()).filePath(QStringLiteral("report.html"))
                               : QDir(QFileInfo(dirs.first()).absolutePath())
                                     .filePath(QStringLiteral("comparison.html"));
  const QString html = tr("HTML report (*.html)"), pdf = tr("PDF report (*.pdf)");
  QString filter = html;
  QString path = QFileDialog::getSaveFileName(window_, tr("Export Report"), proposed,
                                              html + QStringLiteral(";;") + pdf, &filter);
  if (path.isEmpty()) return;
  ReportFormat format;
  if (!reportFormatForPath(path, &format))
    path += filter == pdf ? QStringLiteral(".pdf") : QStringLiteral(".html");
  exportReportTo(path);
}

void ReportActions::chooseCsv() {
  const QStringList dirs = currentRunDirs();
  if (dirs.size() != 1) return;
  const QString directory =
      QFileDialog::getExistingDirectory(window_, tr("Export Metrics as CSV into"), dirs.first());
  if (!directory.isEmpty()) exportCsvTo(directory);
}

void ReportActions::chooseConfig() {
  const QStringList dirs = currentRunDirs();
  if (dirs.size() != 1) return;
  const QString path = QFileDialog::getSaveFileName(
      window_, tr("Export Config and Command Lines"),
      QDir(dirs.first()).filePath(QStringLiteral("config-export.json")), tr("JSON (*.json)"));
  if (!path.isEmpty()) exportConfigTo(path);
}

void ReportActions::exportReportTo(const QString& path) {
  const QStringList dirs = currentRunDirs();
  if (dirs.isEmpty() || busy_) return;
  busy_ = true;
  updateActions();
  window_->statusBar()->showMessage(
      tr("Reading %n run(s) and writing %1…", nullptr, static_cast<int>(dirs.size()))
          .arg(QDir::toNativeSeparators(path)));
  // Reading, drawing the charts (QPainter, no widget) and writing all happen on the worker.
  runOnWorker(
      this,
      [dirs, path] {
        std::vector<RunReport> runs;
        QString error;
        if (!loadRunReports(dirs, &runs, &error)) return error;
        if (dirs.size() == 1)
          writeRunReport(runs.front(), path, &error);
        else
          writeComparisonReport(runs, path, &error);
        return error;
      },
      [this, path](const QString& error) { finish(path, error); });
}

void ReportActions::exportCsvTo(const QString& directory) {
  const QStringList dirs = currentRunDirs();
  if (dirs.size() != 1 || busy_) return;
  busy_ = true;
  updateActions();
  window_->statusBar()->showMessage(tr("Writing CSV files…"));
  const QString run_dir = dirs.first();
  runOnWorker(
      this,
      [run_dir, directory] {
        QString error;
        exportMetricsCsv(run_dir, directory, &error);
        return error;
      },
      [this, directory](const QString& error) { finish(directory, error); });
}

void ReportActions::exportConfigTo(const QString& path) {
  const QStringList dirs = currentRunDirs();
  if (dirs.size() != 1 || busy_) return;
  busy_ = true;
  updateActions();
  const QString run_dir = dirs.first();
  runOnWorker(
      this,
      [run_dir, path] {
        QString error;
        exportRunConfig(run_dir, path, &error);
        return error;
      },
      [this, path](const QString& error) { finish(path, error); });
}

void ReportActions::finish(const QString& path, const QString& error) {
  busy_ = false;
  updateActions();
  if (error.isEmpty()) {
    window_->statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 8000);
  } else {
    window_->statusBar()->clearMessage();
    QMessageBox::warning(window_, tr("Export failed"), error);
  }
  emit exported(path, error);
}

}  // namespace moe::ui
