// ProfilerView: the Profiler tab (docs/PROFILER.md). A sweep form with its estimate, Run and
// Cancel, the progress of `moe-train bench --jsonl` with its ETA and stderr, the results as a
// sortable table and charts filled config by config, and the history of past sweeps (SQLite,
// SweepStore) to show again, compare, export as CSV or delete.
#pragma once

#include <QDateTime>
#include <QList>
#include <QWidget>

#include "base/profiler/bench_process.h"
#include "base/profiler/sweep_store.h"

class QLabel;
class QListWidget;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace moe::ui {

class ProfilerCharts;
class SweepForm;
class SweepTableModel;

class ProfilerView : public QWidget {
  Q_OBJECT

 public:
  // `db_path`: the sweep store's file (SweepStore::defaultPath() in the app); `program`: the
  // moe-train to run (empty: defaultTrainProgram()).
  explicit ProfilerView(const QString& db_path, const QString& program = {},
                        QWidget* parent = nullptr);

  SweepForm* form() const { return form_; }
  SweepTableModel* tableModel() const { return model_; }
  QSortFilterProxyModel* sortedModel() const { return sorted_; }
  QTableView* table() const { return table_; }
  ProfilerCharts* charts() const { return charts_; }
  BenchProcess* process() const { return process_; }
  QListWidget* history() const { return history_; }
  QProgressBar* progressBar() const { return progress_; }
  QLabel* statusLabel() const { return status_; }
  QPlainTextEdit* logView() const { return log_; }
  QPushButton* runButton() const { return run_; }
  QPushButton* cancelButton() const { return cancel_; }
  const QList<SweepRecord>& records() const { return records_; }
  SweepStoreWorker* store() const { return store_; }

  // Starts the form's sweep; false (with the problems in the form) when it cannot run.
  bool run();
  void cancel();
  // Shows a stored sweep (its table and charts); several ids: their charts overlaid.
  bool showSweep(qint64 id);
  bool compareSweeps(const QList<qint64>& ids);
  // Writes the table shown now as CSV. False with *error.
  bool exportCsv(const QString& path, QString* error = nullptr) const;
  // Writes the four charts shown now, in the format of `path`'s suffix (.png, .svg, .pdf), as
  // <name>-tokens, -tflops, -efficiency and -phases beside it. False with *error.
  bool exportCharts(const QString& path, QString* error = nullptr) const;

 signals:
  // A sweep ended and its record was stored (id 0: the store refused it; see the status line).
  void sweepStored(qint64 id);
  void historyLoaded();

 private:
  QWidget* buildSetupSide();
  QWidget* buildResultsSide();
  void connectProcess();
  void connectHistory();
  void onFinished(BenchProcess::Outcome outcome, const QString& message);
  void onProgress(int done, int of, double eta_s);
  void setRunning(bool running);
  void refreshHistory(const QList<SweepRecord>& records);
  QList<qint64> checkedIds() const;
  const SweepRecord* record(qint64 id) const;
  void chooseCsvPath();
  void chooseChartsPath();
  void updateButtons();

  SweepForm* form_;
  QPushButton* run_;
  QPushButton* cancel_;
  QProgressBar* progress_;
  QLabel* status_;
  QPlainTextEdit* log_;
  SweepTableModel* model_;
  QSortFilterProxyModel* sorted_;
  QTableView* table_;
  ProfilerCharts* charts_;
  QListWidget* history_;
  QPushButton* show_;
  QPushButton* compare_;
  QPushButton* export_;
  QPushButton* export_charts_;
  QPushButton* delete_;
  BenchProcess* process_;
  SweepStoreWorker* store_;
  QString program_;
  QList<SweepRecord> records_;
  SweepRecord current_;  // the sweep running, or the last one run
};

}  // namespace moe::ui
