#include "dashboard/run_header.h"

#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <cmath>

namespace moe::ui {

namespace {

// "1:02:03" / "4:05".
QString formatClock(double seconds) {
  const int s = static_cast<int>(std::lround(seconds));
  const QChar zero('0');
  return s >= 3600 ? QString("%1:%2:%3")
                         .arg(s / 3600)
                         .arg(s / 60 % 60, 2, 10, zero)
                         .arg(s % 60, 2, 10, zero)
                   : QString("%1:%2").arg(s / 60).arg(s % 60, 2, 10, zero);
}

}  // namespace

QString formatEta(double seconds) {
  if (seconds < 0) return QObject::tr("ETA –");
  return QObject::tr("ETA %1").arg(formatClock(seconds));
}

QString formatEndedProgress(qint64 step, qint64 total, double seconds) {
  QString text = step <= 0   ? QObject::tr("no steps")
                 : total > 0 ? QObject::tr("step %1 / %2").arg(step).arg(total)
                             : QObject::tr("step %1").arg(step);
  if (seconds >= 0) text += QObject::tr("   ran %1").arg(formatClock(seconds));
  return text;
}

RunHeader::RunHeader(Run* run, const QString& run_dir, QWidget* parent)
    : QWidget(parent), run_(run), run_dir_(run_dir) {
  title_ = new QLabel(this);
  QFont title_font = title_->font();
  title_font.setPointSizeF(title_font.pointSizeF() * 1.25);
  title_font.setBold(true);
  title_->setFont(title_font);
  state_ = new QLabel(this);
  state_->setObjectName("runState");
  state_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  accuracy_ = new QLabel(this);
  accuracy_->setObjectName("bestAccuracy");
  accuracy_->setStyleSheet("color: #1f2937; font-weight: 600;");
  accuracy_->hide();
  where_ = new QLabel(this);
  where_->setStyleSheet("color: #6b7280;");
  where_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  progress_ = new QProgressBar(this);
  progress_->setMinimumWidth(300);
  progress_->setTextVisible(true);
  progress_->setFormat(tr("waiting for the first step"));
  cancel_ = new QPushButton(tr("Cancel run"), this);
  cancel_->setObjectName("cancelRun");
  resume_ = new QPushButton(tr("Resume"), this);
  resume_->setObjectName("resumeRun");
  resume_->setToolTip(tr("Continue the run from its newest checkpoint (moe-train run --resume)"));
  resume_->hide();
  connect(resume_, &QPushButton::clicked, this, &RunHeader::resumeRequested);
  cancel_->setToolTip(tr("Stop after the current step, writing a checkpoint (SIGINT)"));

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(title_);
  layout->addSpacing(12);
  layout->addWidget(state_, 1);
  layout->addWidget(accuracy_);
  layout->addSpacing(8);
  layout->addWidget(where_);
  layout->addSpacing(8);
  layout->addWidget(progress_);
  layout->addWidget(cancel_);
  layout->addWidget(resume_);

  if (run) {
    connect(run, &Run::stateChanged, this, &RunHeader::showState);
    connect(run, &Run::progressChanged, this, &RunHeader::showProgress);
    connect(cancel_, &QPushButton::clicked, run, &Run::cancel);
    showState();
    if (run->step() > 0) showProgress(run->step(), run->totalSteps(), run->etaSeconds());
  } else {
    cancel_->hide();
    title_->setText(QFileInfo(run_dir).fileName());
    where_->setText(tr("from %1").arg(QDir::toNativeSeparators(run_dir)));
    setStateText(tr("Loading…"), "#374151", {});
  }
}

QString RunHeader::stateText() const {
  return state_->text();
}

void RunHeader::setStateText(const QString& text, const QString& colour, const QString& tooltip) {
  state_->setText(text);
  state_->setStyleSheet("color: " + colour + "; font-weight: 600;");
  state_->setToolTip(tooltip);
}

void RunHeader::showState() {
  if (!run_) return;
  title_->setText(run_->runId().isEmpty() ? run_->pendingName() : run_->runId());
  if (run_->target() != QLatin1String("local")) where_->setText(tr("on %1").arg(run_->target()));
  const Run::State s = run_->state();
  QString text = run_->stateText();
  // A resume shows none of the earlier attempt's steps as its own until its process reports one.
  if (s == Run::State::Starting && run_->isResume() && run_->step() == 0)
    progress_->setFormat(tr("resuming from the newest checkpoint"));
  QString colour = "#374151";
  if (s == Run::State::Finished) colour = "#047857";
  if (s == Run::State::Cancelled) colour = "#92400e";
  if (s == Run::State::Failed) {
    colour = "#b91c1c";
    text += tr(" (exit %1): %2").arg(run_->exitCode()).arg(run_->errorText());
  }
  setStateText(text, colour, run_->errorText());
  cancel_->setEnabled(run_->isActive());
  // The last progress report came while it ran, with an ETA that means nothing now.
  if (runEnded()) showProgress(run_->step(), run_->totalSteps(), -1);
  offerResume(s == Run::State::Cancelled || s == Run::State::Failed);
}

void RunHeader::showEvals(const std::vector<protocol::EvalEvent>& evals) {
  const protocol::EvalEvent* best = nullptr;
  for (const auto& e : evals) {
    if (e.accuracy && std::isfinite(*e.accuracy) && (!best || *e.accuracy > *best->accuracy))
      best = &e;
  }
  accuracy_->setVisible(best != nullptr);
  if (!best) return;
  accuracy_->setText(tr("best eval accuracy %1 %").arg(*best->accuracy * 100, 0, 'f', 2));
  accuracy_->setToolTip(tr("at step %1 (eval loss %2)").arg(best->step).arg(best->loss));
}

QString RunHeader::accuracyText() const {
  return accuracy_->isVisibleTo(this) ? accuracy_->text() : QString();
}

QString RunHeader::progressText() const {
  return progress_->format();
}

bool RunHeader::runEnded() const {
  return run_ && !run_->isActive() && run_->state() != Run::State::NotStarted;
}

double RunHeader::runSeconds() const {
  const QDateTime start = run_->startedAt(), end = run_->endedAt();
  return start.isValid() && end.isValid() ? start.msecsTo(end) / 1000.0 : -1;
}

// The checkpoint folder is listed when the run's ending changes, not on every redraw.
void RunHeader::offerResume(bool stopped_early) {
  if (resume_checked_ && stopped_early == resume_checked_for_) return;
  resume_checked_ = true;
  resume_checked_for_ = stopped_early;
  if (run_) {
    resume_->setVisible(run_->canResume());
    return;
  }
  resume_->setVisible(stopped_early && !run_dir_.isEmpty() && hasCheckpoint(run_dir_));
}

void RunHeader::showProgress(qint64 step, qint64 total, double eta_seconds) {
  progress_->setRange(0, static_cast<int>(std::max<qint64>(total, 1)));
  progress_->setValue(static_cast<int>(std::min(step, std::max<qint64>(total, 1))));
  progress_->setFormat(
      runEnded() ? formatEndedProgress(step, total, runSeconds())
                 : tr("step %1 / %2   %3").arg(step).arg(total).arg(formatEta(eta_seconds)));
}

void RunHeader::showRecord(const RunInfo& info, const std::optional<protocol::RunEndEvent>& end,
                           qint64 last_step) {
  if (run_) return;
  if (!info.run_id.empty()) title_->setText(QString::fromStdString(info.run_id));
  const qint64 total = info.config.value("/train/steps"_json_pointer, int64_t{0});
  progress_->setRange(0, static_cast<int>(std::max<qint64>(total, 1)));
  progress_->setValue(static_cast<int>(std::min(last_step, std::max<qint64>(total, 1))));
  progress_->setFormat(tr("step %1 / %2").arg(last_step).arg(total));
  offerResume(!end || end->status != "completed");
  if (!end) {
    setStateText(tr("No run_end: still running elsewhere, or stopped without a word"), "#92400e",
                 {});
    return;
  }
  const QString error = QString::fromStdString(end->error.value_or(""));
  if (end->status == "completed") setStateText(tr("Finished"), "#047857", {});
  if (end->status == "cancelled") setStateText(tr("Cancelled"), "#92400e", {});
  if (end->status == "failed") setStateText(tr("Failed: %1").arg(error), "#b91c1c", error);
}

}  // namespace moe::ui
