// RemoteRunRecord: what the app keeps about a run on another machine, in remote.json inside the
// run's local directory (<app runs root>/<run id>/, beside the local copy of its metrics.jsonl).
// It is enough to re-attach after a restart: the target as it was, the remote run directory, the
// Slurm job; and it holds the last state the app saw, so the Runs tab can list the run with its
// target before (or without) reaching it.
#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

#include "base/remote/target.h"

namespace moe::ui {

struct RemoteRunRecord {
  static constexpr const char* kFileName = "remote.json";

  Target target;
  QString run_id;      // the directory's name, here and there
  QString name;        // the config's name
  QString remote_dir;  // absolute, on the target; empty until the directory was made
  QString job_id;      // Slurm's job id; empty for SSH runs
  int nproc = 1;       // processes per node (SSH: through `moe-train launch`)
  QDateTime submitted_at;
  QString state;  // Run::stateName() of the last state seen
  QString error;  // why it failed
  int exit_code = -1;
  bool fetched = false;  // the whole remote directory was copied here

  bool isActive() const;  // state says it was not over when the app last saw it

  QJsonObject toJson() const;
  static RemoteRunRecord fromJson(const QJsonObject& json);

  // Reads <local_dir>/remote.json; nullopt with *error when it is missing or unreadable.
  static std::optional<RemoteRunRecord> read(const QString& local_dir, QString* error = nullptr);
  // Writes it atomically (a whole file or the old one); false with *error.
  bool write(const QString& local_dir, QString* error = nullptr) const;
};

// The local directories under `runs_root` whose remote.json says the run was still active: the
// runs to re-attach at start-up. Reads files: call it off the GUI thread.
QStringList activeRemoteRunDirs(const QString& runs_root);

}  // namespace moe::ui
