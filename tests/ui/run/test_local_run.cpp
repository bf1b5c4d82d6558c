// LocalRun and RunManager without the engine: /bin/sh scripts stand in for moe-train to play
// the endings a real run can have (telemetry and exit 0, a crash, ignoring SIGINT, no binary).
#include <QtTest>

#include <QFile>
#include <QTemporaryDir>

#include "base/run/launch_spec.h"
#include "base/run/local_run.h"
#include "base/runs/run_manager.h"
#include "fake_run_telemetry.h"
#include "temp_files.h"

using moe::ui::LaunchSpec;
using moe::ui::LocalRun;
using moe::ui::Run;
using moe::ui::RunManager;
using State = moe::ui::LocalRun::State;

namespace {

constexpr int kTimeoutMs = 20000;

using moe::test::kTwoOfFourStepsTelemetry;

}  // namespace

class TestLocalRun : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;

  // An executable script in the temporary directory.
  QString script(const QString& name, const QByteArray& body) {
    const QString path = moe::test::writeTempFile(dir_, name, "#!/bin/sh\n" + body);
    if (!path.isEmpty()) {
      QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
    return path;
  }

  void waitForEnd(LocalRun& run) {
    if (run.isActive()) {
      QSignalSpy finished(&run, &LocalRun::finished);
      QVERIFY(finished.wait(kTimeoutMs));
    }
    QVERIFY(!run.isActive());
  }

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void argumentsAndExpectedSteps() {
    const QString config = dir_.filePath(QStringLiteral("c.json"));
    QFile file(config);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"train": {"steps": 77}})");
    file.close();

    LaunchSpec spec;
    spec.config_file = config;
    spec.run_dir = QStringLiteral("/r/x");
    spec.overrides = {QStringLiteral("moe.experts=4")};
    QCOMPARE(spec.arguments(), (QStringList{"run", "--config", config, "--run-dir", "/r/x", "--set",
                                            "moe.experts=4"}));
    QCOMPARE(spec.expectedSteps(), 77);
    spec.overrides << QStringLiteral("train.steps=12");
    QCOMPARE(spec.expectedSteps(), 12);
    spec.overrides = {QStringLiteral("train.steps=abc")};
    QCOMPARE(spec.expectedSteps(), 0);

    LaunchSpec resume;
    resume.resume = true;
    resume.run_dir = QStringLiteral("/r/x");
    QCOMPARE(resume.arguments(), (QStringList{"run", "--resume", "/r/x"}));
    LaunchSpec rooted;
    rooted.config_file = QStringLiteral("c.json");
    rooted.runs_root = QStringLiteral("/runs");
    QCOMPARE(rooted.arguments(),
             (QStringList{"run", "--config", "c.json", "--runs-root", "/runs"}));
    // An imported model's weights (a new run only: a resumed one has its checkpoint's).
    rooted.init_from = QStringLiteral("/models/qwen");
    QCOMPARE(rooted.arguments(), (QStringList{"run", "--config", "c.json", "--runs-root", "/runs",
                                              "--init-from", "/models/qwen"}));
    resume.init_from = QStringLiteral("/models/qwen");
    QCOMPARE(resume.arguments(), (QStringList{"run", "--resume", "/r/x"}));
  }

  // Several processes per node: the launcher starts the ranks with the same `run` arguments.
  void severalProcessesGoThroughTheLauncher() {
    const QString config = dir_.filePath(QStringLiteral("ranks.json"));
    QFile file(config);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"parallel": {"nproc": 4}, "train": {"steps": 5}})");
    file.close();

    LaunchSpec spec;
    spec.config_file = config;
    spec.runs_root = QStringLiteral("/runs");
    spec.overrides = {QStringLiteral("train.steps=7")};
    QCOMPARE(spec.arguments(),
             (QStringList{"launch", "--nproc-per-node", "4", "--", "run", "--config", config,
                          "--runs-root", "/runs", "--set", "train.steps=7"}));
    QCOMPARE(spec.expectedSteps(), 7);
    // An override decides too, and one process is a plain run.
    spec.overrides << QStringLiteral("parallel.nproc=2");
    QCOMPARE(spec.arguments().mid(0, 5),
             (QStringList{"launch", "--nproc-per-node", "2", "--", "run"}));
    spec.overrides = {QStringLiteral("parallel.nproc=1")};
    QCOMPARE(spec.arguments().first(), QString("run"));

    // A resumed run keeps its own layout, from its config.json.
    QDir(dir_.path()).mkpath(QStringLiteral("run-a"));
    QVERIFY(QFile::copy(config, dir_.filePath(QStringLiteral("run-a/config.json"))));
    LaunchSpec resume;
    resume.resume = true;
    resume.run_dir = dir_.filePath(QStringLiteral("run-a"));
    QCOMPARE(resume.arguments(), (QStringList{"launch", "--nproc-per-node", "4", "--", "run",
                                              "--resume", resume.run_dir}));
  }

  void telemetryAndProgressFromStdout() {
    LaunchSpec spec;
    spec.program =
        script(QStringLiteral("ok.sh"),
               "echo 'loading' >&2\ncat <<'EOF'\n" + QByteArray(kTwoOfFourStepsTelemetry) +
                   "EOF\nprintf 'last line without newline' >&2\nexit 0\n");
    spec.runs_root = dir_.filePath(QStringLiteral("runs"));
    LocalRun run(spec);
    QSignalSpy states(&run, &LocalRun::stateChanged);
    QSignalSpy progress(&run, &LocalRun::progressChanged);
    QSignalSpy stderr_lines(&run, &LocalRun::stderrReceived);
    run.start();
    QCOMPARE(run.state(), State::Starting);
    waitForEnd(run);
    QCOMPARE(run.state(), State::Finished);
    QCOMPARE(run.exitCode(), 0);
    QVERIFY(run.errorText().isEmpty());
    QCOMPARE(run.runId(), QStringLiteral("fake"));
    QCOMPARE(run.runDir(), dir_.filePath(QStringLiteral("runs/fake")));
    QCOMPARE(run.series()->steps().size(), size_t{2});
    QCOMPARE(run.step(), 2);
    QCOMPARE(run.totalSteps(), 4);    // from run_start's config
    QCOMPARE(run.etaSeconds(), 2.0);  // 2 steps left at 1 s a step
    QVERIFY(progress.count() >= 1);
    QCOMPARE(run.stderrLines(),
             (QStringList{QStringLiteral("loading"), QStringLiteral("last line without newline")}));
    QVERIFY(stderr_lines.count() >= 1);
    QCOMPARE(states.last().at(0).value<State>(), State::Finished);
    QVERIFY(run.endedAt() >= run.startedAt());
  }

  void crashWithoutRunEndQuotesStderr() {
    LaunchSpec spec;
    spec.program = script(QStringLiteral("crash.sh"),
                          "echo 'step 1 ok' >&2\necho 'terminate called: bad_alloc' >&2\n"
                          "kill -SEGV $$\n");
    LocalRun run(spec);
    run.start();
    waitForEnd(run);
    QCOMPARE(run.state(), State::Failed);
    QCOMPARE(run.exitStatus(), QProcess::CrashExit);
    QVERIFY2(run.errorText().contains(QStringLiteral("terminate called: bad_alloc")),
             qPrintable(run.errorText()));
    QVERIFY(run.errorText().contains(QStringLiteral("crashed")));
  }

  void failureExitStatusWithStderr() {
    LaunchSpec spec;
    spec.program =
        script(QStringLiteral("bad.sh"), "echo 'moe-train: c.json: /moe/top_k: no' >&2\nexit 2\n");
    LocalRun run(spec);
    run.start();
    waitForEnd(run);
    QCOMPARE(run.state(), State::Failed);
    QCOMPARE(run.exitCode(), 2);
    QVERIFY(run.errorText().contains(QStringLiteral("/moe/top_k: no")));
    QVERIFY(run.errorText().contains(QStringLiteral("status 2")));
  }

  void cancelKillsAfterGracePeriod() {
    LaunchSpec spec;
    // Ignores SIGINT, like a run stuck in a long step; `exec sleep` keeps the ignored signal.
    spec.program =
        script(QStringLiteral("stubborn.sh"), "trap '' INT\necho started >&2\nexec sleep 60\n");
    spec.cancel_grace_ms = 300;
    LocalRun run(spec);
    QSignalSpy stderr_lines(&run, &LocalRun::stderrReceived);
    run.start();
    QVERIFY(stderr_lines.wait(kTimeoutMs));  // the trap is set
    QElapsedTimer clock;
    clock.start();
    run.cancel();
    run.cancel();  // twice changes nothing
    QVERIFY(run.cancelRequested());
    waitForEnd(run);
    QVERIFY(clock.elapsed() >= 250);
    QCOMPARE(run.state(), State::Cancelled);
    QCOMPARE(run.exitStatus(), QProcess::CrashExit);
    QVERIFY(run.errorText().contains(QStringLiteral("killed")));
  }

  void cancelStopsOnSigint() {
    LaunchSpec spec;
    // Exits 130 on SIGINT, as moe-train does after writing its checkpoint.
    spec.program = script(QStringLiteral("polite.sh"),
                          "trap 'echo stopping >&2; exit 130' INT\necho started >&2\n"
                          "while :; do sleep 0.05; done\n");
    LocalRun run(spec);
    QSignalSpy stderr_lines(&run, &LocalRun::stderrReceived);
    run.start();
    QVERIFY(stderr_lines.wait(kTimeoutMs));
    run.cancel();
    waitForEnd(run);
    QCOMPARE(run.state(), State::Cancelled);
    QCOMPARE(run.exitCode(), 130);
    QVERIFY(run.errorText().isEmpty());
  }

  void missingProgramFailsClearly() {
    LaunchSpec spec;
    spec.program = QStringLiteral("/nonexistent/bin/moe-train");
    LocalRun run(spec);
    QSignalSpy finished(&run, &LocalRun::finished);
    run.start();
    QVERIFY(finished.count() == 0);  // reported from the event loop, after start() returns
    waitForEnd(run);
    QCOMPARE(run.state(), State::Failed);
    QCOMPARE(run.exitCode(), -1);
    QVERIFY2(run.errorText().contains(QStringLiteral("Could not start /nonexistent/bin/moe-train")),
             qPrintable(run.errorText()));
  }

  void cancelBeforeStart() {
    LocalRun run(LaunchSpec{});
    QSignalSpy finished(&run, &LocalRun::finished);
    run.cancel();
    QCOMPARE(run.state(), State::Cancelled);
    QCOMPARE(finished.count(), 1);
    run.start();  // ended: starts nothing
    QCOMPARE(run.state(), State::Cancelled);
  }

  void managerOwnsRuns() {
    RunManager manager;
    manager.setTrainProgram(script(QStringLiteral("mgr.sh"), "sleep 0.2\nexit 0\n"));
    QSignalSpy added(&manager, &RunManager::runAdded);
    QSignalSpy finished(&manager, &RunManager::runFinished);
    QSignalSpy active(&manager, &RunManager::activeCountChanged);
    LaunchSpec spec;
    spec.run_dir = dir_.filePath(QStringLiteral("runs/a"));
    LocalRun* a = manager.startRun(spec);
    spec.run_dir = dir_.filePath(QStringLiteral("runs/b"));
    LocalRun* b = manager.startRun(spec);
    QCOMPARE(added.count(), 2);
    QCOMPARE(manager.runs(), (QList<Run*>{a, b}));
    QCOMPARE(manager.activeRuns().size(), 2);
    QVERIFY(manager.hasActiveRuns());
    QCOMPARE(manager.findByRunDir(dir_.filePath(QStringLiteral("runs/b/"))), static_cast<Run*>(b));
    QVERIFY(!manager.remove(a));  // still running
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, kTimeoutMs);
    QCOMPARE(active.last().at(0).toInt(), 0);
    QCOMPARE(a->state(), State::Finished);
    QSignalSpy removed(&manager, &RunManager::runRemoved);
    QPointer<LocalRun> watch(a);
    QVERIFY(manager.remove(a));
    QCOMPARE(removed.count(), 1);
    QCOMPARE(manager.runs(), (QList<Run*>{b}));
    QTRY_VERIFY(watch.isNull());  // deleted later
  }

  // Run's resume: a run that stopped with a complete checkpoint continues its directory as a new
  // run of the same program, which the manager registers and starts.
  void resumeContinuesAStoppedRun() {
    RunManager manager;
    const QString run_dir = dir_.filePath(QStringLiteral("runs/stopped"));
    const QByteArray step = run_dir.toUtf8() + "/checkpoints/step-2";
    // Saves a checkpoint, then fails, as a run that hit an error after step 2 does.
    manager.setTrainProgram(
        script(QStringLiteral("stops.sh"),
               "mkdir -p \"" + step + "\"\necho '{}' > \"" + step + "/state.json\"\nexit 1\n"));
    LaunchSpec spec;
    spec.run_dir = run_dir;
    LocalRun* first = manager.startRun(spec);
    QCOMPARE(first->target(), QStringLiteral("local"));
    QVERIFY(!first->isResume());
    waitForEnd(*first);
    QCOMPARE(first->state(), State::Failed);
    QVERIFY(first->canResume());

    Run* second = manager.resumeRun(*first);
    QVERIFY(second);
    QCOMPARE(manager.runs(), (QList<Run*>{first, second}));
    QCOMPARE(manager.findByRunDir(run_dir), second);  // the newest of the directory
    QVERIFY(second->isResume());
    QCOMPARE(second->runDir(), run_dir);
    auto* resumed = qobject_cast<LocalRun*>(second);
    QVERIFY(resumed);
    QCOMPARE(resumed->spec().program, first->spec().program);
    QCOMPARE(resumed->arguments().mid(0, 3),
             (QStringList{QStringLiteral("run"), QStringLiteral("--resume"), run_dir}));
    waitForEnd(*resumed);  // the same script fails again
    QCOMPARE(resumed->state(), State::Failed);
  }

  // Only a run that stopped early is offered a resume, and only with a complete checkpoint.
  void resumeNeedsAStoppedRunWithACheckpoint() {
    const QString run_dir = dir_.filePath(QStringLiteral("runs/finished"));
    const QByteArray step = run_dir.toUtf8() + "/checkpoints/step-2";
    LaunchSpec spec;
    spec.run_dir = run_dir;
    spec.program =
        script(QStringLiteral("finishes.sh"),
               "mkdir -p \"" + step + "\"\necho '{}' > \"" + step + "/state.json\"\nexit 0\n");
    LocalRun finished(spec);
    finished.start();
    waitForEnd(finished);
    QCOMPARE(finished.state(), State::Finished);
    QVERIFY(!finished.canResume());

    spec.run_dir = dir_.filePath(QStringLiteral("runs/no-checkpoint"));
    spec.program = script(QStringLiteral("fails.sh"), "exit 1\n");
    LocalRun failed(spec);
    failed.start();
    waitForEnd(failed);
    QCOMPARE(failed.state(), State::Failed);
    QVERIFY(!failed.canResume());
  }

  void managerStopsRunsItStillOwns() {
    auto* manager = new RunManager;
    // The trap leaves a mark: the run ended through its interrupt, not a kill after the grace.
    const QString mark = dir_.filePath(QStringLiteral("long.interrupted"));
    manager->setTrainProgram(
        script(QStringLiteral("long.sh"), "trap 'echo interrupted > \"" + mark.toUtf8() +
                                              "\"; exit 130' INT\n"
                                              "echo started >&2\nwhile :; do sleep 0.05; done\n"));
    LocalRun* run = manager->startRun(LaunchSpec{});
    QSignalSpy stderr_lines(run, &LocalRun::stderrReceived);
    QVERIFY(stderr_lines.wait(kTimeoutMs));  // the trap is set
    delete manager;  // the run is interrupted and waited for, not left behind
    QVERIFY(QFile::exists(mark));
  }
};

QTEST_GUILESS_MAIN(TestLocalRun)
#include "test_local_run.moc"
