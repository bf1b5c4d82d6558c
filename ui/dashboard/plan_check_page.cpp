#include "dashboard/plan_check_page.h"

#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <exception>
#include <map>

#include <qcustomplot.h>

#include "base/planner/planner_format.h"
#include "base/planner/planner_profile_choice.h"
#include "base/plot_data/phase_bins.h"
#include "base/telemetry/run_series.h"
#include "planner/planner_profile_combo.h"
#include "widgets/heatmap_style.h"
#include "widgets/phase_breakdown_plot.h"
#include "widgets/plot_export.h"
#include "widgets/plot_style.h"

namespace moe::ui {

namespace {
constexpr double kPredictedKey = 0, kMeasuredKey = 1;  // the bars' rows, bottom up
constexpr double kLabelledShare = 0.06;  // segments this wide get their percentage written in

QString percentText(double fraction) {
  if (!std::isfinite(fraction)) return QStringLiteral("—");
  // U+2212 for the minus: a hyphen looks like a dash beside the figures.
  const QString sign = fraction > 0 ? QStringLiteral("+") : fraction < 0 ? QStringLiteral("−") : "";
  return sign + QString::number(std::fabs(fraction) * 100, 'f', 1) + QStringLiteral(" %");
}

// A caption over a large figure.
QLabel* addFigure(QGridLayout* grid, int column, const QString& caption, const QString& name) {
  auto* title = new QLabel(caption);
  title->setStyleSheet("QLabel { color: #6b7280; }");
  auto* value = new QLabel(QStringLiteral("—"));
  value->setObjectName(name);
  value->setStyleSheet("QLabel { font-size: 17pt; font-weight: 600; }");
  value->setTextInteractionFlags(Qt::TextSelectableByMouse);
  grid->addWidget(title, 0, column);
  grid->addWidget(value, 1, column);
  return value;
}

// Whether `choice` names a shipped device profile (all of them GPUs), with or without +NETWORK.
bool isShippedProfile(const QString& choice) {
  const std::string device = choice.section('+', 0, 0).toStdString();
  const std::vector<std::string> shipped = plan::shipped_profile_names();
  return std::find(shipped.begin(), shipped.end(), device) != shipped.end();
}

// A profile choice as the text names it: a file by its name (the combo shows which).
QString profileName(const QString& choice) {
  return choice.contains('/') ? QFileInfo(choice).fileName() : choice;
}

// The predicted phases (a map, by name) in the order of the measured ones: kPhaseNames, then any
// other name (the planner's allreduce, which the engine's phases leave in `other`).
std::vector<std::pair<std::string, double>> orderedPhases(const std::map<std::string, double>& ms) {
  std::vector<std::pair<std::string, double>> out(ms.begin(), ms.end());
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return phaseRank(a.first) < phaseRank(b.first);
  });
  return out;
}

}  // namespace

PlanCheckPage::PlanCheckPage(QWidget* parent) : QWidget(parent) {
  choice_ = new PlannerProfileChoice(this);
  combo_ = new PlannerProfileCombo(choice_, this);
  combo_->setMinimumContentsLength(48);
  combo_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);

  hint_ = new QLabel(
      tr("This run was on the CPU and the profile is a GPU's. Calibrate this machine with "
         "<code>moe-train bench --calibrate --json FILE</code> for a fair comparison on CPU, "
         "then pick the file as the profile."),
      this);
  hint_->setObjectName("calibrateHint");
  hint_->setWordWrap(true);
  hint_->setTextFormat(Qt::RichText);
  hint_->setStyleSheet(
      "QLabel { background: #eff6ff; color: #1e3a8a; border: 1px solid #93c5fd;"
      " border-radius: 4px; padding: 5px 9px; }");
  hint_->hide();

  message_ = new QLabel(tr("waiting for the run to start"), this);
  message_->setObjectName("planCheckMessage");
  message_->setWordWrap(true);
  message_->setStyleSheet("QLabel { color: #6b7280; font-size: 11pt; }");

  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel(tr("Hardware profile:"), this));
  top->addWidget(combo_);
  top->addStretch(1);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(8, 8, 8, 8);
  layout->setSpacing(8);
  layout->addLayout(top);
  layout->addWidget(hint_);
  layout->addWidget(message_);
  layout->addWidget(buildFigures(), 1);

  connect(choice_, &PlannerProfileChoice::loaded, this, [this] {
    profile_error_.clear();
    recompute();
  });
  connect(choice_, &PlannerProfileChoice::failed, this, [this](const QString& error) {
    profile_error_ = error;
    recompute();
  });
  choice_->load();
}

QWidget* PlanCheckPage::buildFigures() {
  figures_ = new QWidget(this);
  auto* grid = new QGridLayout;
  grid->setHorizontalSpacing(36);
  measured_value_ = addFigure(grid, 0, tr("Measured step (median)"), "measuredStep");
  predicted_value_ = addFigure(grid, 1, tr("Predicted step"), "predictedStep");
  error_value_ = addFigure(grid, 2, tr("Error (predicted / measured − 1)"), "predictionError");
  grid->setColumnStretch(3, 1);

  detail_ = new QLabel(figures_);
  detail_->setObjectName("planCheckDetail");
  detail_->setWordWrap(true);
  detail_->setStyleSheet("QLabel { color: #4b5563; }");

  buildPlot();

  ranks_title_ = new QLabel(figures_);
  ranks_title_->setStyleSheet("QLabel { font-weight: 600; }");
  ranks_table_ = new QTableWidget(4, 3, figures_);
  ranks_table_->setObjectName("planCheckRanks");
  ranks_table_->setHorizontalHeaderLabels({tr("Predicted"), tr("Measured"), tr("Error")});
  ranks_table_->setVerticalHeaderLabels(
      {tr("Step"), tr("Compute"), tr("All-to-all wait"), tr("All-reduce wait")});
  ranks_table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  ranks_table_->setSelectionMode(QAbstractItemView::NoSelection);
  ranks_table_->setFocusPolicy(Qt::NoFocus);
  ranks_table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  ranks_table_->horizontalHeader()->setDefaultSectionSize(110);
  ranks_table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  ranks_table_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  ranks_table_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  for (int row = 0; row < 4; ++row)
    for (int column = 0; column < 3; ++column) {
      auto* item = new QTableWidgetItem;
      item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      ranks_table_->setItem(row, column, item);
    }
  // Just the table's own size: four rows do not need a scroll area.
  ranks_table_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
  ranks_table_->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);

  auto* layout = new QVBoxLayout(figures_);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(8);
  layout->addLayout(grid);
  layout->addWidget(detail_);
  layout->addWidget(plot_, 1);
  layout->addWidget(ranks_title_);
  layout->addWidget(ranks_table_);
  figures_->hide();
  return figures_;
}

// Two horizontal stacked bars: the predicted shares below, the measured ones above, the legend
// beside them as on the Phases page.
void PlanCheckPage::buildPlot() {
  plot_ = new QCustomPlot(figures_);
  plot_->setObjectName("planCheckShares");
  stylePlot(plot_, tr("share of step time (%)"), QString());
  installPlotMenu(plot_, "plan-check-shares");
  plot_->setInteractions({});
  plot_->setMinimumHeight(150);
  plot_->xAxis->setRange(0, 100);
  plot_->yAxis->setRange(-0.6, 1.6);
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  ticker->addTick(kPredictedKey, tr("Predicted"));
  ticker->addTick(kMeasuredKey, tr("Measured"));
  plot_->yAxis->setTicker(ticker);
  plot_->yAxis->grid()->setVisible(false);

  QFont small = font();
  small.setPointSizeF(small.pointSizeF() * 0.85);
  plot_->legend->setFont(small);
  plot_->legend->setBorderPen(Qt::NoPen);
  plot_->legend->setBrush(Qt::NoBrush);
  auto* side = new QCPLayoutGrid;
  plot_->plotLayout()->addElement(0, 1, side);
  plot_->plotLayout()->setColumnStretchFactor(1, 0.001);
  plot_->axisRect()->insetLayout()->take(plot_->legend);
  side->addElement(0, 0, plot_->legend);
  side->addElement(1, 0, new QCPLayoutElement(plot_));
  side->setRowStretchFactor(0, 0.001);
  side->setMargins(QMargins(0, 6, 0, 0));
  plot_->legend->setVisible(false);
  connect(plot_, &QCustomPlot::mouseMove, this, &PlanCheckPage::showTooltip);
}

void PlanCheckPage::updateFrom(const RunSeries& series) {
  const uint64_t version = series.version();
  if (&series == source_ && version == source_version_) return;
  source_ = &series;
  source_version_ = version;

  const RunInfo info = series.info();
  if (info.config != info_.config || !info.started) {
    config_.reset();
    config_error_.clear();
    if (info.started) {
      try {
        config_ = protocol::config_from_json(info.config);
      } catch (const std::exception& e) {
        config_error_ = tr("The run's config cannot be read: %1").arg(e.what());
      }
    }
  }
  info_ = info;
  decisions_ = series.adaptiveR();
  const int64_t warmup = warmupSteps(configInt(info.config, "train", "steps", 0));
  // Only the rows after the warm-up are copied.
  const StepRange range =
      StepRange::between(static_cast<double>(warmup) + 1, StepRange::all().last);
  result_.measured =
      measureRun(series.steps(range), series.phases(range), series.ranks(range), warmup);
  recompute();
}

void PlanCheckPage::recompute() {
  result_.started = info_.started;
  result_.predicted.reset();
  result_.problem.clear();
  result_.profile = choice_->choice();
  result_.cpu_hint = false;
  if (!config_error_.isEmpty()) {
    result_.problem = config_error_;
  } else if (config_) {
    result_.layout = runLayout(*config_, info_.world_size, decisions_);
    if (!profile_error_.isEmpty()) {
      result_.problem = tr("The profile cannot be read: %1").arg(profile_error_);
    } else if (choice_->profile()) {
      try {
        result_.predicted = plan::predict(*config_, result_.layout.layout, *choice_->profile());
      } catch (const std::exception& e) {
        result_.problem = tr("The planner cannot place this run: %1").arg(e.what());
      }
    }
    result_.cpu_hint =
        QString::fromStdString(info_.device).startsWith("cpu") && isShippedProfile(result_.profile);
  }
  showFigures();
  emit recomputed();
}

void PlanCheckPage::showFigures() {
  hint_->setVisible(result_.cpu_hint);
  QString message;
  if (!result_.started) {
    message = tr("waiting for the run to start");
  } else if (!result_.problem.isEmpty()) {
    message = result_.problem;
  } else if (result_.measured.steps == 0) {
    message = tr("waiting for steps after the warm-up (step %1)").arg(result_.measured.warmup);
  }
  message_->setText(message);
  message_->setVisible(!message.isEmpty());
  figures_->setVisible(result_.started && config_);

  const double measured = result_.measured.step_ms;
  const double predicted = result_.predicted ? result_.predicted->step_ms : NAN;
  measured_value_->setText(result_.measured.steps ? formatStepTime(measured) : "—");
  predicted_value_->setText(formatStepTime(predicted));
  error_value_->setText(percentText(predictionError(predicted, measured)));
  detail_->setText(detailText());
  showShares();
  showRanks();
}

QString PlanCheckPage::detailText() const {
  const MeasuredRun& m = result_.measured;
  const plan::Layout& l = result_.layout.layout;
  QString r = QString::number(l.r);
  if (result_.layout.auto_r) {
    r += result_.layout.decided_at
             ? tr(" (adaptive_r auto: the decision at step %1)").arg(*result_.layout.decided_at)
             : tr(" (adaptive_r auto, no decision yet: read as 1)");
  }
  const QString nodes = l.nodes == 1 ? tr("1 node") : tr("%1 nodes").arg(l.nodes);
  const QString ranks = l.nproc_per_node == 1 ? tr("1 rank") : tr("%1 ranks").arg(l.nproc_per_node);
  QString text =
      m.steps == 1
          ? tr("Measured: one step after step %1").arg(m.warmup)
          : tr("Measured: the median over %1 steps after step %2").arg(m.steps).arg(m.warmup);
  text += tr(" (the first 10 % of the run's steps, at least 3, are warm-up).");
  text += tr(" Predicted for %1 × %2, r = %3, overlap %4, %5 on device %6, profile %7.")
              .arg(nodes, ranks, r)
              .arg(l.overlap)
              .arg(config_ ? QString::fromStdString(to_string(config_->train.dtype)) : QString())
              .arg(info_.device.empty() ? tr("unknown") : QString::fromStdString(info_.device))
              .arg(profileName(result_.profile));
  // The engine times the gradient all-reduce inside "other"; the planner names it apart.
  if (result_.predicted && result_.predicted->phases_ms.count("allreduce"))
    text += tr(" The measured phases count the gradient all-reduce in \"other\".");
  if (result_.predicted && !result_.predicted->fits)
    text += tr(" The planner says this run does not fit in the profile's memory (%1).")
                .arg(formatMemory(result_.predicted->memory_bytes));
  return text;
}

void PlanCheckPage::showShares() {
  const auto measured = phaseShares(result_.measured.phase_ms);
  const auto predicted = result_.predicted
                             ? phaseShares(orderedPhases(result_.predicted->phases_ms))
                             : std::vector<std::pair<std::string, double>>{};
  // Every phase of either bar, in kPhaseNames order, then any other.
  std::vector<std::string> names;
  for (const auto* shares : {&measured, &predicted})
    for (const auto& [name, share] : *shares)
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  std::stable_sort(names.begin(), names.end(),
                   [](const auto& a, const auto& b) { return phaseRank(a) < phaseRank(b); });
  auto shareOf = [](const std::vector<std::pair<std::string, double>>& shares,
                    const std::string& name) {
    for (const auto& [n, share] : shares)
      if (n == name) return share;
    return 0.0;
  };

  for (QCPBars* bars : bars_) plot_->removePlottable(bars);
  bars_.clear();
  plot_->clearItems();
  plot_->legend->clearItems();
  double left[2] = {0, 0};  // where each bar's next segment starts, in percent
  for (const std::string& name : names) {
    auto* bars = new QCPBars(plot_->yAxis, plot_->xAxis);
    bars->setName(QString::fromStdString(name));
    bars->setBrush(PhaseBreakdownPlot::phaseColor(name));
    bars->setPen(QPen(Qt::white, 1));
    bars->setWidth(0.6);
    if (!bars_.empty()) bars->moveAbove(bars_.back());
    const double values[2] = {100 * shareOf(predicted, name), 100 * shareOf(measured, name)};
    bars->setData({kPredictedKey, kMeasuredKey}, {values[0], values[1]}, true);
    for (int row = 0; row < 2; ++row) {
      if (values[row] >= 100 * kLabelledShare) {
        auto* label = new QCPItemText(plot_);
        label->position->setCoords(left[row] + values[row] / 2, row);
        label->setText(QString::number(values[row], 'f', 0) + "%");
        label->setColor(name == "other" ? QColor(40, 40, 40) : Qt::white);
        label->setClipToAxisRect(true);
      }
      left[row] += values[row];
    }
    bars_.push_back(bars);
  }
  // The legend reads like the bars, left to right.
  for (QCPBars* bars : bars_) bars->addToLegend();
  plot_->legend->setVisible(!bars_.empty());
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PlanCheckPage::showRanks() {
  const auto& slowest = result_.measured.slowest;
  const bool show = slowest.has_value() && info_.world_size > 1;
  ranks_title_->setVisible(show);
  ranks_table_->setVisible(show);
  if (!show) return;
  QString who = tr("rank %1").arg(slowest->rank);
  if (!slowest->host.empty()) who += " (" + QString::fromStdString(slowest->host) + ")";
  ranks_title_->setText(
      tr("%1 ranks: the slowest, %2, medians after the warm-up").arg(info_.world_size).arg(who));
  const auto& p = result_.predicted;
  const double predicted[4] = {p ? p->step_ms : NAN, p ? p->compute_ms : NAN, p ? p->a2a_ms : NAN,
                               p ? p->allreduce_ms : NAN};
  const double measured[4] = {slowest->step_ms, slowest->compute_ms, slowest->a2a_ms,
                              slowest->allreduce_ms};
  for (int row = 0; row < 4; ++row) {
    ranks_table_->item(row, 0)->setText(formatStepTime(predicted[row]));
    ranks_table_->item(row, 1)->setText(formatStepTime(measured[row]));
    ranks_table_->item(row, 2)->setText(
        percentText(predictionError(predicted[row], measured[row])));
  }
}

QString PlanCheckPage::tooltipAt(double key) const {
  const bool measured = std::fabs(key - kMeasuredKey) < 0.3;
  if (!measured && std::fabs(key - kPredictedKey) >= 0.3) return {};
  std::vector<std::pair<std::string, double>> phase_ms;
  double step_ms = NAN;
  if (measured) {
    phase_ms = result_.measured.phase_ms;
    step_ms = result_.measured.step_ms;
  } else if (result_.predicted) {
    phase_ms = orderedPhases(result_.predicted->phases_ms);
    step_ms = result_.predicted->step_ms;
  }
  if (phase_ms.empty()) return {};
  QString text = (measured ? tr("Measured: %1 per step (median)") : tr("Predicted: %1 per step"))
                     .arg(formatStepTime(step_ms));
  const auto shares = phaseShares(phase_ms);
  for (size_t p = 0; p < phase_ms.size(); ++p) {
    text += tr("\n%1  %2 (%3 %)")
                .arg(QString::fromStdString(phase_ms[p].first), formatStepTime(phase_ms[p].second))
                .arg(100 * shares[p].second, 0, 'f', 1);
  }
  return text;
}

void PlanCheckPage::showTooltip(QMouseEvent* event) {
  showPlotTooltip(plot_, event, tooltipAt(plot_->yAxis->pixelToCoord(event->position().y())));
}

}  // namespace moe::ui
