// RunRecord <-> SQLite row (run_record_sql.h).
#include "base/runs/run_record_sql.h"

#include <QStringList>
#include <QVariant>

namespace moe::ui::run_record_sql {

namespace {

// Column name and SQL type, in table order. run_dir is the key.
struct Column {
  const char* name;
  const char* type;
};

constexpr Column kColumns[] = {
    {"run_dir", "TEXT NOT NULL UNIQUE"},
    {"id", "TEXT"},
    {"name", "TEXT"},
    {"status", "TEXT"},
    {"error", "TEXT"},
    {"started_at", "INTEGER"},
    {"ended_at", "INTEGER"},
    {"host", "TEXT"},
    {"device", "TEXT"},
    {"world_size", "INTEGER"},
    {"config", "TEXT"},
    {"config_hash", "TEXT"},
    {"steps_done", "INTEGER"},
    {"total_steps", "INTEGER"},
    {"loss_last", "REAL"},
    {"loss_min", "REAL"},
    {"loss_max", "REAL"},
    {"eval_loss_last", "REAL"},
    {"eval_loss_best", "REAL"},
    {"accuracy_last", "REAL"},
    {"accuracy_best", "REAL"},
    {"tokens_per_s_last", "REAL"},
    {"tokens_per_s_max", "REAL"},
    {"step_ms_last", "REAL"},
    {"metrics_modified", "INTEGER"},
    {"metrics_size", "INTEGER"},
    {"target", "TEXT"},       // added in a later release: see migrationStatements()
    {"restarts", "INTEGER"},  // likewise
};

QVariant nullable(const std::optional<double>& v) {
  return v ? QVariant(*v) : QVariant(QMetaType::fromType<double>());
}

QVariant nullable(const std::optional<int64_t>& v) {
  return v ? QVariant(static_cast<qlonglong>(*v)) : QVariant(QMetaType::fromType<qlonglong>());
}

QVariant nullable(const QDateTime& t) {
  return t.isValid() ? QVariant(t.toMSecsSinceEpoch()) : QVariant(QMetaType::fromType<qlonglong>());
}

std::optional<double> readDouble(const QSqlQuery& q, const char* column) {
  const QVariant v = q.value(QLatin1String(column));
  if (v.isNull()) return std::nullopt;
  return v.toDouble();
}

std::optional<int64_t> readInt(const QSqlQuery& q, const char* column) {
  const QVariant v = q.value(QLatin1String(column));
  if (v.isNull()) return std::nullopt;
  return v.toLongLong();
}

QDateTime readTime(const QSqlQuery& q, const char* column) {
  const auto ms = readInt(q, column);
  return ms ? QDateTime::fromMSecsSinceEpoch(*ms) : QDateTime();
}

QString readText(const QSqlQuery& q, const char* column) {
  return q.value(QLatin1String(column)).toString();
}

}  // namespace

QStringList createStatements() {
  QStringList columns;
  for (const Column& c : kColumns) {
    columns << QStringLiteral("%1 %2").arg(QLatin1String(c.name), QLatin1String(c.type));
  }
  return {
      QStringLiteral("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"),
      QStringLiteral("CREATE TABLE IF NOT EXISTS runs (%1)")
          .arg(columns.join(QStringLiteral(", "))),
      // Runs the user removed from the list: a rescan must not bring them back.
      QStringLiteral("CREATE TABLE IF NOT EXISTS removed (run_dir TEXT PRIMARY KEY)"),
  };
}

QStringList migrationStatements(const QStringList& existing_columns) {
  QStringList statements;
  for (const Column& c : kColumns) {
    if (existing_columns.contains(QLatin1String(c.name))) continue;
    statements << QStringLiteral("ALTER TABLE runs ADD COLUMN %1 %2")
                      .arg(QLatin1String(c.name), QLatin1String(c.type));
  }
  return statements;
}

QString upsertStatement() {
  QStringList names, placeholders;
  for (const Column& c : kColumns) {
    names << QLatin1String(c.name);
    placeholders << QLatin1Char(':') + QLatin1String(c.name);
  }
  return QStringLiteral("INSERT OR REPLACE INTO runs (%1) VALUES (%2)")
      .arg(names.join(QStringLiteral(", ")), placeholders.join(QStringLiteral(", ")));
}

void bind(QSqlQuery& q, const RunRecord& r) {
  q.bindValue(QStringLiteral(":run_dir"), r.run_dir);
  q.bindValue(QStringLiteral(":id"), r.id);
  q.bindValue(QStringLiteral(":name"), r.name);
  q.bindValue(QStringLiteral(":status"), r.status);
  q.bindValue(QStringLiteral(":error"), r.error);
  q.bindValue(QStringLiteral(":started_at"), nullable(r.started_at));
  q.bindValue(QStringLiteral(":ended_at"), nullable(r.ended_at));
  q.bindValue(QStringLiteral(":host"), r.host);
  q.bindValue(QStringLiteral(":device"), r.device);
  q.bindValue(QStringLiteral(":world_size"), nullable(r.world_size));
  q.bindValue(QStringLiteral(":config"), QString::fromStdString(r.config.dump()));
  q.bindValue(QStringLiteral(":config_hash"), r.config_hash);
  q.bindValue(QStringLiteral(":steps_done"), nullable(r.steps_done));
  q.bindValue(QStringLiteral(":total_steps"), nullable(r.total_steps));
  q.bindValue(QStringLiteral(":loss_last"), nullable(r.loss_last));
  q.bindValue(QStringLiteral(":loss_min"), nullable(r.loss_min));
  q.bindValue(QStringLiteral(":loss_max"), nullable(r.loss_max));
  q.bindValue(QStringLiteral(":eval_loss_last"), nullable(r.eval_loss_last));
  q.bindValue(QStringLiteral(":eval_loss_best"), nullable(r.eval_loss_best));
  q.bindValue(QStringLiteral(":accuracy_last"), nullable(r.accuracy_last));
  q.bindValue(QStringLiteral(":accuracy_best"), nullable(r.accuracy_best));
  q.bindValue(QStringLiteral(":tokens_per_s_last"), nullable(r.tokens_per_s_last));
  q.bindValue(QStringLiteral(":tokens_per_s_max"), nullable(r.tokens_per_s_max));
  q.bindValue(QStringLiteral(":step_ms_last"), nullable(r.step_ms_last));
  q.bindValue(QStringLiteral(":metrics_modified"), nullable(r.metrics_modified));
  q.bindValue(QStringLiteral(":metrics_size"), nullable(r.metrics_size));
  q.bindValue(QStringLiteral(":target"), r.target);
  q.bindValue(QStringLiteral(":restarts"), static_cast<qlonglong>(r.restarts));
}

RunRecord read(const QSqlQuery& q) {
  RunRecord r;
  r.run_dir = readText(q, "run_dir");
  r.id = readText(q, "id");
  r.name = readText(q, "name");
  r.status = readText(q, "status");
  r.error = readText(q, "error");
  r.started_at = readTime(q, "started_at");
  r.ended_at = readTime(q, "ended_at");
  r.host = readText(q, "host");
  r.device = readText(q, "device");
  r.world_size = readInt(q, "world_size");
  auto config = nlohmann::json::parse(readText(q, "config").toStdString(), nullptr, false);
  r.config = config.is_object() ? std::move(config) : nlohmann::json::object();
  r.config_hash = readText(q, "config_hash");
  r.steps_done = readInt(q, "steps_done");
  r.total_steps = readInt(q, "total_steps");
  r.loss_last = readDouble(q, "loss_last");
  r.loss_min = readDouble(q, "loss_min");
  r.loss_max = readDouble(q, "loss_max");
  r.eval_loss_last = readDouble(q, "eval_loss_last");
  r.eval_loss_best = readDouble(q, "eval_loss_best");
  r.accuracy_last = readDouble(q, "accuracy_last");
  r.accuracy_best = readDouble(q, "accuracy_best");
  r.tokens_per_s_last = readDouble(q, "tokens_per_s_last");
  r.tokens_per_s_max = readDouble(q, "tokens_per_s_max");
  r.step_ms_last = readDouble(q, "step_ms_last");
  r.metrics_modified = readTime(q, "metrics_modified");
  r.metrics_size = readInt(q, "metrics_size");
  r.restarts = readInt(q, "restarts").value_or(0);  // NULL in rows of an older MoE Studio
  // NULL in rows an older MoE Studio wrote: only local runs were known then.
  const QString target = readText(q, "target");
  r.target = target.isEmpty() ? RunRecord::kLocalTarget : target;
  return r;
}

}  // namespace moe::ui::run_record_sql
