// A real run with telemetry.capture_every on the dashboard: the captured steps are markers on the
// loss plot, live and replayed; the What-if menu lists each step's layers; a click on a marker
// (a menu of the step's two layers) asks for that capture; the main window opens its What-if tab,
// and one for a file opened by name.
#include <QtTest>

#include <QAction>
#include <QFile>
#include <QMenu>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QToolButton>

#include <memory>

#include "../window/window_test_support.h"
#include "base/run/local_run.h"
#include "dashboard/dashboard_controls.h"
#include "dashboard/run_dashboard.h"
#include "dashboard/training_page.h"
#include "whatif/whatif_view.h"
#include "whatif_test_run.h"
#include "widgets/capture_markers.h"
#include "widgets/time_series_plot.h"
#include "window/main_window.h"

using namespace moe::ui;

namespace {

// Two MoE layers, 6 steps, captures at 2, 4 and 6.
const QByteArray kConfig =
    R"({"name":"capture-markers","model":{"kind":"lm","dim":32,"layers":2,"heads":2,)"
    R"("seq_len":16},"moe":{"experts":4,"hidden":32},)"
    R"("train":{"steps":6,"batch_size":4,"threads":1},"telemetry":{"capture_every":2}})";

}  // namespace

class TestCaptureMarkers : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;
  QString run_dir_;

  static void checkMarkers(RunDashboard& dashboard) {
    const CaptureMarkers* markers = dashboard.training()->captureMarkers();
    QCOMPARE(markers->count(), 3);
    QCOMPARE(markers->step(0), 2);
    QCOMPARE(markers->step(2), 6);
    QCOMPARE(markers->x(1), 4.0);
    const auto captures = dashboard.series()->captures();
    QCOMPARE(captures.size(), size_t{6});  // 3 steps x 2 layers
    QCOMPARE(captures[1].layer, 1);
    QCOMPARE(captures[1].path, std::string("captures/step-2/layer-1.safetensors"));
  }

 private slots:
  void initTestCase() {
    moe::ui::test::useTemporaryHome();
    QVERIFY(dir_.isValid());
    QString error;
    run_dir_ = moe::test::runWithCaptures(dir_.path(), "run", kConfig, &error);
    QVERIFY2(!run_dir_.isEmpty(), qPrintable(error));
  }

  void aLiveRunShowsItsCaptures() {
    QFile config(dir_.filePath("live.json"));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write(kConfig);
    config.close();
    LaunchSpec spec;
    spec.program = QStringLiteral(MOE_TRAIN_BIN);
    spec.config_file = config.fileName();
    spec.run_dir = dir_.filePath("live");
    LocalRun run(spec);
    RunDashboard dashboard(&run);
    QSignalSpy finished(&run, &LocalRun::finished);
    run.start();
    QVERIFY(finished.wait(moe::test::kEngineTimeoutMs));
    dashboard.refresh();
    checkMarkers(dashboard);
    QVERIFY(dashboard.controls()->whatIfButton()->isVisibleTo(&dashboard));
  }

  void aReplayedRunShowsItsCapturesAndOpensThem() {
    std::unique_ptr<RunDashboard> dashboard(RunDashboard::replay(run_dir_));
    QSignalSpy replayed(dashboard.get(), &RunDashboard::replayFinished);
    QVERIFY(replayed.wait(moe::test::kEngineTimeoutMs));
    checkMarkers(*dashboard);
    QSignalSpy asked(dashboard.get(), &RunDashboard::whatIfRequested);

    // The What-if menu: one submenu per step, one entry per layer.
    QMenu* menu = dashboard->controls()->whatIfButton()->menu();
    QCOMPARE(menu->actions().size(), 3);
    QMenu* step4 = menu->actions().at(1)->menu();
    QVERIFY(step4);
    QCOMPARE(step4->title(), QString("Step 4"));
    QCOMPARE(step4->actions().size(), 2);
    step4->actions().at(1)->trigger();
    QCOMPARE(asked.count(), 1);
    QCOMPARE(asked.at(0).at(0).toString(), run_dir_);
    QCOMPARE(asked.at(0).at(1).toLongLong(), 4);
    QCOMPARE(asked.at(0).at(2).toLongLong(), 1);
    QCOMPARE(asked.at(0).at(3).toString(), run_dir_ + "/captures/step-4/layer-1.safetensors");

    // A click on the step-6 marker of the loss plot: the step has two layers, a menu asks which.
    dashboard->resize(1000, 700);
    dashboard->show();
    QVERIFY(QTest::qWaitForWindowExposed(dashboard.get()));
    dashboard->pages()->setCurrentIndex(0);
    TimeSeriesPlot* loss = dashboard->training()->lossPlot();
    loss->replot();
    if (const QString shots = qEnvironmentVariable("MOE_SCREENSHOT_DIR"); !shots.isEmpty())
      QVERIFY(dashboard->grab().save(shots + "/capture-markers.png"));
    const QPoint at = dashboard->training()->captureMarkers()->labelPixel(2).toPoint();
    QTest::mouseClick(loss, Qt::LeftButton, Qt::NoModifier, at);
    QMenu* layers = nullptr;
    QTRY_VERIFY((layers = dashboard->findChild<QMenu*>(QString(), Qt::FindDirectChildrenOnly)));
    QCOMPARE(layers->actions().size(), 3);  // the section's title, then the layers
    layers->actions().at(1)->trigger();
    QCOMPARE(asked.count(), 2);
    QCOMPARE(asked.at(1).at(1).toLongLong(), 6);
    QCOMPARE(asked.at(1).at(2).toLongLong(), 0);
    layers->close();
  }

  // The window opens the capture a dashboard asks for in a What-if tab, once.
  void theWindowOpensTheWhatIfTab() {
    MainWindow window;
    RunDashboard* dashboard = window.openRunDirectory(run_dir_);
    QVERIFY(dashboard);
    QSignalSpy replayed(dashboard, &RunDashboard::replayFinished);
    QVERIFY(replayed.wait(moe::test::kEngineTimeoutMs));
    const QString capture = run_dir_ + "/captures/step-2/layer-0.safetensors";
    emit dashboard->whatIfRequested(run_dir_, 2, 0, capture);
    auto* view = qobject_cast<WhatIfView*>(window.tabs()->currentWidget());
    QVERIFY(view);
    QCOMPARE(window.tabs()->tabText(window.tabs()->currentIndex()),
             QString("What-if: run · step 2 · layer 0"));
    QSignalSpy loaded(view, &WhatIfView::loaded);
    QVERIFY(loaded.wait(moe::test::kEngineTimeoutMs));
    const int tabs = window.tabs()->count();
    emit dashboard->whatIfRequested(run_dir_, 2, 0, capture);
    QCOMPARE(window.tabs()->count(), tabs);
    QCOMPARE(window.tabs()->currentWidget(), view);

    // File > Open Routing Tensors… with a file of one layer: its header is read, then the tab.
    window.openRoutingTensors(run_dir_ + "/captures/step-4/layer-1.safetensors");
    QTRY_COMPARE(window.tabs()->count(), tabs + 1);
    QCOMPARE(window.tabs()->tabText(window.tabs()->currentIndex()),
             QString("What-if: layer-1.safetensors"));
  }
};

QTEST_MAIN(TestCaptureMarkers)
#include "test_capture_markers.moc"
