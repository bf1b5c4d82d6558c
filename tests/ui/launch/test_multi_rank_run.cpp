// A 2-process run launched from the app end to end: the main window's Run path starts
// `moe-train launch --nproc-per-node 2`, the dashboard's Ranks page fills from the live `ranks`
// events, and the Cancel button ends every rank: the run ends "cancelled" with one checkpoint and
// no process of it is left (the ranks' pids come from their logs).
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

#include <sys/types.h>
#include <unistd.h>

#include "dashboard/rank_heatmap.h"
#include "dashboard/ranks_page.h"
#include "dashboard/run_dashboard.h"
#include "dashboard/run_header.h"
#include "dashboard/run_series.h"
#include "experiment/experiment_document.h"
#include "experiment/experiment_editor.h"
#include "launch/local_run.h"
#include "launch/run_manager.h"
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

}  // namespace

class TestMultiRankRun : public QObject {
  Q_OBJECT

  QTemporaryDir home_;  // the window's run store, runs root and settings: never the user's

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
    LocalRun* run = window.runExperiment();
    QVERIFY(run);
    QCOMPARE(run->arguments().mid(0, 4), (QStringList{"launch", "--nproc-per-node", "2", "--"}));
    auto* dashboard = qobject_cast<RunDashboard*>(window.tabs()->currentWidget());
    QVERIFY(dashboard && dashboard->run() == run);

    // The Ranks page fills from the live stream: one curve per rank in each plot.
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

    // Both ranks are running, each as its own process.
    const QString run_dir = run->runDir();
    QVERIFY(!run_dir.isEmpty());
    std::map<int, qint64> pids;
    QTRY_VERIFY_WITH_TIMEOUT((pids = rankPids(run_dir)).size() == size_t{kRanks}, kDeadlineMs);
    QVERIFY(pids[0] != pids[1]);
    for (const auto& [rank, pid] : pids)
      QVERIFY2(processExists(pid), qPrintable(QString("rank %1 (pid %2)").arg(rank).arg(pid)));

    // Cancel, as the button does: every rank checkpoints and ends.
    auto* cancel = dashboard->findChild<QPushButton*>("cancelRun");
    QVERIFY(cancel && cancel->isEnabled());
    QSignalSpy finished(run, &LocalRun::finished);
    cancel->click();
    QVERIFY(finished.count() == 1 || finished.wait(kDeadlineMs));
    QVERIFY2(run->state() == LocalRun::State::Cancelled,
             qPrintable(run->errorText() + "\n" + run->stderrLines().join('\n')));
    QCOMPARE(run->exitCode(), 130);
    QVERIFY(run->series()->runEnd());
    QCOMPARE(run->series()->runEnd()->status, std::string("cancelled"));
    QCOMPARE(run->series()->checkpoints().size(), size_t{1});
    const QStringList checkpoints =
        QDir(run_dir + "/checkpoints").entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QCOMPARE(checkpoints, QStringList{QString("step-%1").arg(run->series()->runEnd()->steps)});
    dashboard->refresh();
    QCOMPARE(dashboard->header()->stateText(), QString("cancelled"));
    for (const auto& [rank, pid] : pids) {
      QTRY_VERIFY2_WITH_TIMEOUT(!processExists(pid),
                                qPrintable(QString("rank %1 (pid %2) is left").arg(rank).arg(pid)),
                                kDeadlineMs);
    }
  }
};

QTEST_MAIN(TestMultiRankRun)
#include "test_multi_rank_run.moc"
