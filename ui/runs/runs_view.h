// RunsView: the "Runs" page. Every run the store knows, filterable and sortable, with actions to
// open one, compare several, add a run directory by hand, rescan the runs root, drop runs from
// the list (their files stay) and fetch remote runs' files from their targets (button and context
// menu; runs_view_remote.cpp). Column widths and sorting persist (QSettings "runs/header").
//
// The store is read and written through a RunStoreWorker: loading the list, rescanning the runs
// root and indexing an added directory happen on its thread, and the table changes when the
// answer comes back (refreshed(), rescanFinished(), runDirectoryAdded()).
#pragma once

#include <QSet>
#include <QStringList>
#include <QWidget>

#include "base/runs/run_record.h"

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace moe::ui {

class RunStore;
class RunStoreWorker;
class RunsFilterProxy;
class RunsTableModel;

class RunsView : public QWidget {
  Q_OBJECT

 public:
  // `store` is not owned and may be null (then the view shows only what updateRun() gives it);
  // the view opens a connection of its own to the same file, on its worker thread.
  // `runs_root` is the folder Rescan looks through.
  RunsView(RunStore* store, QString runs_root, QWidget* parent = nullptr);
  ~RunsView() override;

  QString runsRoot() const { return runs_root_; }
  void setRunsRoot(const QString& root) { runs_root_ = root; }

  // Run directories of the selected rows, in the order shown.
  QStringList selectedRunDirs() const;
  // Those of them that ran on a remote target.
  QStringList selectedRemoteRunDirs() const;

  RunsTableModel* model() const { return model_; }
  RunsFilterProxy* proxy() const { return proxy_; }
  QTableView* table() const { return table_; }
  QLineEdit* filterEdit() const { return filter_; }
  QComboBox* statusCombo() const { return status_; }
  QPushButton* openButton() const { return open_; }
  QPushButton* editButton() const { return edit_; }
  QPushButton* compareButton() const { return compare_; }
  QPushButton* removeButton() const { return remove_; }
  QPushButton* fetchButton() const { return fetch_; }
  QAction* fetchAction() const { return fetch_action_; }        // the table's context menu
  QAction* generateAction() const { return generate_action_; }  // the table's context menu
  QLabel* messageLabel() const { return message_; }
  // Requests sent to the store and not answered yet.
  bool isBusy() const;

 public slots:
  // Reloads every record from the store (keeps the selection); then refreshed().
  void refresh();
  // A live run's new summary: stored and shown at once. While its status is "running" a rescan
  // leaves it alone.
  void updateRun(const moe::ui::RunRecord& record);
  // Indexes a run directory and adds it; then runDirectoryAdded() (with the error when it is no
  // run: nothing is shown then).
  void addRunDirectory(const QString& dir);
  // Store rescan of the runs root and a reload; then rescanFinished().
  void rescan();
  // Drops the selected runs from the list (and the store); their directories stay.
  void removeSelected();
  // What a fetch of `run_dir` is doing (RemoteFetch::progress), in the message area.
  void showFetchProgress(const QString& run_dir, const QString& text);
  // A fetch ended: said in the message area (the error in full in its tooltip); when it worked,
  // the run is indexed again from its new files.
  void showFetchResult(const QString& run_dir, bool ok, const QString& error);

 signals:
  void openRequested(const QString& run_dir);
  void compareRequested(const QStringList& run_dirs);
  // "Edit as experiment": the run's config should open in the experiment editor.
  void editConfigRequested(const QString& run_dir);
  // "Fetch from target": copy these remote runs' directories here (the main window runs
  // RemoteFetch for each and reports back through showFetchProgress/showFetchResult).
  void fetchRequested(const QStringList& run_dirs);
  // "Generate with this run": the run's checkpoint should open in the Generate tab.
  void generateRequested(const QString& run_dir);
  void refreshed();
  void rescanFinished(int changed);                                  // runs added or changed
  void runDirectoryAdded(const QString& dir, const QString& error);  // error empty: added

 private:
  void buildLayout();
  void connectActions();
  void setUpFetch();  // runs_view_remote.cpp
  void chooseAndAddDirectory();
  void updateButtons();
  void updateAccuracyColumn();
  void select(const QStringList& run_dirs);
  void fitColumns();
  void showRecords(const QList<RunRecord>& records);

  RunStoreWorker* worker_ = nullptr;  // null without a store
  QString runs_root_;
  QSet<QString> live_dirs_;  // runs whose last updateRun() said "running"
  QSet<QString> chosen_;     // directories added with the Add button, not answered yet
  bool header_restored_ = false;
  bool user_sized_ = false, fitting_ = false;  // a column width the user set; our own resizing

  RunsTableModel* model_;
  RunsFilterProxy* proxy_;
  QLineEdit* filter_;
  QComboBox* status_;
  QTableView* table_;
  QPushButton *open_, *edit_, *compare_, *add_, *rescan_, *remove_, *fetch_;
  QAction* fetch_action_;
  QAction* generate_action_;
  QLabel* message_;
};

}  // namespace moe::ui
