// RemoteRun with a Slurm target, on a one-node cluster of the test's own
// (tests/e2e/launchers/slurm_cluster.sh) and the real engine: sbatch on this machine (no SSH
// host: the app's environment has the cluster's SLURM_CONF) runs a 1-task and a 2-task run to
// their end, the local metrics.jsonl byte for byte the remote one; cancel of a running job
// (checkpoint, exit 130) and of a job still pending behind an exclusive one; the clear failures
// of a job Slurm refuses and of a job stopped at its time limit; and the same cluster reached over
// a real sshd (tests/e2e/launchers/sshd_server.sh), its SLURM_CONF from the target's setup.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>

#include "base/remote/remote_run.h"
#include "base/remote/slurm_script.h"
#include "remote_run_support.h"
#include "ssh_server_fixture.h"

using moe::test::SshServerFixture;
using moe::ui::RemoteLaunch;
using moe::ui::RemoteRun;
using moe::ui::RemoteRunRecord;
using moe::ui::Target;
using State = moe::ui::Run::State;

namespace {

// Two shared cores: be patient, but less than QtTest's 300 s per function, so that a failure
// still reaches cleanupTestCase (which stops the cluster).
constexpr int kRunTimeoutMs = 240000;
constexpr int kCancelQueuedMs = 20000;  // a queued job's cancel: at once, not after the grace

QByteArray config(const QString& name, int steps, int nproc) {
  return moe::test::tinyRemoteConfig(name, steps, 100, nproc);
}

using moe::test::readAll;

bool waitForEnd(RemoteRun& run, int timeout_ms = kRunTimeoutMs) {
  return moe::test::waitForEnd(run, timeout_ms);
}

bool waitForStep(RemoteRun& run, qint64 step) {
  return moe::test::waitForStep(run, step, kRunTimeoutMs);
}

// A program's output (stdout and stderr), run to its end.
QString output(const QString& program, const QStringList& args) {
  QProcess p;
  p.start(program, args);
  if (!p.waitForFinished(60000)) {
    p.kill();
    p.waitForFinished();
  }
  return QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
}

}  // namespace

class TestSlurmRemoteRun : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;  // the cluster, the runs root there, the app's runs root
  bool cluster_started_ = false;
  QStringList jobs_;  // every job the test submitted, cancelled at the end whatever happened

  QString clusterDir() const { return dir_.filePath(QStringLiteral("slurm")); }
  QString slurmConf() const { return clusterDir() + QStringLiteral("/slurm.conf"); }
  QString localRoot() const { return dir_.filePath(QStringLiteral("local")); }

  // The cluster on this machine: ranks per node as the config's parallel.nproc, more tasks than
  // cores allowed (two shared cores).
  Target slurmTarget(int tasks, const QStringList& extra = {}) const {
    Target target;
    target.kind = Target::Kind::Slurm;
    target.name = QStringLiteral("cluster");
    target.runs_root = dir_.filePath(QStringLiteral("runs"));
    target.train_program = QStringLiteral(MOE_TRAIN_BIN);
    target.slurm.tasks_per_node = tasks;
    target.slurm.extra_lines = QStringList{QStringLiteral("--overcommit")} + extra;
    return target;
  }

  RemoteLaunch launch(const Target& target, const QString& name, int steps) const {
    const int nproc = target.slurm.tasks_per_node * target.slurm.nodes;
    return RemoteLaunch{target,
                        config(name, steps, nproc),
                        name,
                        nproc,
                        moe::ui::slurmBatchScript(target, name, target.train_program),
                        localRoot()};
  }

  // Starts the run and waits until Slurm gave it a job id (remembered for the clean-up).
  bool submit(RemoteRun& run) {
    run.start();
    QElapsedTimer clock;
    clock.start();
    while (run.jobId().isEmpty() && run.isActive() && clock.elapsed() < 60000) QTest::qWait(50);
    if (run.jobId().isEmpty()) return false;
    jobs_ << run.jobId();
    return true;
  }

  // Ended as it should: finished, exit 0, every step, the local metrics.jsonl the remote one,
  // the batch script saved on both sides, the job id in the record.
  static void expectFinished(RemoteRun& run, const QString& script, qint64 steps) {
    QVERIFY(waitForEnd(run));
    QVERIFY2(run.state() == State::Finished,
             qPrintable(run.errorText() + '\n' + run.stderrLines().join('\n')));
    QCOMPARE(run.exitCode(), 0);
    QCOMPARE(run.step(), steps);
    const QByteArray remote = readAll(run.remoteDir() + "/metrics.jsonl");
    const QByteArray local = readAll(run.runDir() + "/metrics.jsonl");
    QVERIFY(!remote.isEmpty());
    QCOMPARE(local.size(), remote.size());
    QVERIFY(local == remote);
    QCOMPARE(QString::fromUtf8(readAll(run.remoteDir() + "/remote/job.sh")), script);
    QCOMPARE(QString::fromUtf8(readAll(run.runDir() + "/remote/job.sh")), script);
    QTRY_COMPARE(RemoteRunRecord::read(run.runDir()).value_or(RemoteRunRecord{}).state,
                 QStringLiteral("finished"));
    QCOMPARE(RemoteRunRecord::read(run.runDir())->job_id, run.jobId());
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    const QString out =
        output(QStringLiteral(MOE_SLURM_CLUSTER_SCRIPT), {QStringLiteral("start"), clusterDir()});
    cluster_started_ = true;  // stop even a half-started cluster
    QVERIFY2(out.contains(QStringLiteral("SLURM_CONF=")), qPrintable(out));
    qputenv("SLURM_CONF", slurmConf().toLocal8Bit());  // for the app's sbatch, squeue, scancel
  }

  void oneTaskRunFinishes() {
    const RemoteLaunch l = launch(slurmTarget(1), QStringLiteral("one"), 30);
    RemoteRun run(l);
    QVERIFY(submit(run));
    expectFinished(run, l.batch_script, 30);
    QVERIFY(run.remoteDir().startsWith(dir_.filePath(QStringLiteral("runs/"))));
    QCOMPARE(readAll(run.remoteDir() + "/remote/submitted.json"), l.config);
  }

  void twoTaskRunFinishes() {
    const RemoteLaunch l = launch(slurmTarget(2), QStringLiteral("two"), 30);
    RemoteRun run(l);
    QVERIFY(submit(run));
    expectFinished(run, l.batch_script, 30);
    const QString rank1 = QString::fromUtf8(readAll(run.remoteDir() + "/stderr.rank1.log"));
    QVERIFY2(rank1.contains(QStringLiteral("rank 1 of 2")), qPrintable(rank1));
  }

  void cancelStopsAfterACheckpoint() {
    RemoteRun run(launch(slurmTarget(1), QStringLiteral("cancel"), 1000000));
    QVERIFY(submit(run));
    QVERIFY(waitForStep(run, 5));
    run.cancel();
    QVERIFY(waitForEnd(run));
    QVERIFY2(run.state() == State::Cancelled, qPrintable(run.errorText()));
    QCOMPARE(run.exitCode(), moe::ui::kExitInterrupted);
    QVERIFY(run.errorText().isEmpty());
    QVERIFY(moe::ui::hasCheckpoint(run.remoteDir()));
    // Resume: a new job in the same directory, `run --resume` in its script, stopped again.
    QVERIFY(run.canResume());
    std::unique_ptr<moe::ui::Run> next(run.resume(nullptr));
    QVERIFY(next && next->isResume());
    auto& resumed = static_cast<RemoteRun&>(*next);
    QVERIFY(submit(resumed));
    QVERIFY(resumed.jobId() != run.jobId());
    const qint64 before = run.step();
    QVERIFY(waitForStep(resumed, before + 5));
    QVERIFY(readAll(resumed.remoteDir() + "/remote/job.sh").contains("run --resume"));
    resumed.cancel();
    QVERIFY(waitForEnd(resumed));
    QVERIFY2(resumed.state() == State::Cancelled, qPrintable(resumed.errorText()));
    QCOMPARE(resumed.remoteDir(), run.remoteDir());
    const QByteArray remote = readAll(resumed.remoteDir() + "/metrics.jsonl");
    QVERIFY(readAll(resumed.runDir() + "/metrics.jsonl") == remote);
  }

  // A job behind one that holds the whole node waits, and says why; cancelled while it waits, it
  // ends at once (a plain scancel: nothing to checkpoint).
  void pendingJobShowsWhyAndCancels() {
    RemoteRun blocker(
        launch(slurmTarget(1, {QStringLiteral("--exclusive")}), QStringLiteral("block"), 1000000));
    QVERIFY(submit(blocker));
    const auto unblock = qScopeGuard([&blocker] {  // the next tests need the node
      if (!blocker.jobId().isEmpty()) output(QStringLiteral("scancel"), {blocker.jobId()});
    });
    QVERIFY(waitForStep(blocker, 1));
    RemoteRun waiting(launch(slurmTarget(1), QStringLiteral("wait"), 10));
    QVERIFY(submit(waiting));
    QTRY_VERIFY_WITH_TIMEOUT(waiting.stateText().startsWith(QStringLiteral("pending: ")), 30000);
    const QString reason = waiting.stateText().mid(9);
    QVERIFY2(reason == QLatin1String("Resources") || reason == QLatin1String("Priority"),
             qPrintable(waiting.stateText()));
    QCOMPARE(waiting.state(), State::Starting);
    waiting.cancel();
    QVERIFY(waitForEnd(waiting, kCancelQueuedMs));
    QVERIFY2(waiting.state() == State::Cancelled, qPrintable(waiting.errorText()));
    QVERIFY2(waiting.errorText().isEmpty(), qPrintable(waiting.errorText()));
    QVERIFY(!QFile::exists(waiting.remoteDir() + "/metrics.jsonl"));
    // Cancelled while sbatch is on its way, before the app has seen the job queued (Slurm
    // refuses to signal a pending job): the same.
    RemoteRun hurry(launch(slurmTarget(1), QStringLiteral("hurry"), 10));
    hurry.start();
    QElapsedTimer clock;
    clock.start();
    while (hurry.remoteDir().isEmpty() && hurry.isActive() && clock.elapsed() < 60000)
      QTest::qWait(1);
    QVERIFY(hurry.jobId().isEmpty());
    hurry.cancel();
    QVERIFY(waitForEnd(hurry, kCancelQueuedMs));
    jobs_ << hurry.jobId();
    QVERIFY(!hurry.jobId().isEmpty());
    QVERIFY2(hurry.state() == State::Cancelled, qPrintable(hurry.errorText()));
    QVERIFY2(hurry.connectionProblem().isEmpty(), qPrintable(hurry.connectionProblem()));
    blocker.cancel();
    QVERIFY(waitForEnd(blocker));
    QVERIFY2(blocker.state() == State::Cancelled, qPrintable(blocker.errorText()));
  }

  void refusedJobFailsClearly() {
    Target target = slurmTarget(1);
    target.slurm.partition = QStringLiteral("nosuchpartition");
    RemoteRun run(launch(target, QStringLiteral("refused"), 10));
    run.start();
    QVERIFY(waitForEnd(run));
    QCOMPARE(run.state(), State::Failed);
    QVERIFY2(run.errorText().startsWith(QStringLiteral("Slurm refused the job: ")),
             qPrintable(run.errorText()));
    QVERIFY2(run.errorText().contains(QStringLiteral("partition")), qPrintable(run.errorText()));
    QVERIFY(run.jobId().isEmpty());
    QTRY_COMPARE(RemoteRunRecord::read(run.runDir()).value_or(RemoteRunRecord{}).state,
                 QStringLiteral("failed"));
  }

  void wrongMoeTrainPathFailsClearly() {
    Target target = slurmTarget(1);
    target.train_program = QStringLiteral("/nonexistent/moe-train");
    RemoteRun run(launch(target, QStringLiteral("nobin"), 10));
    QVERIFY(submit(run));
    MOE_EXPECT_FAILURE(run, QStringLiteral("/nonexistent/moe-train"));
  }

  // Slurm ends the job at --time=1 (a minute, then its KillWait): the run failed, and says why.
  void timeLimitFailsClearly() {
    Target target = slurmTarget(1);
    target.slurm.time_limit = QStringLiteral("1");
    RemoteRun run(launch(target, QStringLiteral("limit"), 100000000));
    QVERIFY(submit(run));
    QVERIFY(waitForStep(run, 1));
    MOE_EXPECT_FAILURE(run, QStringLiteral("time limit"));
    QVERIFY2(run.errorText().contains(run.jobId()), qPrintable(run.errorText()));
    const QString job =
        output(QStringLiteral("scontrol"),
               {QStringLiteral("-o"), QStringLiteral("show"), QStringLiteral("job"), run.jobId()});
    QVERIFY2(job.contains(QStringLiteral("JobState=TIMEOUT")), qPrintable(job));
  }

  // The same cluster from its login node over SSH: the session has no SLURM_CONF, the target's
  // setup gives it to sbatch, squeue, scancel and the job.
  void overSshRunFinishes() {
    SshServerFixture server;
    QVERIFY2(server.ok(), qPrintable(server.error()));
    Target target = server.sshTarget(QStringLiteral("login"));
    target.kind = Target::Kind::Slurm;
    target.setup_commands = {QStringLiteral("export SLURM_CONF=") + slurmConf()};
    target.slurm = slurmTarget(1).slurm;
    const RemoteLaunch l = launch(target, QStringLiteral("ssh"), 30);
    QVERIFY(l.batch_script.contains(target.setup_commands.first()));
    RemoteRun run(l);
    QVERIFY(submit(run));
    expectFinished(run, l.batch_script, 30);
    QVERIFY(run.remoteDir().startsWith(server.runsRoot() + "/"));
  }

  void unreachableLoginNodeFailsClearly() {
    SshServerFixture server;
    QVERIFY2(server.ok(), qPrintable(server.error()));
    Target target = server.sshTarget(QStringLiteral("gone"));
    target.kind = Target::Kind::Slurm;
    server.closePort();
    RemoteRun run(launch(target, QStringLiteral("unreachable"), 10));
    run.start();
    MOE_EXPECT_FAILURE(run, QStringLiteral("cannot be reached"));
  }

  void cleanupTestCase() {
    if (!jobs_.isEmpty()) output(QStringLiteral("scancel"), jobs_);
    if (!cluster_started_) return;
    QStringList pids;  // the daemons write files as they exit: wait for them before the removal
    for (const char* file : {"slurmd.pid", "slurmctld.pid", "munged.pid"})
      pids << QString::fromUtf8(readAll(clusterDir() + '/' + file)).trimmed();
    output(QStringLiteral(MOE_SLURM_CLUSTER_SCRIPT), {QStringLiteral("stop"), clusterDir()});
    for (const QString& pid : pids)
      QTRY_VERIFY_WITH_TIMEOUT(pid.isEmpty() || !QFile::exists("/proc/" + pid), 20000);
  }
};

QTEST_GUILESS_MAIN(TestSlurmRemoteRun)
#include "test_slurm_remote_run.moc"
