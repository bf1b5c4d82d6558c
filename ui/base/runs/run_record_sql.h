// RunRecord <-> the run store's SQLite row (schema version 1). Kept apart from RunStore so the
// store reads as what it does, and the column list lives in one place.
//
// Times are INTEGER milliseconds since the epoch (UTC), unknown values NULL, the config TEXT (its
// compact JSON dump).
#pragma once

#include <QSqlQuery>
#include <QString>

#include "base/runs/run_record.h"

namespace moe::ui::run_record_sql {

// CREATE TABLE IF NOT EXISTS statements of schema version 1: runs, meta, removed.
QStringList createStatements();

// Schema 1 grows by nullable columns only (so an older MoE Studio still reads it): the ALTER
// TABLE statements that add the columns a store's runs table lacks (`existing_columns`, from
// PRAGMA table_info). Empty when it has them all.
QStringList migrationStatements(const QStringList& existing_columns);

// INSERT OR REPLACE INTO runs (...) VALUES (:...), for bind().
QString upsertStatement();
void bind(QSqlQuery& query, const RunRecord& record);

// The current row of a `SELECT * FROM runs` query.
RunRecord read(const QSqlQuery& query);

}  // namespace moe::ui::run_record_sql
