// TelemetryFeed: chunks cut anywhere give the same series as one piece; changed() is coalesced;
// whole files replay with their malformed and unknown lines counted.
#include <QtTest>

#include <cmath>
#include <string>

#include "base/telemetry/run_series.h"
#include "base/telemetry/telemetry_feed.h"

using moe::ui::RunSeries;
using moe::ui::TelemetryFeed;
namespace protocol = moe::protocol;

namespace {

const QString kRunFile = QStringLiteral(MOE_TEST_DATA_DIR "/resumed_failed_run.jsonl");

// `steps` steps of a run with `layers` MoE layers of `experts` experts: per step a step line,
// one expert_load line per layer and a phases line.
QByteArray syntheticRun(int steps, int layers, int experts) {
  std::string out;
  protocol::RunStartEvent start;
  start.run_id = "synthetic";
  start.config = {{"train", {{"steps", steps}}}};
  out += protocol::event_line(protocol::to_json(start)) + "\n";
  for (int s = 1; s <= steps; ++s) {
    protocol::StepEvent step;
    step.t = s * 0.01;
    step.step = s;
    step.loss = 3.0 / s;
    step.tokens = 1024;
    out += protocol::event_line(protocol::to_json(step)) + "\n";
    for (int l = 0; l < layers; ++l) {
      protocol::ExpertLoadEvent load;
      load.t = step.t;
      load.step = s;
      load.layer = l;
      load.capacity = 40;
      for (int e = 0; e < experts; ++e) {
        load.counts.push_back((s * 7 + e * 13 + l) % 50);
        load.kept.push_back(std::min<int64_t>(load.counts.back(), load.capacity));
        load.importance.push_back(1.0 / experts);
      }
      load.cv = 0.1 * l;
      out += protocol::event_line(protocol::to_json(load)) + "\n";
    }
    protocol::PhasesEvent phases;
    phases.step = s;
    phases.ms = {{"gate", 1.0}, {"experts", 2.0 * s}, {"other", 0.5}};
    out += protocol::event_line(protocol::to_json(phases)) + "\n";
  }
  return QByteArray::fromStdString(out);
}

bool same(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) return false;
  }
  return true;
}

// Every series and record of two RunSeries agree.
void compareSeries(const RunSeries& a, const RunSeries& b) {
  const moe::ui::RunSnapshot x = a.snapshot(), y = b.snapshot();
  QCOMPARE(x.steps.size(), y.steps.size());
  for (size_t i = 0; i < moe::ui::StepColumns::kColumns; ++i) {
    QVERIFY(same(*x.steps.columns()[i], *y.steps.columns()[i]));
  }
  QCOMPARE(x.layers.size(), y.layers.size());
  for (size_t l = 0; l < x.layers.size(); ++l) {
    for (size_t i = 0; i < x.layers[l].columns().size(); ++i) {
      QVERIFY(same(*x.layers[l].columns()[i], *y.layers[l].columns()[i]));
    }
    for (double step : x.layers[l].step) {
      const auto ea = a.expertLoad(x.layers[l].layer, static_cast<int64_t>(step));
      const auto eb = b.expertLoad(x.layers[l].layer, static_cast<int64_t>(step));
      QCOMPARE(ea->counts, eb->counts);
      QCOMPARE(ea->kept, eb->kept);
      QCOMPARE(ea->importance, eb->importance);
    }
  }
  QCOMPARE(x.phases.names, y.phases.names);
  QVERIFY(same(x.phases.step, y.phases.step));
  for (size_t i = 0; i < x.phases.ms.size(); ++i) QVERIFY(same(x.phases.ms[i], y.phases.ms[i]));
  QCOMPARE(x.evals.size(), y.evals.size());
  QCOMPARE(x.checkpoints.size(), y.checkpoints.size());
  QCOMPARE(x.logs.size(), y.logs.size());
  QCOMPARE(x.run_end.has_value(), y.run_end.has_value());
  QCOMPARE(x.info.run_id, y.info.run_id);
  QCOMPARE(x.stats.events, y.stats.events);
  QCOMPARE(x.stats.rejected, y.stats.rejected);
}

// Feeds `bytes` in chunks of the given sizes (cycled), then finish(); waits for finished().
void feedInChunks(TelemetryFeed& feed, const QByteArray& bytes, const std::vector<int>& sizes) {
  QSignalSpy finished(&feed, &TelemetryFeed::finished);
  qsizetype pos = 0;
  for (size_t i = 0; pos < bytes.size(); ++i) {
    const int n = sizes[i % sizes.size()];
    feed.feed(bytes.mid(pos, n));
    pos += n;
  }
  feed.finish();
  QVERIFY(finished.wait(30000));
}

}  // namespace

class TestTelemetryFeed : public QObject {
  Q_OBJECT

 private slots:
  void oddChunksEqualOneShot() {
    QFile file(kRunFile);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll() + syntheticRun(300, 3, 16);

    TelemetryFeed whole;
    feedInChunks(whole, bytes, {static_cast<int>(bytes.size())});
    TelemetryFeed odd;
    feedInChunks(odd, bytes, {1, 7, 13, 2, 64, 4093, 3, 1000});
    compareSeries(*whole.series(), *odd.series());
    QCOMPARE(odd.stats().malformed, 2);
    QCOMPARE(odd.stats().unknown, 1);
    QCOMPARE(odd.stats().bytes, bytes.size());
    QCOMPARE(odd.series()->steps().size(), size_t{300});
    QCOMPARE(odd.series()->layers().size(), size_t{3});
  }

  void finishParsesTheLastLineWithoutNewline() {
    TelemetryFeed feed;
    QByteArray bytes = syntheticRun(2, 1, 4);
    bytes.chop(1);  // the last phases line loses its newline
    QSignalSpy finished(&feed, &TelemetryFeed::finished);
    feed.feed(bytes);
    QTRY_COMPARE(feed.stats().bytes, bytes.size());
    QCOMPARE(feed.series()->phases().size(), size_t{1});
    feed.finish();
    QVERIFY(finished.wait(5000));
    QCOMPARE(feed.series()->phases().size(), size_t{2});
  }

  void changedIsCoalesced() {
    const QByteArray bytes = syntheticRun(1000, 8, 8);  // 10,001 lines
    QCOMPARE(bytes.count('\n'), 10001);
    TelemetryFeed feed;
    QSignalSpy changed(&feed, &TelemetryFeed::changed);
    QSignalSpy finished(&feed, &TelemetryFeed::finished);
    QElapsedTimer clock;
    clock.start();
    // Twenty lines at a time, letting the event loop run between chunks as a QProcess would.
    qsizetype pos = 0;
    int chunks = 0;
    while (pos < bytes.size()) {
      qsizetype end = pos;
      for (int i = 0; i < 20 && end < bytes.size(); ++i) {
        const qsizetype newline = bytes.indexOf('\n', end);
        end = newline < 0 ? bytes.size() : newline + 1;
      }
      feed.feed(bytes.mid(pos, end - pos));
      pos = end;
      ++chunks;
      QTest::qWait(1);
    }
    feed.finish();
    QVERIFY(finished.wait(30000));
    const qint64 elapsed = clock.elapsed();
    QCOMPARE(feed.series()->steps().size(), size_t{1000});
    QCOMPARE(feed.stats().events, 10001);
    QVERIFY(changed.count() >= 1);
    // At most one per 40 ms interval (plus the first and the final flush), never one per chunk.
    QVERIFY2(changed.count() <= elapsed / feed.notifyInterval() + 2,
             qPrintable(QStringLiteral("%1 changed() in %2 ms").arg(changed.count()).arg(elapsed)));
    QVERIFY(changed.count() < chunks / 4);
    qInfo("%d chunks, %d changed() signals in %lld ms", chunks, int(changed.count()), elapsed);
  }

  void loadFileReplaysAndCounts() {
    TelemetryFeed feed;
    QSignalSpy finished(&feed, &TelemetryFeed::finished);
    QSignalSpy failed(&feed, &TelemetryFeed::loadFailed);
    feed.loadFile(kRunFile);
    QVERIFY(finished.wait(10000));
    QCOMPARE(failed.count(), 0);
    const TelemetryFeed::Stats stats = feed.stats();
    QCOMPARE(stats.malformed, 2);
    QCOMPARE(stats.unknown, 1);
    QCOMPARE(stats.events, 24);
    QCOMPARE(stats.bytes, stats.file_bytes);

    RunSeries direct;
    QVERIFY(TelemetryFeed::readFile(kRunFile, &direct));
    compareSeries(*feed.series(), direct);
  }

  void loadFileThatCannotBeRead() {
    TelemetryFeed feed;
    QSignalSpy finished(&feed, &TelemetryFeed::finished);
    QSignalSpy failed(&feed, &TelemetryFeed::loadFailed);
    feed.loadFile(QStringLiteral("/nonexistent/metrics.jsonl"));
    QVERIFY(finished.wait(5000));
    QCOMPARE(failed.count(), 1);
    QVERIFY(failed.at(0).at(0).toString().contains(QStringLiteral("/nonexistent/metrics.jsonl")));
    QString error;
    RunSeries series;
    QVERIFY(!TelemetryFeed::readFile(QStringLiteral("/nonexistent/x"), &series, nullptr, &error));
    QVERIFY(error.startsWith(QStringLiteral("/nonexistent/x: ")));
  }

  void sharedSeriesAndDestructionWhileBusy() {
    auto series = std::make_shared<RunSeries>();
    {
      TelemetryFeed feed(series);
      QCOMPARE(feed.series().get(), series.get());
      feed.feed(syntheticRun(2000, 2, 8));  // destroyed while the worker may still parse
    }
    QVERIFY(series->steps().size() <= 2000);
  }
};

QTEST_GUILESS_MAIN(TestTelemetryFeed)
#include "test_telemetry_feed.moc"
