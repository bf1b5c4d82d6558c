// The sbatch script of a run on a Slurm cluster: shown to the user before it is submitted and
// saved with the run. It names no absolute path: the app submits it with the run directory as the
// working directory, where remote/submitted.json holds the config; the job writes the ranks'
// stderr to remote/stderr.log (their stdout, the telemetry also in metrics.jsonl, is dropped), the
// batch shell's own output to remote/slurm-<job id>.out and the exit status to remote/exit_status.
// Config values never enter the script, only the target's settings (validated, see
// slurmScriptProblems) and the run name reduced to safe characters.
#pragma once

#include <QString>
#include <QStringList>

#include "base/remote/target.h"

namespace moe::ui {

// Where the script reads and writes, relative to the run directory (the job's working directory).
inline constexpr const char* kSubmittedConfig = "remote/submitted.json";
inline constexpr const char* kSlurmOutput = "remote/slurm-%j.out";
inline constexpr const char* kStderrLog = "remote/stderr.log";  // the ranks' process stderr
inline constexpr const char* kExitStatusFile = "remote/exit_status";

// The run name as a job name: [A-Za-z0-9._-] (others become '_'), at most 64 characters, never
// starting with '.' or '-' ('_' instead); "moe-run" when nothing is left.
QString slurmJobName(const QString& run_name);

// What keeps `target`'s Slurm settings out of a script, each naming the field: counts below 1
// (GPUs below 0), or a line break or other control character in a value of an #SBATCH line. Empty
// when slurmBatchScript can write the script. (Target::validate says more: this is the script's
// own guard.)
QStringList slurmScriptProblems(const Target& target);

// The script (see above): #SBATCH lines from target.slurm, the target's setup commands as
// written, then one `srun <train_program> run` step (train_program empty: "moe-train"). Empty when
// slurmScriptProblems(target) is not.
// With `resume`, the step is `run --resume "$SLURM_SUBMIT_DIR"`: the run continues from its newest
// checkpoint in the same directory.
QString slurmBatchScript(const Target& target, const QString& run_name,
                         const QString& train_program, bool resume = false);

}  // namespace moe::ui
