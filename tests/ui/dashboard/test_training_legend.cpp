// The Training page's loss legend names only curves with rows: a run without evals has no
// "eval loss" entry, and the entry appears once the first eval arrives.
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "dashboard/run_dashboard.h"
#include "dashboard/training_page.h"
#include "widgets/time_series_plot.h"

using namespace moe::ui;

namespace {

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

// run_start and ten steps of a 20-step run, no evals, no run_end (still being written).
QByteArray firstTenSteps() {
  QByteArray lines =
      R"({"v":1,"type":"run_start","t":0,"run_id":"legend","config":{"train":{"steps":20}},)"
      R"("world_size":1,"device":"cpu","host":"box","engine_version":"0","torch_version":"0"})"
      "\n";
  for (int step = 1; step <= 10; ++step) lines += stepLine(step);
  return lines;
}

QStringList legendNames(const TimeSeriesPlot* plot) {
  QStringList names;
  for (int i = 0; i < plot->legend->itemCount(); ++i) {
    auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i));
    names << (item ? item->plottable()->name() : QString());
  }
  return names;
}

}  // namespace

class TestTrainingLegend : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void evalLossIsListedOnceTheFirstEvalArrives() {
    QTemporaryDir dir;
    QFile file(dir.path() + "/metrics.jsonl");
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(firstTenSteps());
    file.flush();
    std::unique_ptr<RunDashboard> dashboard(RunDashboard::replay(dir.path()));
    {
      QSignalSpy loaded(dashboard.get(), &RunDashboard::replayFinished);
      QVERIFY(loaded.wait(10000));
    }
    TimeSeriesPlot* loss = dashboard->training()->lossPlot();
    QCOMPARE(loss->rows(0).step.size(), 10);
    QCOMPARE(legendNames(loss), (QStringList{"loss", "smoothed"}));
    QVERIFY(loss->legend->visible());

    QSignalSpy finished(dashboard.get(), &RunDashboard::replayFinished);
    for (int step = 11; step <= 20; ++step) file.write(stepLine(step));
    file.write(R"({"v":1,"type":"eval","t":10,"step":20,"loss":0.4})"
               "\n"
               R"({"v":1,"type":"run_end","t":11,"status":"completed","steps":20})"
               "\n");
    file.close();
    QVERIFY(finished.wait(10000));
    dashboard->refresh();
    QCOMPARE(loss->rows(2).step, QVector<double>{20});
    QCOMPARE(legendNames(loss), (QStringList{"loss", "smoothed", "eval loss"}));
  }
};

QTEST_MAIN(TestTrainingLegend)
#include "test_training_legend.moc"
