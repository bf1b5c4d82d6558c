// RemoteChannel: runs one fixed script (remote_scripts.h) on a target and hands back what it
// printed. For an SSH target it is `ssh [options] DESTINATION LINE` with the line from
// remoteScriptLine(); for a Slurm cluster on this machine it is `sh -c SCRIPT NAME ARG...`
// directly. Bytes for the script's stdin (a config, a batch script) go through the channel, never
// through a file. Asynchronous (QProcess): the GUI thread never waits.
//
// Two modes: run() collects the whole output and emits finished(); follow() streams stdout as it
// comes (output()) until the script ends or stop() is called, then emits finished().
#pragma once

#include <QByteArray>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

#include "base/remote/target.h"

namespace moe::ui {

struct RemoteResult {
  int exit_code = -1;   // the script's exit status; -1 when it did not run to an end
  QByteArray out, err;  // stdout (empty in follow mode: it went to output()) and stderr
  // Why the target could not be reached or the command did not run, for people (unreachable host,
  // password-only login, unknown or changed host key, ssh missing...); empty when it ran.
  QString connection_error;
  bool stopped = false;  // stop() ended it

  bool ok() const { return connection_error.isEmpty() && exit_code == 0; }
  // connection_error, else the script's stderr (trimmed), else "exit status N".
  QString message() const;
};

class RemoteChannel : public QObject {
  Q_OBJECT

 public:
  explicit RemoteChannel(Target target, QObject* parent = nullptr);
  ~RemoteChannel() override;

  const Target& target() const { return target_; }
  bool isBusy() const;

  // Starts `script` with `args`; `input` is written to its stdin, which is then closed.
  void run(const QString& script, const QStringList& args, const QByteArray& input = {});
  // Like run(), but stdout arrives in output() chunks as it comes, and stdin stays open until the
  // channel ends: its end (this channel stopped, the connection or the app gone) is how the
  // script learns it has no reader left.
  void follow(const QString& script, const QStringList& args);
  // Ends a running script (the local ssh or sh process; a detached remote engine is not touched).
  void stop();

  // The program and arguments run() and follow() start (for tests and "show command").
  QString program() const;
  QStringList arguments(const QString& script, const QStringList& args) const;

 signals:
  void output(const QByteArray& bytes);
  void finished(const moe::ui::RemoteResult& result);

 private:
  void start(const QString& script, const QStringList& args, const QByteArray& input,
             bool streaming);
  void onFinished(int exit_code, QProcess::ExitStatus status);
  void onError(QProcess::ProcessError error);

  Target target_;
  QProcess* process_ = nullptr;
  bool streaming_ = false, stop_requested_ = false, done_ = false;
  QByteArray out_, err_;
};

}  // namespace moe::ui
