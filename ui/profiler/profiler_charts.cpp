#include "profiler/profiler_charts.h"

#include <qcustomplot.h>

#include <QGridLayout>

#include <algorithm>

#include "widgets/plot_export.h"
#include "widgets/plot_style.h"

namespace moe::ui {

namespace {

constexpr double kGroupWidth = 0.8;  // of one config's slot on the x axis

double trainTokens(const BenchResult& r) {
  return r.train_tokens_per_s;
}
double tflops(const BenchResult& r) {
  return r.train_tflops;
}
double efficiency(const BenchResult& r) {
  return r.efficiency;
}

// The stack of one config: the phases as the engine times them, except that "backward" holds
// the *_backward phases inside it, so the stack shows its rest beside them (no time twice).
QMap<QString, double> stackedPhases(const BenchResult& r) {
  QMap<QString, double> out = r.phases_ms;
  if (out.contains(QStringLiteral("backward"))) {
    double inner = 0;
    for (auto it = out.begin(); it != out.end(); ++it) {
      if (it.key().endsWith(QLatin1String("_backward"))) inner += it.value();
    }
    out[QStringLiteral("backward")] = std::max(0.0, out.value(QStringLiteral("backward")) - inner);
  }
  return out;
}

// Forward phases in the order they run, then the backward ones.
int phaseOrder(const QString& name) {
  static const QStringList kOrder{
      "gate",    "dispatch", "a2a", "experts", "combine", "dispatch_backward", "combine_backward",
      "backward"};
  const int i = static_cast<int>(kOrder.indexOf(name));
  return i < 0 ? static_cast<int>(kOrder.size()) : i;
}

QCPBars* newBars(QCustomPlot* plot, const QString& name, const QColor& color, double width) {
  auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
  bars->setName(name);
  bars->setBrush(color);
  bars->setPen(QPen(color.darker(130)));
  bars->setWidthType(QCPBars::wtPlotCoords);
  bars->setWidth(width);
  return bars;
}

// Where bar `slot` of `slots` side by side, each `width` wide, sits against its label's centre.
double slotOffset(int slot, int slots, double width) {
  return (slot - (slots - 1) / 2.0) * width;
}

// `inset_legend`: the legend sits over the plot's top right, so the bars get headroom below it.
void finish(QCustomPlot* plot, int labels, double top, bool legend, bool inset_legend = true) {
  plot->xAxis->setRange(-0.6, std::max(labels, 1) - 0.4);
  const double headroom = legend && inset_legend ? 1.1 + 0.09 * plot->legend->itemCount() : 1.12;
  plot->yAxis->setRange(0, top > 0 ? top * headroom : 1);
  plot->legend->setVisible(legend);
  plot->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace

ProfilerCharts::ProfilerCharts(QWidget* parent) : QWidget(parent) {
  auto make = [this](const QString& y_label, const QString& base_name) {
    auto* plot = new QCustomPlot(this);
    stylePlot(plot, QString(), y_label);
    plot->setInteractions({});  // one bar per config: nothing to zoom
    plot->xAxis->grid()->setVisible(false);
    QFont small = plot->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    plot->legend->setFont(small);
    plot->legend->setBrush(QColor(255, 255, 255, 210));
    plot->legend->setBorderPen(Qt::NoPen);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    installPlotMenu(plot, base_name);
    return plot;
  };
  tokens_ = make(tr("train tokens/s"), QStringLiteral("profiler-tokens"));
  tflops_ = make(tr("TFLOP/s"), QStringLiteral("profiler-tflops"));
  efficiency_ = make(tr("efficiency vs GEMM ceiling"), QStringLiteral("profiler-efficiency"));
  phases_ = make(tr("ms per layer step"), QStringLiteral("profiler-phases"));
  // The phases' legend beside the plot, top-aligned: seven entries over the bars would hide them.
  auto* side = new QCPLayoutGrid;
  phases_->plotLayout()->addElement(0, 1, side);
  phases_->plotLayout()->setColumnStretchFactor(1, 0.001);
  phases_->axisRect()->insetLayout()->take(phases_->legend);
  side->addElement(0, 0, phases_->legend);
  side->addElement(1, 0, new QCPLayoutElement(phases_));
  side->setRowStretchFactor(0, 0.001);
  side->setMargins(QMargins(0, 6, 0, 0));
  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setSpacing(4);
  grid->addWidget(tokens_, 0, 0);
  grid->addWidget(tflops_, 0, 1);
  grid->addWidget(efficiency_, 1, 0);
  grid->addWidget(phases_, 1, 1);
}

void ProfilerCharts::setSweeps(const QList<ChartSweep>& sweeps) {
  labels_.clear();
  for (const ChartSweep& s : sweeps) {
    for (const BenchResult& r : s.results) {
      const QString label = shortConfigLabel(r.config);
      if (!labels_.contains(label)) labels_ << label;
    }
  }
  fillPlot(tokens_, sweeps, true, &trainTokens);
  fillPlot(tflops_, sweeps, false, &tflops);
  fillPlot(efficiency_, sweeps, false, &efficiency);
  fillPhases(sweeps);
}

int ProfilerCharts::labelIndex(const BenchResult& r) const {
  return static_cast<int>(labels_.indexOf(shortConfigLabel(r.config)));
}

void ProfilerCharts::setLabelAxis(QCustomPlot* plot) {
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  for (int i = 0; i < labels_.size(); ++i) ticker->addTick(i, labels_[i]);
  plot->xAxis->setTicker(ticker);
  // Many or long labels lean so that neighbours do not overwrite each other.
  int longest = 0;
  for (const QString& l : labels_) longest = std::max(longest, static_cast<int>(l.size()));
  plot->xAxis->setTickLabelRotation(labels_.size() * longest > 60 ? 30 : 0);
}

void ProfilerCharts::fillPlot(QCustomPlot* plot, const QList<ChartSweep>& sweeps, bool with_naive,
                              double (*value)(const BenchResult&)) {
  plot->clearPlottables();
  setLabelAxis(plot);
  bool naive = false;
  if (with_naive) {
    for (const ChartSweep& s : sweeps) {
      for (const BenchResult& r : s.results) naive = naive || r.naive_train_tokens_per_s > 0;
    }
  }
  const int per_sweep = naive ? 2 : 1;
  const int bars_per_label = std::max(1, static_cast<int>(sweeps.size()) * per_sweep);
  const double width = kGroupWidth / bars_per_label;
  double top = 0;
  for (int s = 0; s < sweeps.size(); ++s) {
    for (int n = 0; n < per_sweep; ++n) {
      const int slot = s * per_sweep + n;
      const double offset = slotOffset(slot, bars_per_label, width);
      const QColor color = n == 0 ? seriesColor(s) : seriesColor(s).lighter(160);
      QString name = sweeps.size() > 1 ? sweeps[s].name : tr("our layer");
      if (n == 1) name = sweeps.size() > 1 ? name + tr(" (naive)") : tr("naive GShard");
      QCPBars* bars = newBars(plot, name, color, width);
      QVector<double> keys, values;
      for (const BenchResult& r : sweeps[s].results) {
        const double v = n == 0 ? value(r) : r.naive_train_tokens_per_s;
        keys << labelIndex(r) + offset;
        values << v;
        top = std::max(top, v);
      }
      bars->setData(keys, values);
    }
  }
  finish(plot, static_cast<int>(labels_.size()), top, bars_per_label > 1);
}

void ProfilerCharts::fillPhases(const QList<ChartSweep>& sweeps) {
  phases_->clearPlottables();
  phases_->clearItems();
  setLabelAxis(phases_);
  QStringList names;
  for (const ChartSweep& s : sweeps) {
    for (const BenchResult& r : s.results) {
      const auto stack = stackedPhases(r);
      for (auto it = stack.begin(); it != stack.end(); ++it) {
        if (!names.contains(it.key())) names << it.key();
      }
    }
  }
  std::stable_sort(names.begin(), names.end(), [](const QString& a, const QString& b) {
    return phaseOrder(a) < phaseOrder(b);
  });
  const int count = std::max(1, static_cast<int>(sweeps.size()));
  const double width = kGroupWidth / count;
  QVector<double> totals(labels_.size() * count, 0.0);
  for (int s = 0; s < sweeps.size(); ++s) {
    const double offset = slotOffset(s, count, width);
    QCPBars* below = nullptr;
    for (int p = 0; p < names.size(); ++p) {
      QColor color = seriesColor(p);
      if (s > 0) color = color.lighter(100 + 25 * s);  // the later sweeps' stacks paler
      QCPBars* bars = newBars(phases_, names[p], color, width);
      if (s > 0) bars->removeFromLegend();  // one legend entry per phase
      QVector<double> keys, values;
      for (const BenchResult& r : sweeps[s].results) {
        const int label = labelIndex(r);
        const double ms = stackedPhases(r).value(names[p]);
        keys << label + offset;
        values << ms;
        totals[label * count + s] += ms;
      }
      bars->setData(keys, values);
      if (below) bars->moveAbove(below);
      below = bars;
    }
  }
  const bool labelled = sweeps.size() > 1;
  if (labelled) labelStacks(sweeps, totals, width);
  double top = totals.isEmpty() ? 0 : *std::max_element(totals.begin(), totals.end());
  if (labelled) top *= 1.1;  // the tallest stack's label stays inside the plot
  finish(phases_, static_cast<int>(labels_.size()), top, !names.isEmpty(), false);
}

// Compared sweeps share the phases' colours (paler for later ones), so each stack says whose it
// is: "#3" over it, the number its sweep has in the other charts' legends.
void ProfilerCharts::labelStacks(const QList<ChartSweep>& sweeps, const QVector<double>& totals,
                                 double width) {
  const int count = static_cast<int>(sweeps.size());
  QFont small = phases_->font();
  small.setPointSizeF(small.pointSizeF() * 0.8);
  for (int s = 0; s < count; ++s) {
    const double offset = slotOffset(s, count, width);
    for (const BenchResult& r : sweeps[s].results) {
      const int label = labelIndex(r);
      auto* text = new QCPItemText(phases_);
      text->setText(sweeps[s].name.section(QLatin1Char(' '), 0, 0));
      text->setFont(small);
      text->setColor(QColor(80, 80, 80));
      text->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
      text->position->setCoords(label + offset, totals[label * count + s]);
      text->setPadding(QMargins(0, 0, 0, 2));
    }
  }
}

}  // namespace moe::ui
