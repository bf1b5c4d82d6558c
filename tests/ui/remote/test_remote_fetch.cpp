// RemoteFetch over a real OpenSSH server on 127.0.0.1 (sshd_server.sh) with the real engine: a
// tiny remote run fetched whole (config, stderr.log, checkpoints, metrics.jsonl byte for byte,
// remote.json marked fetched, nothing left beside it); runs roots with spaces and quotes on both
// sides; a Slurm cluster on this machine (a plain copy); and the clear failures of a stopped
// server, a remote directory that is gone and a run still going, each with the local files kept.
#include <QtTest>

#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>

#include "base/remote/remote_fetch.h"
#include "base/remote/remote_run.h"
#include "remote_run_support.h"
#include "ssh_server_fixture.h"

using moe::test::SshServerFixture;
using moe::ui::RemoteFetch;
using moe::ui::RemoteLaunch;
using moe::ui::RemoteRun;
using moe::ui::RemoteRunRecord;
using moe::ui::Target;
using State = moe::ui::Run::State;

namespace {

constexpr int kFetchTimeoutMs = 120000;

using moe::test::kRunTimeoutMs;
using moe::test::readAll;

QByteArray config(const QString& name) {
  return moe::test::tinyRemoteConfig(name, 20, 10);
}

// Every file under `dir` (hidden ones too), by relative path, with its bytes.
QMap<QString, QByteArray> tree(const QString& dir) {
  QMap<QString, QByteArray> files;
  QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
  while (it.hasNext()) {
    const QString path = it.next();
    files.insert(QDir(dir).relativeFilePath(path), readAll(path));
  }
  return files;
}

// The entries of `root` whose names start with ".fetch-": a fetch's temporary directories.
QStringList leftovers(const QString& root) {
  return QDir(root).entryList({QStringLiteral(".fetch-*")},
                              QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
}

struct Fetched {
  bool ok = false;
  QString error;
  QStringList progress;
};

Fetched fetch(const QString& local_dir) {
  RemoteFetch fetch;
  QSignalSpy finished(&fetch, &RemoteFetch::finished);
  QSignalSpy progress(&fetch, &RemoteFetch::progress);
  fetch.start(local_dir);
  Fetched out;
  if (!finished.wait(kFetchTimeoutMs)) {
    out.error = QStringLiteral("no finished() within %1 ms").arg(kFetchTimeoutMs);
    return out;
  }
  out.ok = finished.front().at(0).toBool();
  out.error = finished.front().at(1).toString();
  for (const QList<QVariant>& args : progress) out.progress << args.at(0).toString();
  return out;
}

// Starts a tiny run on `target` with its local directory under `local_root`, to its end.
std::unique_ptr<RemoteRun> runToEnd(const Target& target, const QString& local_root) {
  auto run = std::make_unique<RemoteRun>(RemoteLaunch{
      target, config(QStringLiteral("fetchme")), QStringLiteral("fetchme"), 1, {}, local_root});
  QSignalSpy finished(run.get(), &RemoteRun::finished);
  run->start();
  if (run->isActive()) finished.wait(kRunTimeoutMs);
  return run;
}

}  // namespace

class TestRemoteFetch : public QObject {
  Q_OBJECT

 private:
  // The run ended well and its remote.json says so (it is written off the GUI thread).
  static void expectFinished(const RemoteRun& run) {
    QVERIFY2(run.state() == State::Finished, qPrintable(run.errorText()));
    QTRY_COMPARE(RemoteRunRecord::read(run.runDir()).value_or(RemoteRunRecord{}).state,
                 QStringLiteral("finished"));
  }

  // The local directory holds every remote file, byte for byte, and remote.json says fetched.
  static void expectFetched(const RemoteRun& run) {
    const QMap<QString, QByteArray> remote = tree(run.remoteDir());
    const QMap<QString, QByteArray> local = tree(run.runDir());
    QVERIFY(remote.contains(QStringLiteral("config.json")));
    QVERIFY(remote.contains(QStringLiteral("stderr.log")));
    QVERIFY(remote.contains(QStringLiteral("metrics.jsonl")));
    QVERIFY(std::any_of(remote.keyBegin(), remote.keyEnd(), [](const QString& path) {
      return path.startsWith(QLatin1String("checkpoints/step-20/"));
    }));
    for (auto it = remote.begin(); it != remote.end(); ++it) {
      QVERIFY2(local.contains(it.key()), qPrintable(it.key()));
      QVERIFY2(local.value(it.key()) == it.value(), qPrintable(it.key()));
    }
    QVERIFY(!remote.contains(QStringLiteral("remote.json")));
    const auto record = RemoteRunRecord::read(run.runDir());
    QVERIFY(record.has_value());
    QVERIFY(record->fetched);
    QCOMPARE(record->remote_dir, run.remoteDir());
    QCOMPARE(record->state, QStringLiteral("finished"));
    QTRY_COMPARE(leftovers(QFileInfo(run.runDir()).path()), QStringList());
  }

 private slots:
  void fetchesTheWholeRunDirectory() {
    SshServerFixture server;
    QVERIFY2(server.ok(), qPrintable(server.error()));
    QTemporaryDir local;
    const auto run = runToEnd(server.sshTarget(QStringLiteral("box")), local.path());
    expectFinished(*run);
    QVERIFY(!QFile::exists(run->runDir() + "/config.json"));  // not here before the fetch
    const Fetched result = fetch(run->runDir());
    QVERIFY2(result.ok, qPrintable(result.error));
    QVERIFY(result.progress.size() >= 3);
    QVERIFY2(result.progress.join('\n').contains(QLatin1String("Copying")),
             qPrintable(result.progress.join('\n')));
    expectFetched(*run);
    // A second fetch replaces the files with the same ones.
    const Fetched again = fetch(run->runDir());
    QVERIFY2(again.ok, qPrintable(again.error));
    expectFetched(*run);
  }

  // The remote path is the archive script's one positional parameter, never shell syntax; the
  // local side is a path like any other.
  void runsRootsWithSpacesAndQuotes() {
    SshServerFixture server;
    QVERIFY2(server.ok(), qPrintable(server.error()));
    QTemporaryDir base;
    const QString local_root = base.filePath(QStringLiteral("my runs 'a' \"b\" $(x) `y`"));
    QVERIFY(QDir().mkpath(local_root));
    Target target = server.sshTarget(QStringLiteral("box"));
    target.runs_root = server.runsRoot() + QStringLiteral("/remote runs 'q' \"w\" ; $(e)");
    const auto run = runToEnd(target, local_root);
    expectFinished(*run);
    QVERIFY(run->remoteDir().startsWith(target.runs_root + "/"));
    const Fetched result = fetch(run->runDir());
    QVERIFY2(result.ok, qPrintable(result.error));
    expectFetched(*run);
    QCOMPARE(QDir(local_root).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).size(), 1);
  }

  void stoppedServerFailsAndKeepsTheLocalFiles() {
    SshServerFixture server;
    QVERIFY2(server.ok(), qPrintable(server.error()));
    QTemporaryDir local;
    const auto run = runToEnd(server.sshTarget(QStringLiteral("offline-box")), local.path());
    expectFinished(*run);
    // The listener and its sessions (the shared master connection's among them).
    const QString server_dir = QFileInfo(server.knownHosts()).path();
    QCOMPARE(QProcess::execute(QStringLiteral(MOE_SSHD_SCRIPT), {"stop", server_dir}), 0);
    const QMap<QString, QByteArray> before = tree(run->runDir());
    const Fetched result = fetch(run->runDir());
    QVERIFY(!result.ok);
    QVERIFY2(result.error.contains(QLatin1String("cannot be reached")), qPrintable(result.error));
    QVERIFY2(result.error.contains(QLatin1String("offline-box")), qPrintable(result.error));
    QCOMPARE(tree(run->runDir()), before);
    QVERIFY(!RemoteRunRecord::read(run->runDir())->fetched);
    QTRY_COMPARE(leftovers(local.path()), QStringList());
  }

  void goneRemoteDirectoryFailsClearly() {
    SshServerFixture server;
    QVERIFY2(server.ok(), qPrintable(server.error()));
    QTemporaryDir local;
    const auto run = runToEnd(server.sshTarget(QStringLiteral("box")), local.path());
    expectFinished(*run);
    QVERIFY(QDir(run->remoteDir()).removeRecursively());
    const QMap<QString, QByteArray> before = tree(run->runDir());
    const Fetched result = fetch(run->runDir());
    QVERIFY(!result.ok);
    QVERIFY2(
        result.error.contains(run->remoteDir()) && result.error.contains(QLatin1String("gone")),
        qPrintable(result.error));
    QCOMPARE(tree(run->runDir()), before);
  }

  // A Slurm cluster on this machine: the run directory is here, copied as files. Its remote.json
  // is written as a RemoteRun writes it; the check before the copy runs through sh.
  void slurmClusterOnThisMachineCopiesFiles() {
    QTemporaryDir remote_root, local_root;
    const QString remote_dir = remote_root.filePath(QStringLiteral("20260101-000000-s 'x'"));
    QVERIFY(QDir().mkpath(remote_dir + "/checkpoints/step-5"));
    QVERIFY(QDir().mkpath(remote_dir + "/remote"));
    const QMap<QString, QByteArray> files{{"config.json", R"({"name":"s"})"},
                                          {"metrics.jsonl", "{\"event\":\"run_start\"}\n"},
                                          {"stderr.log", "log\n"},
                                          {"checkpoints/step-5/model.pt", QByteArray(4096, 'm')},
                                          {"remote/slurm-7.out", "out\n"},
                                          {".hidden", "h"}};
    for (auto it = files.begin(); it != files.end(); ++it) {
      QFile file(QDir(remote_dir).filePath(it.key()));
      QVERIFY(file.open(QIODevice::WriteOnly) && file.write(it.value()) == it.value().size());
    }
    RemoteRunRecord record;
    record.target.kind = Target::Kind::Slurm;
    record.target.name = QStringLiteral("cluster");
    record.run_id = QStringLiteral("20260101-000000-s");
    record.remote_dir = remote_dir;
    record.job_id = QStringLiteral("7");
    record.state = QStringLiteral("finished");
    const QString local_dir = local_root.filePath(record.run_id);
    QVERIFY(QDir().mkpath(local_dir));
    QVERIFY(record.write(local_dir));
    QFile old_metrics(local_dir + "/metrics.jsonl");
    QVERIFY(old_metrics.open(QIODevice::WriteOnly) && old_metrics.write("partial") > 0);
    old_metrics.close();

    // A second fetch of the same directory while the first runs is refused.
    RemoteFetch first;
    QSignalSpy first_done(&first, &RemoteFetch::finished);
    first.start(local_dir);
    const Fetched second = fetch(local_dir + "/");
    QVERIFY(!second.ok);
    QVERIFY2(second.error.contains(QLatin1String("being fetched already")),
             qPrintable(second.error));
    QVERIFY(first_done.wait(kFetchTimeoutMs));
    QVERIFY2(first_done[0][0].toBool(), qPrintable(first_done[0][1].toString()));
    const QMap<QString, QByteArray> local = tree(local_dir);
    for (auto it = files.begin(); it != files.end(); ++it)
      QVERIFY2(local.value(it.key()) == it.value(), qPrintable(it.key()));
    QVERIFY(RemoteRunRecord::read(local_dir)->fetched);
    QCOMPARE(RemoteRunRecord::read(local_dir)->job_id, QStringLiteral("7"));
    QCOMPARE(tree(remote_dir), files);  // the source is left as it was
    QTRY_COMPARE(leftovers(local_root.path()), QStringList());
  }

  // Fetching a run that is still going would race its telemetry stream: refused, and said why.
  void activeRunIsRefused() {
    QTemporaryDir local_root;
    RemoteRunRecord record;
    record.target.kind = Target::Kind::Slurm;
    record.target.name = QStringLiteral("cluster");
    record.run_id = QStringLiteral("20260101-000000-busy");
    record.remote_dir = local_root.filePath(QStringLiteral("elsewhere"));
    record.state = QStringLiteral("running");
    const QString local_dir = local_root.filePath(record.run_id);
    QVERIFY(QDir().mkpath(local_dir) && record.write(local_dir));
    const Fetched result = fetch(local_dir);
    QVERIFY(!result.ok);
    QVERIFY2(result.error.contains(QLatin1String("still running on cluster")),
             qPrintable(result.error));
    const Fetched missing = fetch(local_root.filePath(QStringLiteral("no-such-run")));
    QVERIFY(!missing.ok);
    QVERIFY2(missing.error.contains(QLatin1String("remote.json")), qPrintable(missing.error));
  }
};

QTEST_GUILESS_MAIN(TestRemoteFetch)
#include "test_remote_fetch.moc"
