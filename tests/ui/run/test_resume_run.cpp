// Resuming with the real engine: until the resumed process writes its own run_start the run is
// "resuming" with no step, ETA or error of its own (the history's last step and ending are not
// its), then it reports the new process's progress; an early failure of the new process shows the
// new process's error, not the one the earlier attempt left in metrics.jsonl.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include "base/run/local_run.h"
#include "dashboard/run_header.h"
#include "temp_files.h"

using moe::ui::LaunchSpec;
using moe::ui::LocalRun;
using moe::ui::RunHeader;
using State = moe::ui::LocalRun::State;

namespace {

constexpr int kRunTimeoutMs = 300000;  // two shared cores: be patient

const QByteArray kLongConfig =
    R"({"name":"resume-test","model":{"kind":"lm","dim":32,"layers":2,"heads":2,"seq_len":16},)"
    R"("moe":{"experts":4,"hidden":32},)"
    R"("train":{"steps":1000000,"batch_size":8,"threads":1,"checkpoint_every":4}})";

}  // namespace

class TestResumeRun : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;

  QString writeFile(const QString& name, const QByteArray& text) {
    return moe::test::writeTempFile(dir_, name, text);
  }

  // moe-train, started once the file `gate` exists (openGate()): the test looks at a resume whose
  // history is in and whose process has not written anything yet for as long as it needs.
  QString gatedProgram(const QString& gate) {
    const QString path =
        writeFile(QFileInfo(gate).fileName() + QStringLiteral(".sh"),
                  QByteArray("#!/bin/sh\nwhile [ ! -e '") + gate.toUtf8() +
                      "' ]; do sleep 0.05; done\nexec '" + MOE_TRAIN_BIN + "' \"$@\"\n");
    QFile::setPermissions(path, QFile::permissions(path) | QFileDevice::ExeOwner);
    return path;
  }
  static void openGate(const QString& gate) {
    QFile file(gate);
    QVERIFY(file.open(QIODevice::WriteOnly));
  }

  void waitForEnd(LocalRun& run) {
    if (run.isActive()) {
      QSignalSpy finished(&run, &LocalRun::finished);
      QVERIFY(finished.wait(kRunTimeoutMs));
    }
  }

  // A run stopped part-way with at least one checkpoint; `hard`: killed (no run_end, and steps
  // after the newest checkpoint), else cancelled. Returns its directory and its last step.
  std::pair<QString, qint64> stoppedRun(const QString& name, bool hard) {
    LaunchSpec s;
    s.program = QStringLiteral(MOE_TRAIN_BIN);
    s.config_file = writeFile(name + ".json", kLongConfig);
    s.run_dir = dir_.filePath(name);
    LocalRun run(s);
    run.start();
    [&] {
      QTRY_VERIFY_WITH_TIMEOUT(!run.series()->checkpoints().empty() &&
                                   run.step() >= run.series()->checkpoints().back().step + 2,
                               kRunTimeoutMs);
    }();
    hard ? run.kill() : run.cancel();
    waitForEnd(run);
    return {s.run_dir, run.step()};
  }

  static LaunchSpec resumeSpec(const QString& program, const QString& run_dir,
                               QStringList overrides) {
    LaunchSpec s;
    s.program = program;
    s.resume = true;
    s.run_dir = run_dir;
    s.overrides = std::move(overrides);
    return s;
  }

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void resumeShowsOnlyTheNewProcess() {
    const auto [run_dir, last_step] = stoppedRun(QStringLiteral("killed"), true);
    QVERIFY(last_step >= 6);
    const qint64 total = last_step + 6;
    const QString gate = dir_.filePath(QStringLiteral("resume.gate"));
    LocalRun resumed(
        resumeSpec(gatedProgram(gate), run_dir, {QStringLiteral("train.steps=%1").arg(total)}));
    RunHeader header(&resumed, run_dir);
    QSignalSpy progress(&resumed, &LocalRun::progressChanged);
    QList<State> state_at_progress;
    connect(&resumed, &LocalRun::progressChanged, this,
            [&] { state_at_progress << resumed.state(); });
    resumed.start();

    // The history is in (the dashboard draws it) while the process has not started the run.
    const auto newest_row = [&resumed] {
      const auto rows = resumed.series()->steps(moe::ui::StepRange::lastRows(1)).step;
      return rows.empty() ? 0.0 : rows.back();
    };
    QTRY_COMPARE_WITH_TIMEOUT(newest_row(), static_cast<double>(last_step), 5000);
    QCOMPARE(resumed.state(), State::Starting);
    QCOMPARE(resumed.stateText(), QStringLiteral("resuming"));
    QCOMPARE(header.stateText(), QStringLiteral("resuming"));
    QCOMPARE(resumed.step(), qint64{0});  // not the earlier attempt's last step
    QVERIFY(resumed.etaSeconds() < 0);
    QCOMPARE(progress.count(), 0);

    openGate(gate);
    waitForEnd(resumed);
    QVERIFY2(resumed.state() == State::Finished,
             qPrintable(resumed.errorText() + "\n" + resumed.stderrLines().join('\n')));
    QCOMPARE(header.stateText(), QStringLiteral("finished"));
    QCOMPARE(resumed.step(), total);
    QCOMPARE(resumed.totalSteps(), total);
    QVERIFY(progress.count() >= 1);
    // Every step reported was the new process's, after its own run_start.
    for (State s : state_at_progress) QVERIFY(s != State::Starting);
    const qint64 first = progress.first().at(0).toLongLong();
    const qint64 newest_checkpoint = resumed.series()->checkpoints().front().step;
    QVERIFY2(first > 0 && first <= total, qPrintable(QString::number(first)));
    QVERIFY(newest_checkpoint <= last_step);
  }

  void earlyFailureShowsTheNewError() {
    const QString run_dir = stoppedRun(QStringLiteral("damaged"), false).first;
    // The first resume fails on a damaged checkpoint: its error is now in metrics.jsonl.
    const QDir checkpoints(run_dir + "/checkpoints");
    for (const QString& step : checkpoints.entryList({"step-*"}, QDir::Dirs)) {
      QFile model(checkpoints.filePath(step) + "/model.safetensors");
      QVERIFY(model.open(QIODevice::WriteOnly | QIODevice::Truncate));
      model.write("not safetensors");
    }
    LocalRun first(resumeSpec(QStringLiteral(MOE_TRAIN_BIN), run_dir, {}));
    first.start();
    waitForEnd(first);
    QCOMPARE(first.state(), State::Failed);
    QVERIFY2(first.errorText().contains(QStringLiteral("model.safetensors")),
             qPrintable(first.errorText()));
    QFile history(run_dir + "/metrics.jsonl");
    QVERIFY(history.open(QIODevice::ReadOnly));
    const QByteArray lines = history.readAll();
    QVERIFY(lines.contains("\"failed\"") && lines.contains("model.safetensors"));  // run_end

    // The second fails before its run_start (an override out of range): its own error shows.
    const QString gate = dir_.filePath(QStringLiteral("bad-override.gate"));
    LocalRun second(resumeSpec(gatedProgram(gate), run_dir, {QStringLiteral("moe.top_k=99")}));
    RunHeader header(&second, run_dir);
    second.start();
    QCOMPARE(header.stateText(), QStringLiteral("resuming"));
    openGate(gate);
    waitForEnd(second);
    QCOMPARE(second.state(), State::Failed);
    QCOMPARE(second.exitCode(), 2);
    QCOMPARE(second.step(), qint64{0});
    QVERIFY2(second.errorText().contains(QStringLiteral("top_k")), qPrintable(second.errorText()));
    QVERIFY2(!second.errorText().contains(QStringLiteral("model.safetensors")),
             qPrintable(second.errorText()));
    QVERIFY(header.stateText().contains(QStringLiteral("top_k")));
    QVERIFY(!header.stateText().contains(QStringLiteral("model.safetensors")));
  }
};

QTEST_MAIN(TestResumeRun)
#include "test_resume_run.moc"
