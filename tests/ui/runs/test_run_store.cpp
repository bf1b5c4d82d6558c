// RunStore: records survive a restart, upsert replaces, rescan indexes only what is new or
// changed and marks vanished runs missing, and files that are not our database are refused and
// left untouched.
#include <QtTest>

#include <QSqlDatabase>
#include <QSqlQuery>

#include "base/runs/run_directory_index.h"
#include "base/runs/run_store.h"
#include "run_dir_fixture.h"

using moe::test::FakeRun;
using moe::test::writeRunDir;
using moe::ui::RunRecord;
using moe::ui::RunStore;
namespace run_status = moe::ui::run_status;

namespace {

RunRecord sampleRecord(const QString& dir, const QString& name) {
  RunRecord r;
  r.run_dir = dir;
  r.id = "20250101-000000-" + name;
  r.name = name;
  r.status = run_status::kFinished;
  r.started_at = QDateTime::fromMSecsSinceEpoch(1'700'000'000'123);
  r.host = "box";
  r.world_size = 4;
  r.config = {{"name", name.toStdString()}, {"moe", {{"top_k", 2}}}};
  r.config_hash = moe::ui::configHash(r.config);
  r.steps_done = 10;
  r.loss_last = 1.25;
  r.loss_min = 1.0;
  r.accuracy_best = 0.875;
  return r;
}

}  // namespace

class TestRunStore : public QObject {
  Q_OBJECT

 private slots:
  void survivesARestart() {
    QTemporaryDir tmp;
    const QString db = tmp.filePath("nested/folder/runs.db");
    const RunRecord a = sampleRecord(tmp.filePath("a"), "a");
    RunRecord b = sampleRecord(tmp.filePath("b"), "b");
    b.started_at = a.started_at.addSecs(60);  // newer: first in all()
    b.loss_last.reset();
    {
      RunStore store(db);
      QString error;
      QVERIFY2(store.open(&error), qPrintable(error));
      QVERIFY(store.upsert(a, &error));
      QVERIFY(store.upsert(b, &error));
    }
    RunStore reopened(db);
    QVERIFY(reopened.open());
    const QList<RunRecord> all = reopened.all();
    QCOMPARE(all.size(), 2);
    QCOMPARE(all[0].name, QString("b"));
    const RunRecord& got = all[1];
    QCOMPARE(got.run_dir, a.run_dir);
    QCOMPARE(got.id, a.id);
    QCOMPARE(got.status, a.status);
    QCOMPARE(got.started_at, a.started_at);
    QVERIFY(!got.ended_at.isValid());
    QCOMPARE(got.world_size, a.world_size);
    QCOMPARE(got.config, a.config);
    QCOMPARE(got.config_hash, a.config_hash);
    QCOMPARE(got.steps_done, a.steps_done);
    QVERIFY(!got.total_steps);
    QCOMPARE(got.loss_last, a.loss_last);
    QCOMPARE(got.accuracy_best, a.accuracy_best);
    QVERIFY(!got.loss_max);
    QVERIFY(!all[0].loss_last);
    QCOMPARE(reopened.find(a.run_dir)->name, QString("a"));
    QVERIFY(!reopened.find(tmp.filePath("nope")));
  }

  void upsertReplacesAndRemoveForgets() {
    QTemporaryDir tmp;
    RunStore store(tmp.filePath("runs.db"));
    QVERIFY(store.open());
    RunRecord r = sampleRecord(tmp.filePath("a"), "a");
    r.status = run_status::kRunning;
    QVERIFY(store.upsert(r));
    r.status = run_status::kFailed;
    r.error = "boom";
    QVERIFY(store.upsert(r));
    QCOMPARE(store.all().size(), 1);
    QCOMPARE(store.all()[0].status, run_status::kFailed);
    QCOMPARE(store.all()[0].error, QString("boom"));
    QVERIFY(store.remove(r.run_dir));
    QVERIFY(!store.remove(r.run_dir));
    QVERIFY(store.all().isEmpty());
  }

  void rescanIndexesNewAndChangedAndMarksMissing() {
    QTemporaryDir tmp;
    const QString root = tmp.filePath("runs");
    FakeRun running;  // no run_end yet
    const QString a = writeRunDir(root, "a", running);
    const QString b = writeRunDir(root, "b", moe::test::finishedRun());
    QDir().mkpath(root + "/not-a-run");
    const QString garbage = root + "/garbage";
    QDir().mkpath(garbage);
    moe::test::writeFile(garbage + "/metrics.jsonl", "not telemetry\n");

    RunStore store(tmp.filePath("runs.db"));
    QVERIFY(store.open());
    QCOMPARE(store.rescan(root), 2);
    QCOMPARE(store.all().size(), 2);
    QCOMPARE(store.lastRescanErrors().size(), 1);
    QVERIFY(store.lastRescanErrors()[0].contains("garbage"));
    QCOMPARE(store.find(a)->status, run_status::kIncomplete);

    QCOMPARE(store.rescan(root), 0);  // nothing changed: nothing re-read

    FakeRun ended = running;
    ended.end_status = "completed";
    writeRunDir(root, "a", ended);
    QVERIFY(QDir(b).removeRecursively());
    const QString c = writeRunDir(root, "c", moe::test::finishedRun());
    QCOMPARE(store.rescan(root), 3);  // a changed, b vanished, c is new
    QCOMPARE(store.find(a)->status, run_status::kFinished);
    QCOMPARE(store.find(b)->status, run_status::kMissing);
    QCOMPARE(store.find(b)->name, QString("demo"));  // kept, not deleted
    QVERIFY(store.find(c));
    QCOMPARE(store.rescan(root), 0);

    // A removed run stays removed; adding it by hand brings it back.
    QVERIFY(store.remove(c));
    QCOMPARE(store.rescan(root), 0);
    QVERIFY(!store.find(c));
    QVERIFY(store.upsert(*moe::ui::indexRunDirectory(c)));
    QVERIFY(store.find(c));

    // A run that comes back is indexed again.
    writeRunDir(root, "b", moe::test::finishedRun());
    QCOMPARE(store.rescan(root), 1);
    QCOMPARE(store.find(b)->status, run_status::kFinished);
  }

  void rescanLeavesLiveRunsToTheirOwner() {
    QTemporaryDir tmp;
    const QString dir = writeRunDir(tmp.path(), "live", FakeRun());
    RunStore store(tmp.filePath("runs.db"));
    QVERIFY(store.open());
    RunRecord live = *moe::ui::indexRunDirectory(dir);
    live.status = run_status::kRunning;
    QVERIFY(store.upsert(live));
    QCOMPARE(store.rescan(tmp.path(), {live.run_dir}), 0);
    QCOMPARE(store.find(dir)->status, run_status::kRunning);
    // Nobody runs it any more (the app that did was closed): the file says what it is.
    QCOMPARE(store.rescan(tmp.path()), 1);
    QCOMPARE(store.find(dir)->status, run_status::kIncomplete);
  }

  void refusesAFileThatIsNotSqlite() {
    QTemporaryDir tmp;
    const QString path = tmp.filePath("runs.db");
    const QByteArray notes = "my precious notes, not a database\n";
    QVERIFY(moe::test::writeFile(path, notes));
    RunStore store(path);
    QString error;
    QVERIFY(!store.open(&error));
    QVERIFY2(error.contains(path), qPrintable(error));
    QVERIFY(!store.isOpen());
    QVERIFY(!store.upsert(sampleRecord(tmp.filePath("a"), "a")));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), notes);
  }

  void refusesADamagedDatabase() {
    QTemporaryDir tmp;
    const QString path = tmp.filePath("runs.db");
    QByteArray damaged("SQLite format 3\0", 16);
    damaged += QByteArray(4080, '\x7f');  // a header, then nothing SQLite can read
    QVERIFY(moe::test::writeFile(path, damaged));
    RunStore store(path);
    QString error;
    QVERIFY(!store.open(&error));
    QVERIFY2(error.contains(path), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), damaged);
  }

  void refusesANewerSchema() {
    QTemporaryDir tmp;
    const QString path = tmp.filePath("runs.db");
    {
      RunStore store(path);
      QVERIFY(store.open());
    }
    {
      QSqlDatabase db = QSqlDatabase::addDatabase("QSQLITE", "bump");
      db.setDatabaseName(path);
      QVERIFY(db.open());
      QSqlQuery q(db);
      QVERIFY(q.exec("UPDATE meta SET value = '2' WHERE key = 'schema_version'"));
      db.close();
    }
    QSqlDatabase::removeDatabase("bump");
    RunStore store(path);
    QString error;
    QVERIFY(!store.open(&error));
    QVERIFY2(error.contains(path) && error.contains("newer"), qPrintable(error));
  }

  void refusesAnotherProgramsDatabase() {
    QTemporaryDir tmp;
    const QString path = tmp.filePath("other.db");
    {
      QSqlDatabase db = QSqlDatabase::addDatabase("QSQLITE", "other");
      db.setDatabaseName(path);
      QVERIFY(db.open());
      QVERIFY(QSqlQuery(db).exec("CREATE TABLE photos (id INTEGER)"));
      db.close();
    }
    QSqlDatabase::removeDatabase("other");
    RunStore store(path);
    QString error;
    QVERIFY(!store.open(&error));
    QVERIFY2(error.contains(path) && error.contains("another program"), qPrintable(error));
  }

  void defaultPathAndSeparateConnections() {
    QVERIFY(RunStore::defaultPath().endsWith("/moe-studio/runs.db"));
    QTemporaryDir tmp;
    RunStore one(tmp.filePath("1.db")), two(tmp.filePath("2.db"));
    QVERIFY(one.open() && two.open());
    QVERIFY(one.upsert(sampleRecord(tmp.filePath("a"), "a")));
    QCOMPARE(one.all().size(), 1);
    QCOMPARE(two.all().size(), 0);
  }
};

QTEST_GUILESS_MAIN(TestRunStore)
#include "test_run_store.moc"
