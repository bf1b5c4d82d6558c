// The main window launches the experiment in its editor as a real moe-train run and shows it in
// a run tab whose dashboard fills from the live telemetry.
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QtTest>
#include <qcustomplot.h>

#include "dashboard/run_series.h"
#include "experiment/experiment_document.h"
#include "experiment/experiment_editor.h"
#include "launch/local_run.h"
#include "launch/run_manager.h"
#include "window/main_window.h"
#include "window/run_panel.h"

using namespace moe::ui;

class TestMainWindow : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void runsTheExperimentAndFillsItsTab() {
#ifndef MOE_TRAIN_BIN
    QSKIP("moe-train is not built");
#else
    MainWindow window;
    window.runs()->setTrainProgram(MOE_TRAIN_BIN);
    ExperimentDocument* doc = window.editor()->document();
    doc->setText(R"({"name": "window-test",
      "model": {"kind": "lm", "dim": 32, "layers": 2, "heads": 2, "seq_len": 16},
      "moe": {"experts": 4, "hidden": 32},
      "train": {"steps": 12, "batch_size": 4, "threads": 1}})");
    QVERIFY(doc->isValid());

    LocalRun* run = window.runExperiment();
    QVERIFY(run);
    QSignalSpy finished(run, &LocalRun::finished);
    QVERIFY(finished.wait(120000));
    QCOMPARE(run->state(), LocalRun::State::Finished);
    QCOMPARE(run->series()->steps().size(), size_t{12});
    QVERIFY(run->runDir().startsWith(MainWindow::runsRoot()));

    auto* tabs = qobject_cast<QTabWidget*>(window.centralWidget());
    QVERIFY(tabs);
    QCOMPARE(tabs->count(), 2);
    auto* panel = qobject_cast<RunPanel*>(tabs->widget(1));
    QVERIFY(panel);
    QCOMPARE(panel->run(), run);
    panel->refresh();
    QCOMPARE(panel->lossPlot()->graph(0)->dataCount(), 12);  // raw loss, one point per step
    QCOMPARE(panel->lossPlot()->graph(1)->dataCount(), 12);  // smoothed
    QCOMPARE(tabs->tabText(1), run->runId());
#endif
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
