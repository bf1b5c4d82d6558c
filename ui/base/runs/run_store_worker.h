// RunStoreWorker: the run store's reads and writes on a thread of their own, so the GUI thread
// never parses a metrics.jsonl or waits on SQLite. It opens a second RunStore on the same file
// (a store is used from the thread that opened it; SQLite serialises the two connections).
//
// Each request is answered by one signal, emitted on the thread that owns the worker, in the
// order the requests were made; pending() counts the ones not answered yet.
#pragma once

#include <QList>
#include <QObject>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QThread>

#include <memory>

#include "base/runs/run_record.h"

namespace moe::ui {

class RunStore;

class RunStoreWorker : public QObject {
  Q_OBJECT

 public:
  explicit RunStoreWorker(QString db_path, QObject* parent = nullptr);
  ~RunStoreWorker() override;  // finishes the request in progress, drops the rest

  QString path() const { return db_path_; }
  int pending() const { return pending_; }

  void loadAll();
  // RunStore::rescan, then every record.
  void rescan(const QString& runs_root, const QSet<QString>& live_run_dirs);
  // Indexes a run directory (its whole metrics.jsonl) and stores it.
  void addDirectory(const QString& dir);
  void upsert(const moe::ui::RunRecord& record);
  void remove(const QString& run_dir);

 signals:
  void loaded(const QList<moe::ui::RunRecord>& records);
  void rescanned(int changed, const QStringList& errors, const QList<moe::ui::RunRecord>& records);
  // `ok`: `record` is stored; else `error` says why the directory is no run.
  void directoryAdded(const QString& dir, bool ok, const moe::ui::RunRecord& record,
                      const QString& error);
  void stored(bool ok, const QString& error);  // an upsert() or remove() is done

 private:
  // Runs `work` on the worker thread with the store (null when it cannot be opened); `reply`
  // then runs on this object's thread with work's result.
  template <class Work, class Reply>
  void post(Work work, Reply reply);
  RunStore* store(QString* error);  // worker thread only: opened on first use

  QString db_path_;
  QThread thread_;
  QObject* context_;                 // lives on thread_
  std::unique_ptr<RunStore> store_;  // worker thread only
  QString open_error_;
  int pending_ = 0;
};

}  // namespace moe::ui
