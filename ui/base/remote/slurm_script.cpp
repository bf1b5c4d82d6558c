#include "base/remote/slurm_script.h"

#include "base/remote/remote_command.h"
#include "base/remote/shell_words.h"

namespace moe::ui {

namespace {

constexpr int kMaxJobName = 64;

bool isJobNameCharacter(QChar c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return c == '.' || c == '_' || c == '-';
}

// "#SBATCH --name=value" lines of the settings that are set.
QStringList sbatchLines(const SlurmOptions& s, const QString& job_name) {
  QStringList lines{QStringLiteral("--job-name=") + job_name,
                    QStringLiteral("--output=") + QLatin1String(kSlurmOutput),
                    QStringLiteral("--nodes=%1").arg(s.nodes),
                    QStringLiteral("--ntasks-per-node=%1").arg(s.tasks_per_node)};
  if (s.gpus_per_node > 0) lines << QStringLiteral("--gpus-per-node=%1").arg(s.gpus_per_node);
  if (!s.partition.isEmpty()) lines << QStringLiteral("--partition=") + s.partition;
  if (!s.time_limit.isEmpty()) lines << QStringLiteral("--time=") + s.time_limit;
  if (!s.account.isEmpty()) lines << QStringLiteral("--account=") + s.account;
  for (QString& line : lines) line.prepend(QStringLiteral("#SBATCH "));
  for (const QString& extra : s.extra_lines) {
    const QString line = extra.trimmed();
    if (line.isEmpty()) continue;
    lines << (line.startsWith(QStringLiteral("#SBATCH")) ? line
                                                         : QStringLiteral("#SBATCH ") + line);
  }
  return lines;
}

}  // namespace

QString slurmJobName(const QString& run_name) {
  QString name;
  for (const QChar c : run_name.left(kMaxJobName)) name += isJobNameCharacter(c) ? c : QChar('_');
  if (name.startsWith('.') || name.startsWith('-')) name[0] = '_';
  return name.isEmpty() ? QStringLiteral("moe-run") : name;
}

QStringList slurmScriptProblems(const Target& target) {
  const SlurmOptions& s = target.slurm;
  QStringList problems;
  if (s.nodes < 1)
    problems << QStringLiteral("slurm nodes: must be at least 1, got %1").arg(s.nodes);
  if (s.tasks_per_node < 1)
    problems
        << QStringLiteral("slurm tasks per node: must be at least 1, got %1").arg(s.tasks_per_node);
  if (s.gpus_per_node < 0)
    problems
        << QStringLiteral("slurm GPUs per node: must be 0 or more, got %1").arg(s.gpus_per_node);
  const auto check = [&problems](const QString& field, const QString& value) {
    if (hasControlCharacter(value))
      problems << field + QStringLiteral(
                              ": a line break or control character cannot go into an "
                              "#SBATCH line");
  };
  check(QStringLiteral("slurm partition"), s.partition);
  check(QStringLiteral("slurm time limit"), s.time_limit);
  check(QStringLiteral("slurm account"), s.account);
  for (int i = 0; i < s.extra_lines.size(); ++i)
    check(QStringLiteral("slurm extra line %1").arg(i + 1), s.extra_lines[i]);
  return problems;
}

QString slurmBatchScript(const Target& target, const QString& run_name,
                         const QString& train_program, bool resume) {
  if (!slurmScriptProblems(target).isEmpty()) return {};
  const QString program =
      train_program.isEmpty() ? QStringLiteral("moe-train") : remoteShellPath(train_program);
  QStringList lines{QStringLiteral("#!/bin/bash")};
  lines << sbatchLines(target.slurm, slurmJobName(run_name));
  lines << target.setup_commands;
  lines << QStringLiteral("cd \"$SLURM_SUBMIT_DIR\" || exit 1  # the setup may have moved")
        << QStringLiteral(
               "# The ranks meet on the step's first host, at port 20000 + SLURM_JOB_ID "
               "mod 20000")
        << QStringLiteral("# (export MASTER_PORT in the setup to choose another port).")
        << QStringLiteral(
               "# Telemetry is in metrics.jsonl; the app shows the tail of the stderr log.")
        << QStringLiteral(
               "command -v %1 > /dev/null || { echo \"moe-train not found at\" %1 "
               "\"on $(hostname)\" > %2; echo 127 > %3; exit 127; }")
               .arg(program, QLatin1String(kStderrLog), QLatin1String(kExitStatusFile))
        << QStringLiteral("srun %1 run %2 > /dev/null 2> %3")
               .arg(program,
                    resume ? QStringLiteral("--resume \"$SLURM_SUBMIT_DIR\"")
                           : QStringLiteral("--config %1 --run-dir \"$SLURM_SUBMIT_DIR\"")
                                 .arg(QLatin1String(kSubmittedConfig)),
                    QLatin1String(kStderrLog))
        << QStringLiteral("status=$?")
        << QStringLiteral("echo \"$status\" > %1.tmp && mv %1.tmp %1")
               .arg(QLatin1String(kExitStatusFile))
        << QStringLiteral("exit \"$status\"");
  return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

}  // namespace moe::ui
