// RemoteFetch: copies a remote run's directory (config.json, stderr.log, checkpoints/, trace.json,
// remote/...) into its local directory under the app's runs root, so the run can be replayed,
// compared and reported like a local one. The local directory's remote.json says where the run
// is; the copy goes over the run's own connection (ssh with sshOptions(): BatchMode, the host keys,
// the shared master connection) as a tar stream into a local tar, or is a plain file copy for a
// Slurm cluster on this machine. The remote side is a fixed script that gets the path as its
// positional parameter (remote_command.h), so any OpenSSH works, with or without SFTP, and a
// path with spaces or quotes is one word.
//
// Steps: read remote.json (worker thread); ask the target whether the directory is there (one
// RemoteChannel script: a clear "unreachable" or "gone" before any copying); copy it into a
// hidden temporary directory beside the local one; move the files into the local directory
// (replacing metrics.jsonl and the rest; remote.json stays); write remote.json with fetched set.
// A failure before the move (unreachable, gone, a broken copy) leaves the local directory as it
// was. The file work is fetch_files.h's, on worker threads: the GUI thread never waits.
#pragma once

#include <QObject>
#include <QProcess>
#include <QString>

#include "base/remote/remote_run_record.h"

namespace moe::ui {

class RemoteChannel;
struct RemoteResult;

class RemoteFetch : public QObject {
  Q_OBJECT

 public:
  explicit RemoteFetch(QObject* parent = nullptr);
  ~RemoteFetch() override;

  // Fetches the run whose local directory is `local_dir`; ignored while this fetch is running,
  // refused (finished(false)) while another RemoteFetch fetches the same directory.
  void start(const QString& local_dir);
  bool isRunning() const { return running_; }
  QString localDir() const { return local_dir_; }

  // The ssh command line whose stdout is `remote_dir` of `endpoint` as a tar stream, the
  // directory's own name its one top entry (for tests).
  static QStringList archiveArguments(const SshEndpoint& endpoint, const QString& remote_dir);

 signals:
  void progress(const QString& text);
  // ok: the local directory holds the whole remote one; else `error` says why, for people.
  void finished(bool ok, const QString& error);

 private:
  void onRecord(const RemoteRunRecord& record, const QString& error);
  void onChecked(const RemoteResult& result);
  void startCopy();
  void onCopyProcessEnded();
  QString copyFailure() const;  // empty when both ends of the copy succeeded
  void stopCopy();
  void moveIntoPlace(const QString& copied);
  void finish(const QString& error);
  QString runName() const;

  QString local_dir_, temp_dir_;
  RemoteRunRecord record_;
  RemoteChannel* check_ = nullptr;
  QProcess* sender_ = nullptr;    // ssh: the remote tar -c
  QProcess* unpacker_ = nullptr;  // the local tar -x, reading the sender's stdout
  bool running_ = false;
  bool owns_dir_ = false;  // local_dir_ is in the set of directories being fetched
};

}  // namespace moe::ui
