// RunDashboard over replayed run directories: what its pages hold, how the view controls act on
// them, and the routing warning banner.
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>
#include <cmath>

#include "base/plot_data/smoothing.h"
#include "dashboard/dashboard_controls.h"
#include "dashboard/imbalance_page.h"
#include "dashboard/run_dashboard.h"
#include "dashboard/run_header.h"
#include "dashboard/training_page.h"
#include "widgets/restart_markers.h"
#include "widgets/time_series_plot.h"

using namespace moe::ui;

namespace {

QString expertLoad(int step, int layer, double entropy) {
  return QString(R"({"v":1,"type":"expert_load","t":%1,"step":%2,"layer":%3,)"
                 R"("counts":[10,10,10,10],"kept":[10,10,10,10],"capacity":16,)"
                 R"("dropped_frac":0.0,"cv":0.1,"max_over_mean":1.2,"load_entropy":%4,)"
                 R"("router_entropy":0.9,"dead_experts":0,"importance":[0.25,0.25,0.25,0.25],)"
                 R"("l_aux":1.0,"z_loss":2.0})")
      .arg(step * 0.5)
      .arg(step)
      .arg(layer)
      .arg(entropy);
}

// A step event whose loss falls as 3 / step.
QByteArray stepLine(int step) {
  return QString(R"({"v":1,"type":"step","t":%1,"step":%2,"loss":%3,"task_loss":1,)"
                 R"("aux_loss":1,"z_loss":0,"lr":0.001,"grad_norm":1,"tokens":64,)"
                 R"("tokens_per_s":128,"step_ms":500})")
             .arg(step * 0.5)
             .arg(step)
             .arg(3.0 / step)
             .toUtf8() +
         "\n";
}

// A finished 30-step run whose layer 1 collapses (load entropy 0.2) from step 5 on.
void writeCollapsingRun(const QString& dir) {
  QFile file(dir + "/metrics.jsonl");
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.write(
      R"({"v":1,"type":"run_start","t":0,"run_id":"collapse","config":{"train":{"steps":30}},)"
      R"("world_size":1,"device":"cpu","host":"box","engine_version":"0","torch_version":"0"})"
      "\n");
  for (int step = 1; step <= 30; ++step) {
    file.write(stepLine(step));
    file.write(expertLoad(step, 0, 0.95).toUtf8() + "\n");
    file.write(expertLoad(step, 1, step >= 5 ? 0.2 : 0.9).toUtf8() + "\n");
  }
  file.write(R"({"v":1,"type":"run_end","t":16,"status":"completed","steps":30})"
             "\n");
}

// Equal element by element, NaN equal to NaN (the failed run's last loss is NaN).
bool sameValues(const QVector<double>& a, const QVector<double>& b) {
  if (a.size() != b.size()) return false;
  for (qsizetype i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) return false;
  return true;
}

// Values as a TimeSeriesPlot keeps them (float).
QVector<double> asStored(QVector<double> values) {
  for (double& v : values) v = static_cast<float>(v);
  return values;
}

RunDashboard* replayed(const QString& dir) {
  RunDashboard* dashboard = RunDashboard::replay(dir);
  QSignalSpy done(dashboard, &RunDashboard::replayFinished);
  if (!done.wait(10000)) return nullptr;
  return dashboard;
}

}  // namespace

class TestRunDashboard : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
  void init() { QSettings().clear(); }  // every test starts from the default view settings

  void aCollapsedLayerRaisesAWarningNamingIt() {
    QTemporaryDir dir;
    writeCollapsingRun(dir.path());
    std::unique_ptr<RunDashboard> dashboard(replayed(dir.path()));
    QVERIFY(dashboard);
    QCOMPARE(dashboard->warnings().size(), 1);
    QVERIFY2(dashboard->warnings()[0].startsWith("Layer 1: routing collapsed"),
             qPrintable(dashboard->warnings()[0]));
    QVERIFY(!dashboard->findChild<QLabel*>("routingWarning")->isHidden());
    QCOMPARE(dashboard->findChild<QLabel*>("runState")->text(), QString("Finished"));
    QCOMPARE(dashboard->imbalance()->plots().front()->curveCount(), 2);
    QCOMPARE(dashboard->title(), QString("collapse"));
  }

  // The six imbalance plots share each layer's step and time column: every plot's curve of a
  // layer has that layer's rows, and its own metric's values.
  void imbalanceCurvesShareEachLayersRows() {
    QTemporaryDir dir;
    writeCollapsingRun(dir.path());
    std::unique_ptr<RunDashboard> dashboard(replayed(dir.path()));
    QVERIFY(dashboard);
    const QList<TimeSeriesPlot*> plots = dashboard->imbalance()->plots();
    QCOMPARE(plots.size(), 6);
    for (int64_t layer : {0, 1}) {
      const LayerColumns columns = *dashboard->series()->layer(layer);
      for (TimeSeriesPlot* plot : plots) {
        const TimeSeriesPlot::Rows rows = plot->rows(static_cast<int>(layer));
        QCOMPARE(rows.step, QVector<double>(columns.step.begin(), columns.step.end()));
        QCOMPARE(rows.t, QVector<double>(columns.t.begin(), columns.t.end()));
      }
      // The first plot is load entropy: layer 1 collapses from step 5 on.
      const QVector<double> entropy = plots.front()->rows(static_cast<int>(layer)).value;
      QCOMPARE(entropy.size(), 30);
      QCOMPARE(entropy[10], layer == 1 ? double(0.2f) : double(0.95f));
    }
    QCOMPARE(plots[2]->rows(1).value[0], double(1.2f));  // max / mean, kept as float
  }

  void theSmoothingSliderResmoothsTheLoss() {
    QTemporaryDir dir;
    writeCollapsingRun(dir.path());
    std::unique_ptr<RunDashboard> dashboard(replayed(dir.path()));
    QVERIFY(dashboard);
    TimeSeriesPlot* loss = dashboard->training()->lossPlot();
    const QVector<double> raw = loss->rows(0).value;
    QCOMPARE(raw.size(), 30);
    QCOMPARE(loss->rows(1).value, asStored(smoothed(raw, 0.9)));  // the default weight
    dashboard->controls()->setSmoothing(0);
    QCOMPARE(loss->rows(1).value, raw);
    dashboard->controls()->setSmoothing(0.5);
    QCOMPARE(loss->rows(1).value, asStored(smoothed(raw, 0.5)));
    QVERIFY(loss->rows(1).value != raw);
  }

  void wallTimeAndLogScaleApplyToEveryPlot() {
    QTemporaryDir dir;
    writeCollapsingRun(dir.path());
    std::unique_ptr<RunDashboard> dashboard(replayed(dir.path()));
    QVERIFY(dashboard);
    dashboard->controls()->setXMode(TimeSeriesPlot::XMode::WallTime);
    dashboard->controls()->setLogY(true);
    for (TimeSeriesPlot* plot : dashboard->training()->plots() + dashboard->imbalance()->plots()) {
      QCOMPARE(plot->xMode(), TimeSeriesPlot::XMode::WallTime);
      QVERIFY(plot->logY());
    }
    QCPGraph* raw = dashboard->training()->lossPlot()->graph(0);
    QCOMPARE(raw->data()->at(0)->key, 0.5);  // step 1 at t = 0.5 s
    QCOMPARE(raw->data()->at(29)->key, 15.0);
  }

  // The engine repeats steps after a resume: the rows are replaced, and the smoothed loss is
  // the smoothing of the final rows (not of every row ever received).
  void aResumedFailedRunShowsItsFinalRowsAndError() {
    QTemporaryDir dir;
    QVERIFY(
        QFile::copy(MOE_TEST_DATA_DIR "/resumed_failed_run.jsonl", dir.path() + "/metrics.jsonl"));
    std::unique_ptr<RunDashboard> dashboard(replayed(dir.path()));
    QVERIFY(dashboard);
    const StepColumns steps = dashboard->series()->steps();
    TimeSeriesPlot* loss = dashboard->training()->lossPlot();
    QCOMPARE(loss->rows(0).step, QVector<double>(steps.step.begin(), steps.step.end()));
    QVERIFY(sameValues(loss->rows(0).value, asStored({steps.loss.begin(), steps.loss.end()})));
    QVERIFY(sameValues(loss->rows(1).value, asStored(smoothed(loss->rows(0).value, 0.9))));
    QVERIFY(dashboard->findChild<QLabel*>("runState")->text().startsWith("Failed"));
  }

  // moe-train launch --max-restarts started every rank again twice, and the run was resumed by
  // hand once: a marker on the loss plot at each checkpoint step it went on from.
  void restartsAndResumesAreMarkedOnTheLossPlot() {
    QTemporaryDir dir;
    QFile file(dir.path() + "/metrics.jsonl");
    QVERIFY(file.open(QIODevice::WriteOnly));
    const auto start = [&](const QString& extra) {
      file.write(R"({"v":1,"type":"run_start","t":0,"run_id":"restarts","config":{"train":)"
                 R"({"steps":40}},"world_size":2,"device":"cpu","host":"box",)"
                 R"("engine_version":"0","torch_version":"0")" +
                 extra.toUtf8() + "}\n");
    };
    const auto steps = [&](int from, int to) {
      for (int step = from; step <= to; ++step) file.write(stepLine(step));
    };
    start("");
    steps(1, 13);
    start(R"(,"resumed_step":10,"restart":1)");
    steps(11, 24);
    start(R"(,"resumed_step":20,"restart":2)");
    steps(21, 30);
    start(R"(,"resumed_step":30)");
    steps(31, 40);
    file.write(R"({"v":1,"type":"run_end","t":20,"status":"completed","steps":40})"
               "\n");
    file.close();
    std::unique_ptr<RunDashboard> dashboard(replayed(dir.path()));
    QVERIFY(dashboard);
    const RestartMarkers* markers = dashboard->training()->restartMarkers();
    QCOMPARE(markers->count(), 3);
    QCOMPARE(markers->label(0), QString("restart 1"));
    QCOMPARE(markers->x(0), 10.0);
    QCOMPARE(markers->label(1), QString("restart 2"));
    QCOMPARE(markers->x(1), 20.0);
    QCOMPARE(markers->label(2), QString("resumed"));
    QCOMPARE(markers->x(2), 30.0);
    const RunInfo info = dashboard->series()->info();
    QCOMPARE(info.resumes, 3);
    QCOMPARE(info.restarts, int64_t{0});  // the latest start was a resume by hand
    QCOMPARE(dashboard->series()->steps().size(), size_t{40});
  }

  // A run still being written (another session, a shared folder): the replay follows the file,
  // a line cut between two writes included, until run_end.
  void aReplayFollowsARunStillBeingWritten() {
    QTemporaryDir dir;
    writeCollapsingRun(dir.path());
    QFile full(dir.path() + "/metrics.jsonl");
    QVERIFY(full.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = full.readAll().split('\n');
    full.close();
    const QByteArray first_part = lines.mid(0, 31).join('\n') + "\n" + lines[31].left(20);
    const QByteArray rest = lines[31].mid(20) + "\n" + lines.mid(32).join('\n');
    QFile file(dir.path() + "/metrics.jsonl");
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(first_part);  // run_start and 10 steps, then half a line
    file.flush();
    std::unique_ptr<RunDashboard> dashboard(replayed(dir.path()));
    QVERIFY(dashboard);
    TimeSeriesPlot* loss = dashboard->training()->lossPlot();
    QCOMPARE(loss->rows(0).step.size(), 10);
    QVERIFY(dashboard->findChild<QLabel*>("runState")->text().startsWith("No run_end"));
    QSignalSpy finished(dashboard.get(), &RunDashboard::replayFinished);
    file.write(rest);
    file.close();
    QVERIFY(finished.wait(10000));  // the run_end arrived: following stops
    dashboard->refresh();
    QCOMPARE(loss->rows(0).step.size(), 30);
    QCOMPARE(dashboard->findChild<QLabel*>("runState")->text(), QString("Finished"));
    QCOMPARE(dashboard->series()->stats().rejected, 0);
  }

  // A classifier's evals report accuracy: plotted in percent beside the gradient norm, and the
  // best one in the header. A run whose evals have none shows neither.
  void evalAccuracyIsPlottedAndTheBestIsInTheHeader() {
    QTemporaryDir dir;
    writeCollapsingRun(dir.path());
    QFile file(dir.path() + "/metrics.jsonl");
    QVERIFY(file.open(QIODevice::Append));
    const double accuracy[] = {0.5, 0.875, 0.75};
    for (int i = 0; i < 3; ++i) {
      file.write(QString(R"({"v":1,"type":"eval","t":%1,"step":%2,"loss":%3,"accuracy":%4})")
                     .arg(5.0 * (i + 1))
                     .arg(10 * (i + 1))
                     .arg(1.0 / (i + 1))
                     .arg(accuracy[i])
                     .toUtf8() +
                 "\n");
    }
    file.close();
    std::unique_ptr<RunDashboard> dashboard(replayed(dir.path()));
    QVERIFY(dashboard);
    TimeSeriesPlot* plot = dashboard->training()->accuracyPlot();
    QVERIFY(plot->isVisibleTo(dashboard->training()));
    QCOMPARE(plot->rows(0).step, (QVector<double>{10, 20, 30}));
    QCOMPARE(plot->rows(0).value, (QVector<double>{50, 87.5, 75}));
    QCOMPARE(dashboard->training()->lossPlot()->rows(2).value.size(), 3);  // eval loss too
    QCOMPARE(dashboard->header()->accuracyText(), QString("best eval accuracy 87.50 %"));

    QTemporaryDir plain;
    writeCollapsingRun(plain.path());
    QFile loss_only(plain.path() + "/metrics.jsonl");
    QVERIFY(loss_only.open(QIODevice::Append));
    loss_only.write(R"({"v":1,"type":"eval","t":5,"step":10,"loss":0.9})"
                    "\n");
    loss_only.close();
    std::unique_ptr<RunDashboard> lm(replayed(plain.path()));
    QVERIFY(lm);
    QCOMPARE(lm->training()->lossPlot()->rows(2).value.size(), 1);
    QVERIFY(!lm->training()->accuracyPlot()->isVisibleTo(lm->training()));
    QVERIFY(lm->header()->accuracyText().isEmpty());
  }

  // The Trace menu shows for a run whose config writes trace.json, and finds the file once the
  // engine wrote it.
  void aTracedRunOffersItsTraceFile() {
    QTemporaryDir plain, traced;
    writeCollapsingRun(plain.path());
    QFile file(traced.path() + "/metrics.jsonl");
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"v":1,"type":"run_start","t":0,"run_id":"traced",)"
               R"("config":{"telemetry":{"trace":true}},"world_size":1})"
               "\n");
    file.close();
    std::unique_ptr<RunDashboard> without(replayed(plain.path()));
    std::unique_ptr<RunDashboard> with(replayed(traced.path()));
    QVERIFY(without && with);
    QVERIFY(!without->controls()->traceButton()->isVisibleTo(without.get()));
    QToolButton* trace = with->controls()->traceButton();
    QVERIFY(trace->isVisibleTo(with.get()));
    auto actionTexts = [trace] {
      emit trace->menu()->aboutToShow();
      QStringList texts;
      for (QAction* a : trace->menu()->actions())
        if (!a->isSeparator()) texts << a->text();
      return texts;
    };
    QVERIFY2(actionTexts().join("|").contains("written when the run ends"),
             qPrintable(actionTexts().join("|")));
    QFile trace_json(traced.path() + "/trace.json");
    QVERIFY(trace_json.open(QIODevice::WriteOnly));
    trace_json.write("{\"traceEvents\":[]}");
    trace_json.close();
    QVERIFY2(actionTexts().join("|").contains("Show trace.json in its folder"),
             qPrintable(actionTexts().join("|")));
  }

  void aFolderWithoutTelemetrySaysWhichFile() {
    QTemporaryDir dir;
    std::unique_ptr<RunDashboard> dashboard(RunDashboard::replay(dir.path()));
    QSignalSpy failed(dashboard.get(), &RunDashboard::loadFailed);
    QVERIFY(failed.wait(10000));
    QVERIFY2(failed[0][0].toString().contains(dir.path() + "/metrics.jsonl"),
             qPrintable(failed[0][0].toString()));
  }
};

QTEST_MAIN(TestRunDashboard)
#include "test_run_dashboard.moc"
