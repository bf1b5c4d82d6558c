// ConnectionTest: the "Test connection" of a target. One probe script, run through RemoteChannel,
// says whether the target can be reached, which moe-train answers there (its --version), how many
// CPU cores and GPUs the machine has, and how much disk is free where the runs would go.
// Asynchronous: start() returns at once and finished() brings the report.
#pragma once

#include <QObject>
#include <QString>
#include <QTimer>

#include "base/remote/target.h"

namespace moe::ui {

class RemoteChannel;
struct RemoteResult;

struct ConnectionReport {
  bool reachable = false;  // the channel worked: the probe ran on the target
  QString where;           // user@host (port N), or "this machine"
  // What stops runs from starting there, for people (several lines when several things are
  // wrong); empty when nothing is. When !reachable, why the target could not be reached.
  QString error;
  QString version;            // moe-train --version; empty when it is missing or did not answer
  QString engine;             // the rest of --version: LibTorch, CUDA built in, devices seen
  QString train_program_abs;  // where moe-train was found
  int cores = 0;
  int gpus = 0;            // NVIDIA (nvidia-smi -L) or AMD (rocm-smi) devices; 0 when none
  qint64 free_bytes = -1;  // free space for the runs root (or its nearest existing parent)
  QString runs_root_abs;   // the runs root with ~/ resolved
  bool runs_root_exists = false;

  bool ok() const { return reachable && error.isEmpty(); }
  // Multi-line text for a dialog: what was found, then the problems.
  QString summary() const;
};

class ConnectionTest : public QObject {
  Q_OBJECT

 public:
  explicit ConnectionTest(QObject* parent = nullptr);
  ~ConnectionTest() override;

  // Probes `target`; a probe still running is abandoned (no finished() for it).
  void start(const Target& target);
  bool isRunning() const { return channel_ != nullptr; }

  // The probe: `sh -c PROBE probe TRAIN_PROGRAM RUNS_ROOT`; prints key=value lines.
  static QString probeScript();
  // How long a probe may take before it is stopped and the target called unresponsive.
  static constexpr int kTimeoutMs = 60000;

 signals:
  void finished(const moe::ui::ConnectionReport& report);

 private:
  void onFinished(const RemoteResult& result);
  void abandon();

  Target target_;
  RemoteChannel* channel_ = nullptr;
  QTimer timeout_;
  bool timed_out_ = false;
};

}  // namespace moe::ui
