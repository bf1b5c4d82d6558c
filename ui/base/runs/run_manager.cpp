#include "base/runs/run_manager.h"

#include <QDir>

#include <utility>

#include "base/storage/worker_task.h"

namespace moe::ui {

RunManager::RunManager(QObject* parent) : QObject(parent) {}

// The runs are children: ~QObject deletes them, and each one still running is stopped with a
// checkpoint (LocalRun's destructor).
RunManager::~RunManager() = default;

LocalRun* RunManager::startRun(LaunchSpec spec) {
  if (spec.program.isEmpty()) spec.program = train_program_;
  auto* run = new LocalRun(std::move(spec), this);
  add(run);
  return run;
}

RemoteRun* RunManager::startRemoteRun(RemoteLaunch launch) {
  auto* run = new RemoteRun(std::move(launch), this);
  add(run);
  return run;
}

void RunManager::reattachRemoteRuns(const QString& runs_root) {
  using Found = QList<QPair<QString, RemoteRunRecord>>;
  runOnWorker(
      this,
      [runs_root] {
        Found found;
        for (const QString& dir : activeRemoteRunDirs(runs_root)) {
          if (auto record = RemoteRunRecord::read(dir)) found.append({dir, *record});
        }
        return found;
      },
      [this](const Found& found) {
        QList<Run*> attached;
        for (const auto& [dir, record] : found) {
          if (findByRunDir(dir)) continue;  // this session has it already
          auto* run = new RemoteRun(dir, record, this);
          add(run);
          attached << run;
        }
        emit reattached(attached);
      });
}

Run* RunManager::resumeRun(const Run& run) {
  Run* next = run.resume(this);
  if (next) add(next);
  return next;
}

void RunManager::add(Run* run) {
  runs_.append(run);
  connect(run, &Run::stateChanged, this,
          [this, run](Run::State state) { emit runStateChanged(run, state); });
  connect(run, &Run::finished, this, [this, run] {
    emit runFinished(run);
    emit activeCountChanged(static_cast<int>(activeRuns().size()));
  });
  emit runAdded(run);
  run->start();
  emit activeCountChanged(static_cast<int>(activeRuns().size()));
}

QList<Run*> RunManager::activeRuns() const {
  QList<Run*> active;
  for (Run* run : runs_) {
    if (run->isActive()) active.append(run);
  }
  return active;
}

Run* RunManager::findByRunDir(const QString& run_dir) const {
  const QString wanted = QDir::cleanPath(QDir(run_dir).absolutePath());
  for (auto it = runs_.crbegin(); it != runs_.crend(); ++it) {  // the newest: a resume's
    Run* run = *it;
    const QString dir = run->runDir();
    if (!dir.isEmpty() && QDir::cleanPath(QDir(dir).absolutePath()) == wanted) return run;
  }
  return nullptr;
}

bool RunManager::remove(Run* run) {
  if (!runs_.contains(run) || run->isActive()) return false;
  runs_.removeOne(run);
  run->disconnect(this);
  emit runRemoved(run);
  run->deleteLater();
  return true;
}

QList<Run*> RunManager::attachedActiveRuns() const {
  QList<Run*> attached;
  for (Run* run : activeRuns()) {
    if (!run->isDetached()) attached.append(run);
  }
  return attached;
}

void RunManager::cancelAll() {
  for (Run* run : attachedActiveRuns()) run->cancel();
}

}  // namespace moe::ui
