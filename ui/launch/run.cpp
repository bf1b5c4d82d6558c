#include "launch/run.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>

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

// Wall time per step over the recent rows up to `step`: includes eval, checkpoints and logging,
// which step_ms does not, and adapts when the speed changes.
double estimateEtaSeconds(const RunSeries& series, qint64 step, qint64 total_steps) {
  constexpr size_t kEtaWindow = 32;  // recent step rows the ETA is taken from
  const StepColumns recent =
      series.steps(StepRange{kNoStep, static_cast<double>(step), kEtaWindow});
  const size_t n = recent.size();
  if (n < 2 || total_steps <= 0) return -1;
  // Rows of this process only: a resumed run's history has the clock of an earlier process.
  size_t first = n - 1;
  while (first > 0 && recent.t[first - 1] <= recent.t[first]) --first;
  const double steps = recent.step[n - 1] - recent.step[first];
  const double seconds = recent.t[n - 1] - recent.t[first];
  if (steps <= 0 || seconds < 0) return -1;
  return std::max<double>(0, static_cast<double>(total_steps - step)) * seconds / steps;
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
