// LocalRun with the real engine: a tiny run fills the RunSeries, a cancelled run ends with a
// checkpoint and exit 130 (and resumes), a bad config ends with exit 2 and moe-train's message.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include "base/run/local_run.h"
#include "base/telemetry/telemetry_feed.h"
#include "temp_files.h"

using moe::ui::LaunchSpec;
using moe::ui::LocalRun;
using State = moe::ui::LocalRun::State;

namespace {

constexpr int kRunTimeoutMs = 300000;  // two shared cores: be patient

const QByteArray kTinyConfig =
    R"({"name":"ui-test","model":{"kind":"lm","dim":32,"layers":2,"heads":2,"seq_len":16},)"
    R"("moe":{"experts":4,"hidden":32},"train":{"steps":30,"batch_size":8,"threads":1}})";

}  // namespace

class TestMoeTrainRun : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;

  QString writeConfig(const QString& name, const QByteArray& json) {
    return moe::test::writeTempFile(dir_, name, json);
  }

  LaunchSpec spec(const QString& config, const QString& run) {
    LaunchSpec s;
    s.program = QStringLiteral(MOE_TRAIN_BIN);
    s.config_file = config;
    s.run_dir = dir_.filePath(run);
    return s;
  }

  void waitForEnd(LocalRun& run) {
    if (run.isActive()) {
      QSignalSpy finished(&run, &LocalRun::finished);
      QVERIFY(finished.wait(kRunTimeoutMs));
    }
  }

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void tinyRunFillsTheSeries() {
    LocalRun run(
        spec(writeConfig(QStringLiteral("tiny.json"), kTinyConfig), QStringLiteral("tiny")));
    QSignalSpy states(&run, &LocalRun::stateChanged);
    QSignalSpy progress(&run, &LocalRun::progressChanged);
    run.start();
    waitForEnd(run);
    QVERIFY2(run.state() == State::Finished,
             qPrintable(run.errorText() + "\n" + run.stderrLines().join('\n')));
    QCOMPARE(run.exitCode(), 0);
    QCOMPARE(run.totalSteps(), 30);
    QCOMPARE(run.step(), 30);
    QVERIFY(progress.count() >= 1);
    QVERIFY(states.count() >= 3);  // starting, running, finished
    QCOMPARE(states.at(1).at(0).value<State>(), State::Running);

    const auto series = run.series();
    const moe::ui::RunSnapshot snap = series->snapshot();
    QCOMPARE(snap.steps.size(), size_t{30});
    QCOMPARE(snap.steps.step.front(), 1.0);
    QCOMPARE(snap.steps.step.back(), 30.0);
    QVERIFY(snap.info.started);
    QCOMPARE(snap.info.config["moe"]["experts"].get<int>(), 4);
    QCOMPARE(series->layers(), (std::vector<int64_t>{0, 1}));  // both blocks are MoE
    for (const auto& layer : snap.layers) {
      QCOMPARE(layer.experts, size_t{4});
      QCOMPARE(layer.size(), size_t{30});
    }
    const auto load = series->expertLoad(1);
    QVERIFY(load);
    int64_t total = 0;
    for (int64_t c : load->counts) total += c;
    QCOMPARE(total, int64_t{8 * 16 * 2});  // tokens x top_k
    QVERIFY(snap.phases.size() == 30);
    QVERIFY(snap.run_end);
    QCOMPARE(snap.run_end->status, std::string("completed"));
    QCOMPARE(snap.stats.rejected, int64_t{0});
    QCOMPARE(run.feed()->stats().malformed, 0);

    // The run directory replays to the same series.
    moe::ui::RunSeries replay;
    QVERIFY(
        moe::ui::TelemetryFeed::readFile(QDir(run.runDir()).filePath("metrics.jsonl"), &replay));
    QCOMPARE(replay.steps().loss, snap.steps.loss);
    QCOMPARE(replay.expertLoad(1)->counts, load->counts);
  }

  void cancelWritesACheckpointThenResumes() {
    QByteArray json = kTinyConfig;
    json.replace("\"steps\":30", "\"steps\":1000000");
    const QString run_dir = QStringLiteral("long");
    LocalRun run(spec(writeConfig(QStringLiteral("long.json"), json), run_dir));
    QSignalSpy progress(&run, &LocalRun::progressChanged);
    run.start();
    QTRY_VERIFY_WITH_TIMEOUT(run.step() >= 3, kRunTimeoutMs);
    QCOMPARE(run.totalSteps(), 1000000);
    QVERIFY(run.etaSeconds() > 0);
    run.cancel();
    waitForEnd(run);
    QVERIFY2(run.state() == State::Cancelled, qPrintable(run.errorText()));
    QCOMPARE(run.exitCode(), 130);
    const auto series = run.series();
    const auto checkpoints = series->checkpoints();
    QCOMPARE(checkpoints.size(), size_t{1});
    const int64_t stopped_at = checkpoints[0].step;
    QCOMPARE(stopped_at, static_cast<int64_t>(series->steps().step.back()));
    QCOMPARE(series->runEnd()->status, std::string("cancelled"));

    // Resumed for three more steps (train.steps overridden): the run directory's metrics then
    // replay as one series with the resumed steps after the first ones.
    LaunchSpec resume;
    resume.program = run.spec().program;
    resume.resume = true;
    resume.run_dir = run.runDir();
    resume.overrides = {QStringLiteral("train.steps=%1").arg(stopped_at + 3)};
    LocalRun resumed(resume);
    resumed.start();
    waitForEnd(resumed);
    QVERIFY2(resumed.state() == State::Finished, qPrintable(resumed.errorText()));
    QCOMPARE(resumed.totalSteps(), stopped_at + 3);
    // Its series holds the whole history: the first steps from the file, then the new ones.
    const auto steps = resumed.series()->steps();
    QCOMPARE(steps.size(), static_cast<size_t>(stopped_at + 3));
    QCOMPARE(steps.step.front(), 1.0);
    QCOMPARE(steps.step.back(), static_cast<double>(stopped_at + 3));
    QCOMPARE(resumed.series()->info().resumes, 1);
    moe::ui::RunSeries replay;
    QVERIFY(
        moe::ui::TelemetryFeed::readFile(QDir(resume.run_dir).filePath("metrics.jsonl"), &replay));
    QCOMPARE(replay.info().resumes, 1);
    QCOMPARE(replay.steps().size(), static_cast<size_t>(stopped_at + 3));
    QCOMPARE(replay.runEnd()->status, std::string("completed"));
  }

  void badConfigFailsWithTheMessage() {
    LocalRun run(spec(writeConfig(QStringLiteral("bad.json"), R"({"moe":{"experts":4,"top_k":9}})"),
                      QStringLiteral("bad")));
    run.start();
    waitForEnd(run);
    QCOMPARE(run.state(), State::Failed);
    QCOMPARE(run.exitCode(), 2);
    QVERIFY2(run.errorText().contains(QStringLiteral("/moe/top_k")), qPrintable(run.errorText()));
    QVERIFY(run.stderrLines().join('\n').contains(QStringLiteral("/moe/top_k")));
    QVERIFY(!run.series()->runEnd());
  }
};

QTEST_GUILESS_MAIN(TestMoeTrainRun)
#include "test_moe_train_run.moc"
