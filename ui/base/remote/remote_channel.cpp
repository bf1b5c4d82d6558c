#include "base/remote/remote_channel.h"

#include <QStandardPaths>

#include <utility>

#include "base/remote/remote_command.h"
#include "base/remote/ssh_command.h"

namespace moe::ui {

QString RemoteResult::message() const {
  if (!connection_error.isEmpty()) return connection_error;
  const QString text = QString::fromUtf8(err).trimmed();
  if (!text.isEmpty()) return text;
  return exit_code < 0 ? QStringLiteral("the command did not finish")
                       : QStringLiteral("exit status %1").arg(exit_code);
}

RemoteChannel::RemoteChannel(Target target, QObject* parent)
    : QObject(parent), target_(std::move(target)) {}

RemoteChannel::~RemoteChannel() {
  if (process_ && process_->state() != QProcess::NotRunning) {
    process_->disconnect(this);
    process_->kill();
    process_->waitForFinished(2000);
  }
}

bool RemoteChannel::isBusy() const {
  return process_ && process_->state() != QProcess::NotRunning;
}

QString RemoteChannel::program() const {
  return target_.ssh.isLocal() ? QStringLiteral("sh") : QStringLiteral("ssh");
}

QStringList RemoteChannel::arguments(const QString& script, const QStringList& args) const {
  const QString name = QStringLiteral("moe-studio");
  if (target_.ssh.isLocal()) return QStringList{QStringLiteral("-c"), script, name} + args;
  return sshArguments(target_.ssh, remoteScriptLine(script, name, args));
}

void RemoteChannel::run(const QString& script, const QStringList& args, const QByteArray& input) {
  start(script, args, input, false);
}

void RemoteChannel::follow(const QString& script, const QStringList& args) {
  start(script, args, {}, true);
}

void RemoteChannel::start(const QString& script, const QStringList& args, const QByteArray& input,
                          bool streaming) {
  if (isBusy()) return;
  delete process_;
  process_ = new QProcess(this);
  streaming_ = streaming;
  stop_requested_ = done_ = false;
  out_.clear();
  err_.clear();
  connect(process_, &QProcess::readyReadStandardOutput, this, [this] {
    const QByteArray bytes = process_->readAllStandardOutput();
    if (streaming_) {
      emit output(bytes);
    } else {
      out_ += bytes;
    }
  });
  connect(process_, &QProcess::readyReadStandardError, this,
          [this] { err_ += process_->readAllStandardError(); });
  connect(process_, &QProcess::finished, this, &RemoteChannel::onFinished);
  connect(process_, &QProcess::errorOccurred, this, &RemoteChannel::onError);
  process_->start(program(), arguments(script, args));
  if (!input.isEmpty()) process_->write(input);
  // A follower's stdin stays open: its end tells the remote side the follower is gone.
  if (!streaming) process_->closeWriteChannel();
}

void RemoteChannel::stop() {
  if (!isBusy()) return;
  stop_requested_ = true;
  process_->terminate();
}

void RemoteChannel::onFinished(int exit_code, QProcess::ExitStatus status) {
  if (done_) return;
  done_ = true;
  const QByteArray rest = process_->readAllStandardOutput();
  if (streaming_ && !rest.isEmpty()) emit output(rest);
  if (!streaming_) out_ += rest;
  err_ += process_->readAllStandardError();
  RemoteResult result;
  result.stopped = stop_requested_;
  result.exit_code = status == QProcess::NormalExit ? exit_code : -1;
  result.out = out_;
  result.err = err_;
  if (!target_.ssh.isLocal() && !stop_requested_)
    result.connection_error =
        sshFailureMessage(target_.ssh, result.exit_code, QString::fromUtf8(err_));
  emit finished(result);
}

void RemoteChannel::onError(QProcess::ProcessError error) {
  if (error != QProcess::FailedToStart || done_) return;
  done_ = true;
  RemoteResult result;
  result.connection_error =
      QStringLiteral("could not start %1: %2").arg(program(), process_->errorString());
  emit finished(result);
}

}  // namespace moe::ui
