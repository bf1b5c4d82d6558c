// A 2-process run launched from the app end to end: the main window's Run path starts
// `moe-train launch --nproc-per-node 2`, the dashboard's Ranks page fills from the live `ranks`
// events, and the Cancel button ends every rank: the run ends "cancelled" with one checkpoint and
// no process of it is left (the ranks' pids come from their logs). Before its first ranks event
// the page says why it is empty, never that a 2-rank run is a single process.
#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cerrno>
#include <csignal>
#include <map>
#include <memory>

#include <sys/types.h>
#include <unistd.h>

#include "base/experiment/experiment_document.h"
#include "base/run/local_run.h"
#include "base/run/run.h"
#include "base/runs/run_manager.h"
#include "base/telemetry/run_series.h"
#include "dashboard/ranks_page.h"
#include "dashboard/run_dashboard.h"
#include "dashboard/run_header.h"
#include "experiment/experiment_editor.h"
#include "widgets/rank_heatmap.h"
#include "widgets/time_series_plot.h"
#include "window/main_window.h"

using namespace moe::ui;

namespace {

constexpr int kDeadlineMs = 300000;  // two shared cores, two ranks each: be patient
constexpr int kRanks = 2;

// Tutel's helloworld, tiny, on two ranks, with far more steps than the test waits for.
const QString kTwoRankConfig = QStringLiteral(
    R"({"name":"two-ranks","model":{"kind":"helloworld","dim":32,"seq_len":16},)"
    R"("moe":{"experts":4,"top_k":2,"hidden":32},)"
    R"("train":{"steps":1000000,"batch_size":8,"threads":1},"parallel":{"nproc":2}})");

// rank -> pid, from each rank's "rank i of 2 on HOST (pid P)" line in the run directory's logs
// (stderr.log is rank 0's, stderr.rank<i>.log the others').
std::map<int, qint64> rankPids(const QString& run_dir) {
  static const QRegularExpression kLine(QStringLiteral(R"(rank (\d+) of 2 on \S+ \(pid (\d+)\))"));
  std::map<int, qint64> pids;
  for (const QString& name : {QStringLiteral("stderr.log"), QStringLiteral("stderr.rank1.log")}) {
    QFile file(QDir(run_dir).filePath(name));
    if (!file.open(QIODevice::ReadOnly)) continue;
    const QRegularExpressionMatch m = kLine.match(QString::fromUtf8(file.readAll()));
    if (m.hasMatch()) pids[m.captured(1).toInt()] = m.captured(2).toLongLong();
  }
  return pids;
}

bool processExists(qint64 pid) {
  return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH;
}

const QByteArray kTwoRankStart =
    R"({"v":1,"type":"run_start","t":0,"run_id":"r","config":{"parallel":{"nproc":2}},)"
    R"("world_size":2})"
    "\n";
const QByteArray kOneProcessStart =
    R"({"v":1,"type":"run_start","t":0,"run_id":"r","config":{},"world_size":1})"
    "\n";
const QByteArray kFailedEnd = R"({"v":1,"type":"run_end","t":1,"status":"failed","steps":0})"
                              "\n";

}  // namespace

class TestMultiRankRun : public QObject {
  Q_OBJECT

  QTemporaryDir home_;  // the window's run store, runs root and settings: never the user's

  // Waits for both ranks' figures on the Ranks page, one curve per rank in every plot.
  static void checkRanksPageFills(RunDashboard* dashboard, Run* run) {
    RanksPage* page = dashboard->ranks();
    dashboard->pages()->setCurrentWidget(page);
    QTRY_VERIFY_WITH_TIMEOUT(page->hasRanks() && page->stepTime()->curveCount() == kRanks &&
                                 page->stepTime()->rowCount(kRanks - 1) >= 3,
                             kDeadlineMs);
    QVERIFY2(run->isActive(), qPrintable(run->errorText()));
    const RankColumns columns = run->series()->ranks();
    QCOMPARE(columns.ranks.size(), size_t{kRanks});
    for (int i = 0; i < kRanks; ++i) {
      QCOMPARE(columns.ranks[i].rank, int64_t{i});
      QCOMPARE(page->curveRank(i), int64_t{i});
      QCOMPARE(page->stepTime()->curveName(i), QString("rank %1").arg(i));
      QVERIFY(page->stepTime()->rows(i).value.back() > 0);
    }
    for (TimeSeriesPlot* plot : {page->a2aWait(), page->allReduceWait()})
      QCOMPARE(plot->curveCount(), kRanks);
    page->updateFrom(*run->series());
    QCOMPARE(page->heatmap()->matrix().ranks.size(), size_t{kRanks});
  }

  // After the end: "cancelled", one checkpoint (at the last step) in the run directory.
  static void checkCancelledWithOneCheckpoint(RunDashboard* dashboard, Run* run) {
    QVERIFY2(run->state() == Run::State::Cancelled,
             qPrintable(run->errorText() + "\n" + run->stderrLines().join('\n')));
    QCOMPARE(run->exitCode(), 130);
    QVERIFY(run->series()->runEnd());
    QCOMPARE(run->series()->runEnd()->status, std::string("cancelled"));
    QCOMPARE(run->series()->checkpoints().size(), size_t{1});
    const QStringList checkpoints =
        QDir(run->runDir() + "/checkpoints").entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QCOMPARE(checkpoints, QStringList{QString("step-%1").arg(run->series()->runEnd()->steps)});
    dashboard->refresh();
    QCOMPARE(dashboard->header()->stateText(), QString("cancelled"));
  }

 private slots:
  void initTestCase() {
    QVERIFY(home_.isValid());
    qputenv("XDG_DATA_HOME", (home_.path() + "/data").toUtf8());
    qputenv("XDG_CONFIG_HOME", (home_.path() + "/config").toUtf8());
  }

  void twoRanksFillTheRanksPageAndCancelEndsThemAll() {
    MainWindow window;
    window.runs()->setTrainProgram(MOE_TRAIN_BIN);
    ExperimentDocument* doc = window.editor()->document();
    doc->setText(kTwoRankConfig);
    QVERIFY(doc->isValid());
    Run* run = window.runExperiment();
    auto* local = qobject_cast<LocalRun*>(run);  // the window launches on this machine
    QVERIFY(local);
    QCOMPARE(local->arguments().mid(0, 4), (QStringList{"launch", "--nproc-per-node", "2", "--"}));
    auto* dashboard = qobject_cast<RunDashboard*>(window.tabs()->currentWidget());
    QVERIFY(dashboard && dashboard->run() == run);
    // Nothing read yet (no event has been processed): the page waits, it names no process count.
    dashboard->refresh();
    QCOMPARE(dashboard->ranks()->message()->text(), QString("waiting for the run to start"));

    checkRanksPageFills(dashboard, run);
    if (QTest::currentTestFailed()) return;

    // Both ranks are running, each as its own process.
    std::map<int, qint64> pids;
    QTRY_VERIFY_WITH_TIMEOUT((pids = rankPids(run->runDir())).size() == size_t{kRanks},
                             kDeadlineMs);
    QVERIFY(pids[0] != pids[1]);
    for (const auto& [rank, pid] : pids)
      QVERIFY2(processExists(pid), qPrintable(QString("rank %1 (pid %2)").arg(rank).arg(pid)));

    // Cancel, as the button does: every rank checkpoints and ends.
    auto* cancel = dashboard->findChild<QPushButton*>("cancelRun");
    QVERIFY(cancel && cancel->isEnabled());
    QSignalSpy finished(run, &Run::finished);
    cancel->click();
    QVERIFY(finished.count() == 1 || finished.wait(kDeadlineMs));
    checkCancelledWithOneCheckpoint(dashboard, run);
    if (QTest::currentTestFailed()) return;
    for (const auto& [rank, pid] : pids) {
      QTRY_VERIFY2_WITH_TIMEOUT(!processExists(pid),
                                qPrintable(QString("rank %1 (pid %2) is left").arg(rank).arg(pid)),
                                kDeadlineMs);
    }
  }

  // A run directory replayed before any ranks event: the page says why it has no figures.
  void withoutRankFiguresThePageSaysWhy_data() {
    QTest::addColumn<QByteArray>("metrics");
    QTest::addColumn<QString>("message");
    QTest::newRow("2 ranks starting")
        << kTwoRankStart << "2 ranks: waiting for the first per-rank figures";
    QTest::newRow("2 ranks ended early")
        << kTwoRankStart + kFailedEnd << "2 ranks: the run ended before any per-rank figures";
    QTest::newRow("one process") << kOneProcessStart + kFailedEnd
                                 << "single-process run: no per-rank figures";
  }

  void withoutRankFiguresThePageSaysWhy() {
    QFETCH(QByteArray, metrics);
    QFETCH(QString, message);
    QTemporaryDir dir;
    QFile file(dir.filePath("metrics.jsonl"));
    QVERIFY(file.open(QIODevice::WriteOnly) && file.write(metrics) == metrics.size());
    file.close();
    std::unique_ptr<RunDashboard> dashboard(RunDashboard::replay(dir.path()));
    QSignalSpy done(dashboard.get(), &RunDashboard::replayFinished);
    QVERIFY(done.wait(kDeadlineMs));
    dashboard->refresh();
    QVERIFY(!dashboard->ranks()->hasRanks());
    QCOMPARE(dashboard->ranks()->message()->text(), message);
  }
};

QTEST_MAIN(TestMultiRankRun)
#include "test_multi_rank_run.moc"
