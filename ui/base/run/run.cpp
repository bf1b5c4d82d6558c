#include "base/run/run.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>

#include "base/run/run_files.h"

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

void Run::setState(State state) {
  if (state == state_) return;
  state_ = state;
  stateEntered(state);
  emit stateChanged(state);
}

void Run::updateFromTelemetry() {
  const std::shared_ptr<RunSeries> series = this->series();
  const bool own_start = series->runStartVersion() > own_after_;
  if (own_start && !run_start_seen_) {
    run_start_seen_ = true;
    const RunInfo info = series->info();  // copies the config: once
    total_steps_ = configInt(info.config, "train", "steps", total_steps_);
    runStarted(info);
  }
  if (state_ == State::Starting && own_start) setState(State::Running);

  const RunSeries::LatestStep latest = series->latestStep();
  if (latest.version <= own_after_ || latest.step == step_) return;
  step_ = latest.step;
  eta_s_ = estimateEtaSeconds(*series, step_, total_steps_);
  emit progressChanged(step_, total_steps_, eta_s_);
}

void Run::appendStderr(const QStringList& lines) {
  if (lines.isEmpty()) return;
  stderr_lines_ << lines;
  if (stderr_lines_.size() > kMaxStderrLines)
    stderr_lines_.erase(stderr_lines_.begin(), stderr_lines_.end() - kMaxStderrLines);
  emit stderrReceived(lines);
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
  const QDir checkpoints(runFile(run_dir, run_layout::kCheckpoints));
  for (const QString& name : checkpoints.entryList({"step-*"}, QDir::Dirs)) {
    // step-N; a half-written one is .step-N.tmp-PID
    if (!run_layout::parse_step_dir_name(name.toStdString())) continue;
    const QString state =
        QDir(checkpoints.filePath(name)).filePath(QLatin1String(run_layout::kCheckpointState));
    if (QFileInfo::exists(state)) return true;
  }
  return false;
}

}  // namespace moe::ui
