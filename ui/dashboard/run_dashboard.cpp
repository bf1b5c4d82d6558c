#include "dashboard/run_dashboard.h"

#include <QCursor>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "base/rules/routing_collapse.h"
#include "base/rules/slow_rank.h"
#include "base/run/run.h"
#include "base/telemetry/telemetry_feed.h"
#include "dashboard/dashboard_controls.h"
#include "dashboard/imbalance_page.h"
#include "dashboard/load_page.h"
#include "dashboard/plan_check_page.h"
#include "dashboard/ranks_page.h"
#include "dashboard/run_header.h"
#include "dashboard/training_page.h"
#include "widgets/adaptive_r_markers.h"
#include "widgets/capture_markers.h"
#include "widgets/phase_breakdown_plot.h"
#include "widgets/plot_export.h"
#include "widgets/plot_sync.h"

namespace moe::ui {

namespace {
constexpr int kRedrawMs = 40;             // ~25 fps at most, however fast telemetry arrives
constexpr int kLogTailLines = 5000;       // the log pane's lines
constexpr size_t kWarningRows = 500;      // the newest rows per layer the warnings look at
constexpr qint64 kSlowViewsMs = 250;      // see refreshSlowViews()
constexpr double kReadSliceRows = 10000;  // the first read of a long run, a slice at a time
}  // namespace

RunDashboard::RunDashboard(Run* run, QWidget* parent)
    : RunDashboard(run->series(), run, run->runDir(), parent) {
  connect(run, &Run::stderrReceived, this, &RunDashboard::appendLog);
  connect(run, &Run::finished, this, &RunDashboard::refresh);
  connect(run, &Run::stateChanged, this, [this] { emit titleChanged(title()); });
  appendLog(run->stderrLines());
}

RunDashboard::RunDashboard(std::shared_ptr<RunSeries> series, Run* run, const QString& run_dir,
                           QWidget* parent)
    : QWidget(parent), series_(std::move(series)), run_(run), run_dir_(run_dir) {
  sync_ = new PlotSync(this);
  buildLayout();
  connectControls();
  redraw_timer_.setInterval(kRedrawMs);
  connect(&redraw_timer_, &QTimer::timeout, this, &RunDashboard::refresh);
  redraw_timer_.start();
}

RunDashboard::~RunDashboard() {
  QSettings settings;
  settings.setValue("dashboard/splitter", splitter_->saveState());
  settings.setValue("dashboard/page", pages_->currentIndex());
}

void RunDashboard::buildLayout() {
  header_ = new RunHeader(run_, run_dir_, this);
  connect(header_, &RunHeader::resumeRequested, this, [this] { emit resumeRequested(runDir()); });
  controls_ = new DashboardControls(this);
  banner_ = new QLabel(this);
  banner_->setObjectName("routingWarning");
  banner_->setWordWrap(true);
  banner_->setStyleSheet(
      "QLabel { background: #fef3c7; color: #7c2d12; border: 1px solid #f59e0b;"
      " border-radius: 4px; padding: 6px 10px; font-weight: 600; }");
  banner_->setTextFormat(Qt::RichText);
  banner_->hide();

  training_ = new TrainingPage(sync_, this);
  load_ = new LoadPage(this);
  imbalance_ = new ImbalancePage(sync_, this);
  phases_ = new PhaseBreakdownPlot(this);
  installPlotMenu(phases_, "phases");
  ranks_ = new RanksPage(sync_, this);
  plan_check_ = new PlanCheckPage(this);
  pages_ = new QTabWidget(this);
  pages_->addTab(training_, tr("Training"));
  pages_->addTab(load_, tr("Expert load"));
  pages_->addTab(imbalance_, tr("Imbalance"));
  pages_->addTab(phases_, tr("Phases"));
  pages_->addTab(ranks_, tr("Ranks"));
  pages_->addTab(plan_check_, tr("Predicted vs measured"));

  log_ = new QPlainTextEdit(this);
  log_->setReadOnly(true);
  log_->setMaximumBlockCount(kLogTailLines);
  log_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  log_->setPlaceholderText(tr("moe-train's log"));

  splitter_ = new QSplitter(Qt::Vertical, this);
  splitter_->addWidget(pages_);
  splitter_->addWidget(log_);
  splitter_->setStretchFactor(0, 5);
  splitter_->setStretchFactor(1, 1);
  splitter_->setSizes({700, 110});  // the plots first; the log is a glance, its file has it all
  QSettings settings;
  splitter_->restoreState(settings.value("dashboard/splitter").toByteArray());
  pages_->setCurrentIndex(settings.value("dashboard/page", 0).toInt());

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(10, 8, 10, 8);
  layout->setSpacing(6);
  layout->addWidget(header_);
  layout->addWidget(controls_);
  layout->addWidget(banner_);
  layout->addWidget(splitter_, 1);
}

void RunDashboard::connectControls() {
  auto apply_to_plots = [this](auto&& fn) {
    for (TimeSeriesPlot* plot : sync_->plots()) fn(plot);
  };
  apply_to_plots([this](TimeSeriesPlot* p) {
    p->setXMode(controls_->xMode());
    p->setLogY(controls_->logY());
  });
  training_->setSmoothing(controls_->smoothing());
  connect(controls_, &DashboardControls::xModeChanged, this, [this, apply_to_plots](auto mode) {
    apply_to_plots([mode](TimeSeriesPlot* p) { p->setXMode(mode); });
    sync_->resetViews();
  });
  connect(controls_, &DashboardControls::logYChanged, this, [apply_to_plots](bool on) {
    apply_to_plots([on](TimeSeriesPlot* p) { p->setLogY(on); });
  });
  connect(controls_, &DashboardControls::smoothingChanged, training_, &TrainingPage::setSmoothing);
  connect(controls_, &DashboardControls::resetViewRequested, sync_, &PlotSync::resetViews);
  connect(controls_, &DashboardControls::whatIfRequested, this,
          [this](qint64 step, qint64 layer) { requestWhatIf(step, layer); });
  connect(training_->captureMarkers(), &CaptureMarkers::clicked, this,
          [this](qint64 step) { requestWhatIf(step, std::nullopt); });
  connect(pages_, &QTabWidget::currentChanged, this, [this] { refreshSlowViews(true); });
  connect(banner_, &QLabel::linkActivated, this, [this](const QString& link) {
    pages_->setCurrentWidget(link == "#ranks" ? static_cast<QWidget*>(ranks_) : imbalance_);
  });
}

Run* RunDashboard::run() const {
  return run_;
}

void RunDashboard::setAutoRefresh(bool on) {
  if (on)
    redraw_timer_.start();
  else
    redraw_timer_.stop();
}

QString RunDashboard::runDir() const {
  return run_ ? run_->runDir() : run_dir_;
}

QString RunDashboard::title() const {
  return titleFrom(series_->info());
}

QString RunDashboard::titleFrom(const RunInfo& info) const {
  if (!info.run_id.empty()) return QString::fromStdString(info.run_id);
  return QFileInfo(runDir()).fileName();
}

// The line plots take the delta; the heatmaps and bars, drawn from the latest state, only
// redraw while they are in view.
void RunDashboard::refresh() {
  if (series_->version() == drawn_version_) return;
  if (drawn_version_ == 0) {
    readWholeRun();
  } else {
    const RunSnapshot delta = series_->changesSince(drawn_version_);
    drawn_version_ = delta.version;
    applyToPages(delta);
  }
  const RunInfo info = series_->info();
  const auto end = series_->runEnd();
  if (writesTrace(info.config)) controls_->setTraceFile(runDir() + "/trace.json");
  if (!run_) {
    const StepColumns last = series_->steps(StepRange::lastRows(1));
    header_->showRecord(info, end, last.size() ? static_cast<qint64>(last.step.back()) : 0);
  }
  refreshSlowViews(end.has_value());
  const QString title = titleFrom(info);
  if (title != shown_title_) {
    shown_title_ = title;
    emit titleChanged(title);
  }
}

// telemetry.trace of the run's config (a replayed file's run_start may say anything).
bool RunDashboard::writesTrace(const nlohmann::json& config) {
  const auto telemetry = config.find("telemetry");
  if (telemetry == config.end() || !telemetry->is_object()) return false;
  const auto trace = telemetry->find("trace");
  return trace != telemetry->end() && trace->is_boolean() && trace->get<bool>();
}

void RunDashboard::applyToPages(const RunSnapshot& delta) {
  training_->apply(delta);
  header_->showEvals(delta.evals);  // every delta has them all
  imbalance_->apply(delta);
  ranks_->apply(delta);
  logAdaptiveR(delta.adaptive_r);
  controls_->setCaptures(delta.captures);
  if (!run_ && log_from_events_)
    for (const auto& e : delta.logs) log_->appendPlainText(QString::fromStdString(e.msg));
}

// The first read of a long run (a replay, a dashboard opened late) goes in slices of steps, so
// that a copy of the whole series never exists next to the pages' own rows. Rows that change
// while it reads come again in the next delta, which leaves rows already held as they are.
void RunDashboard::readWholeRun() {
  const uint64_t version = series_->version();
  const StepColumns last = series_->steps(StepRange::lastRows(1));
  const double last_step = last.size() ? last.step.back() : 0;
  const auto rows = static_cast<double>(std::max<size_t>(series_->stats().step_rows, 1));
  // About kReadSliceRows logged rows a slice, whatever telemetry.every is.
  const double slice = std::max(1.0, std::ceil(last_step * kReadSliceRows / rows));
  for (double from = kNoStep, to = slice;; from = to + 1, to += slice) {
    const bool final = to >= last_step;
    RunSnapshot part =
        series_->snapshot(StepRange::between(from, final ? StepRange::all().last : to));
    part.reset = from == kNoStep;
    if (!part.reset) part.logs.clear();  // every snapshot carries them all
    applyToPages(part);
    if (final) break;
  }
  drawn_version_ = version;
}

// The views that re-read the whole run (the heatmaps and phase bars of the page in view) and
// the routing warnings: a few times a second is plenty for them.
void RunDashboard::refreshSlowViews(bool now) {
  if (!now && slow_views_.isValid() && slow_views_.elapsed() < kSlowViewsMs) return;
  slow_views_.start();
  if (pages_->currentWidget() == load_) load_->updateFrom(*series_);
  if (pages_->currentWidget() == phases_) phases_->updateFrom(*series_);
  if (pages_->currentWidget() == ranks_) ranks_->updateFrom(*series_);
  if (pages_->currentWidget() == plan_check_) plan_check_->updateFrom(*series_);
  updateWarnings();
}

void RunDashboard::updateWarnings() {
  std::vector<LayerColumns> layers;
  for (int64_t layer : series_->layers()) {
    if (auto columns = series_->layer(layer, StepRange::lastRows(kWarningRows)))
      layers.push_back(std::move(*columns));
  }
  QStringList routing, slow_ranks;
  for (const RoutingWarning& w : detectRoutingProblems(layers))
    routing << QString::fromStdString(w.message);
  for (const SlowRankWarning& w :
       detectSlowRanks(series_->ranks(StepRange::lastRows(kWarningRows))))
    slow_ranks << QString::fromStdString(w.message);
  const QStringList warnings = routing + slow_ranks;
  if (warnings == warnings_) return;
  warnings_ = warnings;
  banner_->setVisible(!warnings.isEmpty());
  // Each group of warnings, then a link to the page that shows it.
  QStringList html;
  auto group = [&](const QStringList& lines, const char* link, const QString& text) {
    if (lines.isEmpty()) return;
    QStringList rows;
    for (const QString& w : lines) rows << "⚠ " + w.toHtmlEscaped();
    html << rows.join("<br>") + QString("&nbsp;&nbsp;<a href=\"%1\">%2</a>").arg(link, text);
  };
  group(routing, "#imbalance", tr("Show imbalance plots"));
  group(slow_ranks, "#ranks", tr("Show rank plots"));
  banner_->setText(html.join("<br>"));
}

void RunDashboard::logAdaptiveR(const std::vector<protocol::AdaptiveREvent>& decisions) {
  for (const protocol::AdaptiveREvent& e : decisions) {
    if (logged_adaptive_r_.insert({e.step, e.r}).second) log_->appendPlainText(adaptiveRLogLine(e));
  }
}

void RunDashboard::requestWhatIf(qint64 step, std::optional<qint64> layer) {
  std::vector<protocol::CaptureEvent> at_step;
  for (protocol::CaptureEvent& e : series_->captures())
    if (e.step == step && (!layer || e.layer == *layer)) at_step.push_back(std::move(e));
  auto ask = [this](const protocol::CaptureEvent& e) {
    emit whatIfRequested(runDir(), e.step, e.layer,
                         runDir() + "/" + QString::fromStdString(e.path));
  };
  if (at_step.size() == 1) {
    ask(at_step.front());
  } else if (at_step.size() > 1) {
    auto* menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->addSection(tr("What-if: step %1").arg(step));
    for (const protocol::CaptureEvent& e : at_step)
      menu->addAction(tr("Layer %1").arg(e.layer), this, [ask, e] { ask(e); });
    menu->popup(QCursor::pos());
  }
}

void RunDashboard::appendLog(const QStringList& lines) {
  for (const QString& line : lines) log_->appendPlainText(line);
}

}  // namespace moe::ui
