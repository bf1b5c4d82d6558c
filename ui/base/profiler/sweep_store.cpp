#include "base/profiler/sweep_store.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include "base/storage/worker_task.h"

namespace moe::ui {

namespace {

const char* const kColumns = "id, started_at, status, message, program, seconds, spec, results";

SweepRecord recordFrom(const QSqlQuery& q) {
  SweepRecord r;
  r.id = q.value(0).toLongLong();
  r.started_at = QDateTime::fromString(q.value(1).toString(), Qt::ISODateWithMs);
  r.status = q.value(2).toString();
  r.message = q.value(3).toString();
  r.program = q.value(4).toString();
  r.seconds = q.value(5).toDouble();
  r.spec = sweepSpecFromJson(QJsonDocument::fromJson(q.value(6).toByteArray()).object());
  for (const QJsonValue& v : QJsonDocument::fromJson(q.value(7).toByteArray()).array()) {
    r.results << BenchResult::fromJson(v.toObject());
  }
  return r;
}

}  // namespace

QString SweepRecord::title() const {
  QStringList swept;
  for (const SweepKey& k : spec.swept()) swept << k.label;
  QString text = QStringLiteral("#%1 · ").arg(id) +
                 started_at.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")) +
                 QStringLiteral(" · ") + configsText(results.size());
  if (!swept.isEmpty()) text += QStringLiteral(" (") + swept.join(QStringLiteral(", ")) + ')';
  if (status != QLatin1String("finished")) text += QStringLiteral(" · ") + status;
  return text;
}

SweepStore::SweepStore(QString db_path)
    : file_(std::move(db_path), QStringLiteral("moe_sweep_store")) {}

QString SweepStore::defaultPath() {
  return SqliteFile::defaultPath(QStringLiteral("profiler.db"));
}

bool SweepStore::open(QString* error) {
  if (open_) return true;
  if (!file_.open(error)) return false;
  auto fail = [&](const QString& message) { return file_.fail(message, error); };
  QStringList tables;
  QString message;
  if (!file_.tables(&tables, &message)) return fail(message);
  if (!tables.isEmpty() && !tables.contains(QStringLiteral("sweeps"))) {
    return fail(QStringLiteral("a SQLite database of another program (no sweeps table)"));
  }
  QSqlQuery q(file_.database());
  if (tables.contains(QStringLiteral("meta"))) {
    q.exec(QStringLiteral("SELECT value FROM meta WHERE key = 'schema_version'"));
    const int version = q.next() ? q.value(0).toInt() : 0;
    if (version > kSchemaVersion) {
      return fail(QStringLiteral("written by a newer MoE Studio (profiler schema %1; this "
                                 "version reads %2)")
                      .arg(version)
                      .arg(kSchemaVersion));
    }
  }
  const QStringList schema{
      QStringLiteral("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)"),
      QStringLiteral("CREATE TABLE IF NOT EXISTS sweeps (id INTEGER PRIMARY KEY AUTOINCREMENT, "
                     "started_at TEXT NOT NULL, status TEXT NOT NULL, message TEXT, program "
                     "TEXT, seconds REAL, configs INTEGER, spec TEXT NOT NULL, results TEXT NOT "
                     "NULL)"),
      QStringLiteral("INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', '%1')")
          .arg(kSchemaVersion)};
  for (const QString& sql : schema) {
    if (!q.exec(sql)) return fail(q.lastError().text());
  }
  open_ = true;
  return true;
}

qint64 SweepStore::insert(const SweepRecord& record, QString* error) {
  if (!open_) {
    if (error) *error = file_.path() + QStringLiteral(": the sweep store is not open");
    return 0;
  }
  QJsonArray results;
  for (const BenchResult& r : record.results) results.append(r.json);
  QSqlQuery q(file_.database());
  q.prepare(
      QStringLiteral("INSERT INTO sweeps (started_at, status, message, program, seconds, "
                     "configs, spec, results) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"));
  q.addBindValue(record.started_at.toUTC().toString(Qt::ISODateWithMs));
  q.addBindValue(record.status);
  q.addBindValue(record.message);
  q.addBindValue(record.program);
  q.addBindValue(record.seconds);
  q.addBindValue(static_cast<qint64>(record.results.size()));
  q.addBindValue(QJsonDocument(sweepSpecToJson(record.spec)).toJson(QJsonDocument::Compact));
  q.addBindValue(QJsonDocument(results).toJson(QJsonDocument::Compact));
  if (!q.exec()) {
    if (error) *error = file_.path() + QStringLiteral(": ") + q.lastError().text();
    return 0;
  }
  return q.lastInsertId().toLongLong();
}

bool SweepStore::remove(qint64 id) {
  if (!open_) return false;
  QSqlQuery q(file_.database());
  q.prepare(QStringLiteral("DELETE FROM sweeps WHERE id = ?"));
  q.addBindValue(id);
  return q.exec() && q.numRowsAffected() > 0;
}

QList<SweepRecord> SweepStore::all() const {
  QList<SweepRecord> out;
  if (!open_) return out;
  QSqlQuery q(file_.database());
  if (!q.exec(QStringLiteral("SELECT %1 FROM sweeps ORDER BY started_at DESC, id DESC")
                  .arg(QLatin1String(kColumns)))) {
    return out;
  }
  while (q.next()) out << recordFrom(q);
  return out;
}

std::optional<SweepRecord> SweepStore::find(qint64 id) const {
  if (!open_) return std::nullopt;
  QSqlQuery q(file_.database());
  q.prepare(QStringLiteral("SELECT %1 FROM sweeps WHERE id = ?").arg(QLatin1String(kColumns)));
  q.addBindValue(id);
  if (!q.exec() || !q.next()) return std::nullopt;
  return recordFrom(q);
}

SweepStoreWorker::SweepStoreWorker(QString db_path, QObject* parent)
    : QObject(parent), db_path_(std::move(db_path)) {
  pool_.setMaxThreadCount(1);
}

SweepStoreWorker::~SweepStoreWorker() {
  pool_.waitForDone();
}

void SweepStoreWorker::loadAll() {
  runOnWorker(
      this,
      [path = db_path_] {
        SweepStore store(path);
        QString error;
        QList<SweepRecord> records;
        if (store.open(&error)) records = store.all();
        return std::make_pair(records, error);
      },
      [this](const std::pair<QList<SweepRecord>, QString>& result) {
        emit loaded(result.first, result.second);
      },
      &pool_);
}

void SweepStoreWorker::insert(const SweepRecord& record) {
  runOnWorker(
      this,
      [path = db_path_, record] {
        SweepStore store(path);
        QString error;
        const qint64 id = store.open(&error) ? store.insert(record, &error) : 0;
        return std::make_pair(id, error);
      },
      [this](const std::pair<qint64, QString>& result) {
        emit inserted(result.first, result.second);
      },
      &pool_);
}

void SweepStoreWorker::remove(qint64 id) {
  runOnWorker(
      this,
      [path = db_path_, id] {
        SweepStore store(path);
        return store.open() && store.remove(id);
      },
      [this, id](bool) { emit removed(id); }, &pool_);
}

}  // namespace moe::ui
