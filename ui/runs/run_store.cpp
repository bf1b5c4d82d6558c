// RunStore over Qt SQL's SQLite driver (run_store.h).
#include "runs/run_store.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QVariant>

#include <atomic>

#include "runs/run_directory_index.h"
#include "runs/run_record_sql.h"

namespace moe::ui {

namespace {

std::atomic<int> g_next_connection{0};

// Every SQLite 3 database starts with these 16 bytes. Checked before the driver touches the file,
// so a file that is something else is never written to.
bool hasSqliteHeader(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return false;
  return file.read(16) == QByteArray("SQLite format 3\0", 16);
}

bool exec(QSqlQuery& query, const QString& sql, QString* error) {
  if (query.exec(sql)) return true;
  if (error) *error = query.lastError().text();
  return false;
}

}  // namespace

RunStore::RunStore(QString db_path)
    : db_path_(std::move(db_path)),
      connection_(QStringLiteral("moe_run_store_%1").arg(g_next_connection++)) {}

RunStore::~RunStore() {
  if (!QSqlDatabase::contains(connection_)) return;
  {
    QSqlDatabase db = QSqlDatabase::database(connection_, /*open=*/false);
    db.close();
  }  // the last handle must be gone before removeDatabase
  QSqlDatabase::removeDatabase(connection_);
}

QString RunStore::defaultPath() {
  return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
         QStringLiteral("/moe-studio/runs.db");
}

bool RunStore::open(QString* error) {
  if (open_) return true;
  auto fail = [&](const QString& message) {
    if (error) *error = db_path_ + QStringLiteral(": ") + message;
    if (QSqlDatabase::contains(connection_)) QSqlDatabase::database(connection_, false).close();
    return false;
  };
  const QFileInfo info(db_path_);
  if (info.exists() && !info.isFile()) return fail(QStringLiteral("not a file"));
  if (info.exists() && info.size() > 0 && !hasSqliteHeader(db_path_)) {
    return fail(QStringLiteral("not a SQLite database (the file was left as it is)"));
  }
  if (!QDir().mkpath(info.absolutePath())) {
    return fail(QStringLiteral("cannot create the folder ") + info.absolutePath());
  }
  QSqlDatabase db = QSqlDatabase::contains(connection_)
                        ? QSqlDatabase::database(connection_, false)
                        : QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), connection_);
  if (!db.isValid()) return fail(QStringLiteral("the Qt SQLite driver (QSQLITE) is not available"));
  db.setDatabaseName(db_path_);
  // A second store (a worker's rescan) may hold the write lock for a moment.
  db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=3000"));
  if (!db.open()) return fail(db.lastError().text());
  QString message;
  if (!checkVersion(&message) || !createSchema(&message)) return fail(message);
  open_ = true;
  return true;
}

// A fresh file is ours to set up; a database with tables but no meta table belongs to someone
// else; a newer schema_version was written by a newer MoE Studio. Neither of those is touched.
bool RunStore::checkVersion(QString* error) {
  QSqlQuery q(QSqlDatabase::database(connection_, false));
  if (!exec(q, QStringLiteral("SELECT name FROM sqlite_master WHERE type = 'table'"), error)) {
    return false;
  }
  QStringList tables;
  while (q.next()) tables << q.value(0).toString();
  if (tables.isEmpty()) return true;
  if (!tables.contains(QStringLiteral("meta"))) {
    if (error) *error = QStringLiteral("a SQLite database of another program (no meta table)");
    return false;
  }
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
  QSqlDatabase db = QSqlDatabase::database(connection_, false);
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
    if (error) *error = db_path_ + QStringLiteral(": the run store is not open");
    return false;
  }
  if (record.run_dir.isEmpty()) {
    if (error) *error = QStringLiteral("a run record without a run directory");
    return false;
  }
  RunRecord keyed = record;
  keyed.run_dir = canonicalRunDir(record.run_dir);
  QSqlDatabase db = QSqlDatabase::database(connection_, false);
  db.transaction();
  QSqlQuery q(db);
  q.prepare(run_record_sql::upsertStatement());
  run_record_sql::bind(q, keyed);
  QSqlQuery forget(db);
  forget.prepare(QStringLiteral("DELETE FROM removed WHERE run_dir = ?"));
  forget.addBindValue(keyed.run_dir);
  if (!q.exec() || !forget.exec()) {
    if (error) {
      *error = db_path_ + QStringLiteral(": ") +
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
  QSqlDatabase db = QSqlDatabase::database(connection_, false);
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
  QSqlQuery q(QSqlDatabase::database(connection_, false));
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
  QSqlQuery q(QSqlDatabase::database(connection_, false));
  q.prepare(QStringLiteral("SELECT * FROM runs WHERE run_dir = ?"));
  q.addBindValue(canonicalRunDir(run_dir));
  if (!q.exec() || !q.next()) return std::nullopt;
  return run_record_sql::read(q);
}

bool RunStore::isRemoved(const QString& run_dir) const {
  QSqlQuery q(QSqlDatabase::database(connection_, false));
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
  const QFileInfo metrics(QDir(dir).filePath(QStringLiteral("metrics.jsonl")));
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
