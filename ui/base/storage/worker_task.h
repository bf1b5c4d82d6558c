// runOnWorker: file and parsing work off the GUI thread, its result handed back on the thread of
// a QObject that waits for it. One QFutureWatcher per call, deleted with the call.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QThreadPool>
#include <QtConcurrent>

#include <type_traits>
#include <utility>

namespace moe::ui {

// Runs `work` on a worker (of `pool`, in the order it was queued when the pool has one thread;
// else the global pool); `done(result)` runs on `context`'s thread, unless `context` is gone.
template <typename Work, typename Done>
void runOnWorker(QObject* context, Work work, Done done, QThreadPool* pool = nullptr) {
  using Result = std::invoke_result_t<Work>;
  auto* watcher = new QFutureWatcher<Result>(context);
  QObject::connect(watcher, &QFutureWatcher<Result>::finished, context,
                   [watcher, done = std::move(done)] {
                     watcher->deleteLater();
                     done(watcher->result());
                   });
  watcher->setFuture(pool ? QtConcurrent::run(pool, std::move(work))
                          : QtConcurrent::run(std::move(work)));
}

}  // namespace moe::ui
