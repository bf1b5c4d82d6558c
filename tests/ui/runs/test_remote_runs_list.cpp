// Remote runs in the Runs tab: a run directory with remote.json is indexed with its target and,
// without run_end, the state remote.json last saw (before any telemetry too); the Target column
// says "local" otherwise; a store from before the target column is migrated in place; a rescan
// lists remote runs; and "Fetch from target" asks for the selected remote runs only.
#include <QtTest>

#include <QAction>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTableView>

#include "base/remote/remote_run_record.h"
#include "base/runs/run_directory_index.h"
#include "base/runs/run_store.h"
#include "run_dir_fixture.h"
#include "runs/runs_filter_proxy.h"
#include "runs/runs_table_model.h"
#include "runs/runs_view.h"

using moe::test::FakeRun;
using moe::test::writeRunDir;
using moe::ui::RemoteRunRecord;
using moe::ui::RunRecord;
using moe::ui::RunsTableModel;
using moe::ui::RunStore;
using moe::ui::RunsView;
namespace run_status = moe::ui::run_status;

namespace {

// Writes remote.json into `dir` as a RemoteRun does.
bool writeRemoteJson(const QString& dir, const QString& target, const QString& state,
                     const QString& error = {}) {
  RemoteRunRecord record;
  record.target.kind = moe::ui::Target::Kind::Ssh;
  record.target.name = target;
  record.target.ssh.host = QStringLiteral("gpu.example.org");
  record.run_id = QFileInfo(dir).fileName();
  record.name = QStringLiteral("far");
  record.remote_dir = QStringLiteral("/scratch/runs/") + record.run_id;
  record.submitted_at = QDateTime(QDate(2026, 1, 2), QTime(3, 4, 5));
  record.state = state;
  record.error = error;
  return QDir().mkpath(dir) && record.write(dir);
}

FakeRun unfinishedRun() {
  FakeRun run = moe::test::finishedRun();
  run.end_status.reset();
  return run;
}

QString cell(const RunsTableModel& model, const QString& run_dir, int column) {
  return model.index(model.rowOf(run_dir), column).data().toString();
}

}  // namespace

class TestRemoteRunsList : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("moe-studio-tests");
    QCoreApplication::setApplicationName("test_remote_runs_list");
    QSettings().remove("runs/header");
  }

  void indexedWithTheirTargetAndState() {
    QTemporaryDir tmp;
    const QString local = writeRunDir(tmp.path(), "local", moe::test::finishedRun());
    const QString running = writeRunDir(tmp.path(), "running", unfinishedRun());
    QVERIFY(writeRemoteJson(running, "gpu-box", "running"));
    const QString ended = writeRunDir(tmp.path(), "ended", moe::test::finishedRun());
    QVERIFY(writeRemoteJson(ended, "gpu-box", "running"));  // run_end says more than remote.json
    const QString died = writeRunDir(tmp.path(), "died", unfinishedRun());
    QVERIFY(writeRemoteJson(died, "cluster", "failed", "moe-train was killed (signal 9)"));

    QString error;
    const auto l = moe::ui::indexRunDirectory(local, &error);
    QVERIFY2(l, qPrintable(error));
    QCOMPARE(l->target, QStringLiteral("local"));
    const auto r = moe::ui::indexRunDirectory(running, &error);
    QVERIFY2(r, qPrintable(error));
    QCOMPARE(r->target, QStringLiteral("gpu-box"));
    QCOMPARE(r->status, run_status::kRunning);
    QCOMPARE(r->steps_done, std::optional<int64_t>(3));
    const auto e = moe::ui::indexRunDirectory(ended, &error);
    QCOMPARE(e->status, run_status::kFinished);
    QCOMPARE(e->target, QStringLiteral("gpu-box"));
    const auto d = moe::ui::indexRunDirectory(died, &error);
    QCOMPARE(d->status, run_status::kFailed);
    QCOMPARE(d->error, QStringLiteral("moe-train was killed (signal 9)"));
    QCOMPARE(d->target, QStringLiteral("cluster"));
  }

  // Queued on a cluster, or failed before it started: no telemetry, still a run of its target.
  void remoteRunWithoutTelemetry() {
    QTemporaryDir tmp;
    const QString queued = tmp.filePath("20260102-030405-far");
    QVERIFY(writeRemoteJson(queued, "cluster", "not started"));
    QVERIFY(QDir().mkpath(queued + "/remote"));
    QVERIFY(moe::test::writeFile(queued + "/remote/submitted.json",
                                 R"({"name":"far","train":{"steps":50}})"));
    QVERIFY(moe::ui::hasRunFiles(queued));
    QString error;
    const auto r = moe::ui::indexRunDirectory(queued, &error);
    QVERIFY2(r, qPrintable(error));
    QCOMPARE(r->status, run_status::kStarting);
    QCOMPARE(r->target, QStringLiteral("cluster"));
    QCOMPARE(r->name, QStringLiteral("far"));
    QCOMPARE(r->total_steps, std::optional<int64_t>(50));
    QCOMPARE(r->started_at, QDateTime(QDate(2026, 1, 2), QTime(3, 4, 5)));
    // A broken remote.json is named, not taken for a local run.
    QVERIFY(moe::test::writeFile(queued + "/remote.json", "{not json"));
    QVERIFY(!moe::ui::indexRunDirectory(queued, &error));
    QVERIFY2(error.contains(queued + "/remote.json"), qPrintable(error));
    QVERIFY(!moe::ui::hasRunFiles(tmp.path()));
  }

  void targetColumn() {
    RunsTableModel model;
    RunRecord local, remote;
    local.run_dir = "/runs/a";
    remote.run_dir = "/runs/b";
    remote.target = "gpu-box";
    model.setRecords({local, remote});
    QCOMPARE(model.headerData(RunsTableModel::kTarget, Qt::Horizontal).toString(),
             QStringLiteral("Target"));
    QCOMPARE(cell(model, "/runs/a", RunsTableModel::kTarget), QStringLiteral("local"));
    QCOMPARE(cell(model, "/runs/b", RunsTableModel::kTarget), QStringLiteral("gpu-box"));
    moe::ui::RunsFilterProxy proxy;
    proxy.setSourceModel(&model);
    proxy.setFilterText("gpu-box");
    QCOMPARE(proxy.rowCount(), 1);
  }

  // A store written before the target column: opened, given the column, its rows kept (as local
  // runs), and new rows keep their target.
  void migratesAStoreWithoutTheTargetColumn() {
    QTemporaryDir tmp;
    const QString path = tmp.filePath("runs.db");
    {
      QSqlDatabase db = QSqlDatabase::addDatabase("QSQLITE", "old");
      db.setDatabaseName(path);
      QVERIFY(db.open());
      QSqlQuery q(db);
      QVERIFY(q.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"));
      QVERIFY(q.exec("INSERT INTO meta (key, value) VALUES ('schema_version', '1')"));
      QVERIFY(q.exec(
          "CREATE TABLE runs (run_dir TEXT NOT NULL UNIQUE, id TEXT, name TEXT, status TEXT, "
          "error TEXT, started_at INTEGER, ended_at INTEGER, host TEXT, device TEXT, world_size "
          "INTEGER, config TEXT, config_hash TEXT, steps_done INTEGER, total_steps INTEGER, "
          "loss_last REAL, loss_min REAL, loss_max REAL, eval_loss_last REAL, eval_loss_best "
          "REAL, accuracy_last REAL, accuracy_best REAL, tokens_per_s_last REAL, tokens_per_s_max "
          "REAL, step_ms_last REAL, metrics_modified INTEGER, metrics_size INTEGER)"));
      QVERIFY(q.exec("CREATE TABLE removed (run_dir TEXT PRIMARY KEY)"));
      QVERIFY(
          q.exec("INSERT INTO runs (run_dir, id, name, status, loss_last) VALUES "
                 "('/old/run', '20250101-000000-old', 'old', 'finished', 1.5)"));
      db.close();
    }
    QSqlDatabase::removeDatabase("old");
    RunStore store(path);
    QString error;
    QVERIFY2(store.open(&error), qPrintable(error));
    const auto old = store.find("/old/run");
    QVERIFY(old.has_value());
    QCOMPARE(old->name, QStringLiteral("old"));
    QCOMPARE(*old->loss_last, 1.5);
    QCOMPARE(old->target, QStringLiteral("local"));
    RunRecord remote = *old;
    remote.run_dir = "/old/remote";
    remote.target = "gpu-box";
    QVERIFY2(store.upsert(remote, &error), qPrintable(error));
    QCOMPARE(store.find("/old/remote")->target, QStringLiteral("gpu-box"));
    RunStore again(path);  // opening a migrated store changes nothing
    QVERIFY2(again.open(&error), qPrintable(error));
    QCOMPARE(again.all().size(), 2);
  }

  void rescanListsRemoteRunsAndFetchAsksForThem() {
    QTemporaryDir tmp;
    const QString root = tmp.filePath("runs");
    FakeRun local_run = moe::test::finishedRun();
    local_run.run_id = "20250101-000000-here";
    const QString here = writeRunDir(root, "here", local_run);
    const QString far = writeRunDir(root, "far", unfinishedRun());
    QVERIFY(writeRemoteJson(far, "gpu-box", "running"));
    const QString queued = QDir(root).filePath("queued");
    QVERIFY(writeRemoteJson(queued, "cluster", "starting"));
    RunStore store(tmp.filePath("runs.db"));
    QVERIFY(store.open());
    RunsView view(&store, root);
    QSignalSpy rescanned(&view, &RunsView::rescanFinished);
    view.rescan();
    QVERIFY(rescanned.wait(10000));
    QCOMPARE(rescanned[0][0].toInt(), 3);
    const RunsTableModel& model = *view.model();
    const auto key = [](const QString& dir) { return moe::ui::canonicalRunDir(dir); };
    QCOMPARE(cell(model, key(here), RunsTableModel::kTarget), QStringLiteral("local"));
    QCOMPARE(cell(model, key(far), RunsTableModel::kTarget), QStringLiteral("gpu-box"));
    QCOMPARE(cell(model, key(far), RunsTableModel::kStatus), run_status::kRunning);
    QCOMPARE(cell(model, key(queued), RunsTableModel::kTarget), QStringLiteral("cluster"));
    QCOMPARE(cell(model, key(queued), RunsTableModel::kStatus), run_status::kStarting);

    view.table()->selectAll();
    QVERIFY(view.fetchButton()->isEnabled());
    QVERIFY(view.table()->actions().contains(view.fetchAction()));
    QSignalSpy fetch(&view, &RunsView::fetchRequested);
    view.fetchButton()->click();
    QCOMPARE(fetch.size(), 1);
    QStringList asked = fetch[0][0].toStringList();
    asked.sort();
    QStringList remote{key(far), key(queued)};
    remote.sort();
    QCOMPARE(asked, remote);
    view.fetchAction()->trigger();
    QCOMPARE(fetch.size(), 2);
    // Only the local run selected: nothing to fetch.
    view.table()->clearSelection();
    const QModelIndex local_row =
        view.proxy()->mapFromSource(model.index(model.rowOf(key(here)), 0));
    view.table()->selectionModel()->select(
        local_row, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    QVERIFY(!view.fetchButton()->isEnabled());
    QVERIFY(!view.fetchAction()->isEnabled());
    view.showFetchResult(key(far), false, "gpu-box cannot be reached");
    QVERIFY(view.messageLabel()->text().contains("failed"));
    QCOMPARE(view.messageLabel()->toolTip(), QStringLiteral("gpu-box cannot be reached"));
  }
};

QTEST_MAIN(TestRemoteRunsList)
#include "test_remote_runs_list.moc"
