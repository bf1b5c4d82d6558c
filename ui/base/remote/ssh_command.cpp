#include "base/remote/ssh_command.h"

#include <QDir>
#include <QFile>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>

namespace moe::ui {

namespace {

constexpr int kConnectTimeoutS = 10;
constexpr int kControlPersistS = 120;  // a master outlives a poll interval, not the session

}  // namespace

QString privateDirectory(const QString& base, const QString& name) {
  const QByteArray path = QFile::encodeName(base + QLatin1Char('/') + name);
  ::mkdir(path.constData(), 0700);  // EEXIST is checked below like any other found directory
  struct stat st {};
  if (::lstat(path.constData(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == ::geteuid() &&
      (st.st_mode & 077) == 0)
    return QFile::decodeName(path);
  QByteArray fresh = path + "-XXXXXX";
  if (!::mkdtemp(fresh.data())) return {};  // mode 0700 by construction
  return QFile::decodeName(fresh);
}

QString sshControlDirectory() {
  // Socket paths are limited to ~104 bytes: a short directory of this user, private.
  static const QString dir = [] {
    QString base = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (base.isEmpty()) base = QDir::tempPath();
    return privateDirectory(base, QStringLiteral("moe-ssh-%1").arg(::geteuid()));
  }();
  return dir;
}

QStringList sshOptions(const SshEndpoint& endpoint) {
  QStringList options{
      QStringLiteral("-o"), QStringLiteral("BatchMode=yes"), QStringLiteral("-o"),
      QStringLiteral("StrictHostKeyChecking=") +
          (endpoint.accept_new_host_key ? QStringLiteral("accept-new") : QStringLiteral("yes")),
      QStringLiteral("-o"), QStringLiteral("ConnectTimeout=%1").arg(kConnectTimeoutS),
      QStringLiteral("-o"), QStringLiteral("ServerAliveInterval=15"), QStringLiteral("-o"),
      QStringLiteral("ServerAliveCountMax=3"), QStringLiteral("-o"),
      QStringLiteral("ControlMaster=auto"), QStringLiteral("-o"),
      QStringLiteral("ControlPersist=%1").arg(kControlPersistS),
      // %C: a hash of host, port and user, so sockets stay short and never collide.
      QStringLiteral("-o"), QStringLiteral("ControlPath=") + sshControlDirectory() + "/%C"};
  if (!endpoint.known_hosts_file.isEmpty())
    options << QStringLiteral("-o")
            << QStringLiteral("UserKnownHostsFile=") + endpoint.known_hosts_file;
  if (!endpoint.identity_file.isEmpty())
    options << QStringLiteral("-o") << QStringLiteral("IdentitiesOnly=yes") << QStringLiteral("-i")
            << endpoint.identity_file;
  if (!endpoint.user.isEmpty()) options << QStringLiteral("-l") << endpoint.user;
  options << QStringLiteral("-p") << QString::number(endpoint.port);
  return options;
}

QStringList sshArguments(const SshEndpoint& endpoint, const QString& remote_line) {
  // "--" ends the options: a host name can never be read as one (validate() refuses '-' too).
  return sshOptions(endpoint) << QStringLiteral("--") << endpoint.host << remote_line;
}

QString sshFailureMessage(const SshEndpoint& endpoint, int exit_code, const QString& ssh_stderr) {
  if (exit_code != 255) return {};
  const QString where = endpoint.where();
  const QString err = ssh_stderr.trimmed();
  if (err.contains(QLatin1String("Permission denied"))) {
    if (err.contains(QLatin1String("publickey")))
      return QStringLiteral(
                 "%1 refused our keys (%2). MoE Studio signs in with keys or an agent "
                 "only: add your public key to the remote ~/.ssh/authorized_keys, or "
                 "set the target's identity file.")
          .arg(where, err.section('\n', -1));
    return QStringLiteral(
               "%1 asks for a password (%2). MoE Studio signs in with keys or an agent "
               "only and never stores a password: install a key for this host.")
        .arg(where, err.section('\n', -1));
  }
  if (err.contains(QLatin1String("Host key verification failed")) ||
      err.contains(QLatin1String("REMOTE HOST IDENTIFICATION HAS CHANGED")) ||
      err.contains(QLatin1String("No ED25519 host key is known")) ||
      err.contains(QLatin1String("host key is known")))
    return QStringLiteral(
               "The host key of %1 is unknown or has changed. Check it and add it to "
               "known_hosts (ssh %2 once by hand), or allow new host keys in the "
               "target's settings.")
        .arg(where, endpoint.destination());
  if (err.contains(QLatin1String("Could not resolve hostname")))
    return QStringLiteral("%1 cannot be reached: the host name is unknown.").arg(where);
  if (err.contains(QLatin1String("Connection refused")) ||
      err.contains(QLatin1String("timed out")) || err.contains(QLatin1String("No route")) ||
      err.contains(QLatin1String("Network is unreachable")) ||
      err.contains(QLatin1String("Connection closed")) ||
      err.contains(QLatin1String("Connection reset")))
    return QStringLiteral("%1 cannot be reached: %2").arg(where, err.section('\n', -1));
  return QStringLiteral("ssh to %1 failed: %2")
      .arg(where, err.isEmpty() ? QStringLiteral("no message") : err.section('\n', -1));
}

}  // namespace moe::ui
