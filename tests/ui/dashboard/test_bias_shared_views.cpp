// The load page's selection bias and shared expert, from RunSeries filled with events and from a
// replayed run directory: the bias per expert and step (RunSeries::loadMatrix kBias, the
// SelectionBiasHeatmap's cells, scale and hover, the layer selector), nothing shown for a run
// without a bias, and the shared expert's note from the run's config (gated, ungated, none).
#include <QtTest>

#include <cmath>
#include <memory>
#include <vector>

#include "base/plot_data/shared_expert.h"
#include "base/telemetry/run_series.h"
#include "dashboard/load_page.h"
#include "dashboard/run_dashboard.h"
#include "widgets/selection_bias_heatmap.h"
#include "widgets/shared_expert_note.h"

using moe::ui::LoadPage;
using moe::ui::RunDashboard;
using moe::ui::RunSeries;
using moe::ui::SelectionBiasHeatmap;
using moe::ui::SharedExpertNote;
namespace protocol = moe::protocol;

namespace {

// Layer `layer`'s load at `step`: 4 experts, 8 tokens each; with a bias of (e - 1.5) * step / 100
// + offset for expert e when `with_bias` (step 4: -0.06, -0.02, +0.02, +0.06, plus the offset).
protocol::ExpertLoadEvent loadAt(int64_t step, int64_t layer, bool with_bias, double offset = 0) {
  protocol::ExpertLoadEvent e;
  e.step = step;
  e.layer = layer;
  e.capacity = 8;
  e.counts = e.kept = {8, 8, 8, 8};
  e.importance.assign(4, 0.25);
  if (with_bias) {
    e.bias.emplace();
    for (int x = 0; x < 4; ++x)
      e.bias->push_back((x - 1.5) * static_cast<double>(step) / 100 + offset);
  }
  return e;
}

protocol::RunStartEvent startWith(const nlohmann::json& moe) {
  protocol::RunStartEvent e;
  e.run_id = "views";
  e.config = {{"train", {{"steps", 4}}}, {"moe", moe}};
  return e;
}

protocol::StepEvent stepOf(int64_t step, int64_t tokens) {
  protocol::StepEvent e;
  e.step = step;
  e.tokens = tokens;
  return e;
}

// Steps 1..4: layer 0 with a bias (plus `offset`), layer 1 without.
void fillBiasedLayer0(RunSeries* series, double offset) {
  for (int64_t s = 1; s <= 4; ++s) {
    series->apply(loadAt(s, 0, true, offset));
    series->apply(loadAt(s, 1, false));
  }
}

void showOn(SelectionBiasHeatmap* heatmap, const RunSeries& series) {
  heatmap->resize(600, 240);
  heatmap->updateFrom(series);
}

bool near(double a, double b) {
  return std::abs(a - b) < 1e-6;
}

}  // namespace

class TestBiasSharedViews : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void theSeriesKeepsEveryStepsBias() {
    RunSeries series;
    for (int64_t s = 1; s <= 4; ++s) series.apply(loadAt(s, 0, true));
    const moe::ui::LoadMatrix m =
        series.loadMatrix(0, moe::ui::StepRange::all(), 100, moe::ui::LoadValue::kBias);
    QCOMPARE(m.bins, size_t{4});
    QVERIFY(near(m.at(3, 0), -0.06));
    QVERIFY(near(m.at(3, 3), 0.06));
    QVERIFY(near(m.at(0, 2), 0.005));
    QVERIFY(near(m.max_value, 0.06));  // the largest size, whatever the sign
    const auto row = series.expertLoad(0, 2);
    QVERIFY(row && row->bias);
    QCOMPARE(row->bias->size(), size_t{4});
    QVERIFY(near((*row->bias)[1], -0.01));
  }

  // Steps logged before the bias arrives, and a step replaced out of order, keep their own rows.
  void stepsWithoutABiasAreEmptyCells() {
    RunSeries series;
    series.apply(loadAt(2, 0, false));
    series.apply(loadAt(4, 0, true));
    series.apply(loadAt(3, 0, true));  // inserted between the two
    const moe::ui::LoadMatrix m =
        series.loadMatrix(0, moe::ui::StepRange::all(), 100, moe::ui::LoadValue::kBias);
    QCOMPARE(m.bins, size_t{3});
    QVERIFY(std::isnan(m.at(0, 0)));
    QVERIFY(near(m.at(1, 0), -0.045));
    QVERIFY(near(m.at(2, 0), -0.06));
    QVERIFY(!series.expertLoad(0, 2)->bias.has_value());
  }

  void theHeatmapDrawsTheBiasOnASymmetricScale() {
    RunSeries series;
    fillBiasedLayer0(&series, 0);
    SelectionBiasHeatmap heatmap;
    showOn(&heatmap, series);
    QVERIFY(heatmap.hasBias());
    QVERIFY(heatmap.colorMap()->visible());
    QVERIFY(near(heatmap.colorMap()->data()->cell(3, 3), 0.06));
    QVERIFY(near(heatmap.colorMap()->dataRange().lower, -0.06));
    QVERIFY(near(heatmap.colorMap()->dataRange().upper, 0.06));
    QCOMPARE(heatmap.tooltipAt(4, 3),
             QStringLiteral("expert 3, step 4: bias 0.06 (+0.06 vs mean)"));
    QCOMPARE(heatmap.tooltipAt(1, 0),
             QStringLiteral("expert 0, step 1: bias -0.015 (-0.015 vs mean)"));
    QVERIFY(heatmap.tooltipAt(4, 7).isEmpty());  // no expert 7

    heatmap.setLayer(1);  // the layer selector applies: layer 1 has no bias, nothing is drawn
    heatmap.updateFrom(series);
    QVERIFY(!heatmap.hasBias());
    QVERIFY(!heatmap.colorMap()->visible());
    QVERIFY(heatmap.tooltipAt(4, 3).isEmpty());
  }

  // Adding one constant to every expert's bias changes no choice: the colours stay, the hover
  // tells the bias itself.
  void theColoursAreTheBiasAgainstTheLayersMean() {
    RunSeries series;
    fillBiasedLayer0(&series, 0.5);
    SelectionBiasHeatmap heatmap;
    showOn(&heatmap, series);
    QVERIFY(near(heatmap.colorMap()->data()->cell(3, 3), 0.06));
    QVERIFY(near(heatmap.colorMap()->data()->cell(3, 0), -0.06));
    QVERIFY(near(heatmap.colorMap()->dataRange().upper, 0.06));
    QCOMPARE(heatmap.tooltipAt(4, 0),
             QStringLiteral("expert 0, step 4: bias 0.44 (-0.06 vs mean)"));
  }

  void theLoadPageShowsTheBiasOfTheChosenLayerOnly() {
    RunSeries series;
    for (int64_t s = 1; s <= 4; ++s) {
      series.apply(loadAt(s, 0, false));
      series.apply(loadAt(s, 1, true));
    }
    LoadPage page;
    page.resize(900, 700);
    page.updateFrom(series);
    QCOMPARE(page.layer(), int64_t{0});
    QVERIFY(!page.biasHeatmap()->isVisibleTo(&page));
    page.setLayer(1);
    page.updateFrom(series);
    QCOMPARE(page.biasHeatmap()->layer(), int64_t{1});
    QVERIFY(page.biasHeatmap()->isVisibleTo(&page));
    QVERIFY(!page.sharedExpertNote()->isVisibleTo(&page));  // no shared expert in this config
  }

  void theSharedExpertIsSaidApartFromTheRoutedOnes() {
    RunSeries series;
    series.apply(startWith({{"experts", 4}, {"shared_hidden", 96}, {"shared_gate", true}}));
    SharedExpertNote note;
    note.updateFrom(series);
    QVERIFY(!note.isHidden());
    QCOMPARE(note.text(), QStringLiteral("Shared expert (width 96, gated by sigmoid(x · w)): "
                                         "every token — not routed, not in the bars"));
    series.apply(stepOf(1, 4096));
    note.updateFrom(series);
    QVERIFY(note.text().contains(QStringLiteral("every token, 4096 tokens/step")));

    RunSeries ungated;
    ungated.apply(startWith({{"shared_hidden", 64}, {"shared_gate", false}}));
    note.updateFrom(ungated);
    QVERIFY(note.text().startsWith(QStringLiteral("Shared expert (width 64, ungated)")));

    RunSeries none;
    none.apply(startWith({{"shared_hidden", 0}, {"shared_gate", true}}));
    note.updateFrom(none);
    QVERIFY(note.isHidden());
    QVERIFY(!moe::ui::sharedExpertOf(nlohmann::json::object()).has_value());
    QVERIFY(!moe::ui::sharedExpertOf({{"moe", {{"shared_hidden", "96"}}}}).has_value());
  }

  // A run directory replays into the same views a live run feeds.
  void aReplayShowsTheBiasAndTheSharedExpert() {
    QTemporaryDir dir;
    QFile file(dir.filePath("metrics.jsonl"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    const auto line = [&](const auto& event) {
      file.write(QByteArray::fromStdString(protocol::to_json(event).dump()) + "\n");
    };
    line(startWith({{"shared_hidden", 48}, {"shared_gate", false}}));
    for (int64_t s = 1; s <= 4; ++s) {
      line(stepOf(s, 512));
      line(loadAt(s, 0, true));
    }
    protocol::RunEndEvent end;
    end.steps = 4;
    line(end);
    file.close();

    std::unique_ptr<RunDashboard> dashboard(RunDashboard::replay(dir.path()));
    QSignalSpy done(dashboard.get(), &RunDashboard::replayFinished);
    QVERIFY(done.wait(10000));
    dashboard->resize(1000, 800);
    LoadPage* page = dashboard->load();
    page->updateFrom(*dashboard->series());
    QVERIFY(page->biasHeatmap()->hasBias());
    QVERIFY(page->biasHeatmap()->isVisibleTo(page));
    QVERIFY(near(page->biasHeatmap()->matrix().at(3, 0), -0.06));
    QVERIFY(page->sharedExpertNote()->isVisibleTo(page));
    QCOMPARE(page->sharedExpertNote()->text(),
             QStringLiteral("Shared expert (width 48, ungated): every token, 512 tokens/step — "
                            "not routed, not in the bars"));
  }
};

QTEST_MAIN(TestBiasSharedViews)
#include "test_bias_shared_views.moc"
