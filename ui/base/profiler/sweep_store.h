// SweepStore: every finished Profiler sweep, kept in SQLite (Qt SQL) in a database of its own
// (<GenericDataLocation>/moe-studio/profiler.db) beside the run store's runs.db: a sweep is no
// run, and either file can be deleted without touching the other. One row per sweep: the form's
// spec and the engine's objects, as JSON, and what the list shows.
//
// A store is used from the thread that opened it (a Qt SQL rule); SweepStoreWorker opens one
// per request on its worker thread.
#pragma once

#include <QDateTime>
#include <QList>
#include <QObject>
#include <QString>
#include <QThreadPool>

#include <optional>

#include "base/profiler/bench_result.h"
#include "base/profiler/sweep_spec.h"
#include "base/storage/sqlite_file.h"

namespace moe::ui {

struct SweepRecord {
  qint64 id = 0;         // assigned by insert()
  QDateTime started_at;  // UTC
  QString status;        // "finished", "cancelled" or "failed"
  QString message;       // why it failed or was cancelled
  QString program;       // the moe-train that measured
  double seconds = 0;    // wall time of the whole sweep
  SweepSpec spec;
  QList<BenchResult> results;

  // "#3 · 2026-11-30 23:50 · 4 configs (Experts, Top-k)": what the history list shows.
  QString title() const;
};

class SweepStore {
 public:
  static constexpr int kSchemaVersion = 1;

  explicit SweepStore(QString db_path);
  SweepStore(const SweepStore&) = delete;
  SweepStore& operator=(const SweepStore&) = delete;

  static QString defaultPath();  // <GenericDataLocation>/moe-studio/profiler.db
  QString path() const { return file_.path(); }

  // Opens (creating the file, its folder and the schema). False with *error naming the file when
  // it is not a SQLite database, belongs to another program or to a newer MoE Studio.
  bool open(QString* error = nullptr);
  // Stores a new sweep; its id, or 0 with *error.
  qint64 insert(const SweepRecord& record, QString* error = nullptr);
  bool remove(qint64 id);
  QList<SweepRecord> all() const;  // newest first
  std::optional<SweepRecord> find(qint64 id) const;

 private:
  SqliteFile file_;
  bool open_ = false;
};

// The store's requests on one worker thread in order; each answer comes back on the GUI thread.
class SweepStoreWorker : public QObject {
  Q_OBJECT

 public:
  explicit SweepStoreWorker(QString db_path, QObject* parent = nullptr);
  ~SweepStoreWorker() override;  // waits for the request in progress

  QString path() const { return db_path_; }
  void loadAll();
  void insert(const moe::ui::SweepRecord& record);
  void remove(qint64 id);

 signals:
  void loaded(const QList<moe::ui::SweepRecord>& records, const QString& error);
  void inserted(qint64 id, const QString& error);  // id 0: not stored, error says why
  void removed(qint64 id);

 private:
  QString db_path_;
  QThreadPool pool_;  // one thread: the requests run in the order they were made
};

}  // namespace moe::ui
