#include "launch/run.h"

#include <QDir>
#include <QFileInfo>

namespace moe::ui {

Run::Run(QObject* parent) : QObject(parent), feed_(new TelemetryFeed(this)) {}

Run::~Run() = default;

bool Run::isActive() const {
  const State s = state();
  return s == State::Starting || s == State::Running;
}

QString Run::stateName(State state) {
  switch (state) {
    case State::NotStarted:
      return tr("not started");
    case State::Starting:
      return tr("starting");
    case State::Running:
      return tr("running");
    case State::Finished:
      return tr("finished");
    case State::Failed:
      return tr("failed");
    case State::Cancelled:
      return tr("cancelled");
  }
  return {};
}

QString Run::stateText() const {
  if (state() == State::Starting && isResume()) return tr("resuming");
  return stateName(state());
}

bool hasCheckpoint(const QString& run_dir) {
  const QDir checkpoints(run_dir + "/checkpoints");
  for (const QString& name : checkpoints.entryList({"step-*"}, QDir::Dirs)) {
    bool numbered = false;
    name.mid(5).toLongLong(&numbered);  // step-N; a half-written one is .step-N.tmp-PID
    if (numbered && QFileInfo::exists(checkpoints.filePath(name) + "/state.json")) return true;
  }
  return false;
}

}  // namespace moe::ui
