// indexRunDirectory / summarizeSeries: status, metrics, times and config hash of finished, failed,
// incomplete and live runs; errors that name the file.
#include <QtTest>

#include <cmath>

#include "base/runs/run_directory_index.h"
#include "base/telemetry/run_series.h"
#include "run_dir_fixture.h"

using moe::test::FakeRun;
using moe::test::writeRunDir;
using moe::ui::RunRecord;
namespace run_status = moe::ui::run_status;

class TestRunDirectoryIndex : public QObject {
  Q_OBJECT

 private slots:
  void finishedRun() {
    QTemporaryDir tmp;
    const QString dir = writeRunDir(tmp.path(), "a", moe::test::finishedRun());
    QString error;
    const auto r = moe::ui::indexRunDirectory(dir, &error);
    QVERIFY2(r, qPrintable(error));
    QCOMPARE(r->status, run_status::kFinished);
    QCOMPARE(r->id, QString("20250102-030405-demo"));
    QCOMPARE(r->name, QString("demo"));
    QCOMPARE(r->host, QString("box"));
    QCOMPARE(r->device, QString("cpu"));
    QCOMPARE(r->world_size, std::optional<int64_t>(2));
    QCOMPARE(r->run_dir, QFileInfo(dir).canonicalFilePath());
    QCOMPARE(r->steps_done, std::optional<int64_t>(3));
    QCOMPARE(r->total_steps, std::optional<int64_t>(5));
    QCOMPARE(*r->loss_last, 2.5);
    QCOMPARE(*r->loss_min, 2.0);
    QCOMPARE(*r->loss_max, 3.0);
    QCOMPARE(*r->tokens_per_s_last, 200.0);
    QCOMPARE(*r->tokens_per_s_max, 300.0);
    QCOMPARE(*r->step_ms_last, 30.0);
    QCOMPARE(*r->eval_loss_last, 2.6);
    QCOMPARE(*r->eval_loss_best, 2.4);
    QCOMPARE(*r->accuracy_last, 0.6);
    QCOMPARE(*r->accuracy_best, 0.7);
    QCOMPARE(r->started_at, QDateTime(QDate(2025, 1, 2), QTime(3, 4, 5)));
    QVERIFY(r->ended_at.isValid());
    QVERIFY(r->metrics_modified.isValid());
    QVERIFY(r->metrics_size.value_or(0) > 0);
    QCOMPARE(r->config_hash.size(), 64);
    QVERIFY(r->error.isEmpty());
  }

  // The dashboard's real example: a cancelled run, resumed, that then failed on a NaN loss.
  void resumedFailedRun() {
    QTemporaryDir tmp;
    QDir().mkpath(tmp.filePath("hand"));
    QVERIFY(QFile::copy(MOE_TEST_DATA_DIR "/resumed_failed_run.jsonl",
                        tmp.filePath("hand/metrics.jsonl")));
    QString error;
    const auto r = moe::ui::indexRunDirectory(tmp.filePath("hand"), &error);
    QVERIFY2(r, qPrintable(error));
    QCOMPARE(r->status, run_status::kFailed);
    QVERIFY(r->error.contains("loss is not finite"));
    QCOMPARE(r->host, QString("box2"));  // the latest run_start
    QCOMPARE(r->steps_done, std::optional<int64_t>(3));
    QCOMPARE(r->total_steps, std::optional<int64_t>(6));
    QCOMPARE(*r->loss_last, 2.0);  // step 4's NaN is not a value; step 3 was redone after resume
    QCOMPARE(*r->loss_min, 2.0);
    QCOMPARE(*r->loss_max, 2.5);
    QCOMPARE(*r->eval_loss_best, 2.3);
    QCOMPARE(*r->accuracy_best, 0.25);
    QCOMPARE(r->started_at, QDateTime(QDate(2025, 1, 1), QTime(12, 0, 0)));
  }

  void incompleteAndLiveRuns() {
    QTemporaryDir tmp;
    FakeRun run;  // no run_end
    const QString dir = writeRunDir(tmp.path(), "b", run);
    const auto r = moe::ui::indexRunDirectory(dir);
    QVERIFY(r);
    QCOMPARE(r->status, run_status::kIncomplete);
    QVERIFY(!r->ended_at.isValid());
    QVERIFY(!r->accuracy_best);
    QVERIFY(!r->eval_loss_best);

    moe::ui::RunSeries series;
    moe::protocol::RunStartEvent start;
    start.run_id = "live";
    start.config = {{"name", "live-run"}};
    series.apply(start);
    const RunRecord live = moe::ui::summarizeSeries(series, dir);
    QCOMPARE(live.status, run_status::kRunning);
    QCOMPARE(live.name, QString("live-run"));
    QVERIFY(!live.loss_last);
    QCOMPARE(moe::ui::summarizeSeries(series, dir, false).status, run_status::kIncomplete);
  }

  void cancelledRunAndConfigJsonFallback() {
    QTemporaryDir tmp;
    FakeRun run;
    run.run_id = "";  // an engine that wrote none: the directory name is the id
    run.config = nlohmann::json::object();
    run.end_status = "cancelled";
    const QString dir = writeRunDir(tmp.path(), "my-run", run);
    moe::test::writeFile(QDir(dir).filePath("config.json"),
                         R"({"name": "from-file", "train": {"steps": 9}})");
    const auto r = moe::ui::indexRunDirectory(dir);
    QVERIFY(r);
    QCOMPARE(r->status, run_status::kCancelled);
    QCOMPARE(r->id, QString("my-run"));
    QCOMPARE(r->name, QString("from-file"));
    QCOMPARE(r->total_steps, std::optional<int64_t>(9));
    QVERIFY(!r->config_hash.isEmpty());
  }

  void configHashFollowsTheConfig() {
    const nlohmann::json a = {{"moe", {{"top_k", 2}, {"experts", 8}}}, {"name", "x"}};
    nlohmann::json reordered = nlohmann::json::object();
    reordered["name"] = "x";
    reordered["moe"]["experts"] = 8;
    reordered["moe"]["top_k"] = 2;
    nlohmann::json changed = a;
    changed["moe"]["top_k"] = 1;
    QCOMPARE(moe::ui::configHash(a), moe::ui::configHash(reordered));
    QVERIFY(moe::ui::configHash(a) != moe::ui::configHash(changed));
    QVERIFY(moe::ui::configHash(nlohmann::json::object()).isEmpty());

    // Through whole run directories too.
    QTemporaryDir tmp;
    FakeRun one = moe::test::finishedRun(), two = one, three = one;
    two.losses = {9, 9, 9};  // other metrics, same config
    three.config["moe"]["top_k"] = 1;
    const auto r1 = moe::ui::indexRunDirectory(writeRunDir(tmp.path(), "1", one));
    const auto r2 = moe::ui::indexRunDirectory(writeRunDir(tmp.path(), "2", two));
    const auto r3 = moe::ui::indexRunDirectory(writeRunDir(tmp.path(), "3", three));
    QVERIFY(r1 && r2 && r3);
    QCOMPARE(r1->config_hash, r2->config_hash);
    QVERIFY(r1->config_hash != r3->config_hash);
  }

  void errorsNameTheFile() {
    QTemporaryDir tmp;
    QString error;
    QVERIFY(!moe::ui::indexRunDirectory(tmp.path(), &error));
    QVERIFY2(error.contains(tmp.path()) && error.contains("no metrics.jsonl"), qPrintable(error));

    QVERIFY(!moe::ui::indexRunDirectory(tmp.filePath("nowhere"), &error));
    QVERIFY2(error.contains("nowhere") && error.contains("not a directory"), qPrintable(error));

    const QString metrics = tmp.filePath("metrics.jsonl");
    moe::test::writeFile(metrics, "garbage\n\x01\x02 more garbage\n");
    QVERIFY(!moe::ui::indexRunDirectory(tmp.path(), &error));
    QVERIFY2(error.contains(metrics) && error.contains("no run_start"), qPrintable(error));
    QVERIFY2(error.contains("2 of 2 lines"), qPrintable(error));

    moe::test::writeFile(metrics, "");
    QVERIFY(!moe::ui::indexRunDirectory(tmp.path(), &error));
    QVERIFY2(error.contains(metrics) && error.contains("empty"), qPrintable(error));

    QFile(metrics).setPermissions(QFileDevice::Permissions());
    if (!QFile(metrics).open(QIODevice::ReadOnly)) {  // root reads anything
      QVERIFY(!moe::ui::indexRunDirectory(tmp.path(), &error));
      QVERIFY2(error.contains(metrics), qPrintable(error));
    }
  }
};

QTEST_GUILESS_MAIN(TestRunDirectoryIndex)
#include "test_run_directory_index.moc"
