// RemoteRun over a real OpenSSH server on 127.0.0.1 (sshd_server.sh) with the real engine: a tiny
// run end to end; the connection dropped mid-run and an app restart mid-run, each re-attached with
// the local metrics.jsonl byte for byte the remote one (nothing lost, nothing twice); cancel;
// hostile run names that do nothing outside their run directory; and the clear failures of a
// password-only host, a closed port and a wrong moe-train path, with the local record kept.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <unistd.h>

#include "base/remote/remote_command.h"
#include "base/remote/remote_run.h"
#include "base/remote/remote_telemetry_stream.h"
#include "remote_run_support.h"
#include "ssh_server_fixture.h"

using moe::test::SshServerFixture;
using moe::ui::RemoteLaunch;
using moe::ui::RemoteRun;
using moe::ui::RemoteRunRecord;
using moe::ui::Target;
using State = moe::ui::Run::State;

namespace {

using moe::test::readAll;
using moe::test::waitForEnd;
using moe::test::waitForStep;

QByteArray config(const QString& name, int steps) {
  return moe::test::tinyRemoteConfig(name, steps);
}

}  // namespace

class TestRemoteRun : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir local_;

  RemoteLaunch launch(const Target& target, const QString& name, int steps) {
    return RemoteLaunch{target, config(name, steps), name, 1, {}, local_.path()};
  }

  // A tmpfs of `size` at `path` (root only; `mounted` says whether it worked), unmounted by the
  // returned guard.
  static auto mountTmpfs(const QString& path, const QString& size, bool& mounted) {
    mounted = QProcess::execute(QStringLiteral("mount"),
                                {"-t", "tmpfs", "-o", "size=" + size, "tmpfs", path}) == 0;
    return qScopeGuard([path, mounted] {
      if (mounted) QProcess::execute(QStringLiteral("umount"), {QStringLiteral("-l"), path});
    });
  }

  // Re-attached, the run ends Finished after `steps` with the remote file copied whole.
  static void expectReattachedToTheEnd(RemoteRun& again, qint64 steps) {
    again.start();
    QVERIFY(waitForEnd(again));
    QVERIFY2(again.state() == State::Finished, qPrintable(again.errorText()));
    QCOMPARE(again.step(), steps);
    expectSameMetrics(again);
  }

  // The processes on this machine (the target's side) whose command line names `path`.
  static QStringList processesNaming(const QString& path) {
    QStringList found;
    const QByteArray needle = path.toLocal8Bit();
    for (const QString& pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
      QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
      if (pid.toInt() <= 0 || !cmdline.open(QIODevice::ReadOnly)) continue;
      if (cmdline.readAll().contains(needle)) found << pid;
    }
    return found;
  }

  // The local copy of metrics.jsonl is exactly the remote file.
  static void expectSameMetrics(const RemoteRun& run) {
    const QByteArray remote = readAll(run.remoteDir() + "/metrics.jsonl");
    const QByteArray local = readAll(run.runDir() + "/metrics.jsonl");
    QVERIFY(!remote.isEmpty());
    QCOMPARE(local.size(), remote.size());
    QVERIFY(local == remote);
  }

 private slots:
  void initTestCase() { QVERIFY(local_.isValid()); }

  void tinyRunEndToEnd() {
    SshServerFixture server;
    QVERIFY2(server.ok(), qPrintable(server.error()));
    RemoteRun run(launch(server.sshTarget(QStringLiteral("box")), QStringLiteral("tiny"), 30));
    QSignalSpy states(&run, &RemoteRun::stateChanged);
    run.start();
    QVERIFY(waitForEnd(run));
    QVERIFY2(run.state() == State::Finished, qPrintable(run.errorText()));
    QCOMPARE(run.exitCode(), 0);
    QCOMPARE(run.step(), 30);
    QCOMPARE(run.target(), QStringLiteral("box"));
    QVERIFY(run.remoteDir().startsWith(server.runsRoot() + "/"));
    QVERIFY(run.runDir().startsWith(local_.path() + "/"));
    expectSameMetrics(run);
    QVERIFY(run.series()->runEnd().has_value());
    // The config went over stdin into the run directory, as sent.
    QCOMPARE(readAll(run.remoteDir() + "/remote/submitted.json"), config("tiny", 30));
    QTRY_COMPARE(RemoteRunRecord::read(run.runDir()).value_or(RemoteRunRecord{}).state,
                 QStringLiteral("finished"));
    const auto record = RemoteRunRecord::read(run.runDir());
    QCOMPARE(record->remote_dir, run.remoteDir());
    QVERIFY(!moe::ui::activeRemoteRunDirs(local_.path()).contains(run.runDir()));
    // Nothing of the run is left on the target: not the engine, not the telemetry follower
    // (its ssh session ended, so it ends too).
    QTRY_COMPARE_WITH_TIMEOUT(processesNaming(run.remoteDir()), QStringList(), 10000);
  }

  // parallel.nproc 2: the remote side starts the ranks through `moe-train launch`.
  void twoProcessesThroughTheLauncher() {
    SshServerFixture server;
    QVERIFY2(server.ok(), qPrintable(server.error()));
    RemoteLaunch two = launch(server.sshTarget(QStringLiteral("box")), QStringLiteral("two"), 20);
    two.config = moe::test::tinyRemoteConfig(QStringLiteral("two"), 20, 100, 2);
    two.nproc = 2;
    RemoteRun run(two);
    run.start();
    QVERIFY(waitForEnd(run));
    QVERIFY2(run.state() == State::Finished, qPrintable(run.errorText()));
    QCOMPARE(run.step(), 20);
    QVERIFY(QFile::exists(run.remoteDir() + "/stderr.rank1.log"));
    expectSameMetrics(run);
  }

  void droppedConnectionReattachesWithoutLoss() {
    SshServerFixture server;
    QVERIFY2(server.ok(), qPrintable(server.error()));
    RemoteRun run(launch(server.sshTarget(QStringLiteral("box")), QStringLiteral("drop"), 3000));
    run.start();
    QVERIFY(waitForStep(run, 20));
    server.dropConnections();
    QTRY_VERIFY_WITH_TIMEOUT(!run.connectionProblem().isEmpty() || !run.isActive(), 30000);
    QVERIFY(waitForEnd(run));
    QVERIFY2(run.state() == State::Finished, qPrintable(run.errorText()));
    QCOMPARE(run.step(), 3000);
    expectSameMetrics(run);
    // The followers of the dropped sessions ended with them.
    QTRY_COMPARE_WITH_TIMEOUT(processesNaming(run.remoteDir()), QStringList(), 10000);
  }

  void appRestartReattaches() {
    SshServerFixture server;
    QVERIFY2(server.ok(), qPrintable(server.error()));
    QString local_dir;
    {
      RemoteRun first(
          launch(server.sshTarget(QStringLiteral("box")), QStringLiteral("restart"), 3000));
      first.start();
      QVERIFY(waitForStep(first, 20));
      local_dir = first.runDir();
    }  // the app quits: the remote run goes on
    QVERIFY(moe::ui::activeRemoteRunDirs(local_.path()).contains(local_dir));
    const auto record = RemoteRunRecord::read(local_dir);
    QVERIFY(record.has_value());
    RemoteRun again(local_dir, *record);
    expectReattachedToTheEnd(again, 3000);
  }

  void cancelStopsAfterACheckpointAndResumes() {
    SshServerFixture server;
    QVERIFY2(server.ok(), qPrintable(server.error()));
    RemoteRun run(launch(server.sshTarget(QStringLiteral("box")), QStringLiteral("cancel"), 1500));
    run.start();
    QVERIFY(waitForStep(run, 5));
    run.cancel();
    QVERIFY(waitForEnd(run));
    QVERIFY2(run.state() == State::Cancelled, qPrintable(run.errorText()));
    QCOMPARE(run.exitCode(), moe::ui::kExitInterrupted);
    QVERIFY(moe::ui::hasCheckpoint(run.remoteDir()));
    QVERIFY(run.step() < 1500);
    // Resume continues in the same remote directory and the same local copy.
    QVERIFY(run.canResume());
    std::unique_ptr<moe::ui::Run> next(run.resume(nullptr));
    QVERIFY(next && next->isResume());
    auto& resumed = static_cast<RemoteRun&>(*next);
    resumed.start();
    QVERIFY(waitForEnd(resumed));
    QVERIFY2(resumed.state() == State::Finished, qPrintable(resumed.errorText()));
    QCOMPARE(resumed.step(), 1500);
    QCOMPARE(resumed.remoteDir(), run.remoteDir());
    expectSameMetrics(resumed);
  }

  // A hostile run name reaches the engine only as a config value, which it refuses by name; a
  // hostile runs root is a directory like any other. Neither runs a command.
  void hostileNamesStayInTheirDirectory() {
    SshServerFixture server;
    QVERIFY2(server.ok(), qPrintable(server.error()));
    QTemporaryDir cwd(QStringLiteral("/tmp/pw-XXXXXX"));  // short: a run name has 100 characters
    const QString marker = cwd.filePath(QStringLiteral("p"));
    const QString hostile =
        QStringLiteral("-rf x'; touch %1; $(touch %1) `touch %1` \"\n;--").arg(marker);
    Target target = server.sshTarget(QStringLiteral("box"));
    {
      RemoteRun run(launch(target, hostile, 10));
      run.start();
      MOE_EXPECT_FAILURE(run, QStringLiteral("may contain only letters"));
      QVERIFY(QFileInfo(run.remoteDir()).dir() == QDir(server.runsRoot()));
      QVERIFY(moe::ui::runIdProblem(QFileInfo(run.remoteDir()).fileName()).isEmpty());
    }
    target.runs_root =
        server.runsRoot() + "/-x 'q' ; $(touch " + marker + ") `touch " + marker + "`";
    RemoteRun run(launch(target, QStringLiteral("plain"), 10));
    run.start();
    QVERIFY(waitForEnd(run));
    QVERIFY2(run.state() == State::Finished, qPrintable(run.errorText()));
    QCOMPARE(QFileInfo(run.remoteDir()).dir().absolutePath(), target.runs_root);
    QVERIFY(!QFile::exists(marker));
    QCOMPARE(QDir(cwd.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), QStringList());
    // The runs root holds the two run directories and the hostile root, nothing else.
    QCOMPARE(QDir(server.runsRoot()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).size(), 2);
  }

  void passwordOnlyHostFailsClearly() {
    SshServerFixture server(SshServerFixture::Auth::PasswordOnly);
    QVERIFY2(server.ok(), qPrintable(server.error()));
    RemoteRun run(launch(server.sshTarget(QStringLiteral("pw")), QStringLiteral("pw"), 10));
    run.start();
    MOE_EXPECT_FAILURE(run, QStringLiteral("password"));
    QTRY_COMPARE(RemoteRunRecord::read(run.runDir()).value_or(RemoteRunRecord{}).state,
                 QStringLiteral("failed"));
    const auto record = RemoteRunRecord::read(run.runDir());  // nothing local lost
    QVERIFY(record.has_value());
    QCOMPARE(record->state, QStringLiteral("failed"));
    QCOMPARE(readAll(run.runDir() + "/remote/submitted.json"), config("pw", 10));
  }

  void closedPortFailsClearly() {
    SshServerFixture server;
    QVERIFY2(server.ok(), qPrintable(server.error()));
    const Target target = server.sshTarget(QStringLiteral("gone"));
    server.closePort();
    RemoteRun run(launch(target, QStringLiteral("closed"), 10));
    run.start();
    MOE_EXPECT_FAILURE(run, QStringLiteral("cannot be reached"));
  }

  // The runs root on a small file system of its own: full before the config is written, and full
  // while the engine writes.
  void fullDiskFailsClearly() {
    if (geteuid() != 0) QSKIP("mounting a small tmpfs needs root (CI runs as root)");
    SshServerFixture server;
    QVERIFY2(server.ok(), qPrintable(server.error()));
    const QString mount_point = server.runsRoot() + "/small";
    QVERIFY(QDir().mkpath(mount_point));
    bool mounted = false;
    const auto unmount = mountTmpfs(mount_point, QStringLiteral("256k"), mounted);
    QVERIFY(mounted);
    Target target = server.sshTarget(QStringLiteral("box"));
    target.runs_root = mount_point + "/runs";
    {
      RemoteRun run(launch(target, QStringLiteral("fills"), 100000));
      run.start();
      MOE_EXPECT_FAILURE(run, QStringLiteral("full"));
      // The engine cut metrics.jsonl back to its last whole line: the copy has each line once.
      expectSameMetrics(run);
    }
    RemoteRun run(launch(target, QStringLiteral("nospace"), 10));
    run.start();
    MOE_EXPECT_FAILURE(run, QStringLiteral("full"));
    QVERIFY(RemoteRunRecord::read(run.runDir()).has_value());  // the local record stays
  }

  // A moe-train path in the remote home (~/...), as Test connection and Slurm runs take it.
  void aMoeTrainPathInTheHomeIsExpanded() {
    SshServerFixture server;
    QVERIFY2(server.ok(), qPrintable(server.error()));
    const QString name =
        QStringLiteral(".moe-e2e-%1-moe-train").arg(QCoreApplication::applicationPid());
    const QString link = QDir::home().filePath(name);
    QVERIFY(QFile::link(QStringLiteral(MOE_TRAIN_BIN), link));
    Target target = server.sshTarget(QStringLiteral("box"));
    target.train_program = QStringLiteral("~/") + name;
    RemoteRun run(launch(target, QStringLiteral("home"), 5));
    run.start();
    const bool ended = waitForEnd(run);
    QFile::remove(link);
    QVERIFY(ended);
    QVERIFY2(run.state() == State::Finished, qPrintable(run.errorText()));
    QCOMPARE(run.step(), 5);
  }

  // The local copy's disk fills: telemetry stops with the reason in the run's state, the copy
  // holds whole lines only, and re-attaching once there is space makes it the remote file exactly.
  void aFullLocalDiskStopsTelemetryAndReattachResumesExactly() {
    if (geteuid() != 0) QSKIP("mounting a small tmpfs needs root (CI runs as root)");
    SshServerFixture server;
    QVERIFY2(server.ok(), qPrintable(server.error()));
    QTemporaryDir mount_point;
    bool mounted = false;
    const auto unmount = mountTmpfs(mount_point.path(), QStringLiteral("64k"), mounted);
    QVERIFY(mounted);
    RemoteLaunch fills{server.sshTarget(QStringLiteral("box")),
                       config("localfull", 3000),
                       QStringLiteral("localfull"),
                       1,
                       {},
                       mount_point.path()};
    QString local_dir;
    {
      RemoteRun run(fills);
      run.start();
      QTRY_VERIFY_WITH_TIMEOUT(!run.mirrorProblem().isEmpty() || !run.isActive(), 120000);
      QVERIFY2(run.mirrorProblem().contains("cannot append to the local copy"),
               qPrintable(run.mirrorProblem() + run.errorText()));
      QVERIFY(run.stateText().contains("telemetry stopped"));
      QVERIFY(run.isActive());  // the remote run goes on
      local_dir = run.runDir();
    }
    // What the copy holds is the remote file's first whole lines.
    const QString mirror = local_dir + "/metrics.jsonl";
    const qint64 whole = moe::ui::RemoteTelemetryStream::trimMirror(mirror);
    QVERIFY(whole > 0);
    // The record stays whole (the state changes written while the disk was full are lost).
    QString why;
    const auto record = RemoteRunRecord::read(local_dir, &why);
    QVERIFY2(record.has_value(), qPrintable(why));
    QVERIFY(readAll(record->remote_dir + "/metrics.jsonl").startsWith(readAll(mirror)));
    QCOMPARE(
        QProcess::execute(QStringLiteral("mount"), {"-o", "remount,size=64m", mount_point.path()}),
        0);
    QVERIFY(moe::ui::activeRemoteRunDirs(mount_point.path()).contains(local_dir));
    RemoteRun again(local_dir, *record);
    expectReattachedToTheEnd(again, 3000);
  }

  void wrongMoeTrainPathFailsClearly() {
    SshServerFixture server;
    QVERIFY2(server.ok(), qPrintable(server.error()));
    Target target = server.sshTarget(QStringLiteral("box"));
    target.train_program = QStringLiteral("/nonexistent/moe-train");
    RemoteRun run(launch(target, QStringLiteral("nobin"), 10));
    run.start();
    MOE_EXPECT_FAILURE(run, QStringLiteral("moe-train not found at /nonexistent/moe-train"));
  }
};

QTEST_GUILESS_MAIN(TestRemoteRun)
#include "test_remote_run.moc"
