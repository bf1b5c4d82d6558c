// The main window launches the experiment in its editor as a real moe-train run, shows it in a
// dashboard that fills from the live telemetry, records it in the run store, and shows how a run
// was cancelled or why it failed.
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QtTest>

#include "base/experiment/experiment_document.h"
#include "base/run/run.h"
#include "base/runs/run_directory_index.h"
#include "base/runs/run_manager.h"
#include "base/runs/run_store.h"
#include "base/telemetry/run_series.h"
#include "dashboard/imbalance_page.h"
#include "dashboard/load_page.h"
#include "dashboard/run_dashboard.h"
#include "dashboard/training_page.h"
#include "experiment/experiment_editor.h"
#include "widgets/expert_load_heatmap.h"
#include "window/main_window.h"
#include "window_test_support.h"

using namespace moe::ui;

class TestMainWindow : public QObject {
  Q_OBJECT

  Run* launch(MainWindow& window, const QString& config) {
    window.runs()->setTrainProgram(MOE_TRAIN_BIN);
    ExperimentDocument* doc = window.editor()->document();
    doc->setText(config);
    if (!doc->isValid()) return nullptr;
    return window.runExperiment();
  }

  static RunDashboard* currentDashboard(MainWindow& window) {
    return qobject_cast<RunDashboard*>(window.tabs()->currentWidget());
  }

 private slots:
  void initTestCase() { test::useTemporaryHome(); }

  void runsTheExperimentAndFillsItsDashboard() {
    MainWindow window;
    Run* run = launch(window, test::tinyLmConfig("window-test", 12));
    QVERIFY(run);
    QSignalSpy finished(run, &Run::finished);
    QVERIFY(finished.wait(120000));
    QCOMPARE(run->state(), Run::State::Finished);
    QCOMPARE(run->series()->steps().size(), size_t{12});
    QVERIFY(run->runDir().startsWith(MainWindow::runsRoot()));

    RunDashboard* dashboard = currentDashboard(window);
    QVERIFY(dashboard);
    QCOMPARE(dashboard->run(), run);
    dashboard->refresh();
    TimeSeriesPlot* loss = dashboard->training()->lossPlot();
    QCOMPARE(loss->rows(0).step.size(), 12);  // raw loss, one row per step
    QCOMPARE(loss->rows(1).step.size(), 12);  // smoothed
    const StepColumns steps = run->series()->steps();
    for (size_t i = 0; i < steps.size(); ++i)  // the plot keeps values as float
      QCOMPARE(loss->rows(0).value[static_cast<qsizetype>(i)],
               static_cast<double>(static_cast<float>(steps.loss[i])));
    QCOMPARE(dashboard->imbalance()->plots().front()->curveCount(), 2);  // one per MoE layer
    dashboard->pages()->setCurrentWidget(dashboard->load());
    QCOMPARE(dashboard->load()->heatmap()->matrix().experts, size_t{4});
    QCOMPARE(window.tabs()->tabText(window.tabs()->indexOf(dashboard)), run->runId());

    // The runs view stores records on its worker thread: the row arrives a moment later.
    const QString run_dir = canonicalRunDir(run->runDir());
    QTRY_VERIFY(window.store()->find(run_dir).has_value() &&
                window.store()->find(run_dir)->status == QString("finished"));
    const auto record = window.store()->find(run_dir);
    QCOMPARE(record->steps_done, std::optional<int64_t>(12));
  }

  void cancelStopsTheRunWithACheckpointAndResumeFinishesIt() {
    MainWindow window;
    Run* run = launch(window, test::tinyLmConfig("cancel-test", 300));
    QVERIFY(run);
    QTRY_VERIFY_WITH_TIMEOUT(run->step() >= 2, 60000);
    RunDashboard* dashboard = currentDashboard(window);
    auto* cancel = dashboard->findChild<QPushButton*>("cancelRun");
    auto* resume = dashboard->findChild<QPushButton*>("resumeRun");
    QVERIFY(cancel && cancel->isEnabled() && resume && resume->isHidden());
    QSignalSpy finished(run, &Run::finished);
    cancel->click();
    QVERIFY(finished.wait(60000));
    QCOMPARE(run->state(), Run::State::Cancelled);
    QVERIFY(!cancel->isEnabled());
    const auto checkpoints = run->series()->checkpoints();  // SIGINT: finish the step, checkpoint
    QVERIFY(!checkpoints.empty() && checkpoints.back().step < 300);
    const QString dir = canonicalRunDir(run->runDir());
    QTRY_COMPARE(window.store()->find(dir)->status, QString("cancelled"));

    // Resume: the same directory continues in a live tab that replaces the old one.
    const int tabs = window.tabs()->count();
    QVERIFY(!resume->isHidden());
    resume->click();
    Run* resumed = window.runs()->findByRunDir(dir);
    QVERIFY(resumed && resumed != run && resumed->isResume());
    QSignalSpy resumed_finished(resumed, &Run::finished);
    QVERIFY(resumed_finished.wait(120000));
    QCOMPARE(resumed->state(), Run::State::Finished);
    QCOMPARE(window.tabs()->count(), tabs);
    RunDashboard* live = currentDashboard(window);
    QVERIFY(live && live->run() == resumed);
    live->refresh();
    // The whole history: the steps before the checkpoint from the file, the rest live.
    QCOMPARE(live->training()->lossPlot()->rows(0).step.size(), 300);
    QTRY_COMPARE(window.store()->find(dir)->status, QString("finished"));
  }

  void aFailedRunShowsTheErrorAndExitStatus() {
    MainWindow window;
    // Valid as a config, but the engine finds the corpus shorter than one training window.
    QTemporaryDir data;
    const QString corpus = data.filePath("short.txt");
    QFile file(corpus);
    QVERIFY(file.open(QIODevice::WriteOnly) && file.write("tiny") == 4);
    file.close();
    Run* run = launch(window, QString(R"({"name": "fail-test",
        "model": {"kind": "lm", "dim": 32, "layers": 1, "heads": 2, "seq_len": 16},
        "moe": {"experts": 4, "hidden": 32}, "data": {"kind": "text", "path": "%1"},
        "train": {"steps": 5, "batch_size": 4, "threads": 1}})")
                                  .arg(corpus));
    QVERIFY(run);
    QSignalSpy finished(run, &Run::finished);
    QVERIFY(finished.wait(60000));
    QCOMPARE(run->state(), Run::State::Failed);
    QCOMPARE(run->exitCode(), 2);
    auto* state = currentDashboard(window)->findChild<QLabel*>("runState");
    QVERIFY(state);
    QVERIFY2(state->text().contains("exit 2") && state->text().contains(corpus) &&
                 state->text().contains("shorter than one window"),
             qPrintable(state->text()));
  }

  void anExperimentWithProblemsDoesNotLaunch() {
    MainWindow window;
    window.editor()->document()->setText(R"({"moe": {"experts": 4, "top_k": 9}})");
    QVERIFY(!window.editor()->document()->isValid());
    QCOMPARE(window.runExperiment(), nullptr);
    QVERIFY(window.runs()->runs().isEmpty());
  }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
