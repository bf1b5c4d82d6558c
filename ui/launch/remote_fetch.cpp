// RemoteFetch (remote_fetch.h): remote.json, a check on the target, the copy, the move.
#include "launch/remote_fetch.h"

#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QPair>
#include <QSet>
#include <QUuid>
#include <QtConcurrent>

#include <optional>

#include "launch/fetch_files.h"
#include "launch/remote_channel.h"
#include "launch/remote_command.h"
#include "launch/ssh_command.h"
#include "launch/worker_task.h"

namespace moe::ui {

namespace {

constexpr int kGoneExit = 3;

// The local directories being fetched now (GUI thread only): a second fetch of one would move
// files under the first.
QSet<QString>& inFlight() {
  static QSet<QString> dirs;
  return dirs;
}

// $1: the remote run directory. Says whether it is there and how big it is (KiB), before copying.
const char kCheckScript[] = R"SH(dir=$1
[ -d "$dir" ] || { printf 'no such directory: %s\n' "$dir" >&2; exit 3; }
du -sk -- "$dir" 2>/dev/null | cut -f1
exit 0
)SH";

QString sizeText(qint64 kib) {
  if (kib < 0) return {};
  return QStringLiteral(" (%1)").arg(QLocale::system().formattedDataSize(kib * 1024));
}

}  // namespace

RemoteFetch::RemoteFetch(QObject* parent) : QObject(parent) {}

RemoteFetch::~RemoteFetch() {
  if (owns_dir_) inFlight().remove(local_dir_);
  if (scp_) {
    scp_->disconnect(this);
    scp_->kill();
  }
  if (!temp_dir_.isEmpty())  // a copy cut short: its half is of no use
    (void)QtConcurrent::run([dir = temp_dir_] { QDir(dir).removeRecursively(); });
}

QStringList RemoteFetch::scpArguments(const SshEndpoint& endpoint, const QString& remote_dir,
                                      const QString& into) {
  const QString host = endpoint.host.contains(QLatin1Char(':'))
                           ? QStringLiteral("[%1]").arg(endpoint.host)  // an IPv6 address
                           : endpoint.host;
  // -r: the tree; -p: the files keep their times (metrics.jsonl's is when the run ended).
  return sshOptions(endpoint, /*for_scp=*/true)
         << QStringLiteral("-r") << QStringLiteral("-p") << QStringLiteral("--")
         << host + QLatin1Char(':') + remote_dir << into;
}

QString RemoteFetch::runName() const {
  return record_.run_id.isEmpty() ? QFileInfo(local_dir_).fileName() : record_.run_id;
}

void RemoteFetch::start(const QString& local_dir) {
  if (running_) return;
  running_ = true;
  local_dir_ = QDir::cleanPath(QFileInfo(local_dir).absoluteFilePath());
  if (inFlight().contains(local_dir_)) {
    // Answered from the event loop, as every other outcome is.
    const QString why = tr("%1 is being fetched already.").arg(QFileInfo(local_dir_).fileName());
    QMetaObject::invokeMethod(
        this, [this, why] { finish(why); }, Qt::QueuedConnection);
    return;
  }
  inFlight().insert(local_dir_);
  owns_dir_ = true;
  emit progress(tr("Reading %1").arg(QDir(local_dir).filePath(RemoteRunRecord::kFileName)));
  using Read = QPair<std::optional<RemoteRunRecord>, QString>;
  runOnWorker(
      this,
      [local_dir] {
        QString error;
        auto record = RemoteRunRecord::read(local_dir, &error);
        return Read{record, error};
      },
      [this](const Read& read) {
        onRecord(read.first.value_or(RemoteRunRecord{}), read.first ? QString() : read.second);
      });
}

void RemoteFetch::onRecord(const RemoteRunRecord& record, const QString& error) {
  if (!error.isEmpty()) return finish(tr("Cannot fetch this run: %1").arg(error));
  record_ = record;
  const QString where = record.target.name;
  if (!record.target.isRemote())
    return finish(tr("%1: remote.json names no remote target").arg(local_dir_));
  if (record.remote_dir.isEmpty())
    return finish(
        tr("%1 never got a directory on %2: there is nothing to fetch.").arg(runName(), where));
  if (const QString problem = remotePathProblem(record.remote_dir); !problem.isEmpty())
    return finish(tr("%1: the remote directory in remote.json: %2").arg(local_dir_, problem));
  if (record.isActive())
    return finish(tr("%1 is still %2 on %3: fetch it once it has ended.")
                      .arg(runName(), record.state, where));
  emit progress(tr("Looking for %1 on %2").arg(record.remote_dir, where));
  check_ = new RemoteChannel(record.target, this);
  connect(check_, &RemoteChannel::finished, this, &RemoteFetch::onChecked);
  check_->run(QString::fromLatin1(kCheckScript), {record.remote_dir});
}

void RemoteFetch::onChecked(const RemoteResult& result) {
  check_->deleteLater();
  check_ = nullptr;
  const QString where = record_.target.name;
  if (!result.connection_error.isEmpty())
    return finish(tr("Cannot fetch %1 from %2: %3").arg(runName(), where, result.connection_error));
  if (result.exit_code == kGoneExit)
    return finish(tr("The run directory %1 is gone from %2: nothing to fetch.")
                      .arg(record_.remote_dir, where));
  if (!result.ok())
    return finish(tr("Cannot fetch %1 from %2: %3").arg(runName(), where, result.message()));
  bool known = false;
  const qint64 kib = QString::fromUtf8(result.out).trimmed().toLongLong(&known);
  emit progress(
      tr("Copying %1 from %2%3").arg(record_.remote_dir, where, sizeText(known ? kib : -1)));
  startCopy();
}

// A hidden directory beside the local one (a rescan of the runs root passes it by), so a copy
// cut short never mixes with the run's files.
void RemoteFetch::startCopy() {
  const QFileInfo local(local_dir_);
  temp_dir_ = local.dir().filePath(
      QStringLiteral(".fetch-%1-%2")
          .arg(local.fileName(), QUuid::createUuid().toString(QUuid::Id128).left(8)));
  const bool over_ssh = !record_.target.ssh.isLocal();
  const QString temp = temp_dir_, remote = record_.remote_dir;
  runOnWorker(
      this,
      [temp, remote, over_ssh]() -> QString {
        if (!QDir().mkpath(temp))
          return QStringLiteral("%1: cannot create the directory").arg(temp);
        if (over_ssh) return {};
        return fetch_files::copyTree(remote, QDir(temp).filePath(QFileInfo(remote).fileName()));
      },
      [this, over_ssh](const QString& error) {
        if (!error.isEmpty()) return finish(tr("Cannot copy %1: %2").arg(runName(), error));
        if (!over_ssh) return moveIntoPlace(temp_dir_);
        scp_ = new QProcess(this);
        connect(scp_, &QProcess::finished, this, &RemoteFetch::onCopied);
        connect(scp_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
          if (e == QProcess::FailedToStart)
            finish(
                tr("Cannot start scp (%1): install the OpenSSH client.").arg(scp_->errorString()));
        });
        scp_->setStandardInputFile(QProcess::nullDevice());
        scp_->start(QStringLiteral("scp"),
                    scpArguments(record_.target.ssh, record_.remote_dir, temp_dir_));
      });
}

void RemoteFetch::onCopied(int exit_code, QProcess::ExitStatus status) {
  const QString err = QString::fromLocal8Bit(scp_->readAllStandardError()).trimmed();
  scp_->deleteLater();
  scp_ = nullptr;
  if (status != QProcess::NormalExit || exit_code != 0) {
    // scp's own complaints ("scp: PATH: ...") as they are; the rest is ssh's (connection).
    QString why = err.startsWith(QLatin1String("scp:"))
                      ? err
                      : sshFailureMessage(record_.target.ssh, 255, err);
    // The check went through this connection a moment ago: a server that closes scp's at once
    // most likely has no SFTP, which OpenSSH 9's scp speaks.
    if (err.endsWith(QLatin1String("scp: Connection closed")))
      why = tr("%1 accepted the connection but closed scp's (%2). Does its SSH server offer SFTP "
               "(a Subsystem sftp line in sshd_config)? scp needs it since OpenSSH 9.")
                .arg(record_.target.ssh.destination(), err);
    return finish(tr("Copying %1 from %2 failed: %3")
                      .arg(record_.remote_dir, record_.target.name,
                           err.isEmpty() ? tr("scp ended with status %1").arg(exit_code) : why));
  }
  moveIntoPlace(temp_dir_);
}

void RemoteFetch::moveIntoPlace(const QString& copied) {
  emit progress(tr("Moving the files into %1").arg(local_dir_));
  RemoteRunRecord fetched = record_;
  fetched.fetched = true;
  runOnWorker(
      this,
      [copied, local = local_dir_, fetched]() -> QString {
        QString error;
        const QString tree = fetch_files::onlySubdirectory(copied, &error);
        if (tree.isEmpty()) return error;
        error =
            fetch_files::moveInto(tree, local, {QString::fromLatin1(RemoteRunRecord::kFileName)});
        if (error.isEmpty()) fetched.write(local, &error);
        return error;
      },
      [this](const QString& error) {
        if (!error.isEmpty()) return finish(tr("Cannot fetch %1: %2").arg(runName(), error));
        record_.fetched = true;
        finish({});
      });
}

void RemoteFetch::finish(const QString& error) {
  if (!running_) return;
  running_ = false;
  if (owns_dir_) inFlight().remove(local_dir_);
  owns_dir_ = false;
  if (scp_) {
    scp_->disconnect(this);
    scp_->kill();
    scp_->deleteLater();
    scp_ = nullptr;
  }
  if (!temp_dir_.isEmpty()) {
    (void)QtConcurrent::run([dir = temp_dir_] { QDir(dir).removeRecursively(); });
    temp_dir_.clear();
  }
  emit progress(error.isEmpty() ? tr("Fetched %1").arg(runName()) : error);
  emit finished(error.isEmpty(), error);
}

}  // namespace moe::ui
