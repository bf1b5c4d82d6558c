// BenchProcess: one `moe-train bench --jsonl` sweep in a QProcess. Each stdout line is one small
// JSON object, parsed as it arrives (cheap: a few hundred bytes per config, one per seconds);
// stderr goes to the log as it comes. Progress and the ETA come from the finished configs.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

#include "base/profiler/bench_result.h"

namespace moe::ui {

class BenchProcess : public QObject {
  Q_OBJECT

 public:
  enum class Outcome { Finished, Cancelled, Failed };
  Q_ENUM(Outcome)

  explicit BenchProcess(QObject* parent = nullptr);
  ~BenchProcess() override;  // kills a sweep still running

  // Starts `program` (empty: defaultTrainProgram()) with `arguments` (benchArguments()).
  void start(const QString& program, const QStringList& arguments);
  // Stops the sweep (SIGTERM, SIGKILL after a grace period); finished() says Cancelled.
  void cancel();
  bool isRunning() const { return process_ != nullptr; }
  int configs() const { return configs_; }
  int done() const { return done_; }
  QString program() const { return program_; }

 signals:
  void started(int configs);  // the engine's start line: the sweep is valid
  void configFinished(const moe::ui::BenchResult& result);
  void progress(int done, int of, double eta_s);  // eta_s < 0: not known yet
  void log(const QString& text);                  // stderr, and lines stdout should not have
  // `message`: why a sweep failed (the engine's error, a crash, a program that cannot start).
  void finished(moe::ui::BenchProcess::Outcome outcome, const QString& message);

 private:
  void readStdout();
  void readStderr();
  void handleLine(const QByteArray& line);
  void end(Outcome outcome, const QString& message);

  QProcess* process_ = nullptr;
  QString program_;
  QByteArray stdout_buffer_;
  QString stderr_tail_;  // the last lines, for the failure message
  QElapsedTimer clock_;
  int configs_ = 0, done_ = 0;
  bool cancelled_ = false;
  bool saw_end_ = false;
};

}  // namespace moe::ui
