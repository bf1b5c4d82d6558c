// RunsView: the "Runs" page. Every run the store knows, filterable and sortable, with actions to
// open one, compare several, add a run directory by hand, rescan the runs root and drop runs
// from the list (their files stay). Column widths and sorting persist (QSettings "runs/header").
#pragma once

#include <QSet>
#include <QStringList>
#include <QWidget>

#include "runs/run_record.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace moe::ui {

class RunStore;
class RunsFilterProxy;
class RunsTableModel;

class RunsView : public QWidget {
  Q_OBJECT

 public:
  // `store` is not owned and may be null (then the view shows only what updateRun() gives it).
  // `runs_root` is the folder Rescan looks through.
  RunsView(RunStore* store, QString runs_root, QWidget* parent = nullptr);
  ~RunsView() override;

  QString runsRoot() const { return runs_root_; }
  void setRunsRoot(const QString& root) { runs_root_ = root; }

  // Run directories of the selected rows, in the order shown.
  QStringList selectedRunDirs() const;

  RunsTableModel* model() const { return model_; }
  RunsFilterProxy* proxy() const { return proxy_; }
  QTableView* table() const { return table_; }
  QLineEdit* filterEdit() const { return filter_; }
  QComboBox* statusCombo() const { return status_; }
  QPushButton* openButton() const { return open_; }
  QPushButton* editButton() const { return edit_; }
  QPushButton* compareButton() const { return compare_; }
  QPushButton* removeButton() const { return remove_; }
  QLabel* messageLabel() const { return message_; }

 public slots:
  // Reloads every record from the store (keeps the selection).
  void refresh();
  // A live run's new summary: stored and shown at once. While its status is "running" a rescan
  // leaves it alone.
  void updateRun(const moe::ui::RunRecord& record);
  // Indexes a run directory and adds it; false with *error (nothing shown) when it is no run.
  bool addRunDirectory(const QString& dir, QString* error = nullptr);
  // Store rescan of the runs root, then refresh(); the number of runs added or changed.
  int rescan();
  // Drops the selected runs from the list (and the store); their directories stay.
  void removeSelected();

 signals:
  void openRequested(const QString& run_dir);
  void compareRequested(const QStringList& run_dirs);
  // "Edit as experiment": the run's config should open in the experiment editor.
  void editConfigRequested(const QString& run_dir);

 private:
  void buildLayout();
  void connectActions();
  void chooseAndAddDirectory();
  void updateButtons();
  void updateAccuracyColumn();
  void select(const QStringList& run_dirs);
  void fitColumns();

  RunStore* store_;
  QString runs_root_;
  QSet<QString> live_dirs_;  // runs whose last updateRun() said "running"
  bool header_restored_ = false;
  bool user_sized_ = false, fitting_ = false;  // a column width the user set; our own resizing

  RunsTableModel* model_;
  RunsFilterProxy* proxy_;
  QLineEdit* filter_;
  QComboBox* status_;
  QTableView* table_;
  QPushButton *open_, *edit_, *compare_, *add_, *rescan_, *remove_;
  QLabel* message_;
};

}  // namespace moe::ui
