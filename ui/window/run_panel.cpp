#include "window/run_panel.h"

#include <qcustomplot.h>

#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>
#include <cmath>
#include <limits>

#include "dashboard/run_series.h"
#include "window/plot_style.h"

namespace moe::ui {

namespace {

constexpr double kEmaWeight = 0.9;  // the smoothed loss; a slider comes with the full dashboard

QString format_eta(double seconds) {
  if (seconds < 0) return "ETA –";
  const int s = static_cast<int>(std::lround(seconds));
  return s >= 3600 ? QString("ETA %1:%2:%3").arg(s / 3600).arg(s / 60 % 60, 2, 10, QChar('0'))
                             .arg(s % 60, 2, 10, QChar('0'))
                   : QString("ETA %1:%2").arg(s / 60).arg(s % 60, 2, 10, QChar('0'));
}

}  // namespace

RunPanel::RunPanel(LocalRun* run, QWidget* parent) : QWidget(parent), run_(run) {
  buildLayout();
  connect(run, &LocalRun::stateChanged, this, [this] { showState(); });
  connect(run, &LocalRun::progressChanged, this, &RunPanel::showProgress);
  connect(run, &LocalRun::stderrReceived, this, &RunPanel::appendLog);
  connect(run, &LocalRun::finished, this, [this] { refresh(); });
  connect(cancel_, &QPushButton::clicked, run, &LocalRun::cancel);
  redraw_timer_.setInterval(40);
  connect(&redraw_timer_, &QTimer::timeout, this, &RunPanel::refresh);
  redraw_timer_.start();
  appendLog(run->stderrLines());
  showState();
}

void RunPanel::buildLayout() {
  title_ = new QLabel(this);
  QFont title_font = title_->font();
  title_font.setPointSizeF(title_font.pointSizeF() * 1.25);
  title_font.setBold(true);
  title_->setFont(title_font);
  state_ = new QLabel(this);
  progress_ = new QProgressBar(this);
  progress_->setMinimumWidth(320);
  progress_->setTextVisible(true);
  cancel_ = new QPushButton(tr("Cancel run"), this);
  cancel_->setToolTip(tr("Stop after the current step, writing a checkpoint (SIGINT)"));

  auto* header = new QHBoxLayout;
  header->addWidget(title_);
  header->addSpacing(12);
  header->addWidget(state_);
  header->addStretch(1);
  header->addWidget(progress_);
  header->addWidget(cancel_);

  loss_plot_ = new QCustomPlot(this);
  style_plot(loss_plot_, tr("step"), tr("loss"));
  loss_plot_->addGraph()->setPen(QPen(series_color(0).lighter(160), 1));
  loss_plot_->graph(0)->setName(tr("loss"));
  loss_plot_->addGraph()->setPen(QPen(series_color(0), 2));
  loss_plot_->graph(1)->setName(tr("loss (smoothed)"));
  loss_plot_->addGraph()->setPen(QPen(series_color(3), 2));
  loss_plot_->graph(2)->setName(tr("eval loss"));
  loss_plot_->graph(2)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 6));
  loss_plot_->legend->setVisible(true);
  loss_plot_->legend->setBrush(QColor(255, 255, 255, 200));

  speed_plot_ = new QCustomPlot(this);
  style_plot(speed_plot_, tr("step"), tr("tokens / s"));
  speed_plot_->addGraph()->setPen(QPen(series_color(2), 1.5));

  load_plot_ = new QCustomPlot(this);
  style_plot(load_plot_, tr("expert"), tr("tokens routed"));
  auto* bars = new QCPBars(load_plot_->xAxis, load_plot_->yAxis);
  bars->setBrush(series_color(5));
  bars->setPen(Qt::NoPen);
  load_plot_->addGraph()->setPen(QPen(series_color(3), 2, Qt::DashLine));  // capacity
  load_plot_->setInteractions({});

  log_ = new QPlainTextEdit(this);
  log_->setReadOnly(true);
  log_->setMaximumBlockCount(LocalRun::kMaxStderrLines);
  log_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));

  auto* plots = new QSplitter(Qt::Vertical, this);
  plots->addWidget(loss_plot_);
  auto* lower = new QSplitter(Qt::Horizontal, plots);
  lower->addWidget(speed_plot_);
  lower->addWidget(load_plot_);
  plots->addWidget(lower);
  plots->addWidget(log_);
  plots->setStretchFactor(0, 3);
  plots->setStretchFactor(1, 2);
  plots->setStretchFactor(2, 1);
  plots->setSizes({420, 280, 130});  // the plots first; the log is a glance, its file has it all

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(10, 8, 10, 8);
  layout->addLayout(header);
  layout->addWidget(plots, 1);
}

void RunPanel::showState() {
  if (!run_) return;
  title_->setText(run_->runId().isEmpty() ? QFileInfo(run_->spec().config_file).baseName()
                                          : run_->runId());
  const LocalRun::State s = run_->state();
  QString text = LocalRun::stateName(s);
  QString colour = "#374151";
  if (s == LocalRun::State::Finished) colour = "#047857";
  if (s == LocalRun::State::Failed) {
    colour = "#b91c1c";
    text += QString(tr(" (exit %1): %2")).arg(run_->exitCode()).arg(run_->errorText());
  }
  if (s == LocalRun::State::Cancelled) colour = "#92400e";
  state_->setText(text);
  state_->setStyleSheet("color: " + colour + "; font-weight: 600;");
  state_->setToolTip(run_->errorText());
  cancel_->setEnabled(run_->isActive());
}

void RunPanel::showProgress(qint64 step, qint64 total, double eta_seconds) {
  progress_->setRange(0, static_cast<int>(std::max<qint64>(total, 1)));
  progress_->setValue(static_cast<int>(step));
  progress_->setFormat(QString("step %1 / %2   %3").arg(step).arg(total).arg(format_eta(eta_seconds)));
}

void RunPanel::appendLog(const QStringList& lines) {
  for (const QString& line : lines) log_->appendPlainText(line);
}

// Reads only what changed since the last frame (RunSeries::changes_since): a long run's redraw
// costs its new rows, not its whole history.
void RunPanel::refresh() {
  if (!run_) return;
  const auto series = run_->series();
  if (series->version() == drawn_version_) return;
  const RunSnapshot delta = series->changes_since(drawn_version_);
  drawn_version_ = delta.version;
  applyCurves(delta);
  redrawLoad();
}

void RunPanel::applyCurves(const RunSnapshot& delta) {
  QCPGraph* raw = loss_plot_->graph(0);
  QCPGraph* smooth = loss_plot_->graph(1);
  QCPGraph* speed = speed_plot_->graph(0);
  const StepColumns& s = delta.steps;
  const double from = delta.reset ? kNoStep : s.replace_from;
  if (from != std::numeric_limits<double>::infinity()) {
    restartSmoothing(from);
    for (QCPGraph* g : {raw, smooth, speed}) g->data()->removeAfter(from - 0.5);
  }
  for (size_t i = 0; i < s.size(); ++i) {
    raw->addData(s.step[i], s.loss[i]);
    smooth->addData(s.step[i], smoothStep(s.loss[i]));
    speed->addData(s.step[i], s.tokens_per_s[i]);
  }
  QVector<double> eval_x, eval_y;
  for (const auto& e : delta.evals) {
    eval_x.push_back(static_cast<double>(e.step));
    eval_y.push_back(e.loss);
  }
  loss_plot_->graph(2)->setData(eval_x, eval_y, true);
  loss_plot_->rescaleAxes();
  loss_plot_->replot(QCustomPlot::rpQueuedReplot);
  speed_plot_->rescaleAxes();
  speed_plot_->yAxis->setRangeLower(0);
  speed_plot_->replot(QCustomPlot::rpQueuedReplot);
}

// Exponential moving average, debiased like TensorBoard's so the start is not pulled to zero.
double RunPanel::smoothStep(double value) {
  if (!std::isfinite(value)) return value;
  ema_ = kEmaWeight * ema_ + (1 - kEmaWeight) * value;
  ema_norm_ = kEmaWeight * ema_norm_ + (1 - kEmaWeight);
  return ema_ / ema_norm_;
}

// Rows from `from` on are about to be replaced (a resumed run): the average restarts from the
// rows before them.
void RunPanel::restartSmoothing(double from) {
  ema_ = ema_norm_ = 0;
  const auto data = loss_plot_->graph(0)->data();
  for (auto it = data->constBegin(); it != data->constEnd() && it->key < from; ++it) {
    smoothStep(it->value);
  }
}

void RunPanel::redrawLoad() {
  const auto loads = run_->series()->latest_expert_loads();
  if (loads.empty()) return;
  const auto& load = loads.front();
  QVector<double> experts, counts;
  for (size_t e = 0; e < load.counts.size(); ++e) {
    experts.push_back(static_cast<double>(e));
    counts.push_back(static_cast<double>(load.counts[e]));
  }
  auto* bars = qobject_cast<QCPBars*>(load_plot_->plottable(0));
  bars->setData(experts, counts, true);
  const double n = static_cast<double>(load.counts.size());
  load_plot_->graph(0)->setData({-0.5, n - 0.5}, {static_cast<double>(load.capacity),
                                                  static_cast<double>(load.capacity)});
  load_plot_->xAxis->setRange(-0.6, n - 0.4);
  double top = static_cast<double>(load.capacity);
  for (double c : counts) top = std::max(top, c);
  load_plot_->yAxis->setRange(0, top * 1.1 + 1);
  load_plot_->xAxis->setLabel(QString(tr("expert (layer %1, step %2: %3 % dropped, capacity "
                                         "dashed)"))
                                  .arg(load.layer)
                                  .arg(load.step)
                                  .arg(load.dropped_frac * 100, 0, 'f', 1));
  load_plot_->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace moe::ui
