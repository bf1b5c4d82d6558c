// The load views drawn from a RunSeries built by applying expert_load events: ExpertLoadHeatmap
// (cells, counts and relative, decimation, re-reading only on change), LayerLoadHeatmap (layers
// of different widths) and ExpertLoadBars (kept/overflow split, capacity line, dropless).
#include <QtTest>

#include <cmath>
#include <vector>

#include "base/telemetry/run_series.h"
#include "widgets/expert_load_bars.h"
#include "widgets/expert_load_heatmap.h"
#include "widgets/layer_load_heatmap.h"

using moe::ui::ExpertLoadBars;
using moe::ui::ExpertLoadHeatmap;
using moe::ui::LayerLoadHeatmap;
using moe::ui::RunSeries;
namespace protocol = moe::protocol;

namespace {

protocol::ExpertLoadEvent loadEvent(int64_t step, int64_t layer, std::vector<int64_t> counts,
                                    int64_t capacity) {
  protocol::ExpertLoadEvent e;
  e.step = step;
  e.layer = layer;
  e.capacity = capacity;
  e.counts = counts;
  double total = 0, kept = 0;
  for (int64_t c : counts) {
    e.kept.push_back(std::min(c, capacity));
    total += static_cast<double>(c);
    kept += static_cast<double>(e.kept.back());
  }
  e.dropped_frac = total > 0 ? 1 - kept / total : 0;
  e.importance.assign(counts.size(), 1.0 / static_cast<double>(counts.size()));
  return e;
}

// Steps 1..8. Layer 0: 4 experts, capacity 20, expert e gets step * (e + 1) tokens (the mean is
// 2.5 * step, so the relative load is (e + 1) / 2.5). Layer 1: 2 experts, dropless (the engine
// reports the busiest expert's demand as the capacity), step and 3 * step tokens.
void fillTwoLayers(RunSeries* series) {
  for (int64_t s = 1; s <= 8; ++s) {
    series->apply(loadEvent(s, 0, {s, 2 * s, 3 * s, 4 * s}, 20));
    series->apply(loadEvent(s, 1, {s, 3 * s}, 3 * s));
  }
}

bool near(double a, double b, double tolerance = 1e-4) {
  return std::abs(a - b) <= tolerance;
}

}  // namespace

class TestLoadViews : public QObject {
  Q_OBJECT

 private slots:
  void heatmapCellsAreCountsPerStep() {
    RunSeries series;
    fillTwoLayers(&series);
    ExpertLoadHeatmap map;
    map.resize(600, 300);
    map.updateFrom(series);

    QCOMPARE(map.matrix().bins, size_t{8});  // fewer steps than cells: one step per cell
    QCOMPARE(map.matrix().experts, size_t{4});
    QCPColorMapData* data = map.colorMap()->data();
    QCOMPARE(data->keySize(), 8);
    QCOMPARE(data->valueSize(), 4);
    QCOMPARE(data->keyRange().lower, 1.0);  // cells centred on their steps
    QCOMPARE(data->keyRange().upper, 8.0);
    QCOMPARE(map.xAxis->range().lower, 0.5);
    QCOMPARE(map.xAxis->range().upper, 8.5);
    QCOMPARE(map.yAxis->range().upper, 3.5);
    QCOMPARE(data->cell(2, 1), 6.0);  // step 3, expert 1
    QCOMPARE(data->cell(7, 3), 32.0);
    QCOMPARE(map.colorMap()->dataRange().upper, 32.0);
    QCOMPARE(map.tooltipAt(3.2, 1.1), QString("expert 1, step 3: 6 tokens (0.8x mean)"));
    QVERIFY(map.tooltipAt(9.0, 1.0).isEmpty());  // past the last step
    QVERIFY(map.tooltipAt(3.0, 4.0).isEmpty());  // no expert 4

    map.setValueKind(ExpertLoadHeatmap::Kind::kRelative);
    QVERIFY(near(data->cell(2, 1), 0.8));
    QVERIFY(near(data->cell(5, 3), 1.6));
    QCOMPARE(map.colorMap()->dataRange().lower, 0.0);
    QCOMPARE(map.colorMap()->dataRange().upper, 2.0);
  }

  void heatmapFollowsTheLayer() {
    RunSeries series;
    fillTwoLayers(&series);
    ExpertLoadHeatmap map;
    map.resize(600, 300);
    map.setLayer(1);
    map.updateFrom(series);
    QCOMPARE(map.matrix().experts, size_t{2});
    QCOMPARE(map.colorMap()->data()->cell(7, 1), 24.0);

    map.setLayer(5);  // no such layer: nothing drawn
    map.updateFrom(series);
    QCOMPARE(map.matrix().bins, size_t{0});
    QVERIFY(!map.colorMap()->visible());
    QVERIFY(map.tooltipAt(1, 0).isEmpty());
  }

  void heatmapAveragesLongRunsIntoBins() {
    RunSeries series;
    for (int64_t s = 1; s <= 400; ++s) series.apply(loadEvent(s, 0, {s, s + 1, s + 2}, 0));
    ExpertLoadHeatmap map;
    map.resize(320, 240);
    map.replot();  // lay out, so the axis rect has its width
    const size_t expected = ExpertLoadHeatmap::binsForWidth(map.axisRect()->width());
    map.updateFrom(series);
    const moe::ui::LoadMatrix& m = map.matrix();
    QCOMPARE(m.bins, expected);
    QVERIFY(m.bins >= 50 && m.bins < 400);
    QCOMPARE(m.first_step.front(), 1.0);
    QCOMPARE(m.last_step.back(), 400.0);
    for (size_t b = 0; b < m.bins; ++b) {
      // Steps are contiguous, so a bin's mean of s + e is its middle step + e.
      const double middle = (m.first_step[b] + m.last_step[b]) / 2;
      for (size_t e = 0; e < 3; ++e) {
        QVERIFY2(near(map.colorMap()->data()->cell(static_cast<int>(b), static_cast<int>(e)),
                      middle + static_cast<double>(e), 1e-3),
                 qPrintable(QString("bin %1 expert %2").arg(b).arg(e)));
      }
    }
    // Some bins hold two steps (400 steps in fewer than 400 bins); the tooltip names the range.
    size_t wide = 0;
    while (wide < m.bins && m.last_step[wide] == m.first_step[wide]) ++wide;
    QVERIFY(wide < m.bins);
    const QString tip = map.tooltipAt(m.last_step[wide], 2);
    const QString expected_tip =
        QString("expert 2, steps %1–%2: ").arg(m.first_step[wide]).arg(m.last_step[wide]);
    QVERIFY2(tip.startsWith(expected_tip), qPrintable(tip));
    QCOMPARE(map.binsForWidth(10), size_t{50});
    QCOMPARE(map.binsForWidth(5000), size_t{600});
  }

  void heatmapRereadsOnlyWhenSomethingChanged() {
    RunSeries series;
    fillTwoLayers(&series);
    ExpertLoadHeatmap map;
    map.resize(600, 300);
    map.updateFrom(series);
    map.colorMap()->data()->setCell(0, 0, -1);  // a mark a re-read would overwrite
    map.updateFrom(series);
    QCOMPARE(map.colorMap()->data()->cell(0, 0), -1.0);

    series.apply(loadEvent(9, 0, {9, 18, 27, 36}, 20));
    map.updateFrom(series);
    QCOMPARE(map.colorMap()->data()->cell(0, 0), 1.0);
    QCOMPARE(map.matrix().bins, size_t{9});
  }

  void layerHeatmapShowsRelativeLoadPerLayer() {
    RunSeries series;
    fillTwoLayers(&series);
    LayerLoadHeatmap map;
    map.resize(600, 300);
    map.updateFrom(series);
    QCOMPARE(map.loads().size(), size_t{2});
    QCOMPARE(map.maxExperts(), size_t{4});
    QCPColorMapData* data = map.colorMap()->data();
    QCOMPARE(data->keySize(), 4);          // experts
    QCOMPARE(data->valueSize(), 2);        // layers
    QVERIFY(near(data->cell(0, 0), 0.4));  // 8 of a mean of 20
    QVERIFY(near(data->cell(2, 0), 1.2));
    QVERIFY(near(data->cell(1, 1), 1.5));   // 24 of a mean of 16
    QVERIFY(std::isnan(data->cell(3, 1)));  // layer 1 has no expert 3
    QCOMPARE(map.tooltipAt(1.1, 0.9), QString("layer 1, expert 1: 24 tokens, 1.50x mean (step 8)"));
    QCOMPARE(map.tooltipAt(3.0, 1.0), QString("layer 1 has 2 experts"));
    QVERIFY(map.tooltipAt(4.0, 0.0).isEmpty());

    series.apply(loadEvent(9, 1, {16, 16}, 0));  // layer 1 balanced now
    map.updateFrom(series);
    QVERIFY(near(map.colorMap()->data()->cell(1, 1), 1.0));
  }

  void barsSplitKeptAndOverflowAtCapacity() {
    RunSeries series;
    fillTwoLayers(&series);
    ExpertLoadBars bars;
    bars.resize(600, 300);
    bars.updateFrom(series);
    // Step 8: counts 8, 16, 24, 32 against a capacity of 20.
    const std::vector<double> kept = {8, 16, 20, 20}, overflow = {0, 0, 4, 12};
    QCOMPARE(bars.keptBars()->data()->size(), 4);
    for (int e = 0; e < 4; ++e) {
      QCOMPARE(bars.keptBars()->data()->at(e)->value, kept[e]);
      QCOMPARE(bars.overflowBars()->data()->at(e)->value, overflow[e]);
    }
    QCOMPARE(bars.overflowBars()->barBelow(), bars.keptBars());  // stacked on the kept part
    QVERIFY(bars.capacityLine()->visible());
    QCOMPARE(bars.capacityLine()->data()->size(), 2);
    QCOMPARE(bars.capacityLine()->data()->at(0)->value, 20.0);
    QCOMPARE(bars.title(), QString("layer 0 · step 8 · 20.0 % dropped"));
    QVERIFY(bars.yAxis->range().upper > 32);

    bars.setLayer(1);  // dropless: everything kept, the capacity line at the busiest expert
    bars.updateFrom(series);
    QCOMPARE(bars.keptBars()->data()->size(), 2);
    QCOMPARE(bars.keptBars()->data()->at(1)->value, 24.0);
    QCOMPARE(bars.overflowBars()->data()->at(1)->value, 0.0);
    QCOMPARE(bars.capacityLine()->data()->at(0)->value, 24.0);
    QCOMPARE(bars.title(), QString("layer 1 · step 8 · 0.0 % dropped"));

    bars.setLayer(3);
    bars.updateFrom(series);
    QCOMPARE(bars.keptBars()->data()->size(), 0);
  }

  // Capacity 0 is what a factor too small for one slot gives: every choice dropped, not dropless.
  void barsDropEverythingAtCapacityZero() {
    RunSeries series;
    series.apply(loadEvent(1, 0, {3, 5}, 0));
    ExpertLoadBars bars;
    bars.resize(600, 300);
    bars.updateFrom(series);
    QCOMPARE(bars.keptBars()->data()->at(0)->value, 0.0);
    QCOMPARE(bars.keptBars()->data()->at(1)->value, 0.0);
    QCOMPARE(bars.overflowBars()->data()->at(1)->value, 5.0);
    QCOMPARE(bars.capacityLine()->data()->at(0)->value, 0.0);
    QCOMPARE(bars.title(), QString("layer 0 · step 1 · 100.0 % dropped"));
  }
};

QTEST_MAIN(TestLoadViews)
#include "test_load_views.moc"
