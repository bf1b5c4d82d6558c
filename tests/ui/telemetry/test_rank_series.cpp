// RunSeries keeps a multi-process run's ranks and adaptive_r events: fed as telemetry lines, read
// back as per-rank columns, deltas and the binned heatmap matrix.
#include <QtTest>

#include <cmath>

#include "base/telemetry/run_series.h"
#include "protocol/telemetry_reader.h"

using moe::ui::RankColumns;
using moe::ui::RunSeries;
using moe::ui::StepRange;

namespace {

QString rankEntry(int rank, double step_ms, double a2a_ms) {
  return QString(R"({"rank":%1,"host":"h%1","step_ms":%2,"compute_ms":%3,"a2a_ms":%4,)"
                 R"("allreduce_ms":1.5,"tokens":512,"peak_bytes":%5})")
      .arg(rank)
      .arg(step_ms)
      .arg(step_ms - a2a_ms - 1.5)
      .arg(a2a_ms)
      .arg(1000000 + rank);
}

QString ranksLine(int step, const QStringList& entries) {
  return QString(R"({"v":1,"type":"ranks","t":%1,"step":%2,"ranks":[%3]})")
      .arg(step * 0.25)
      .arg(step)
      .arg(entries.join(","));
}

// Parses the lines as the feed does and applies them to `series` in one version.
void feed(RunSeries& series, const QStringList& lines) {
  moe::protocol::TelemetryReader reader;
  auto events = reader.feed((lines.join("\n") + "\n").toStdString());
  QCOMPARE(reader.stats().malformed, 0);
  series.apply(events);
}

}  // namespace

class TestRankSeries : public QObject {
  Q_OBJECT

 private slots:
  void keepsEveryRankPerStep() {
    RunSeries series;
    feed(series, {ranksLine(1, {rankEntry(0, 10, 2), rankEntry(1, 13, 5)}),
                  ranksLine(2, {rankEntry(1, 14, 6), rankEntry(0, 11, 3)})});
    const RankColumns c = series.ranks();
    QCOMPARE(c.size(), size_t{2});
    QCOMPARE(c.step, (std::vector<double>{1, 2}));
    QCOMPARE(c.t, (std::vector<double>{0.25, 0.5}));
    QCOMPARE(c.ranks.size(), size_t{2});
    QCOMPARE(c.ranks[0].rank, int64_t{0});
    QCOMPARE(c.ranks[1].host, std::string("h1"));
    QCOMPARE(c.ranks[0].step_ms, (std::vector<double>{10, 11}));
    QCOMPARE(c.ranks[1].a2a_ms, (std::vector<double>{5, 6}));
    QCOMPARE(c.ranks[1].compute_ms, (std::vector<double>{6.5, 6.5}));
    QCOMPARE(c.ranks[1].allreduce_ms, (std::vector<double>{1.5, 1.5}));
    QCOMPARE(c.ranks[0].tokens, (std::vector<double>{512, 512}));
    QCOMPARE(c.ranks[1].peak_bytes, (std::vector<double>{1000001, 1000001}));
    QCOMPARE(series.stats().rank_rows, size_t{2});
    QVERIFY(series.snapshot().ranks.size() == 2);
  }

  // A resumed run repeats steps: the repeat replaces the row. A rank first seen late has NaN
  // for the rows before, and a rank missing from one event has NaN in that row.
  void repeatsReplaceAndMissingRanksAreNaN() {
    RunSeries series;
    feed(series, {ranksLine(1, {rankEntry(0, 10, 2)}), ranksLine(2, {rankEntry(0, 11, 2)})});
    feed(series, {ranksLine(2, {rankEntry(0, 20, 2), rankEntry(3, 21, 4)}),
                  ranksLine(3, {rankEntry(3, 22, 4)})});
    const RankColumns c = series.ranks();
    QCOMPARE(c.step, (std::vector<double>{1, 2, 3}));
    QCOMPARE(c.ranks.size(), size_t{2});
    QCOMPARE(c.ranks[0].step_ms[1], 20.0);
    QVERIFY(std::isnan(c.ranks[0].step_ms[2]));
    QCOMPARE(c.ranks[1].rank, int64_t{3});
    QVERIFY(std::isnan(c.ranks[1].step_ms[0]));
    QCOMPARE(c.ranks[1].step_ms[2], 22.0);
  }

  void deltasCarryOnlyChangedRows() {
    RunSeries series;
    feed(series, {ranksLine(1, {rankEntry(0, 10, 2), rankEntry(1, 12, 2)})});
    const uint64_t v1 = series.version();
    feed(series, {ranksLine(2, {rankEntry(0, 11, 2), rankEntry(1, 13, 2)})});
    const auto delta = series.changesSince(v1);
    QCOMPARE(delta.ranks.replace_from, 2.0);
    QCOMPARE(delta.ranks.step, (std::vector<double>{2}));
    QCOMPARE(delta.ranks.ranks[1].step_ms, (std::vector<double>{13}));
    feed(series, {R"({"v":1,"type":"log","t":1,"level":"info","msg":"x"})"});
    const auto none = series.changesSince(series.version() - 1);
    QVERIFY(std::isinf(none.ranks.replace_from));
    QVERIFY(none.ranks.ranks.empty());
  }

  void matrixAveragesStepTimesIntoBins() {
    RunSeries series;
    QStringList lines;
    for (int step = 1; step <= 4; ++step)
      lines << ranksLine(step, {rankEntry(0, 10 * step, 1), rankEntry(1, 100, 1)});
    feed(series, lines);
    const auto m = series.rankMatrix(StepRange::all(), 2);
    QCOMPARE(m.bins, size_t{2});
    QCOMPARE(m.ranks, (std::vector<int64_t>{0, 1}));
    QCOMPARE(m.first_step, (std::vector<double>{1, 3}));
    QCOMPARE(m.last_step, (std::vector<double>{2, 4}));
    QCOMPARE(m.at(0, 0), 15.0f);
    QCOMPARE(m.at(1, 0), 35.0f);
    QCOMPARE(m.at(1, 1), 100.0f);
    QCOMPARE(m.max_value, 100.0);
  }

  void adaptiveRDecisionsByStep() {
    RunSeries series;
    feed(series,
         {R"({"v":1,"type":"adaptive_r","t":2,"step":20,"r":0,"tried":{"0":9},"reason":"b"})",
          R"({"v":1,"type":"adaptive_r","t":1,"step":10,"r":1,"tried":{"0":12.5,"1":9.1},)"
          R"("reason":"a"})"});
    const auto decisions = series.adaptiveR();
    QCOMPARE(decisions.size(), size_t{2});
    QCOMPARE(decisions[0].step, int64_t{10});
    QCOMPARE(decisions[0].tried.at(1), 9.1);
    QCOMPARE(decisions[1].r, int64_t{0});
    QCOMPARE(series.snapshot().adaptive_r.size(), size_t{2});
    series.clear();
    QVERIFY(series.adaptiveR().empty());
    QCOMPARE(series.ranks().size(), size_t{0});
  }
};

QTEST_GUILESS_MAIN(TestRankSeries)
#include "test_rank_series.moc"
