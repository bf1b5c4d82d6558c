// The command lines that start a config's run by hand, for people who launch outside the app:
// moe-train alone, its own launcher, torchrun, srun, and an sbatch script (docs/PROTOCOL.md,
// "Other launchers"). Each is as many ranks as the config's parallel.nodes x parallel.nproc.
#pragma once

#include <QList>
#include <QString>

#include "base/remote/target.h"
#include "protocol/run_config.h"

namespace moe::ui {

struct ExportedCommand {
  enum class Kind { Run, Launch, Torchrun, Srun, SbatchScript };
  Kind kind;
  QString title;  // "torchrun"
  QString note;   // when and where to run it, one sentence
  QString text;   // the command line, or the whole script
};

// Stand-ins for what only the person launching knows: the first node's address and a free port.
inline constexpr const char* kExportMasterHost = "MASTER_HOST";
inline constexpr int kExportMasterPort = 29500;

// Every way to start `config_file` (the path as the commands should name it) by hand. The sbatch
// script is slurmBatchScript of `slurm_target` with its node and task counts taken from `config`;
// when that target's settings cannot go into a script, the script's text is the problems, each
// on a "# " line. `init_from`: the weights a new run starts from (an imported model's folder),
// passed as `run --init-from`; empty: none.
QList<ExportedCommand> exportedCommands(const QString& config_file,
                                        const protocol::RunConfig& config,
                                        const Target& slurm_target, const QString& init_from = {});

// A Slurm target with the cluster's defaults (no partition, account or time limit).
Target defaultSlurmTarget();

// The target whose settings the exported sbatch script takes: `current` when it is a Slurm
// cluster, else the first Slurm cluster of `targets`, else defaultSlurmTarget().
Target slurmTargetForExport(const Target& current, const QList<Target>& targets);

}  // namespace moe::ui
