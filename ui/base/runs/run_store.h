// RunStore: the list of known runs, kept in SQLite (Qt SQL) so it survives a restart and opens
// without re-reading every metrics.jsonl. One row per run directory (the key); a rescan re-reads
// only directories whose metrics.jsonl changed.
//
// A store is used from the thread that opened it (a Qt SQL rule); each instance has a connection
// of its own (SqliteFile), so a worker thread can rescan through a second RunStore on the same
// file.
// The store never deletes or rewrites a file that is not its own SQLite database.
#pragma once

#include <QList>
#include <QSet>
#include <QString>

#include <optional>

#include "base/runs/run_record.h"
#include "base/storage/sqlite_file.h"

namespace moe::ui {

class RunStore {
 public:
  static constexpr int kSchemaVersion = 1;

  explicit RunStore(QString db_path);
  RunStore(const RunStore&) = delete;
  RunStore& operator=(const RunStore&) = delete;

  // <GenericDataLocation>/moe-studio/runs.db
  static QString defaultPath();

  QString path() const { return file_.path(); }
  bool isOpen() const { return open_; }

  // Opens (creating the file, its folder and the schema when needed). False with *error naming
  // the file when it is not a SQLite database or was written by a newer MoE Studio.
  bool open(QString* error = nullptr);

  // Inserts, or replaces the record with the same run_dir. Also forgets an earlier remove().
  bool upsert(const RunRecord& record, QString* error = nullptr);
  // Drops a run from the list (its files stay) and remembers that, so rescan does not bring it
  // back; upsert() (adding it by hand, a new live run) does. False when it was not known.
  bool remove(const QString& run_dir);

  QList<RunRecord> all() const;  // newest first (started_at), unknown start times last
  std::optional<RunRecord> find(const QString& run_dir) const;

  // Indexes every subdirectory of runs_root that has a metrics.jsonl (or a remote run's
  // remote.json) and is new or changed
  // (metrics.jsonl modified time or size differs from the stored ones), re-indexes known runs
  // elsewhere that changed or came back, and marks known runs whose metrics.jsonl vanished
  // "missing" (never deletes them). Runs in live_run_dirs are left to their owner; any other
  // stored "running" run is re-indexed (the app that ran it is gone). Returns the number of
  // records added or changed; unreadable directories are skipped (see lastRescanErrors()).
  int rescan(const QString& runs_root, const QSet<QString>& live_run_dirs = {});
  QStringList lastRescanErrors() const { return rescan_errors_; }

 private:
  bool createSchema(QString* error);
  bool checkVersion(QString* error);
  bool isRemoved(const QString& run_dir) const;
  // Re-indexes `dir` when it changed since `known` (or is unknown); true when a record changed.
  bool refreshDirectory(const QString& dir, const std::optional<RunRecord>& known,
                        const QSet<QString>& live_run_dirs);

  SqliteFile file_;
  bool open_ = false;
  QStringList rescan_errors_;
};

}  // namespace moe::ui
