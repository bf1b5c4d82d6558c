// The fixed POSIX shell scripts the app runs on a target (RemoteChannel runs them as
// `sh -c SCRIPT moe-studio ARG...`). Values arrive only as positional parameters ("$1"...), so
// none is ever parsed as shell syntax; the one exception is a target's setup commands, which are
// shell lines its owner wrote on purpose (`module load ...`) and run as such.
//
// The files a remote run keeps beside the engine's own, in <run dir>/remote/:
//   submitted.json  the config as the app sent it (over stdin)
//   pid             the detached runner shell (its child is moe-train) — SSH runs
//   job.sh          the batch script as submitted — Slurm runs
//   stderr.log      moe-train's stderr as a process (errors before the run directory was usable)
//   setup.log       what the setup commands printed
//   exit_status     moe-train's exit status, written when it ends
#pragma once

#include <QString>

namespace moe::ui::remote_scripts {

// $1 runs root (may start with ~/), $2 run id; stdin: the config. Makes <root>/<id>/remote/
// (failing when the run directory exists), stores the config, prints the run directory's
// absolute path.
extern const QString kPrepare;

// $1 run directory, $2 setup commands, $3 moe-train, $4 processes per node, $5 "new" or "resume".
// Checks that moe-train runs there, then starts it detached (its own session, no terminal, output
// to files) with `run --config remote/submitted.json --run-dir DIR`, or `run --resume DIR`
// (through `launch` when $4 > 1); prints the runner's pid.
extern const QString kStartDetached;

// $1 run directory, $2 setup commands; stdin: a batch script. Stores it as remote/job.sh (an
// earlier attempt's exit status goes) and submits it from the run directory; prints
// sbatch --parsable's job id.
extern const QString kSubmitBatch;

// $1 run directory, $2 Slurm job id or empty, $3 setup commands (run before squeue). Prints, one
// per line: the process ("exited N", "running", "gone" (a pid, no process, no exit status), "none"
// (no pid)); "metrics BYTES"; "free KIB" (disk in the run directory); "checkpoint" when a complete
// one is there; with a job id, "queue STATE|REASON" from squeue or
// "scontrol <its one-line record>" once squeue has forgotten it; then "---" and the last lines of
// remote/stderr.log. "missing" alone when the run directory is gone.
extern const QString kStatus;

// $1 file, $2 byte offset (a line boundary): the file's whole lines from the offset on,
// following it as it grows (polled); a cut-back last line is never sent.
extern const QString kFollow;
// $1 file, $2 byte offset: the file's bytes from the offset on, now.
extern const QString kRead;

// $1 run directory, $2 signal name (INT, KILL): the signal to the detached runner's children.
extern const QString kSignalRun;
// $1 job id, $2 signal name or empty, $3 setup commands: scancel --signal=$2, or plain scancel
// (also when the job is still pending).
extern const QString kCancelJob;

}  // namespace moe::ui::remote_scripts
