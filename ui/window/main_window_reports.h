// The window's report and export actions (docs/REPORTS.md, "From the app"): File > Export
// Report… (Ctrl+E) of the current run tab or comparison tab, as HTML or PDF; Export Metrics
// CSV… and Export Config… of the current run tab. The run directories are read on a worker; the
// charts are drawn and the file written on the GUI thread (a few hundred milliseconds); the
// status bar says what happens, a dialog says why an export failed.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

class QAction;
class QMenu;

namespace moe::ui {

class MainWindow;

// The property a comparison tab carries its run directories in (MainWindow::compareRuns).
inline constexpr const char* kCompareRunDirsProperty = "moeRunDirs";

class ReportActions : public QObject {
  Q_OBJECT

 public:
  // Adds the actions to `file` (the window's File menu); the window owns them.
  ReportActions(MainWindow* window, QMenu* file);

  QAction* exportReportAction() const { return report_; }
  QAction* exportCsvAction() const { return csv_; }
  QAction* exportConfigAction() const { return config_; }

  // The run directories the current tab shows: one for a run's tab, several for a comparison,
  // none otherwise.
  QStringList currentRunDirs() const;

  // The exports of the current tab to a chosen path, without asking; exported() when done.
  void exportReportTo(const QString& path);
  void exportCsvTo(const QString& directory);
  void exportConfigTo(const QString& path);

 signals:
  // `error` is empty on success.
  void exported(const QString& path, const QString& error);

 private:
  void updateActions();
  void chooseReport();
  void chooseCsv();
  void chooseConfig();
  void finish(const QString& path, const QString& error);

  MainWindow* window_;
  QAction* report_;
  QAction* csv_;
  QAction* config_;
  bool busy_ = false;
};

}  // namespace moe::ui
