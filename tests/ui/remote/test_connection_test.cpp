// ConnectionTest against a real OpenSSH server on 127.0.0.1 (sshd_server.sh): a good target
// reports moe-train's version, cores and free space; a wrong moe-train path, a password-only
// server, a closed port and an unknown host key each give the message that names the problem.
// Each case has a server of its own: ssh's shared master connection would otherwise let a later
// case ride on an earlier login.
#include <QtTest>

#include <QFile>

#include "base/remote/connection_test.h"
#include "ssh_server_fixture.h"

using moe::test::SshServerFixture;
using moe::ui::ConnectionReport;
using moe::ui::ConnectionTest;
using moe::ui::Target;

namespace {

ConnectionReport probe(const Target& target) {
  ConnectionTest test;
  QSignalSpy finished(&test, &ConnectionTest::finished);
  test.start(target);
  if (!finished.wait(ConnectionTest::kTimeoutMs + 10000)) return {};
  return finished.takeFirst().at(0).value<ConnectionReport>();
}

}  // namespace

class TestConnectionTest : public QObject {
  Q_OBJECT

 private slots:
  void goodTargetReportsTheMachine() {
    SshServerFixture server;
    QVERIFY2(server.ok(), qPrintable(server.error()));
    const ConnectionReport report = probe(server.sshTarget(QStringLiteral("good")));
    QVERIFY2(report.ok(), qPrintable(report.summary()));
    QVERIFY(report.reachable);
    QVERIFY2(!report.version.isEmpty(), qPrintable(report.summary()));
    QVERIFY2(!report.version.startsWith(QLatin1String("moe-train")), qPrintable(report.version));
    // The rest of --version: the LibTorch it runs on and the CUDA it has.
    QVERIFY2(report.engine.startsWith(QLatin1String("LibTorch ")), qPrintable(report.engine));
    QVERIFY2(report.engine.contains(QLatin1String("CUDA devices: ")), qPrintable(report.engine));
    QVERIFY(report.summary().contains(report.engine));
    QCOMPARE(report.train_program_abs, QStringLiteral(MOE_TRAIN_BIN));
    QVERIFY(report.cores >= 1);
    QVERIFY(report.gpus >= 0);
    QVERIFY(report.free_bytes > 0);
    QCOMPARE(report.runs_root_abs, server.runsRoot());
    QVERIFY(report.runs_root_exists);
    QVERIFY(report.summary().contains(report.version));
    QVERIFY(report.summary().contains(QStringLiteral("port %1").arg(server.port())));
  }

  void homeRelativeRunsRootIsResolved() {
    SshServerFixture server;
    QVERIFY2(server.ok(), qPrintable(server.error()));
    Target target = server.sshTarget(QStringLiteral("home"));
    target.runs_root = QStringLiteral("~/moe-connection-test-absent/runs");
    const ConnectionReport report = probe(target);
    QVERIFY2(report.ok(), qPrintable(report.summary()));
    // The remote home, whichever it is: the path comes back absolute, the ~ resolved.
    QVERIFY2(report.runs_root_abs.startsWith(QLatin1Char('/')) &&
                 report.runs_root_abs.endsWith(QLatin1String("/moe-connection-test-absent/runs")),
             qPrintable(report.runs_root_abs));
    QVERIFY(!report.runs_root_exists);
    QVERIFY(report.free_bytes > 0);  // measured at the nearest existing parent, the home
  }

  void wrongTrainProgramIsAClearProblem() {
    SshServerFixture server;
    QVERIFY2(server.ok(), qPrintable(server.error()));
    Target target = server.sshTarget(QStringLiteral("wrong-path"));
    target.train_program = server.runsRoot() + QStringLiteral("/no/such/moe-train");
    const ConnectionReport report = probe(target);
    QVERIFY(report.reachable);
    QVERIFY(!report.ok());
    QVERIFY2(
        report.error.startsWith(
            QStringLiteral("moe-train not found at %1 on 127.0.0.1\n").arg(target.train_program)),
        qPrintable(report.error));
    // ... and how to put it there.
    QVERIFY2(report.error.contains(QLatin1String("packaging/install-engine.sh")),
             qPrintable(report.error));
    QVERIFY(report.version.isEmpty());
    QVERIFY(report.cores >= 1);
    QVERIFY(report.summary().contains(report.error));
  }

  void passwordOnlyServerAsksForAKey() {
    SshServerFixture server(SshServerFixture::Auth::PasswordOnly);
    QVERIFY2(server.ok(), qPrintable(server.error()));
    const ConnectionReport report = probe(server.sshTarget(QStringLiteral("password")));
    QVERIFY(!report.reachable);
    QVERIFY2(report.error.contains(QLatin1String("password")), qPrintable(report.error));
  }

  void closedPortIsUnreachable() {
    Target target;
    {
      SshServerFixture gone;  // a port that was free a moment ago, and is again
      QVERIFY2(gone.ok(), qPrintable(gone.error()));
      target = gone.sshTarget(QStringLiteral("closed"));
    }
    const ConnectionReport report = probe(target);
    QVERIFY(!report.reachable);
    QVERIFY2(report.error.contains(QLatin1String("cannot be reached")), qPrintable(report.error));
    QVERIFY(report.summary().startsWith(QLatin1String("Not reachable")));
  }

  void unknownHostKeyIsRefusedUnlessAllowed() {
    SshServerFixture server;
    QVERIFY2(server.ok(), qPrintable(server.error()));
    const QString empty_known_hosts = server.runsRoot() + QStringLiteral("/known_hosts");
    QFile file(empty_known_hosts);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.close();
    Target target = server.sshTarget(QStringLiteral("new-key"));
    target.ssh.known_hosts_file = empty_known_hosts;

    const ConnectionReport refused = probe(target);
    QVERIFY(!refused.reachable);
    QVERIFY2(refused.error.contains(QLatin1String("host key")), qPrintable(refused.error));

    target.ssh.accept_new_host_key = true;
    const ConnectionReport accepted = probe(target);
    QVERIFY2(accepted.ok(), qPrintable(accepted.summary()));
    QVERIFY(QFileInfo(empty_known_hosts).size() > 0);  // ssh recorded the new key
  }
};

QTEST_GUILESS_MAIN(TestConnectionTest)
#include "test_connection_test.moc"
