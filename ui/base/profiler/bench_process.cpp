#include "base/profiler/bench_process.h"

#include <QPointer>
#include <QTimer>

#include "base/run/launch_spec.h"

namespace moe::ui {

namespace {

constexpr int kKillAfterMs = 3000;  // after cancel()'s SIGTERM
constexpr int kStderrTailChars = 4000;

}  // namespace

BenchProcess::BenchProcess(QObject* parent) : QObject(parent) {}

BenchProcess::~BenchProcess() {
  if (process_) {
    process_->disconnect(this);
    process_->kill();
    process_->waitForFinished(kKillAfterMs);
  }
}

void BenchProcess::start(const QString& program, const QStringList& arguments) {
  if (process_) return;
  program_ = program.isEmpty() ? defaultTrainProgram() : program;
  stdout_buffer_.clear();
  stderr_tail_.clear();
  configs_ = done_ = 0;
  cancelled_ = saw_end_ = false;
  process_ = new QProcess(this);
  connect(process_, &QProcess::readyReadStandardOutput, this, &BenchProcess::readStdout);
  connect(process_, &QProcess::readyReadStandardError, this, &BenchProcess::readStderr);
  connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
    if (error == QProcess::FailedToStart) {
      end(Outcome::Failed, tr("%1 cannot be started: %2").arg(program_, process_->errorString()));
    }
  });
  connect(process_, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
    readStdout();
    readStderr();
    if (!stdout_buffer_.isEmpty()) handleLine(stdout_buffer_);  // a last line without newline
    if (cancelled_)
      return end(Outcome::Cancelled,
                 tr("cancelled after %1 of %2 configs").arg(done_).arg(configs_));
    const QString tail = stderr_tail_.trimmed().section(QLatin1Char('\n'), -3);
    if (status == QProcess::CrashExit) {
      return end(Outcome::Failed,
                 tr("moe-train bench crashed after %1 of %2 configs%3")
                     .arg(done_)
                     .arg(configs_)
                     .arg(tail.isEmpty() ? QString() : QStringLiteral(": ") + tail));
    }
    if (code != 0) {
      return end(Outcome::Failed, tr("moe-train bench exited with status %1: %2")
                                      .arg(code)
                                      .arg(tail.isEmpty() ? tr("no message") : tail));
    }
    if (!saw_end_ || done_ != configs_) {
      return end(Outcome::Failed, tr("moe-train bench ended after %1 of %2 configs without its "
                                     "end line")
                                      .arg(done_)
                                      .arg(configs_));
    }
    end(Outcome::Finished, QString());
  });
  clock_.start();
  process_->start(program_, arguments);
}

void BenchProcess::cancel() {
  if (!process_ || cancelled_) return;
  cancelled_ = true;
  process_->terminate();
  QPointer<QProcess> p = process_;
  QTimer::singleShot(kKillAfterMs, this, [p] {
    if (p && p->state() != QProcess::NotRunning) p->kill();
  });
}

void BenchProcess::readStdout() {
  if (!process_) return;
  stdout_buffer_ += process_->readAllStandardOutput();
  for (qsizetype nl; (nl = stdout_buffer_.indexOf('\n')) >= 0;) {
    const QByteArray line = stdout_buffer_.left(nl);
    stdout_buffer_.remove(0, nl + 1);
    if (!line.trimmed().isEmpty()) handleLine(line);
  }
}

void BenchProcess::readStderr() {
  if (!process_) return;
  const QString text = QString::fromUtf8(process_->readAllStandardError());
  if (text.isEmpty()) return;
  stderr_tail_ = (stderr_tail_ + text).right(kStderrTailChars);
  emit log(text);
}

void BenchProcess::handleLine(const QByteArray& line) {
  const BenchLine parsed = parseBenchLine(line);
  switch (parsed.kind) {
    case BenchLine::Kind::Start:
      configs_ = parsed.configs;
      emit started(configs_);
      emit progress(0, configs_, -1);
      break;
    case BenchLine::Kind::Config: {
      ++done_;
      emit configFinished(parsed.result);
      const double elapsed = clock_.elapsed() / 1000.0;
      emit progress(done_, configs_, elapsed / done_ * (configs_ - done_));
      break;
    }
    case BenchLine::Kind::End:
      saw_end_ = true;
      break;
    case BenchLine::Kind::Bad:
      emit log(tr("stdout: %1\n").arg(parsed.error));
      break;
  }
}

void BenchProcess::end(Outcome outcome, const QString& message) {
  if (!process_) return;
  process_->disconnect(this);
  process_->deleteLater();
  process_ = nullptr;
  emit finished(outcome, message);
}

}  // namespace moe::ui
