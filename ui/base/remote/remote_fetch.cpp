// RemoteFetch (remote_fetch.h): remote.json, a check on the target, the copy, the move.
#include "base/remote/remote_fetch.h"

#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QPair>
#include <QSet>
#include <QUuid>
#include <QtConcurrent>

#include <optional>

#include "base/remote/fetch_files.h"
#include "base/remote/remote_channel.h"
#include "base/remote/remote_command.h"
#include "base/remote/ssh_command.h"
#include "base/storage/worker_task.h"

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

// $1: the remote run directory. Its tree as a tar stream on stdout, its own name the top entry.
const char kArchiveScript[] = R"SH(dir=$1
[ -d "$dir" ] || { printf 'no such directory: %s\n' "$dir" >&2; exit 3; }
cd -- "$dir/.." && exec tar -c -f - -- "$(basename -- "$dir")"
)SH";

QString sizeText(qint64 kib) {
  if (kib < 0) return {};
  return QStringLiteral(" (%1)").arg(QLocale::system().formattedDataSize(kib * 1024));
}

}  // namespace

RemoteFetch::RemoteFetch(QObject* parent) : QObject(parent) {}

RemoteFetch::~RemoteFetch() {
  if (owns_dir_) inFlight().remove(local_dir_);
  stopCopy();
  if (!temp_dir_.isEmpty())  // a copy cut short: its half is of no use
    (void)QtConcurrent::run([dir = temp_dir_] { QDir(dir).removeRecursively(); });
}

QStringList RemoteFetch::archiveArguments(const SshEndpoint& endpoint, const QString& remote_dir) {
  return sshArguments(endpoint, remoteScriptLine(QString::fromLatin1(kArchiveScript),
                                                 QStringLiteral("moe-studio"), {remote_dir}));
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
        // ssh's stdout is the local tar's stdin; the copy is done when both have ended.
        sender_ = new QProcess(this);
        unpacker_ = new QProcess(this);
        sender_->setStandardInputFile(QProcess::nullDevice());
        sender_->setStandardOutputProcess(unpacker_);
        unpacker_->setStandardOutputFile(QProcess::nullDevice());
        for (QProcess* process : {sender_, unpacker_}) {
          connect(process, &QProcess::finished, this, &RemoteFetch::onCopyProcessEnded);
          connect(
              process, &QProcess::errorOccurred, this, [this, process](QProcess::ProcessError e) {
                if (e != QProcess::FailedToStart) return;
                const QString name = process->program();
                finish(
                    tr("Cannot start %1 (%2): install %3.")
                        .arg(name, process->errorString(),
                             name == QLatin1String("ssh") ? tr("the OpenSSH client") : tr("tar")));
              });
        }
        // tar keeps each file's time (metrics.jsonl's is when the run ended).
        unpacker_->start(QStringLiteral("tar"),
                         {QStringLiteral("-x"), QStringLiteral("-f"), QStringLiteral("-"),
                          QStringLiteral("-C"), temp_dir_});
        sender_->start(QStringLiteral("ssh"),
                       archiveArguments(record_.target.ssh, record_.remote_dir));
      });
}

void RemoteFetch::onCopyProcessEnded() {
  if (!sender_ || !unpacker_ || sender_->state() != QProcess::NotRunning ||
      unpacker_->state() != QProcess::NotRunning)
    return;
  const QString failure = copyFailure();
  stopCopy();
  if (!failure.isEmpty())
    return finish(
        tr("Copying %1 from %2 failed: %3").arg(record_.remote_dir, record_.target.name, failure));
  moveIntoPlace(temp_dir_);
}

// ssh's own failure (the connection) first; then the local tar's (a full disk here makes the
// remote tar fail on a broken pipe); then the remote script's.
QString RemoteFetch::copyFailure() const {
  const auto failed = [](const QProcess* p) {
    return p->exitStatus() != QProcess::NormalExit || p->exitCode() != 0;
  };
  const auto errorText = [](QProcess* p) {
    return QString::fromLocal8Bit(p->readAllStandardError()).trimmed();
  };
  const QString sent = errorText(sender_), unpacked = errorText(unpacker_);
  if (failed(sender_) && sender_->exitCode() == 255)
    return sshFailureMessage(record_.target.ssh, 255, sent);
  if (failed(unpacker_))
    return tr("unpacking into %1: %2")
        .arg(temp_dir_, unpacked.isEmpty()
                            ? tr("tar ended with status %1").arg(unpacker_->exitCode())
                            : unpacked);
  if (failed(sender_))
    return sender_->exitCode() == kGoneExit
               ? tr("the run directory is gone (%1)").arg(sent)
               : (sent.isEmpty()
                      ? tr("the remote tar ended with status %1").arg(sender_->exitCode())
                      : sent);
  return {};
}

void RemoteFetch::stopCopy() {
  for (QProcess** process : {&sender_, &unpacker_}) {
    if (!*process) continue;
    (*process)->disconnect(this);
    (*process)->kill();  // no wait: the GUI thread goes on; deleteLater reaps it
    (*process)->deleteLater();
    *process = nullptr;
  }
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
  stopCopy();
  if (!temp_dir_.isEmpty()) {
    (void)QtConcurrent::run([dir = temp_dir_] { QDir(dir).removeRecursively(); });
    temp_dir_.clear();
  }
  emit progress(error.isEmpty() ? tr("Fetched %1").arg(runName()) : error);
  emit finished(error.isEmpty(), error);
}

}  // namespace moe::ui
