#include "base/generate/generate_process.h"

#include <QFile>
#include <QPointer>
#include <QTimer>

#include "base/run/launch_spec.h"

namespace moe::ui {

namespace {

constexpr int kKillAfterMs = 3000;  // after stop()'s SIGTERM
constexpr int kStderrTailChars = 4000;
constexpr int kExitBadInput = 2;  // moe-train's exit status for input it refuses

}  // namespace

GenerateProcess::GenerateProcess(QObject* parent) : QObject(parent) {}

GenerateProcess::~GenerateProcess() {
  if (process_) {
    process_->disconnect(this);
    process_->kill();
    process_->waitForFinished(kKillAfterMs);
  }
}

bool GenerateProcess::start(const QString& program, const GenerateRequest& request) {
  if (process_) return false;
  program_ = program.isEmpty() ? defaultTrainProgram() : program;
  reader_ = GenerateLineReader();
  stderr_tail_.clear();
  stopped_ = false;
  QString tokens_file;
  if (request.usesTokenIds()) {
    files_ = std::make_unique<QTemporaryDir>();
    tokens_file = files_->filePath(QStringLiteral("prompt-tokens.json"));
    QFile file(tokens_file);
    if (!files_->isValid() || !file.open(QIODevice::WriteOnly) ||
        file.write(request.promptTokensJson()) < 0) {
      emit finished(
          Outcome::Failed,
          tr("the prompts' token ids cannot be written to %1: %2")
              .arg(tokens_file, files_->isValid() ? file.errorString() : files_->errorString()));
      return false;
    }
  }
  arguments_ = request.arguments(tokens_file);
  process_ = new QProcess(this);
  connect(process_, &QProcess::readyReadStandardOutput, this, &GenerateProcess::readStdout);
  connect(process_, &QProcess::readyReadStandardError, this, &GenerateProcess::readStderr);
  connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
    if (error == QProcess::FailedToStart) {
      end(Outcome::Failed, tr("%1 cannot be started: %2").arg(program_, process_->errorString()));
    }
  });
  connect(process_, &QProcess::finished, this, &GenerateProcess::onFinished);
  process_->start(program_, arguments_);
  return true;
}

void GenerateProcess::stop() {
  if (!process_ || stopped_) return;
  stopped_ = true;
  process_->terminate();
  QPointer<QProcess> p = process_;
  QTimer::singleShot(kKillAfterMs, this, [p] {
    if (p && p->state() != QProcess::NotRunning) p->kill();
  });
}

void GenerateProcess::readStdout() {
  if (!process_) return;
  std::vector<GenerateLine> lines = reader_.feed(process_->readAllStandardOutput());
  if (!lines.empty()) emit linesRead(lines);
}

void GenerateProcess::readStderr() {
  if (!process_) return;
  const QString text = QString::fromUtf8(process_->readAllStandardError());
  if (text.isEmpty()) return;
  stderr_tail_ = (stderr_tail_ + text).right(kStderrTailChars);
  emit log(text);
}

void GenerateProcess::onFinished(int code, QProcess::ExitStatus status) {
  readStdout();
  readStderr();
  const std::vector<GenerateLine> last = reader_.finish();
  if (!last.empty()) emit linesRead(last);
  if (stopped_) return end(Outcome::Stopped, tr("stopped"));
  // moe-train's message lines start "moe-train: "; the last few say what went wrong.
  QString tail = stderr_tail_.trimmed().section(QLatin1Char('\n'), -3);
  tail.replace(QStringLiteral("moe-train: "), QString());
  if (status == QProcess::CrashExit) {
    return end(Outcome::Failed, tr("moe-train generate crashed%1")
                                    .arg(tail.isEmpty() ? QString() : QStringLiteral(": ") + tail));
  }
  if (code == kExitBadInput) {
    return end(Outcome::Failed, tr("moe-train generate refused the input: %1")
                                    .arg(tail.isEmpty() ? tr("no message") : tail));
  }
  if (code != 0) {
    return end(Outcome::Failed, tr("moe-train generate exited with status %1: %2")
                                    .arg(code)
                                    .arg(tail.isEmpty() ? tr("no message") : tail));
  }
  end(Outcome::Finished, QString());
}

void GenerateProcess::end(Outcome outcome, const QString& message) {
  if (!process_) return;
  process_->disconnect(this);
  process_->deleteLater();
  process_ = nullptr;
  files_.reset();
  emit finished(outcome, message);
}

}  // namespace moe::ui
