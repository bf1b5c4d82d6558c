// RemoteStatus: what the status script (remote_scripts::kStatus) found about a remote run, and
// what it means: still queued, running, or ended (with its exit status or Slurm's verdict). Plain
// data and parsing, so the states a user sees are pinned by tests without a cluster.
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace moe::ui {

struct RemoteStatus {
  enum class Process { Running, Exited, Gone, None, Missing };

  Process process = Process::None;
  int exit_code = -1;           // Exited: moe-train's exit status
  qint64 metrics_bytes = -1;    // size of the remote metrics.jsonl
  qint64 free_kib = -1;         // free disk in the run directory
  bool has_checkpoint = false;  // a complete checkpoint to resume from
  QString queue_state;          // Slurm's JobState (PENDING, RUNNING, TIMEOUT...); empty: unknown
  QString queue_reason;         // why it waits or ended (Resources, Priority, TimeLimit...)
  QStringList stderr_tail;      // the last lines of moe-train's process stderr

  // Unparseable output gives Process::None and nothing else: the caller asks again.
  static RemoteStatus parse(const QByteArray& out);

  bool isQueued() const;       // Slurm has not started it yet
  bool queueHasEnded() const;  // Slurm says the job is over (any end state)
  // Whether the run is over: its exit status is there, the process or directory is gone, or
  // Slurm ended the job.
  bool hasEnded() const;
  // Slurm's end states that are failures of the job itself (time limit, node failure, memory).
  QString queueFailureText() const;
};

}  // namespace moe::ui
