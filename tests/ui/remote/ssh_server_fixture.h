#pragma once
// SshServerFixture: a real OpenSSH server on 127.0.0.1 for the remote launch tests, started by
// tests/e2e/launchers/sshd_server.sh in a temporary directory of its own and stopped with the
// fixture. sshTarget() is a Target that reaches it with the fixture's key and known_hosts file.
// The script's path comes from MOE_SSHD_SCRIPT (tests/ui/CMakeLists.txt, moe_add_engine_qtest).
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/remote/target.h"

namespace moe::test {

class SshServerFixture {
 public:
  enum class Auth { Keys, PasswordOnly };

  // Starts the server (blocking: a test, not the GUI thread); ok() says whether it came up.
  explicit SshServerFixture(Auth auth = Auth::Keys) {
    if (!dir_.isValid()) {
      error_ = QStringLiteral("cannot create a temporary directory");
      return;
    }
    QStringList args{QStringLiteral("start"), serverDir()};
    if (auth == Auth::PasswordOnly) args << QStringLiteral("--password-only");
    QString out;
    started_ = true;  // stop even a half-started server
    if (!runScript(args, &out)) return;
    for (const QString& line : out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
      const QString key = line.section(QLatin1Char('='), 0, 0);
      const QString value = line.section(QLatin1Char('='), 1);
      if (key == QLatin1String("PORT")) port_ = value.toInt();
      if (key == QLatin1String("IDENTITY")) identity_ = value;
      if (key == QLatin1String("KNOWN_HOSTS")) known_hosts_ = value;
      if (key == QLatin1String("USER")) user_ = value;
    }
    if (port_ <= 0 || identity_.isEmpty() || known_hosts_.isEmpty() || user_.isEmpty())
      error_ = QStringLiteral("sshd_server.sh printed no PORT/IDENTITY/KNOWN_HOSTS/USER: ") + out;
    QDir(dir_.path()).mkpath(QStringLiteral("runs"));
  }
  ~SshServerFixture() {
    if (started_) runScript({QStringLiteral("stop"), serverDir()}, nullptr);
  }
  SshServerFixture(const SshServerFixture&) = delete;
  SshServerFixture& operator=(const SshServerFixture&) = delete;

  bool ok() const { return error_.isEmpty(); }
  QString error() const { return error_; }
  int port() const { return port_; }
  QString identity() const { return identity_; }
  QString knownHosts() const { return known_hosts_; }
  QString user() const { return user_; }
  // A directory of the fixture's own for runs, created empty.
  QString runsRoot() const { return dir_.filePath(QStringLiteral("runs")); }

  // Ends every session of the server (each ssh connection to it), as a network failure would.
  void dropConnections() const { signalServer({QStringLiteral("-KILL"), QStringLiteral("-P")}); }
  // Stops the listener: its port is closed from now on (the sessions go on).
  // Returns once a connection to the port is refused (at most 10 s).
  void closePort() const {
    signalServer({});
    QDeadlineTimer deadline(10000);
    while (portAccepts() && !deadline.hasExpired()) QTest::qWait(20);
  }

  // An SSH target for this server: key login, the host key already known.
  moe::ui::Target sshTarget(const QString& name) const {
    moe::ui::Target target;
    target.kind = moe::ui::Target::Kind::Ssh;
    target.name = name;
    target.ssh.host = QStringLiteral("127.0.0.1");
    target.ssh.port = port_;
    target.ssh.user = user_;
    target.ssh.identity_file = identity_;
    target.ssh.known_hosts_file = known_hosts_;
    target.runs_root = runsRoot();
#ifdef MOE_TRAIN_BIN
    target.train_program = QStringLiteral(MOE_TRAIN_BIN);
#endif
    return target;
  }

 private:
  QString serverDir() const {
    return dir_.filePath(QStringLiteral("sshd"));
  }

  // `kill ARGS PID` or `pkill ARGS PID` (with -P) on the listener's pid.
  bool portAccepts() const {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return false;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port_));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const bool accepted =
        ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
    ::close(fd);
    return accepted;
  }

  void signalServer(QStringList args) const {
    QFile pid_file(serverDir() + QStringLiteral("/sshd.pid"));
    if (!pid_file.open(QIODevice::ReadOnly)) return;
    const QString pid = QString::fromUtf8(pid_file.readAll()).trimmed();
    const bool children = args.contains(QStringLiteral("-P"));
    QProcess::execute(children ? QStringLiteral("pkill") : QStringLiteral("kill"), args << pid);
  }

  bool runScript(const QStringList& args, QString* out) {
    QProcess script;
    script.start(QStringLiteral(MOE_SSHD_SCRIPT), args);
    if (!script.waitForFinished(60000) || script.exitStatus() != QProcess::NormalExit ||
        script.exitCode() != 0) {
      error_ = QStringLiteral("%1 %2 failed: %3%4")
                   .arg(QStringLiteral(MOE_SSHD_SCRIPT), args.join(QLatin1Char(' ')),
                        script.errorString() + QLatin1Char(' '),
                        QString::fromLocal8Bit(script.readAllStandardError()).trimmed());
      return false;
    }
    if (out) *out = QString::fromLocal8Bit(script.readAllStandardOutput());
    return true;
  }

  QTemporaryDir dir_;
  bool started_ = false;
  int port_ = 0;
  QString identity_, known_hosts_, user_, error_;
};

}  // namespace moe::test
