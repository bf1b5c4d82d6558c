// The Ranks page over replayed multi-process runs (tests/ui/telemetry/data/ranks_2.jsonl and
// ranks_4.jsonl: 30 steps, one rank 30 % slower, two adaptive_r decisions) and over a
// single-process run.
#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <memory>

#include "dashboard/dashboard_controls.h"
#include "dashboard/ranks_page.h"
#include "dashboard/run_dashboard.h"
#include "widgets/adaptive_r_markers.h"
#include "widgets/phase_breakdown_plot.h"
#include "widgets/rank_heatmap.h"
#include "widgets/time_series_plot.h"

using namespace moe::ui;

namespace {

// A run directory holding `fixture` as its metrics.jsonl.
bool copyRun(const QString& fixture, const QString& dir) {
  return QFile::copy(QStringLiteral(MOE_TEST_DATA_DIR "/") + fixture, dir + "/metrics.jsonl");
}

RunDashboard* replayed(const QString& dir) {
  RunDashboard* dashboard = RunDashboard::replay(dir);
  QSignalSpy done(dashboard, &RunDashboard::replayFinished);
  if (!done.wait(10000)) return nullptr;
  dashboard->refresh();
  return dashboard;
}

}  // namespace

class TestRanksPage : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
  void init() { QSettings().clear(); }

  void fillsFromAReplayedRun_data() {
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<int>("ranks");
    QTest::addColumn<int>("slow");
    QTest::newRow("2 ranks") << "ranks_2.jsonl" << 2 << 1;
    QTest::newRow("4 ranks") << "ranks_4.jsonl" << 4 << 2;
  }

  void fillsFromAReplayedRun() {
    QFETCH(QString, fixture);
    QFETCH(int, ranks);
    QFETCH(int, slow);
    QTemporaryDir dir;
    QVERIFY(copyRun(fixture, dir.path()));
    std::unique_ptr<RunDashboard> dashboard(replayed(dir.path()));
    QVERIFY(dashboard);
    RanksPage* page = dashboard->ranks();
    QVERIFY(page->hasRanks());
    QCOMPARE(dashboard->pages()->tabText(dashboard->pages()->indexOf(page)), QString("Ranks"));
    for (TimeSeriesPlot* plot : {page->stepTime(), page->a2aWait(), page->allReduceWait()}) {
      QCOMPARE(plot->curveCount(), ranks);
      for (int curve = 0; curve < ranks; ++curve) QCOMPARE(plot->rowCount(curve), qsizetype{30});
    }
    QCOMPARE(page->curveRank(slow), int64_t{slow});
    QCOMPARE(page->stepTime()->curveName(slow), QString("rank %1").arg(slow));
    // The slow rank's step time is about 1.3x a fast one's, row by row.
    const QVector<double> fast_ms = page->stepTime()->rows(0).value;
    const QVector<double> slow_ms = page->stepTime()->rows(slow).value;
    QCOMPARE(slow_ms.size(), 30);
    for (int row = 0; row < 30; ++row) {
      QVERIFY2(
          slow_ms[row] > 1.2 * fast_ms[row] && slow_ms[row] < 1.4 * fast_ms[row],
          qPrintable(QString("row %1: %2 vs %3").arg(row).arg(slow_ms[row]).arg(fast_ms[row])));
    }
    QVERIFY(page->a2aWait()->rows(slow).value[0] > 30);

    // The heatmap, ranks x steps, once the page is in view.
    dashboard->pages()->setCurrentWidget(page);
    dashboard->resize(1200, 900);
    page->updateFrom(*dashboard->series());
    const RankMatrix& m = page->heatmap()->matrix();
    QCOMPARE(m.ranks.size(), size_t(ranks));
    QCOMPARE(m.bins, size_t{30});
    QVERIFY(m.at(0, static_cast<size_t>(slow)) > 1.2f * m.at(0, 0));
    QVERIFY(page->heatmap()->tooltipAt(1, slow).startsWith(QString("rank %1 (").arg(slow)));

    // Two adaptive_r decisions: markers with their r, and lines in the log.
    QCOMPARE(page->markers().count(), 2);
    QCOMPARE(page->markers().label(0), QString("r=1"));
    QCOMPARE(page->markers().x(1), 15.0);
    const QString log = dashboard->findChild<QPlainTextEdit*>()->toPlainText();
    QVERIFY2(log.contains("adaptive r at step 5: r = 1 (tried r=0 196.5 ms, r=1 182.0 ms"),
             qPrintable(log));

    // The banner names the slow rank.
    QCOMPARE(dashboard->warnings().size(), 1);
    QVERIFY2(dashboard->warnings()[0].startsWith(
                 QString("Rank %1 (node-b) is persistently slower").arg(slow)),
             qPrintable(dashboard->warnings()[0]));
    QVERIFY(!dashboard->findChild<QLabel*>("routingWarning")->isHidden());
    QVERIFY(dashboard->findChild<QLabel*>("routingWarning")->text().contains("#ranks"));
  }

  // On a wall-time x-axis the markers stand at the decisions' times.
  void markersFollowTheXMode() {
    QTemporaryDir dir;
    QVERIFY(copyRun("ranks_2.jsonl", dir.path()));
    std::unique_ptr<RunDashboard> dashboard(replayed(dir.path()));
    QVERIFY(dashboard);
    const auto decisions = dashboard->series()->adaptiveR();
    QCOMPARE(decisions.size(), size_t{2});
    dashboard->controls()->setXMode(TimeSeriesPlot::XMode::WallTime);
    TimeSeriesPlot* plot = dashboard->ranks()->stepTime();
    QCOMPARE(plot->xMode(), TimeSeriesPlot::XMode::WallTime);
    plot->replot();
    QCOMPARE(dashboard->ranks()->markers().x(1), decisions[1].t);
    dashboard->controls()->setXMode(TimeSeriesPlot::XMode::Step);
    plot->replot();
    QCOMPARE(dashboard->ranks()->markers().x(1), 15.0);
  }

  void aSingleProcessRunSaysSo() {
    QTemporaryDir dir;
    QVERIFY(copyRun("resumed_failed_run.jsonl", dir.path()));
    std::unique_ptr<RunDashboard> dashboard(replayed(dir.path()));
    QVERIFY(dashboard);
    RanksPage* page = dashboard->ranks();
    QVERIFY(!page->hasRanks());
    dashboard->show();
    dashboard->pages()->setCurrentWidget(page);
    QVERIFY(page->message()->isVisible());
    QCOMPARE(page->message()->text(), QString("single-process run: no per-rank figures"));
    QVERIFY(!page->stepTime()->isVisible());
    QCOMPARE(page->stepTime()->curveCount(), 0);
  }

  // The Phases page stacks every phase the run reported: a non-zero a2a share gets its bars.
  void phasesDrawTheA2aShare() {
    QTemporaryDir dir;
    QVERIFY(copyRun("ranks_4.jsonl", dir.path()));
    std::unique_ptr<RunDashboard> dashboard(replayed(dir.path()));
    QVERIFY(dashboard);
    PhaseBreakdownPlot* phases = dashboard->phases();
    phases->updateFrom(*dashboard->series());
    const auto& names = phases->bins().names;
    const auto a2a = std::find(names.begin(), names.end(), "a2a");
    QVERIFY(a2a != names.end());
    const QCPBars* bars = phases->bars()[static_cast<size_t>(a2a - names.begin())];
    QCOMPARE(bars->name(), QString("a2a"));
    QCOMPARE(bars->data()->size(), 30);
    QVERIFY(bars->data()->at(0)->value > 30);  // rank 0's all-to-all, about 35 ms
    QVERIFY(phases->tooltipAt(1).contains("a2a  "));
  }
};

QTEST_MAIN(TestRanksPage)  // not GUILESS: ctest passes -platform offscreen
#include "test_ranks_page.moc"
