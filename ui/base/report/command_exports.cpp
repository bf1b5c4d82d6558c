#include "base/report/command_exports.h"

#include "base/remote/shell_words.h"
#include "base/remote/slurm_script.h"

namespace moe::ui {

namespace {

using Kind = ExportedCommand::Kind;

QString number(int64_t n) {
  return QString::number(n);
}

QString masterEndpoint() {
  return QStringLiteral("%1:%2").arg(QLatin1String(kExportMasterHost)).arg(kExportMasterPort);
}

ExportedCommand runCommand(const QStringList& run_args, const protocol::ParallelConfig& p) {
  const bool alone = p.world_size() == 1;
  return {Kind::Run, QStringLiteral("moe-train"),
          alone ? QStringLiteral("One process on this machine.")
                : QStringLiteral("One rank only: this config needs %1 ranks, use a launcher below.")
                      .arg(p.world_size()),
          shellLine(QStringList{QStringLiteral("moe-train")} + run_args)};
}

ExportedCommand launchCommand(const QStringList& run_args, const protocol::ParallelConfig& p) {
  QStringList words{QStringLiteral("moe-train"), QStringLiteral("launch"),
                    QStringLiteral("--nproc-per-node"), number(p.nproc)};
  QString note = QStringLiteral("moe-train's own launcher: %1 ranks on this machine.").arg(p.nproc);
  if (p.nodes > 1) {
    words << QStringLiteral("--nnodes") << number(p.nodes) << QStringLiteral("--node-rank")
          << QStringLiteral("0") << QStringLiteral("--master-addr")
          << QLatin1String(kExportMasterHost) << QStringLiteral("--master-port")
          << number(kExportMasterPort);
    note = QStringLiteral(
               "On each of the %1 nodes, with --node-rank 0 to %2 and %3 the address of "
               "node 0.")
               .arg(p.nodes)
               .arg(p.nodes - 1)
               .arg(QLatin1String(kExportMasterHost));
  }
  return {Kind::Launch, QStringLiteral("moe-train launch"), note,
          shellLine(words + QStringList{QStringLiteral("--")} + run_args)};
}

ExportedCommand torchrunCommand(const QStringList& run_args, const protocol::ParallelConfig& p) {
  QStringList words{QStringLiteral("torchrun"), QStringLiteral("--no-python"),
                    QStringLiteral("--nproc-per-node=") + number(p.nproc)};
  QString note = QStringLiteral("PyTorch's launcher: %1 ranks on this machine.").arg(p.nproc);
  if (p.nodes > 1) {
    words << QStringLiteral("--nnodes=") + number(p.nodes) << QStringLiteral("--rdzv-backend=c10d")
          << QStringLiteral("--rdzv-endpoint=") + masterEndpoint();
    note = QStringLiteral("On each of the %1 nodes, with %2 the address of one of them.")
               .arg(p.nodes)
               .arg(QLatin1String(kExportMasterHost));
  }
  return {Kind::Torchrun, QStringLiteral("torchrun"), note,
          shellLine(words + QStringList{QStringLiteral("moe-train")} + run_args)};
}

ExportedCommand srunCommand(const QStringList& run_args, const protocol::ParallelConfig& p) {
  QStringList words{QStringLiteral("srun")};
  if (p.nodes > 1) {
    words << QStringLiteral("--nodes=") + number(p.nodes)
          << QStringLiteral("--ntasks-per-node=") + number(p.nproc);
  } else {
    words << QStringLiteral("--ntasks=") + number(p.nproc);
  }
  return {Kind::Srun, QStringLiteral("srun"),
          QStringLiteral("Inside a Slurm allocation (salloc), or to let srun allocate one."),
          shellLine(words + QStringList{QStringLiteral("moe-train")} + run_args)};
}

ExportedCommand sbatchScript(const protocol::RunConfig& config, Target target) {
  target.slurm.nodes = static_cast<int>(config.parallel.nodes);
  target.slurm.tasks_per_node = static_cast<int>(config.parallel.nproc);
  QString text =
      slurmBatchScript(target, QString::fromStdString(config.name), target.train_program);
  if (text.isEmpty()) {
    for (const QString& problem : slurmScriptProblems(target)) text += "# " + problem + "\n";
  }
  return {Kind::SbatchScript, QStringLiteral("sbatch script"),
          QStringLiteral("Submit with `sbatch` from the run directory, with the config copied to "
                         "%1 there.")
              .arg(QLatin1String(kSubmittedConfig)),
          text};
}

}  // namespace

QList<ExportedCommand> exportedCommands(const QString& config_file,
                                        const protocol::RunConfig& config,
                                        const Target& slurm_target, const QString& init_from) {
  QStringList run_args{QStringLiteral("run"), QStringLiteral("--config"), config_file};
  if (!init_from.isEmpty()) run_args << QStringLiteral("--init-from") << init_from;
  const protocol::ParallelConfig& p = config.parallel;
  return {runCommand(run_args, p), launchCommand(run_args, p), torchrunCommand(run_args, p),
          srunCommand(run_args, p), sbatchScript(config, slurm_target)};
}

Target defaultSlurmTarget() {
  Target target;
  target.kind = Target::Kind::Slurm;
  target.name = QStringLiteral("slurm");
  return target;
}

Target slurmTargetForExport(const Target& current, const QList<Target>& targets) {
  if (current.kind == Target::Kind::Slurm) return current;
  for (const Target& target : targets)
    if (target.kind == Target::Kind::Slurm) return target;
  return defaultSlurmTarget();
}

}  // namespace moe::ui
