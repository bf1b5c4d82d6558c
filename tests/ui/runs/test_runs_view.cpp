// RunsView: buttons follow the selection, Compare and Open carry the selected directories, runs
// can be added, rescanned and removed, the filter and status combo filter, and the header state
// is kept. The view reads and writes the store on a worker thread: each step waits for it.
#include <QtTest>

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>

#include "base/runs/run_directory_index.h"
#include "base/runs/run_store.h"
#include "run_dir_fixture.h"
#include "runs/runs_filter_proxy.h"
#include "runs/runs_table_model.h"
#include "runs/runs_view.h"

using moe::test::FakeRun;
using moe::test::writeRunDir;
using moe::ui::RunsTableModel;
using moe::ui::RunStore;
using moe::ui::RunsView;
namespace run_status = moe::ui::run_status;

namespace {

void selectRows(QTableView* table, const QList<int>& rows) {
  QItemSelection selection;
  for (int row : rows) {
    const QModelIndex index = table->model()->index(row, 0);
    selection.select(index, index);
  }
  table->selectionModel()->select(selection,
                                  QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

// Waits until the view's store requests are answered.
bool settled(const RunsView& view) {
  return QTest::qWaitFor([&] { return !view.isBusy(); }, 10000);
}

int rescan(RunsView& view) {
  QSignalSpy done(&view, &RunsView::rescanFinished);
  view.rescan();
  return done.wait(10000) ? done[0][0].toInt() : -1;
}

// The error; empty when the directory was added.
QString add(RunsView& view, const QString& dir) {
  QSignalSpy done(&view, &RunsView::runDirectoryAdded);
  view.addRunDirectory(dir);
  return done.wait(10000) ? done[0][1].toString() : QStringLiteral("no answer");
}

}  // namespace

class TestRunsView : public QObject {
  Q_OBJECT

  QTemporaryDir tmp_;
  QString root_;
  std::unique_ptr<RunStore> store_;

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("moe-studio-tests");
    QCoreApplication::setApplicationName("test_runs_view");
    QSettings().remove("runs/header");
  }

  void init() {
    root_ = tmp_.filePath("runs");
    QDir(root_).removeRecursively();
    FakeRun a = moe::test::finishedRun(), b = a, c = a;
    a.run_id = "20250101-000000-a";
    b.run_id = "20250102-000000-b";
    b.end_status = "failed";
    c.run_id = "20250103-000000-c";
    c.host = "laptop";
    for (FakeRun* run : {&a, &b, &c}) {
      writeRunDir(root_, QString::fromStdString(run->run_id), *run);
    }
    QFile::remove(tmp_.filePath("runs.db"));
    store_ = std::make_unique<RunStore>(tmp_.filePath("runs.db"));
    QVERIFY(store_->open());
    QCOMPARE(store_->rescan(root_), 3);
  }

  void cleanup() { store_.reset(); }

  void buttonsFollowTheSelection() {
    RunsView view(store_.get(), root_);
    QVERIFY(settled(view));
    QTableView* table = view.table();
    QCOMPARE(table->model()->rowCount(), 3);
    QVERIFY(!view.openButton()->isEnabled());
    QVERIFY(!view.compareButton()->isEnabled());
    QVERIFY(!view.removeButton()->isEnabled());

    selectRows(table, {0});
    QVERIFY(view.openButton()->isEnabled());
    QVERIFY(!view.compareButton()->isEnabled());
    QVERIFY(view.removeButton()->isEnabled());
    QSignalSpy open(&view, &RunsView::openRequested);
    view.openButton()->click();
    QCOMPARE(open.size(), 1);
    QCOMPARE(open[0][0].toString(), view.selectedRunDirs().front());
    QVERIFY(view.editButton()->isEnabled());
    QSignalSpy edit(&view, &RunsView::editConfigRequested);
    view.editButton()->click();
    QCOMPARE(edit.size(), 1);
    QCOMPARE(edit[0][0].toString(), view.selectedRunDirs().front());
    QVERIFY(view.table()->actions().contains(view.generateAction()));
    QVERIFY(view.generateAction()->isEnabled());
    QSignalSpy generate(&view, &RunsView::generateRequested);
    view.generateAction()->trigger();
    QCOMPARE(generate.size(), 1);
    QCOMPARE(generate[0][0].toString(), view.selectedRunDirs().front());

    selectRows(table, {0, 2});
    QVERIFY(!view.openButton()->isEnabled());
    QVERIFY(!view.editButton()->isEnabled());
    QVERIFY(!view.generateAction()->isEnabled());
    QVERIFY(view.compareButton()->isEnabled());
    QSignalSpy compare(&view, &RunsView::compareRequested);
    view.compareButton()->click();
    QCOMPARE(compare.size(), 1);
    const QStringList dirs = compare[0][0].toStringList();
    QCOMPARE(dirs.size(), 2);
    QCOMPARE(dirs, view.selectedRunDirs());
    for (const QString& dir : dirs) QVERIFY(store_->find(dir));
    QVERIFY(dirs[0] != dirs[1]);

    // Newest first by default: row 0 is run c.
    QVERIFY(dirs[0].endsWith("20250103-000000-c"));

    emit table->doubleClicked(table->model()->index(1, 3));
    QCOMPARE(open.size(), 2);
    QVERIFY(open[1][0].toString().endsWith("20250102-000000-b"));

    table->clearSelection();
    QVERIFY(!view.compareButton()->isEnabled());
  }

  void filterAndStatusCombo() {
    RunsView view(store_.get(), root_);
    QVERIFY(settled(view));
    view.filterEdit()->setText("laptop");
    QCOMPARE(view.table()->model()->rowCount(), 1);
    view.filterEdit()->clear();
    view.statusCombo()->setCurrentIndex(view.statusCombo()->findData(run_status::kFailed));
    QCOMPARE(view.table()->model()->rowCount(), 1);
    QCOMPARE(view.table()->model()->index(0, RunsTableModel::kStatus).data().toString(),
             run_status::kFailed);
    view.statusCombo()->setCurrentIndex(0);  // All
    QCOMPARE(view.table()->model()->rowCount(), 3);
    QVERIFY(!view.table()->isColumnHidden(RunsTableModel::kAccuracyBest));
  }

  void addRescanAndRemove() {
    RunsView view(store_.get(), root_);
    QVERIFY(settled(view));
    QTemporaryDir elsewhere;
    FakeRun extra;
    extra.run_id = "20250104-000000-extra";
    const QString dir = writeRunDir(elsewhere.path(), "extra", extra);
    QString error = add(view, dir);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(view.table()->model()->rowCount(), 4);
    QVERIFY(store_->find(dir));
    QCOMPARE(view.selectedRunDirs(), QStringList{QFileInfo(dir).canonicalFilePath()});

    error = add(view, elsewhere.path());
    QVERIFY(error.contains("no metrics.jsonl"));

    selectRows(view.table(), {0, 1});
    const QStringList removed = view.selectedRunDirs();
    view.removeButton()->click();
    QCOMPARE(view.table()->model()->rowCount(), 2);
    QVERIFY(settled(view));
    QCOMPARE(store_->all().size(), 2);
    QCOMPARE(rescan(view), 0);  // removed runs stay removed
    QCOMPARE(view.table()->model()->rowCount(), 2);
    QVERIFY(view.messageLabel()->text().contains("0 run"));

    writeRunDir(root_, "20250105-000000-new", FakeRun());
    QCOMPARE(rescan(view), 1);
    QCOMPARE(view.table()->model()->rowCount(), 3);
  }

  void liveUpdatesAndHeaderState() {
    {
      RunsView view(store_.get(), root_);
      QVERIFY(settled(view));
      const QString dir = root_ + "/20250101-000000-a";
      auto record = *moe::ui::indexRunDirectory(dir);
      record.status = run_status::kRunning;
      view.updateRun(record);
      QCOMPARE(view.model()->rowCount(), 3);
      QVERIFY(settled(view));
      QCOMPARE(store_->find(dir)->status, run_status::kRunning);
      QCOMPARE(rescan(view), 0);  // live: left alone
      QCOMPARE(store_->find(dir)->status, run_status::kRunning);
      view.table()->sortByColumn(RunsTableModel::kLossLast, Qt::AscendingOrder);
    }
    QVERIFY(!QSettings().value("runs/header").toByteArray().isEmpty());
    RunsView restored(store_.get(), root_);
    QVERIFY(settled(restored));
    QCOMPARE(restored.table()->horizontalHeader()->sortIndicatorSection(),
             int(RunsTableModel::kLossLast));
  }
};

QTEST_MAIN(TestRunsView)
#include "test_runs_view.moc"
