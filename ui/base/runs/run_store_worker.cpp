// RunStoreWorker (run_store_worker.h).
#include "base/runs/run_store_worker.h"

#include <QMetaObject>

#include <future>
#include <utility>

#include "base/runs/run_directory_index.h"
#include "base/runs/run_store.h"

namespace moe::ui {

RunStoreWorker::RunStoreWorker(QString db_path, QObject* parent)
    : QObject(parent), db_path_(std::move(db_path)), context_(new QObject) {
  qRegisterMetaType<RunRecord>("moe::ui::RunRecord");
  qRegisterMetaType<QList<RunRecord>>("QList<moe::ui::RunRecord>");
  thread_.setObjectName(QStringLiteral("RunStoreWorker"));
  context_->moveToThread(&thread_);
  connect(&thread_, &QThread::finished, context_, &QObject::deleteLater);
  thread_.start();
}

RunStoreWorker::~RunStoreWorker() {
  // The store's connection belongs to the worker thread: closed there, after the queued work.
  // Waited for on a std::future rather than a BlockingQueuedConnection: the same hand-over, but
  // one ThreadSanitizer can see (Qt's own wait is inside uninstrumented libQt6Core).
  std::promise<void> closed;
  QMetaObject::invokeMethod(
      context_,
      [this, &closed] {
        store_.reset();
        closed.set_value();
      },
      Qt::QueuedConnection);
  closed.get_future().wait();
  thread_.quit();
  thread_.wait();
}

RunStore* RunStoreWorker::store(QString* error) {
  if (!store_) {
    store_ = std::make_unique<RunStore>(db_path_);
    if (!store_->open(&open_error_)) store_.reset();
  }
  if (!store_ && error) *error = open_error_;
  return store_.get();
}

template <class Work, class Reply>
void RunStoreWorker::post(Work work, Reply reply) {
  ++pending_;
  QMetaObject::invokeMethod(
      context_,
      [this, work = std::move(work), reply = std::move(reply)]() mutable {
        auto result = work();
        // Queued to this object: dropped if it is gone by then.
        QMetaObject::invokeMethod(
            this,
            [this, reply = std::move(reply), result = std::move(result)]() mutable {
              --pending_;
              reply(std::move(result));
            },
            Qt::QueuedConnection);
      },
      Qt::QueuedConnection);
}

void RunStoreWorker::loadAll() {
  post([this] { return store(nullptr) ? store_->all() : QList<RunRecord>{}; },
       [this](QList<RunRecord> records) { emit loaded(records); });
}

void RunStoreWorker::rescan(const QString& runs_root, const QSet<QString>& live_run_dirs) {
  struct Result {
    int changed = 0;
    QStringList errors;
    QList<RunRecord> records;
  };
  post(
      [this, runs_root, live_run_dirs] {
        Result r;
        QString error;
        if (!store(&error)) {
          r.errors << error;
          return r;
        }
        r.changed = store_->rescan(runs_root, live_run_dirs);
        r.errors = store_->lastRescanErrors();
        r.records = store_->all();
        return r;
      },
      [this](Result r) { emit rescanned(r.changed, r.errors, r.records); });
}

void RunStoreWorker::addDirectory(const QString& dir) {
  struct Result {
    bool ok = false;
    RunRecord record;
    QString error;
  };
  post(
      [this, dir] {
        Result r;
        auto record = indexRunDirectory(dir, &r.error);
        if (!record) return r;
        RunStore* s = store(&r.error);
        r.ok = s && s->upsert(*record, &r.error);
        r.record = std::move(*record);
        return r;
      },
      [this, dir](Result r) { emit directoryAdded(dir, r.ok, r.record, r.error); });
}

void RunStoreWorker::upsert(const RunRecord& record) {
  post(
      [this, record] {
        QString error;
        RunStore* s = store(&error);
        const bool ok = s && s->upsert(record, &error);
        return std::make_pair(ok, error);
      },
      [this](std::pair<bool, QString> r) { emit stored(r.first, r.second); });
}

void RunStoreWorker::remove(const QString& run_dir) {
  post(
      [this, run_dir] {
        QString error;
        RunStore* s = store(&error);
        const bool ok = s && s->remove(run_dir);
        return std::make_pair(ok, error);
      },
      [this](std::pair<bool, QString> r) { emit stored(r.first, r.second); });
}

}  // namespace moe::ui
