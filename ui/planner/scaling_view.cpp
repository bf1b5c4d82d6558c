#include "planner/scaling_view.h"

#include <qcustomplot.h>

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <exception>

#include "base/planner/plan_model.h"
#include "base/planner/planner_format.h"
#include "base/planner/planner_profile_choice.h"
#include "base/storage/worker_task.h"
#include "planner/planner_profile_combo.h"
#include "widgets/plot_export.h"
#include "widgets/plot_style.h"

namespace moe::ui {
namespace {

const QColor kNoFit(200, 40, 40);
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
const int kLastSize = static_cast<int>(std::log2(double(ScalingView::kMaxRanks)));

double xOf(int64_t world) {
  return std::log2(double(world));
}

QString labelFor(const ScalingPoint& point) {
  const QString r = QStringLiteral("r=%1").arg(point.best.layout.r);
  return point.best.prediction.fits ? r : r + QLatin1Char('\n') + ScalingView::tr("does not fit");
}

QCPGraph* newPointGraph(QCustomPlot* plot, const QColor& color, bool line) {
  QCPGraph* graph = plot->addGraph();
  graph->setPen(QPen(color, 2));
  graph->setLineStyle(line ? QCPGraph::lsLine : QCPGraph::lsNone);
  graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color, color, 7));
  return graph;
}

QCPItemText* newLabel(QCustomPlot* plot, double x, double y, const QString& text,
                      const QColor& color) {
  auto* label = new QCPItemText(plot);
  label->position->setType(QCPItemPosition::ptPlotCoords);
  label->position->setCoords(x, y);
  label->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
  label->setPadding(QMargins(0, 0, 0, 6));
  label->setColor(color);
  label->setClipToAxisRect(false);
  label->setText(text);
  return label;
}

QCPBars* newBars(QCustomPlot* plot, const QString& name, const QColor& color) {
  auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
  bars->setName(name);
  bars->setBrush(color);
  bars->setPen(QPen(color.darker(130)));
  bars->setWidthType(QCPBars::wtPlotCoords);
  bars->setWidth(0.6);
  return bars;
}

}  // namespace

ScalingView::ScalingView(QWidget* parent) : QWidget(parent) {
  choice_ = new PlannerProfileChoice(this);
  combo_ = new PlannerProfileCombo(choice_, this);
  export_ = new QPushButton(tr("Export…"), this);
  export_->setToolTip(
      tr("The table as CSV (one row per size and r), or the three charts as "
         "PNG, SVG or PDF"));
  status_ = new QLabel(this);
  status_->setTextFormat(Qt::PlainText);  // names a file the user picked
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  auto make = [this](const QString& title, const QString& y_label, const QString& base_name) {
    auto* plot = new QCustomPlot(this);
    stylePlot(plot, tr("GPUs"), y_label);
    plot->setInteractions({});  // eleven sizes: nothing to zoom
    plot->plotLayout()->insertRow(0);
    QFont bold = plot->font();
    bold.setBold(true);
    plot->plotLayout()->addElement(0, 0, new QCPTextElement(plot, title, bold));
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int i = 0; i <= kLastSize; ++i) ticker->addTick(i, QString::number(1 << i));
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setRange(-0.6, kLastSize + 0.6);
    plot->xAxis->grid()->setZeroLinePen(Qt::NoPen);
    plot->yAxis->grid()->setZeroLinePen(Qt::NoPen);
    plot->setMouseTracking(true);
    installPlotMenu(plot, base_name);
    connect(plot, &QCustomPlot::mouseMove, this,
            [this, plot](QMouseEvent* event) { showHover(plot, event); });
    return plot;
  };
  throughput_ = make(tr("Throughput of the best layout"), tr("tokens/s"),
                     QStringLiteral("scaling-throughput"));
  throughput_->yAxis->setScaleType(QCPAxis::stLogarithmic);
  throughput_->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
  throughput_->yAxis->setNumberFormat(QStringLiteral("eb"));
  throughput_->yAxis->setNumberPrecision(0);
  memory_ =
      make(tr("Memory per rank of the best layout"), tr("GiB"), QStringLiteral("scaling-memory"));
  memory_->yAxis->setScaleType(QCPAxis::stLogarithmic);
  memory_->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
  // Shares, not milliseconds: the step time spans orders of magnitude across the sizes; each
  // bar carries its step time above it.
  breakdown_ = make(tr("Step split of the best layout (step time above each bar)"),
                    tr("% of the step"), QStringLiteral("scaling-breakdown"));
  QFont small = breakdown_->font();
  small.setPointSizeF(small.pointSizeF() * 0.85);
  breakdown_->legend->setFont(small);
  breakdown_->legend->setVisible(true);
  breakdown_->legend->setBorderPen(Qt::NoPen);
  breakdown_->legend->setFillOrder(QCPLegend::foColumnsFirst);
  breakdown_->axisRect()->insetLayout()->take(breakdown_->legend);
  // Under the title, above the bars, centred between two empty cells.
  breakdown_->plotLayout()->insertRow(1);
  auto* legend_row = new QCPLayoutGrid;
  breakdown_->plotLayout()->addElement(1, 0, legend_row);
  breakdown_->plotLayout()->setRowStretchFactor(1, 0.001);
  legend_row->addElement(0, 0, new QCPLayoutElement(breakdown_));
  legend_row->addElement(0, 1, breakdown_->legend);
  legend_row->addElement(0, 2, new QCPLayoutElement(breakdown_));
  legend_row->setColumnStretchFactors({1, 0.001, 1});
  breakdown_->legend->setMargins(QMargins(4, 0, 4, 0));
  breakdown_->yAxis->setRange(0, 118);
  breakdown_->yAxis->setTicker(QSharedPointer<QCPAxisTickerFixed>(new QCPAxisTickerFixed));
  qSharedPointerCast<QCPAxisTickerFixed>(breakdown_->yAxis->ticker())->setTickStep(25);

  auto* bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("Profile"), this));
  bar->addWidget(combo_, 1);
  bar->addStretch();
  bar->addWidget(export_);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(bar);
  layout->addWidget(status_);
  for (QCustomPlot* plot : {throughput_, memory_, breakdown_}) layout->addWidget(plot, 1);

  connect(choice_, &PlannerProfileChoice::loaded, this,
          [this](const plan::HardwareProfile& profile) {
            profile_ = profile;
            recompute();
          });
  connect(choice_, &PlannerProfileChoice::failed, this, [this](const QString& error) {
    profile_.reset();
    recompute();
    showStatus(tr("Profile %1: %2").arg(choice_->choice(), error), true);
  });
  connect(export_, &QPushButton::clicked, this, &ScalingView::chooseExportPath);
  connect(this, &ScalingView::exported, this, [this](const QString& path, const QString& error) {
    showStatus(error.isEmpty() ? tr("Wrote %1").arg(path) : tr("Not written: %1").arg(error),
               !error.isEmpty());
  });
  showStatus(tr("Loading the profile…"), false);
  choice_->load();
}

void ScalingView::setConfig(const protocol::RunConfig& config) {
  config_ = config;
  if (profile_) recompute();
}

void ScalingView::recompute() {
  table_.clear();
  points_.clear();
  QString problem;
  if (!config_) {
    problem = tr("No experiment to plan.");
  } else if (!plan::can_estimate(*config_)) {
    problem = tr("The experiment has problems to fix before it can be planned.");
  } else if (profile_) {
    try {
      table_ = plan::scaling_table(*config_, *profile_, kMaxRanks);
    } catch (const std::exception& e) {
      problem = QString::fromStdString(e.what());
    }
    points_ = scalingPoints(table_);
    if (problem.isEmpty() && points_.empty())
      problem = tr("The experiment runs on none of 1, 2, 4 … %1 GPUs: its experts and batch must "
                   "divide among the ranks.")
                    .arg(kMaxRanks);
  }
  drawThroughput();
  drawMemory();
  drawBreakdown();
  export_->setEnabled(!table_.empty());
  if (!problem.isEmpty()) {
    showStatus(problem, true);
  } else if (profile_) {
    const auto no_fit = std::count_if(points_.begin(), points_.end(), [](const ScalingPoint& p) {
      return !p.best.prediction.fits;
    });
    const ScalingPoint* fastest = nullptr;
    for (const ScalingPoint& p : points_) {
      if (p.best.prediction.fits &&
          (!fastest || p.best.prediction.tokens_per_s > fastest->best.prediction.tokens_per_s))
        fastest = &p;
    }
    QString text = tr("On %1: runs on %2 of the %3 sizes")
                       .arg(QString::fromStdString(profile_->name))
                       .arg(points_.size())
                       .arg(kLastSize + 1);
    if (no_fit > 0)
      text += tr("; %1 do not fit in the %2 of one %3")
                  .arg(no_fit)
                  .arg(formatMemory(profile_->device.memory_bytes),
                       QString::fromStdString(profile_->device.name));
    if (fastest)
      text += tr(". Fastest that fits: %1 GPUs, r=%2, %3")
                  .arg(fastest->world)
                  .arg(fastest->best.layout.r)
                  .arg(formatTokensPerSecond(fastest->best.prediction.tokens_per_s));
    showStatus(text + QLatin1Char('.'), false);
  }
  emit redrawn();
}

void ScalingView::drawThroughput() {
  QCustomPlot* plot = throughput_;
  plot->clearGraphs();
  plot->clearItems();
  QCPGraph* all = newPointGraph(plot, seriesColor(0), true);
  QCPGraph* no_fit = newPointGraph(plot, kNoFit, false);
  no_fit->setScatterStyle(
      QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(kNoFit, 2), Qt::white, 9));
  double low = 0, high = 0;
  for (const ScalingPoint& p : points_) {
    const double y = p.best.prediction.tokens_per_s;
    if (!(y > 0)) continue;
    all->addData(xOf(p.world), y);
    if (!p.best.prediction.fits) no_fit->addData(xOf(p.world), y);
    newLabel(plot, xOf(p.world), y, labelFor(p),
             p.best.prediction.fits ? QColor(40, 40, 40) : kNoFit);
    low = low > 0 ? std::min(low, y) : y;
    high = std::max(high, y);
  }
  plot->yAxis->setRange(low > 0 ? low / 2 : 1, high > 0 ? high * 8 : 10);
  plot->replot();
}

void ScalingView::drawMemory() {
  QCustomPlot* plot = memory_;
  plot->clearGraphs();
  plot->clearItems();
  QCPGraph* all = newPointGraph(plot, seriesColor(1), true);
  QCPGraph* no_fit = newPointGraph(plot, kNoFit, false);
  no_fit->setScatterStyle(
      QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(kNoFit, 2), Qt::white, 9));
  double low = 0, high = 0;
  auto span = [&low, &high](double gib) {
    low = low > 0 ? std::min(low, gib) : gib;
    high = std::max(high, gib);
  };
  for (const ScalingPoint& p : points_) {
    const double gib = p.best.prediction.memory_bytes / kGiB;
    if (!(gib > 0)) continue;
    all->addData(xOf(p.world), gib);
    if (!p.best.prediction.fits) no_fit->addData(xOf(p.world), gib);
    span(gib);
  }
  if (profile_ && profile_->device.memory_bytes > 0) {
    const double device = profile_->device.memory_bytes / kGiB;
    auto* line = new QCPItemStraightLine(plot);
    line->point1->setCoords(0, device);
    line->point2->setCoords(1, device);
    line->setPen(QPen(kNoFit, 1.5, Qt::DashLine));
    auto* label =
        newLabel(plot, kLastSize + 0.5, device,
                 tr("device memory %1").arg(formatMemory(profile_->device.memory_bytes)), kNoFit);
    label->setPositionAlignment(Qt::AlignBottom | Qt::AlignRight);
    span(device);
  }
  plot->yAxis->setRange(low > 0 ? low / 2 : 0.1, high > 0 ? high * 4 : 10);
  plot->replot();
}

void ScalingView::drawBreakdown() {
  QCustomPlot* plot = breakdown_;
  plot->clearPlottables();
  plot->clearItems();
  QCPBars* compute = newBars(plot, tr("compute"), seriesColor(0));
  QCPBars* a2a = newBars(plot, tr("all-to-all"), seriesColor(1));
  QCPBars* allreduce = newBars(plot, tr("all-reduce"), seriesColor(2));
  a2a->moveAbove(compute);
  allreduce->moveAbove(a2a);
  for (const ScalingPoint& p : points_) {
    const plan::StepPrediction& s = p.best.prediction;
    const double total = s.compute_ms + s.a2a_ms + s.allreduce_ms;
    if (!(total > 0)) continue;
    compute->addData(xOf(p.world), 100 * s.compute_ms / total);
    a2a->addData(xOf(p.world), 100 * s.a2a_ms / total);
    allreduce->addData(xOf(p.world), 100 * s.allreduce_ms / total);
    newLabel(plot, xOf(p.world), 100, formatStepTime(s.step_ms),
             s.fits ? QColor(40, 40, 40) : kNoFit);
  }
  plot->replot();
}

const ScalingPoint* ScalingView::pointAt(int64_t world) const {
  for (const ScalingPoint& p : points_)
    if (p.world == world) return &p;
  return nullptr;
}

QString ScalingView::pointLabel(int64_t world) const {
  const ScalingPoint* p = pointAt(world);
  return p ? labelFor(*p) : QString();
}

QString ScalingView::pointToolTip(int64_t world) const {
  const ScalingPoint* p = pointAt(world);
  if (!p || !profile_) return {};
  const plan::Layout& l = p->best.layout;
  const plan::StepPrediction& s = p->best.prediction;
  QStringList lines;
  lines << tr("%1 GPUs: %2 × %3 ranks per node, r=%4")
               .arg(world)
               .arg(l.nodes == 1 ? tr("1 node") : tr("%1 nodes").arg(l.nodes))
               .arg(l.nproc_per_node)
               .arg(l.r);
  lines << tr("step %1, %2").arg(formatStepTime(s.step_ms), formatTokensPerSecond(s.tokens_per_s));
  lines << tr("compute %1, all-to-all %2, all-reduce %3")
               .arg(formatStepTime(s.compute_ms), formatStepTime(s.a2a_ms),
                    formatStepTime(s.allreduce_ms));
  lines << tr("memory per rank %1 of %2%3")
               .arg(formatMemory(s.memory_bytes), formatMemory(profile_->device.memory_bytes),
                    s.fits ? QString() : tr(": does not fit"));
  if (p->layouts.size() > 1) {
    QStringList others;
    for (const plan::LayoutPrediction& o : p->layouts)
      others << tr("r=%1 %2%3")
                    .arg(o.layout.r)
                    .arg(formatStepTime(o.prediction.step_ms),
                         o.prediction.fits ? QString() : tr(" (no fit)"));
    lines << tr("every r: %1").arg(others.join(QStringLiteral(", ")));
  }
  return lines.join(QLatin1Char('\n'));
}

QString ScalingView::statusText() const {
  return status_->text();
}

void ScalingView::showStatus(const QString& text, bool problem) {
  status_->setStyleSheet(problem ? QStringLiteral("color: %1").arg(kNoFit.name()) : QString());
  status_->setText(text);
}

void ScalingView::showHover(QCustomPlot* plot, QMouseEvent* event) {
  const double x = plot->xAxis->pixelToCoord(event->position().x());
  const long step = std::lround(x);
  const QString tip = step >= 0 && step <= kLastSize && std::fabs(x - double(step)) < 0.4
                          ? pointToolTip(int64_t{1} << step)
                          : QString();
  if (tip.isEmpty()) {
    QToolTip::hideText();
  } else {
    QToolTip::showText(event->globalPosition().toPoint(), tip, plot);
  }
}

void ScalingView::exportTo(const QString& path) {
  PlotFormat format;
  if (!plotFormatForPath(path, &format)) {
    emit exported(path, tr("%1: give a .csv, .png, .svg or .pdf file name").arg(path));
    return;
  }
  if (format == PlotFormat::Csv) {
    runOnWorker(
        this,
        [table = table_, path] {
          QString error;
          writeScalingCsv(table, path, &error);
          return error;
        },
        [this, path](const QString& error) { emit exported(path, error); });
    return;
  }
  // QCustomPlot draws on the GUI thread; the writers are the app's plot export.
  const QFileInfo info(path);
  const QString base = info.dir().filePath(info.completeBaseName());
  const QString suffix = QLatin1Char('.') + info.suffix();
  QString error;
  for (const auto& [plot, name] :
       {std::pair{throughput_, "throughput"}, std::pair{memory_, "memory"},
        std::pair{breakdown_, "breakdown"}}) {
    if (!exportPlot(plot, base + QLatin1Char('-') + QLatin1String(name) + suffix, &error)) break;
  }
  emit exported(path, error);
}

void ScalingView::chooseExportPath() {
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Export the scaling plan"), QStringLiteral("scaling.csv"),
      tr("CSV tables (*.csv);;PNG images (*.png);;SVG drawings (*.svg);;PDF documents (*.pdf)"));
  if (!path.isEmpty()) exportTo(path);
}

}  // namespace moe::ui
