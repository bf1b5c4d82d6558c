// RunSeries from a hand-written metrics.jsonl: repeated steps replace earlier ones, layers,
// phases, eval, checkpoints, a failed run_end; malformed and unknown lines are counted.
#include <QtTest>

#include <cmath>

#include "base/telemetry/run_series.h"
#include "base/telemetry/telemetry_feed.h"

using moe::ui::LoadValue;
using moe::ui::RunSeries;
using moe::ui::StepRange;
namespace protocol = moe::protocol;

namespace {

const QString kRunFile = QStringLiteral(MOE_TEST_DATA_DIR "/resumed_failed_run.jsonl");

protocol::ExpertLoadEvent loadEvent(int64_t step, int64_t layer, std::vector<int64_t> counts,
                                    int64_t capacity) {
  protocol::ExpertLoadEvent e;
  e.step = step;
  e.layer = layer;
  e.capacity = capacity;
  e.counts = counts;
  for (int64_t c : counts) e.kept.push_back(std::min(c, capacity));
  e.importance.assign(counts.size(), 1.0 / static_cast<double>(counts.size()));
  return e;
}

protocol::StepEvent stepEvent(int64_t step, double loss) {
  protocol::StepEvent e;
  e.step = step;
  e.t = static_cast<double>(step);
  e.loss = loss;
  return e;
}

}  // namespace

class TestRunSeries : public QObject {
  Q_OBJECT

 private slots:
  void readsHandWrittenRun() {
    RunSeries series;
    moe::ui::TelemetryFeed::Stats stats;
    QString error;
    QVERIFY2(moe::ui::TelemetryFeed::readFile(kRunFile, &series, &stats, &error),
             qPrintable(error));
    QCOMPARE(stats.lines, 27);  // the blank line is not counted
    QCOMPARE(stats.malformed, 2);
    QCOMPARE(stats.unknown, 1);
    QCOMPARE(stats.events, 24);
    QVERIFY(!stats.last_error.isEmpty());

    const moe::ui::RunInfo info = series.info();
    QVERIFY(info.started);
    QCOMPARE(info.run_id, std::string("20250101-120000-hand"));
    QCOMPARE(info.resumes, 1);
    QCOMPARE(info.host, std::string("box2"));  // the latest run_start
    QCOMPARE(info.config["train"]["steps"].get<int>(), 6);

    // Steps 1-4, sorted; step 3 as the resumed run reported it; null read as NaN.
    const moe::ui::StepColumns steps = series.steps();
    QCOMPARE(steps.step, (std::vector<double>{1, 2, 3, 4}));
    QCOMPARE(steps.loss[2], 2.0);
    QVERIFY(std::isnan(steps.loss[3]));
    QVERIFY(std::isnan(steps.tflops[0]));
    QCOMPARE(steps.tflops[1], 0.5);
    QCOMPARE(steps.tokens[0], 128.0);

    // Layers: layer 1's three-expert event does not fit its four experts and is rejected.
    QCOMPARE(series.layers(), (std::vector<int64_t>{0, 1}));
    const auto layer0 = series.layer(0);
    QVERIFY(layer0);
    QCOMPARE(layer0->experts, size_t{4});
    QCOMPARE(layer0->step, (std::vector<double>{1, 2, 3}));
    QCOMPARE(layer0->load_entropy[2], 0.9);  // replaced: the first run's step 3 said 0.1
    QCOMPARE(layer0->dead_experts[0], 1.0);
    QCOMPARE(series.layer(1)->size(), size_t{2});
    QCOMPARE(series.stats().rejected, 1);

    const auto load = series.expertLoad(0, 3);
    QVERIFY(load);
    QCOMPARE(load->counts, (std::vector<int64_t>{80, 70, 20, 86}));
    QCOMPARE(load->kept, (std::vector<int64_t>{64, 64, 20, 64}));
    QCOMPARE(load->capacity, int64_t{64});
    QVERIFY(std::abs(load->importance[2] - 0.1) < 2e-5);
    QCOMPARE(series.expertLoad(0, 2)->counts, (std::vector<int64_t>{90, 60, 10, 96}));
    QCOMPARE(series.expertLoad(0)->step, int64_t{3});  // the newest
    QVERIFY(!series.expertLoad(0, 0));                 // nothing at or before step 0
    QVERIFY(!series.expertLoad(7));
    const auto latest = series.latestExpertLoads();
    QCOMPARE(latest.size(), size_t{2});
    QCOMPARE(latest[1].step, int64_t{2});

    // Phases: kPhaseNames order, then "extra"; NaN where a step did not report a phase.
    const moe::ui::PhaseColumns phases = series.phases();
    QCOMPARE(phases.names,
             (std::vector<std::string>{"gate", "dispatch", "a2a", "experts", "combine", "backward",
                                       "optimizer", "other", "extra"}));
    QCOMPARE(phases.step, (std::vector<double>{1, 2, 3}));
    QCOMPARE(phases.ms[3][0], 10.0);
    QVERIFY(std::isnan(phases.ms[2][2]));  // no a2a at step 3
    QVERIFY(std::isnan(phases.ms[8][0]));
    QCOMPARE(phases.ms[8][2], 7.0);

    const auto evals = series.evals();
    QCOMPARE(evals.size(), size_t{1});
    QCOMPARE(evals[0].accuracy.value_or(-1), 0.25);
    QCOMPARE(series.checkpoints().size(), size_t{1});
    QCOMPARE(series.checkpoints()[0].path, std::string("runs/hand/checkpoints/step-2"));

    const auto end = series.runEnd();
    QVERIFY(end);
    QCOMPARE(end->status, std::string("failed"));
    QCOMPARE(end->error.value_or(""),
             std::string("loss is not finite at step 4 (task nan, aux 1, z 0)"));

    const moe::ui::RunSnapshot all = series.snapshot();
    QCOMPARE(all.logs.size(), size_t{3});
    QCOMPARE(all.logs[2].level, std::string("error"));
    QCOMPARE(all.layers.size(), size_t{2});
    QCOMPARE(all.stats.events, int64_t{24});
  }

  void resumeClearsRunEnd() {
    RunSeries series;
    protocol::RunEndEvent end;
    end.status = "cancelled";
    series.apply(end);
    QVERIFY(series.runEnd());
    series.apply(protocol::RunStartEvent{});
    QVERIFY(!series.runEnd());
  }

  void outOfOrderStepsStaySorted() {
    RunSeries series;
    for (int64_t s : {5, 1, 3, 2, 4, 3}) series.apply(stepEvent(s, static_cast<double>(s * 10)));
    series.apply(stepEvent(3, -1));
    const auto steps = series.steps();
    QCOMPARE(steps.step, (std::vector<double>{1, 2, 3, 4, 5}));
    QCOMPARE(steps.loss, (std::vector<double>{10, 20, -1, 40, 50}));
    QCOMPARE(series.steps(StepRange::lastRows(2)).step, (std::vector<double>{4, 5}));
    QCOMPARE(series.steps(StepRange::between(2, 3)).step, (std::vector<double>{2, 3}));

    for (int64_t s : {3, 1, 2}) series.apply(loadEvent(s, 0, {s, 10 * s}, 15));
    series.apply(loadEvent(2, 0, {7, 8}, 15));
    QCOMPARE(series.layer(0)->step, (std::vector<double>{1, 2, 3}));
    QCOMPARE(series.expertLoad(0, 1)->counts, (std::vector<int64_t>{1, 10}));
    QCOMPARE(series.expertLoad(0, 2)->counts, (std::vector<int64_t>{7, 8}));
    QCOMPARE(series.expertLoad(0, 3)->kept, (std::vector<int64_t>{3, 15}));
  }

  void changesSinceCopiesOnlyWhatChanged() {
    RunSeries series;
    QCOMPARE(series.version(), uint64_t{0});
    for (int64_t s = 1; s <= 10; ++s) {
      series.apply(stepEvent(s, 1.0));
      series.apply(loadEvent(s, 0, {1, 2}, 4));
    }
    moe::ui::RunSnapshot first = series.changesSince(0);
    QVERIFY(first.reset);
    QCOMPARE(first.steps.size(), size_t{10});
    const uint64_t v = first.version;
    QCOMPARE(v, series.version());

    moe::ui::RunSnapshot none = series.changesSince(v);
    QVERIFY(!none.reset);
    QCOMPARE(none.steps.size(), size_t{0});
    QVERIFY(none.layers.empty());

    series.apply(stepEvent(11, 2.0));
    moe::ui::RunSnapshot tail = series.changesSince(v);
    QCOMPARE(tail.steps.replace_from, 11.0);
    QCOMPARE(tail.steps.step, (std::vector<double>{11}));
    QVERIFY(tail.layers.empty());  // layer 0 did not change

    // A resumed run repeats step 4: the reader replaces everything from step 4 on.
    series.apply(stepEvent(4, 3.0));
    series.apply(loadEvent(4, 0, {3, 3}, 4));
    moe::ui::RunSnapshot resumed = series.changesSince(tail.version);
    QCOMPARE(resumed.steps.replace_from, 4.0);
    QCOMPARE(resumed.steps.step, (std::vector<double>{4, 5, 6, 7, 8, 9, 10, 11}));
    QCOMPARE(resumed.steps.loss[0], 3.0);
    QCOMPARE(resumed.layers.size(), size_t{1});
    QCOMPARE(resumed.layers[0].replace_from, 4.0);
    QCOMPARE(resumed.layers[0].size(), size_t{7});

    series.clear();
    QVERIFY(series.changesSince(resumed.version).reset);
    QCOMPARE(series.steps().size(), size_t{0});
  }

  void laggingReaderCopiesAtMostAboutTwiceItsLag() {
    RunSeries series;
    uint64_t at_500 = 0, at_2500 = 0;
    for (int64_t s = 1; s <= 3000; ++s) {
      series.apply(stepEvent(s, 1.0));  // one version each: the change log must fold
      if (s == 500) at_500 = series.version();
      if (s == 2500) at_2500 = series.version();
    }
    const moe::ui::RunSnapshot recent = series.changesSince(at_2500);
    QVERIFY(!recent.reset);
    QVERIFY2(recent.steps.replace_from <= 2501 && recent.steps.replace_from >= 2000,
             qPrintable(QString::number(recent.steps.replace_from)));
    QCOMPARE(recent.steps.step.back(), 3000.0);
    QVERIFY(series.changesSince(at_500).steps.replace_from <= 501);  // never fewer rows
  }

  void countsWidenAndKeptExceptionsSurvive() {
    RunSeries series;
    series.apply(loadEvent(1, 0, {10, 20}, 15));
    QVERIFY(!series.stats().wide_counts);
    series.apply(loadEvent(2, 0, {100000, 3}, 200000));
    QVERIFY(series.stats().wide_counts);
    QCOMPARE(series.expertLoad(0, 1)->counts, (std::vector<int64_t>{10, 20}));
    QCOMPARE(series.expertLoad(0, 2)->counts, (std::vector<int64_t>{100000, 3}));

    protocol::ExpertLoadEvent odd = loadEvent(3, 0, {10, 20}, 15);
    odd.kept = {9, 14};  // not min(count, capacity): kept as reported
    series.apply(odd);
    QCOMPARE(series.expertLoad(0, 3)->kept, (std::vector<int64_t>{9, 14}));
    series.apply(loadEvent(3, 0, {10, 20}, 15));  // replaced by an ordinary row
    QCOMPARE(series.expertLoad(0, 3)->kept, (std::vector<int64_t>{10, 15}));

    protocol::ExpertLoadEvent nan_importance = loadEvent(4, 0, {1, 1}, 15);
    nan_importance.importance = {std::nan(""), 0.5};
    series.apply(nan_importance);
    QVERIFY(std::isnan(series.expertLoad(0, 4)->importance[0]));
    QVERIFY(std::abs(series.expertLoad(0, 4)->importance[1] - 0.5) < 1e-4);
    // Importance is held for the newest row only: an older row has none, and replacing an
    // older row (a resume) leaves the newest row's alone.
    QVERIFY(series.expertLoad(0, 3)->importance.empty());
    protocol::ExpertLoadEvent again = loadEvent(2, 0, {5, 6}, 15);
    again.importance = {0.25, 0.75};
    series.apply(again);
    QVERIFY(series.expertLoad(0, 2)->importance.empty());
    QVERIFY(std::abs(series.expertLoad(0)->importance[1] - 0.5) < 1e-4);
  }

  void loadMatrixAveragesBins() {
    RunSeries series;
    for (int64_t s = 1; s <= 10; ++s) series.apply(loadEvent(s, 2, {s, 2 * s, 0}, 100));
    const moe::ui::LoadMatrix m = series.loadMatrix(2, StepRange::all(), 4);
    QCOMPARE(m.experts, size_t{3});
    QCOMPARE(m.bins, size_t{4});
    // Bins of rows [0,2) [2,5) [5,7) [7,10): steps 1-2, 3-5, 6-7, 8-10.
    QCOMPARE(m.first_step, (std::vector<double>{1, 3, 6, 8}));
    QCOMPARE(m.last_step, (std::vector<double>{2, 5, 7, 10}));
    QCOMPARE(m.at(0, 0), 1.5f);
    QCOMPARE(m.at(1, 1), 8.0f);
    QCOMPARE(m.at(3, 2), 0.0f);
    QCOMPARE(m.max_value, 18.0);
    QCOMPARE(m.max_capacity, 100.0);

    const moe::ui::LoadMatrix all = series.loadMatrix(2, StepRange::lastRows(3), 100);
    QCOMPARE(all.bins, size_t{3});
    QCOMPARE(all.first_step, (std::vector<double>{8, 9, 10}));
    const auto kept = series.loadMatrix(2, StepRange::all(), 1, LoadValue::kKept);
    QCOMPARE(kept.at(0, 0), 5.5f);
    QCOMPARE(series.loadMatrix(9, StepRange::all(), 4).bins, size_t{0});
  }

  void logIsBounded() {
    RunSeries series;
    for (size_t i = 0; i < RunSeries::kMaxLogLines + 5; ++i) {
      protocol::LogEvent e;
      e.msg = std::to_string(i);
      series.apply(e);
    }
    const auto snap = series.snapshot();
    QCOMPARE(snap.logs.size(), RunSeries::kMaxLogLines);
    QCOMPARE(snap.logs.front().msg, std::string("5"));
    QCOMPARE(snap.stats.logs_dropped, int64_t{5});
  }
};

QTEST_GUILESS_MAIN(TestRunSeries)
#include "test_run_series.moc"
