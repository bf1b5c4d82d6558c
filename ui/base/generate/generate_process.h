// GenerateProcess: one `moe-train generate --telemetry -` in a QProcess. Its stdout is JSON
// Lines, cut and parsed as each chunk arrives (lines are small, a few hundred bytes a token) and
// handed on in one batch per read; stderr is kept for the message when the engine refuses the
// input (exit 2) or fails. Stop terminates the process; what was generated so far stays with
// whoever kept the lines.
#pragma once

#include <QObject>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>

#include <memory>
#include <vector>

#include "base/generate/generate_events.h"
#include "base/generate/generate_request.h"

namespace moe::ui {

class GenerateProcess : public QObject {
  Q_OBJECT

 public:
  enum class Outcome { Finished, Stopped, Failed };
  Q_ENUM(Outcome)

  explicit GenerateProcess(QObject* parent = nullptr);
  ~GenerateProcess() override;  // kills a generation still running

  // Starts `program` (empty: defaultTrainProgram()) on `request`; false (and finished() says
  // why) when it cannot even be started, e.g. the token-id file cannot be written.
  bool start(const QString& program, const GenerateRequest& request);
  // SIGTERM, then SIGKILL after a grace period; finished() says Stopped.
  void stop();
  bool isRunning() const { return process_ != nullptr; }
  QString program() const { return program_; }
  QStringList arguments() const { return arguments_; }

 signals:
  void linesRead(const std::vector<moe::ui::GenerateLine>& lines);
  void log(const QString& text);  // stderr as it comes
  // `message`: why it failed (the engine's message, a crash, a program that cannot start).
  void finished(moe::ui::GenerateProcess::Outcome outcome, const QString& message);

 private:
  void readStdout();
  void readStderr();
  void onFinished(int code, QProcess::ExitStatus status);
  void end(Outcome outcome, const QString& message);

  QProcess* process_ = nullptr;
  QString program_;
  QStringList arguments_;
  GenerateLineReader reader_;
  QString stderr_tail_;
  std::unique_ptr<QTemporaryDir> files_;  // the --prompt-tokens file, while it runs
  bool stopped_ = false;
};

}  // namespace moe::ui
