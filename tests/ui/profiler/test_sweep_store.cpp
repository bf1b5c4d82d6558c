// The sweep store (SQLite): a sweep written and read back whole, newest first, removal, files and
// databases it must not touch; its worker; and the CSV of a sweep read back as a spreadsheet would.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

#include "base/profiler/sweep_store.h"
#include "base/profiler/sweep_table_model.h"
#include "csv_reader.h"

namespace moe::ui {

namespace {

// A config's object as `moe-train bench --jsonl` writes it (values with many digits on purpose).
BenchResult result(int index, int experts, const QString& dtype) {
  QJsonObject json{{"type", "bench_config"},
                   {"index", index},
                   {"of", 2},
                   {"config", QJsonObject{{"moe.experts", experts}, {"train.dtype", dtype}}},
                   {"tokens", 64},
                   {"capacity", 16 * (index + 1)},
                   {"train_tokens_per_s", 123456.78901234567 * (index + 1)},
                   {"naive_train_tokens_per_s", 4567.123456789},
                   {"naive_speedup", 27.0311},
                   {"train_tflops", 0.0123456789012345},
                   {"efficiency", 0.3333333333333333},
                   {"routing_share", 0.1},
                   {"train_ms", 0.51234},
                   {"ceiling_train_ms", 0.17},
                   {"threads", "intra-op 1, BLAS 2"},
                   {"seconds", 1.25},
                   {"phases_ms", QJsonObject{{"gate", 0.01}, {"experts", 0.2}, {"backward", 0.3}}}};
  return BenchResult::fromJson(json);
}

SweepRecord record(const QString& when, const QString& status) {
  SweepRecord r;
  r.started_at = QDateTime::fromString(when, Qt::ISODate);
  r.status = status;
  r.message =
      status == QLatin1String("finished") ? QString() : QStringLiteral("cancelled after 1 of 2");
  r.program = QStringLiteral("/opt/moe/bin/moe-train");
  r.seconds = 12.5;
  r.spec = SweepSpec::defaults();
  r.spec.keys[0].values = {"4", "8"};
  r.spec.keys[6].values = {"float32", "bfloat16"};
  r.spec.paired = true;
  r.spec.min_time = 0.25;
  r.results = {result(0, 4, "float32"), result(1, 8, "bfloat16")};
  return r;
}

}  // namespace

class TestSweepStore : public QObject {
  Q_OBJECT

 private slots:
  void roundTrip() {
    QTemporaryDir dir;
    const QString path = dir.filePath("sub/profiler.db");
    qint64 old_id = 0, new_id = 0;
    {
      SweepStore store(path);
      QString error;
      QVERIFY2(store.open(&error), qPrintable(error));
      old_id = store.insert(record("2026-11-01T10:00:00Z", "cancelled"), &error);
      new_id = store.insert(record("2026-11-02T10:00:00Z", "finished"), &error);
      QVERIFY2(old_id > 0 && new_id > old_id, qPrintable(error));
    }
    SweepStore store(path);  // a second session reads what the first wrote
    QVERIFY(store.open());
    const auto all = store.all();
    QCOMPARE(all.size(), 2);
    QCOMPARE(all[0].id, new_id);  // newest first
    QCOMPARE(all[1].status, QStringLiteral("cancelled"));
    QCOMPARE(all[1].message, QStringLiteral("cancelled after 1 of 2"));
    const SweepRecord& r = all[0];
    const SweepRecord want = record("2026-11-02T10:00:00Z", "finished");
    QCOMPARE(r.started_at, want.started_at);
    QCOMPARE(r.program, want.program);
    QCOMPARE(r.seconds, 12.5);
    QCOMPARE(r.spec.find("moe.experts")->values, QStringList({"4", "8"}));
    QCOMPARE(r.spec.find("train.dtype")->values, QStringList({"float32", "bfloat16"}));
    QVERIFY(r.spec.paired);
    QCOMPARE(r.spec.min_time, 0.25);
    QCOMPARE(r.results.size(), 2);
    for (int i = 0; i < 2; ++i) {
      QCOMPARE(r.results[i].json, want.results[i].json);  // every figure, bit for bit
      QCOMPARE(r.results[i].train_tokens_per_s, want.results[i].train_tokens_per_s);
      QCOMPARE(r.results[i].phases_ms, want.results[i].phases_ms);
    }
    QVERIFY(r.title().startsWith(QStringLiteral("#%1 · ").arg(new_id)));
    QVERIFY(r.title().contains(QLatin1String("2 configs")));
    QVERIFY(r.title().contains(QLatin1String("Experts, Dtype")));
    QVERIFY(store.find(old_id).has_value());
    QVERIFY(store.remove(old_id));
    QVERIFY(!store.remove(old_id));
    QVERIFY(!store.find(old_id).has_value());
    QCOMPARE(store.all().size(), 1);
  }

  void leavesOtherFilesAlone() {
    QTemporaryDir dir;
    const QString path = dir.filePath("notes.db");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("my notes, not a database\n");
    file.close();
    SweepStore store(path);
    QString error;
    QVERIFY(!store.open(&error));
    QVERIFY2(error.contains(path) && error.contains(QLatin1String("not a SQLite database")),
             qPrintable(error));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("my notes, not a database\n"));
    QCOMPARE(store.insert(record("2026-11-02T10:00:00Z", "finished"), &error), qint64(0));
  }

  // Another program's database and a newer MoE Studio's are refused and left as they are; a
  // second open() of the same store gives the same answer (its connection was closed).
  void refusesOtherAndNewerDatabases() {
    QTemporaryDir dir;
    const QString other = dir.filePath("other.db");
    const QString newer = dir.filePath("newer.db");
    {
      QSqlDatabase db = QSqlDatabase::addDatabase("QSQLITE", "setup");
      db.setDatabaseName(other);
      QVERIFY(db.open());
      QVERIFY(QSqlQuery(db).exec("CREATE TABLE photos (id INTEGER)"));
      db.close();
      db.setDatabaseName(newer);
      QVERIFY(db.open());
      QSqlQuery q(db);
      QVERIFY(q.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)"));
      QVERIFY(q.exec("CREATE TABLE sweeps (id INTEGER PRIMARY KEY)"));
      QVERIFY(q.exec("INSERT INTO meta VALUES ('schema_version', '2')"));
      db.close();
    }
    QSqlDatabase::removeDatabase("setup");
    SweepStore other_store(other), newer_store(newer);
    for (int attempt = 0; attempt < 2; ++attempt) {
      QString error;
      QVERIFY(!other_store.open(&error));
      QVERIFY2(error.startsWith(other + ": ") && error.contains("another program (no sweeps"),
               qPrintable(error));
      QVERIFY(!newer_store.open(&error));
      QVERIFY2(error.startsWith(newer + ": ") && error.contains("profiler schema 2"),
               qPrintable(error));
    }
    QVERIFY(SweepStore::defaultPath().endsWith("/moe-studio/profiler.db"));
    QSqlDatabase db = QSqlDatabase::addDatabase("QSQLITE", "check");
    db.setDatabaseName(other);
    QVERIFY(db.open());
    QSqlQuery tables(db);
    QVERIFY(tables.exec("SELECT name FROM sqlite_master WHERE type = 'table'"));
    QStringList names;
    while (tables.next()) names << tables.value(0).toString();
    QCOMPARE(names, QStringList{"photos"});  // no table of ours added
  }

  void workerAnswersOnTheGuiThread() {
    QTemporaryDir dir;
    SweepStoreWorker worker(dir.filePath("profiler.db"));
    QSignalSpy inserted(&worker, &SweepStoreWorker::inserted);
    QSignalSpy loaded(&worker, &SweepStoreWorker::loaded);
    QSignalSpy removed(&worker, &SweepStoreWorker::removed);
    worker.insert(record("2026-11-02T10:00:00Z", "finished"));
    worker.loadAll();
    QVERIFY(loaded.wait(10000));
    QCOMPARE(inserted.size(), 1);  // answered in the order asked
    const qint64 id = inserted[0][0].toLongLong();
    QVERIFY(id > 0);
    const auto records = loaded[0][0].value<QList<SweepRecord>>();
    QCOMPARE(records.size(), 1);
    QCOMPARE(records[0].results.size(), 2);
    worker.remove(id);
    QVERIFY(removed.wait(10000));
    worker.loadAll();
    QVERIFY(loaded.wait(10000));
    QCOMPARE(loaded[1][0].value<QList<SweepRecord>>().size(), 0);
  }

  void csvRoundTrips() {
    QList<BenchResult> results = record("2026-11-02T10:00:00Z", "finished").results;
    // A value with a comma and quotes must survive as one field.
    QJsonObject odd = results[1].json;
    odd["config"] = QJsonObject{{"moe.experts", 8}, {"train.dtype", "a,\"b\""}};
    results[1] = BenchResult::fromJson(odd);
    const auto rows = test::readCsv(sweepCsv(results));
    QCOMPARE(rows.size(), 3);
    const QStringList header = rows[0];
    for (const auto& row : rows) QCOMPARE(row.size(), header.size());
    auto column = [&](const char* name) {
      const auto i = header.indexOf(QLatin1String(name));
      if (i < 0) qFatal("no column %s", name);
      return i;
    };
    for (int r = 0; r < 2; ++r) {
      const QStringList& row = rows[1 + r];
      const BenchResult& want = results[r];
      QCOMPARE(row[column("index")].toInt(), want.index);
      QCOMPARE(row[column("config")], configLabel(want.config));
      QCOMPARE(row[column("moe.experts")].toInt(), want.config.value("moe.experts").toInt());
      QCOMPARE(row[column("train.dtype")], want.config.value("train.dtype").toString());
      QCOMPARE(row[column("tokens")].toLongLong(), want.tokens);
      // Full precision: the numbers read back are the same doubles.
      QCOMPARE(row[column("train_tokens_per_s")].toDouble(), want.train_tokens_per_s);
      QCOMPARE(row[column("train_tflops")].toDouble(), want.train_tflops);
      QCOMPARE(row[column("efficiency")].toDouble(), want.efficiency);
      QCOMPARE(row[column("naive_speedup")].toDouble(), want.naive_speedup);
      QCOMPARE(row[column("threads")], want.threads);
      QCOMPARE(row[column("phase.experts_ms")].toDouble(), want.phases_ms.value("experts"));
    }
    QCOMPARE(rows[2][column("train.dtype")], QStringLiteral("a,\"b\""));
  }

  void tableSortsByNumberNotText() {
    SweepTableModel model;
    QList<BenchResult> results;
    for (double rate : {900.0, 10000.0, 95.0}) {
      QJsonObject json = result(static_cast<int>(results.size()), 4, "float32").json;
      json["train_tokens_per_s"] = rate;
      results << BenchResult::fromJson(json);
    }
    model.setResults(results);
    QCOMPARE(model.rowCount(), 3);
    QSortFilterProxyModel sorted;
    sorted.setSourceModel(&model);
    sorted.setSortRole(SweepTableModel::kSortRole);
    sorted.sort(SweepTableModel::TrainTokens, Qt::DescendingOrder);
    QCOMPARE(
        sorted.index(0, SweepTableModel::TrainTokens).data(SweepTableModel::kSortRole).toDouble(),
        10000.0);
    QCOMPARE(
        sorted.index(2, SweepTableModel::TrainTokens).data(SweepTableModel::kSortRole).toDouble(),
        95.0);
    QCOMPARE(model.index(0, SweepTableModel::Config).data().toString(),
             QStringLiteral("moe.experts=4 train.dtype=float32"));
  }
};

}  // namespace moe::ui

QTEST_GUILESS_MAIN(moe::ui::TestSweepStore)
#include "test_sweep_store.moc"
