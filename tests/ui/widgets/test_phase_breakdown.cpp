// Phase times binned for drawing (bin_phases) and PhaseBreakdownPlot's stacked bars, from a
// RunSeries built by applying phases events.
#include <QtTest>

#include <cmath>
#include <limits>

#include "base/plot_data/phase_bins.h"
#include "base/telemetry/run_series.h"
#include "widgets/phase_breakdown_plot.h"

using moe::ui::PhaseBreakdownPlot;
using moe::ui::RunSeries;
namespace protocol = moe::protocol;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Steps 1..300. The first event reports experts and other only, so the series holds the phases in
// the order experts, other, gate, dispatch (first seen); the plot must stack them in kPhaseNames
// order. gate: 1 ms; experts: step ms; dispatch: 2 ms on even steps only; other: 0.5 ms.
void fillPhases(RunSeries* series) {
  for (int64_t s = 1; s <= 300; ++s) {
    protocol::PhasesEvent e;
    e.step = s;
    e.ms["experts"] = static_cast<double>(s);
    e.ms["other"] = 0.5;
    if (s > 1) e.ms["gate"] = 1.0;
    if (s % 2 == 0) e.ms["dispatch"] = 2.0;
    series->apply(e);
  }
}

}  // namespace

class TestPhaseBreakdown : public QObject {
  Q_OBJECT

 private slots:
  void binsAverageEachPhase() {
    moe::ui::PhaseColumns columns;
    columns.step = {10, 20, 30, 40, 50};
    columns.names = {"experts", "a2a", "gate"};
    columns.ms = {{1, 2, 3, 4, 5}, {kNaN, kNaN, kNaN, kNaN, kNaN}, {2, kNaN, 4, 4, 4}};
    const moe::ui::PhaseBins bins = moe::ui::binPhases(columns, 2);
    QCOMPARE(bins.names, (std::vector<std::string>{"gate", "experts"}));  // a2a never reported
    QCOMPARE(bins.size(), size_t{2});
    QCOMPARE(bins.first_step, (std::vector<double>{10, 30}));  // rows 0-1, then 2-4
    QCOMPARE(bins.last_step, (std::vector<double>{20, 50}));
    QCOMPARE(bins.centre, (std::vector<double>{15, 40}));
    QCOMPARE(bins.mean_ms[0], (std::vector<double>{2, 4}));  // the NaN is skipped
    QCOMPARE(bins.mean_ms[1], (std::vector<double>{1.5, 4}));
    QCOMPARE(bins.width, 25.0);  // (40 + one 10-step interval) / 2 bins
    QCOMPARE(bins.totalMs(1), 8.0);

    QVERIFY(moe::ui::binPhases({}, 150).size() == 0);
  }

  void plotStacksPhasesInSpecOrder() {
    RunSeries series;
    fillPhases(&series);
    QCOMPARE(series.phases().names,
             (std::vector<std::string>{"experts", "other", "gate", "dispatch"}));
    PhaseBreakdownPlot plot;
    plot.resize(600, 300);
    plot.updateFrom(series);

    const auto& bars = plot.bars();
    QCOMPARE(bars.size(), size_t{4});
    const QStringList order = {"gate", "dispatch", "experts", "other"};
    for (size_t i = 0; i < bars.size(); ++i) {
      QCOMPARE(bars[i]->name(), order[static_cast<int>(i)]);
      QCOMPARE(bars[i]->barBelow(), i == 0 ? nullptr : bars[i - 1]);
    }
    QCOMPARE(plot.legend->itemCount(), 4);  // read top-down like the stack
    QCOMPARE(static_cast<QCPAbstractLegendItem*>(plot.legend->itemWithPlottable(bars[3])),
             plot.legend->item(0));
    QCOMPARE(bars[0]->brush().color(), PhaseBreakdownPlot::phaseColor("gate"));
    QVERIFY(bars[0]->brush().color() != bars[3]->brush().color());

    // 300 steps into 150 bins of two steps each.
    QCOMPARE(plot.bins().size(), PhaseBreakdownPlot::kMaxBins);
    QCOMPARE(bars[2]->data()->size(), 150);
    QCOMPARE(bars[2]->width(), 2.0);
    QCOMPARE(bars[2]->data()->at(0)->key, 1.5);
    QCOMPARE(bars[2]->data()->at(0)->value, 1.5);  // experts: mean of 1 and 2 ms
    QCOMPARE(bars[2]->data()->at(149)->value, 299.5);
    QCOMPARE(bars[0]->data()->at(0)->value, 1.0);   // gate: step 1 did not report it
    QCOMPARE(bars[1]->data()->at(10)->value, 2.0);  // dispatch: only the even step reported
    QCOMPARE(plot.xAxis->range().lower, 0.5);
    QCOMPARE(plot.xAxis->range().upper, 300.5);
    QVERIFY(plot.yAxis->range().upper >= 299.5 + 3.5);

    const QString tip = plot.tooltipAt(2.2);
    QVERIFY2(tip.startsWith("steps 1–2: 5.00 ms per step\ngate  1.00 ms (20.0 %)"),
             qPrintable(tip));
    QVERIFY2(tip.contains("experts  1.50 ms (30.0 %)"), qPrintable(tip));
    QVERIFY(plot.tooltipAt(301.0).isEmpty());
  }

  void plotRereadsOnlyWhenTheSeriesChanged() {
    RunSeries series;
    fillPhases(&series);
    PhaseBreakdownPlot plot;
    plot.updateFrom(series);
    QCPBars* experts = plot.bars()[2];
    experts->data()->clear();  // a mark a re-read would overwrite
    plot.updateFrom(series);
    QCOMPARE(experts->data()->size(), 0);

    protocol::PhasesEvent e;
    e.step = 301;
    e.ms["experts"] = 301;
    series.apply(e);
    plot.updateFrom(series);
    QCOMPARE(plot.bars()[2], experts);  // same phases: the bars are kept, their data replaced
    QCOMPARE(experts->data()->size(), 150);
  }
};

QTEST_MAIN(TestPhaseBreakdown)
#include "test_phase_breakdown.moc"
