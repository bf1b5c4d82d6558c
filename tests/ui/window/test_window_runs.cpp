// The runs side of the main window, with real moe-train runs: the run store still lists them
// after the app restarts, a finished run directory (or a copy of one, as from a cluster) replays
// into a dashboard, and two runs compare on one plot with a diff of their configs.
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QtTest>

#include "base/experiment/experiment_document.h"
#include "base/run/run.h"
#include "base/runs/config_diff.h"
#include "base/runs/run_directory_index.h"
#include "base/runs/run_manager.h"
#include "base/runs/run_store.h"
#include "dashboard/run_dashboard.h"
#include "dashboard/run_header.h"
#include "dashboard/training_page.h"
#include "experiment/experiment_editor.h"
#include "runs/compare_view.h"
#include "runs/config_diff_view.h"
#include "widgets/time_series_plot.h"
#include "window/main_window.h"
#include "window_test_support.h"

using namespace moe::ui;

class TestWindowRuns : public QObject {
  Q_OBJECT

  QStringList run_dirs_;

  static bool copyDirectory(const QString& from, const QString& to) {
    QDir().mkpath(to);
    for (const QString& name : QDir(from).entryList(QDir::Files))
      if (!QFile::copy(from + "/" + name, to + "/" + name)) return false;
    return true;
  }

 private slots:
  void initTestCase() {
    test::useTemporaryHome();
    MainWindow window;  // the first session: two runs that differ in their expert count
    window.runs()->setTrainProgram(MOE_TRAIN_BIN);
    for (int experts : {4, 8}) {
      window.editor()->document()->setText(test::tinyLmConfig("store-test", 8, experts));
      Run* run = window.runExperiment();
      QVERIFY(run);
      QSignalSpy finished(run, &Run::finished);
      QVERIFY(finished.wait(120000));
      QCOMPARE(run->state(), Run::State::Finished);
      run_dirs_ << canonicalRunDir(run->runDir());
    }
  }

  void theStoreListsTheRunsAfterARestart() {
    MainWindow window;  // a new session on the same database
    QCOMPARE(window.store()->all().size(), 2);
    for (const QString& dir : run_dirs_) {
      const auto record = window.store()->find(dir);
      QVERIFY(record);
      QCOMPARE(record->status, QString("finished"));
      QCOMPARE(record->steps_done, std::optional<int64_t>(8));
      QVERIFY(record->loss_min && record->loss_last && *record->loss_min <= *record->loss_last);
    }
  }

  void aCopiedRunDirectoryReplaysAndJoinsTheStore() {
    QTemporaryDir cluster;
    const QString copy = cluster.path() + "/from-cluster";
    QVERIFY(copyDirectory(run_dirs_[0], copy));
    MainWindow window;
    RunDashboard* dashboard = window.openRunDirectory(copy);
    QVERIFY(dashboard);
    QCOMPARE(dashboard->run(), nullptr);
    QSignalSpy done(dashboard, &RunDashboard::replayFinished);
    QVERIFY(done.wait(30000));
    QCOMPARE(dashboard->training()->lossPlot()->rows(0).step.size(), 8);
    QCOMPARE(dashboard->findChild<QLabel*>("runState")->text(), QString("Finished"));
    QTRY_VERIFY(window.store()->find(canonicalRunDir(copy)).has_value());
    QCOMPARE(window.openRunDirectory(copy), dashboard);  // the open tab, not a second one
  }

  void aRunsConfigOpensAsANewExperiment() {
    MainWindow window;
    QVERIFY(window.editRunConfig(run_dirs_[1]));
    ExperimentDocument* doc = window.editor()->document();
    QCOMPARE(doc->json()["moe"]["experts"].get<int>(), 8);  // the second run's setting
    QVERIFY(doc->filePath().isEmpty());                     // new: saving asks where
    QVERIFY(doc->isValid());
    QCOMPARE(window.tabs()->currentWidget(), window.editor());
  }

  void twoRunsCompareWithTheirConfigDiff() {
    MainWindow window;
    CompareView* compare = window.compareRuns(run_dirs_);
    QVERIFY(compare);
    QCOMPARE(compare->runCount(), 2);
    TimeSeriesPlot* plot = compare->plot();
    QTRY_VERIFY_WITH_TIMEOUT(plot->rows(0).step.size() == 8 && plot->rows(1).step.size() == 8,
                             30000);
    auto differs = [compare](const std::string& key) {
      for (const ConfigDiffRow& row : compare->configDiff()->diff().rows)
        if (row.key == key) return row.differs;
      return false;
    };
    QTRY_VERIFY(differs("moe.experts"));
    QVERIFY(!differs("train.steps"));
    QCOMPARE(compare->configDiff()->diff().differing, 1);  // the configs differ in that alone
  }
};

QTEST_MAIN(TestWindowRuns)
#include "test_window_runs.moc"
