// RunStore over Qt SQL's SQLite driver (run_store.h).
#include "base/runs/run_store.h"

#include <QDir>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include "base/run/run_files.h"
#include "base/runs/run_directory_index.h"
#include "base/runs/run_record_sql.h"

namespace moe::ui {

namespace {

bool exec(QSqlQuery& query, const QString& sql, QString* error) {
  if (query.exec(sql)) return true;
  if (error) *error = query.lastError().text();
  return false;
}

}  // namespace

RunStore::RunStore(QString db_path) : file_(std::move(db_path), QStringLiteral("moe_run_store")) {}

QString RunStore::defaultPath() {
  return SqliteFile::defaultPath(QStringLiteral("runs.db"));
}

bool RunStore::open(QString* error) {
  if (open_) return true;
  if (!file_.open(error)) return false;
  QString message;
  if (!checkVersion(&message) || !createSchema(&message)) return file_.fail(message, error);
  open_ = true;
  return true;
}

// A fresh file is ours to set up; a database with tables but no meta table belongs to someone
// else; a newer schema_version was written by a newer MoE Studio. Neither of those is touched.
bool RunStore::checkVersion(QString* error) {
  QStringList tables;
  if (!file_.tables(&tables, error)) return false;
  if (tables.isEmpty()) return true;
  if (!tables.contains(QStringLiteral("meta"))) {
    if (error) *error = QStringLiteral("a SQLite database of another program (no meta table)");
    return false;
  }
  QSqlQuery q(file_.database());
  if (!exec(q, QStringLiteral("SELECT value FROM meta WHERE key = 'schema_version'"), error)) {
    return false;
  }
  bool ok = false;
  const int version = q.next() ? q.value(0).toString().toInt(&ok) : 0;
  if (!ok || version < 1) {
    if (error) *error = QStringLiteral("no valid schema_version in its meta table");
    return false;
  }
  if (version > kSchemaVersion) {
    if (error) {
      *error = QStringLiteral(
                   "written by a newer MoE Studio (run store schema %1; this version reads %2)")
                   .arg(version)
                   .arg(kSchemaVersion);
    }
    return false;
  }
  return true;
}

bool RunStore::createSchema(QString* error) {
  QSqlDatabase db = file_.database();
  db.transaction();
  QSqlQuery q(db);
  for (const QString& sql : run_record_sql::createStatements()) {
    if (!exec(q, sql, error)) {
      db.rollback();
      return false;
    }
  }
  // A store written before a column was added gets it (NULL in the old rows).
  if (!exec(q, QStringLiteral("PRAGMA table_info(runs)"), error)) {
    db.rollback();
    return false;
  }
  QStringList columns;
  while (q.next()) columns << q.value(1).toString();  // cid, name, type, ...
  for (const QString& sql : run_record_sql::migrationStatements(columns)) {
    if (!exec(q, sql, error)) {
      db.rollback();
      return false;
    }
  }
  const QString version =
      QStringLiteral("INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', '%1')")
          .arg(kSchemaVersion);
  if (!exec(q, version, error)) {
    db.rollback();
    return false;
  }
  return db.commit();
}

bool RunStore::upsert(const RunRecord& record, QString* error) {
  if (!open_) {
    if (error) *error = file_.path() + QStringLiteral(": the run store is not open");
    return false;
  }
  if (record.run_dir.isEmpty()) {
    if (error) *error = QStringLiteral("a run record without a run directory");
    return false;
  }
  RunRecord keyed = record;
  keyed.run_dir = canonicalRunDir(record.run_dir);
  QSqlDatabase db = file_.database();
  db.transaction();
  QSqlQuery q(db);
  q.prepare(run_record_sql::upsertStatement());
  run_record_sql::bind(q, keyed);
  QSqlQuery forget(db);
  forget.prepare(QStringLiteral("DELETE FROM removed WHERE run_dir = ?"));
  forget.addBindValue(keyed.run_dir);
  if (!q.exec() || !forget.exec()) {
    if (error) {
      *error = file_.path() + QStringLiteral(": ") +
               (q.lastError().isValid() ? q.lastError() : forget.lastError()).text();
    }
    db.rollback();
    return false;
  }
  return db.commit();
}

bool RunStore::remove(const QString& run_dir) {
  if (!open_) return false;
  const QString key = canonicalRunDir(run_dir);
  QSqlDatabase db = file_.database();
  db.transaction();
  QSqlQuery q(db);
  q.prepare(QStringLiteral("DELETE FROM runs WHERE run_dir = ?"));
  q.addBindValue(key);
  if (!q.exec() || q.numRowsAffected() <= 0) {
    db.rollback();
    return false;
  }
  QSqlQuery remember(db);
  remember.prepare(QStringLiteral("INSERT OR IGNORE INTO removed (run_dir) VALUES (?)"));
  remember.addBindValue(key);
  remember.exec();
  return db.commit();
}

QList<RunRecord> RunStore::all() const {
  QList<RunRecord> out;
  if (!open_) return out;
  QSqlQuery q(file_.database());
  q.setForwardOnly(true);
  if (!q.exec(QStringLiteral(
          "SELECT * FROM runs ORDER BY started_at IS NULL, started_at DESC, run_dir"))) {
    return out;
  }
  while (q.next()) out << run_record_sql::read(q);
  return out;
}

std::optional<RunRecord> RunStore::find(const QString& run_dir) const {
  if (!open_) return std::nullopt;
  QSqlQuery q(file_.database());
  q.prepare(QStringLiteral("SELECT * FROM runs WHERE run_dir = ?"));
  q.addBindValue(canonicalRunDir(run_dir));
  if (!q.exec() || !q.next()) return std::nullopt;
  return run_record_sql::read(q);
}

bool RunStore::isRemoved(const QString& run_dir) const {
  QSqlQuery q(file_.database());
  q.prepare(QStringLiteral("SELECT 1 FROM removed WHERE run_dir = ?"));
  q.addBindValue(run_dir);
  return q.exec() && q.next();
}

int RunStore::rescan(const QString& runs_root, const QSet<QString>& live_run_dirs) {
  rescan_errors_.clear();
  if (!open_) return 0;
  int changed = 0;
  QSet<QString> seen;
  const QDir root(runs_root);
  for (const QFileInfo& sub : root.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot)) {
    const QString dir = canonicalRunDir(sub.filePath());
    if (!hasRunFiles(dir)) continue;
    seen.insert(dir);
    if (isRemoved(dir)) continue;
    if (refreshDirectory(dir, find(dir), live_run_dirs)) ++changed;
  }
  // Known runs elsewhere (added by hand), and those under the root that vanished.
  for (const RunRecord& known : all()) {
    if (seen.contains(known.run_dir)) continue;
    if (refreshDirectory(known.run_dir, known, live_run_dirs)) ++changed;
  }
  return changed;
}

bool RunStore::refreshDirectory(const QString& dir, const std::optional<RunRecord>& known,
                                const QSet<QString>& live_run_dirs) {
  if (live_run_dirs.contains(dir)) return false;  // its owner keeps it up to date
  const QFileInfo metrics(runFile(dir, run_layout::kMetrics));
  if (!hasRunFiles(dir)) {
    if (!known || known->status == run_status::kMissing) return false;
    RunRecord gone = *known;
    gone.status = run_status::kMissing;
    return upsert(gone);
  }
  // A remote run with no telemetry yet has no metrics.jsonl (and no stamp) to compare.
  const bool unchanged =
      known && (metrics.isFile()
                    ? known->metrics_size == metrics.size() && known->metrics_modified.isValid() &&
                          known->metrics_modified.toMSecsSinceEpoch() ==
                              metrics.lastModified().toMSecsSinceEpoch()
                    : !known->metrics_size.has_value());
  // Not over when last seen: a remote run's remote.json may say more now than its telemetry.
  const bool stale_status =
      known && (known->status == run_status::kMissing || known->status == run_status::kRunning ||
                known->status == run_status::kStarting);
  if (unchanged && !stale_status) return false;
  QString error;
  const auto record = indexRunDirectory(dir, &error);
  if (!record) {
    rescan_errors_ << error;  // a known run keeps its last good summary
    return false;
  }
  return upsert(*record);
}

}  // namespace moe::ui
