// Target: where a run's processes start. This machine ("local"), a machine reached over SSH, or a
// Slurm cluster (reached over SSH, or on this machine when sbatch is local). Plain data, saved in
// the app's settings as JSON (TargetStore); validate() names every problem a user must fix before
// the target can be used.
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace moe::ui {

// How to reach a machine with the system OpenSSH client. Keys and agents only (BatchMode): no
// password is ever asked for or stored.
struct SshEndpoint {
  QString host;  // name or address; empty for a Slurm cluster on this machine
  QString user;  // empty: ssh's default (the local user, or ~/.ssh/config's)
  int port = 22;
  QString identity_file;             // empty: the agent's keys and ssh's defaults
  bool accept_new_host_key = false;  // StrictHostKeyChecking=accept-new instead of yes
  QString known_hosts_file;          // empty: ssh's default (~/.ssh/known_hosts)

  bool isLocal() const { return host.isEmpty(); }
  // user@host, or host.
  QString destination() const;
  // For messages: "user@host (port N)", or "this machine".
  QString where() const;
};

// The batch settings of a Slurm cluster; an empty string or 0 leaves a setting to the cluster.
struct SlurmOptions {
  QString partition;
  int nodes = 1;
  int tasks_per_node = 1;  // ranks per node (parallel.nproc of the run)
  int gpus_per_node = 0;
  QString time_limit;  // sbatch --time: minutes, MM:SS, HH:MM:SS, D-HH, ...
  QString account;
  QStringList extra_lines;  // more `#SBATCH ...` lines, as written (the prefix added if missing)
};

struct Target {
  enum class Kind { Local, Ssh, Slurm };

  Kind kind = Kind::Local;
  QString name;                // unique among the targets; "local" is this machine
  SshEndpoint ssh;             // Ssh, and Slurm over SSH
  QString train_program;       // moe-train on the remote side; empty: "moe-train" on its PATH
  QString runs_root;           // where run directories go on the remote side (may start with ~/)
  QStringList setup_commands;  // shell lines run before the engine: `module load ...`, `source ...`
  SlurmOptions slurm;          // Slurm only

  static Target local();
  bool isRemote() const { return kind != Kind::Local; }
  static QString kindName(Kind kind);  // "local", "ssh", "slurm"

  // Every problem, each naming the field ("host: ..."); empty when the target can be used.
  QStringList validate() const;

  QJsonObject toJson() const;
  // Missing keys keep their defaults; unknown keys are ignored.
  static Target fromJson(const QJsonObject& json);
};

bool operator==(const SshEndpoint& a, const SshEndpoint& b);
bool operator==(const SlurmOptions& a, const SlurmOptions& b);
bool operator==(const Target& a, const Target& b);

}  // namespace moe::ui
