// The Training page's smoothed loss over a long run fed as a live dashboard feeds it: deltas
// that each start at their first step, then a replacement of the rows from a step in the middle
// (a resume that repeats steps). The smoothed curve must always be the smoothing of the rows the
// raw curve holds, whichever checkpoint of the average the page resumed from.
#include <QtTest>

#include <cmath>

#include "base/plot_data/smoothing.h"
#include "base/telemetry/series_columns.h"
#include "dashboard/training_page.h"
#include "widgets/plot_sync.h"
#include "widgets/time_series_plot.h"

using namespace moe::ui;

namespace {

// Rows first..last (steps) with loss(step).
RunSnapshot delta(int first, int last, double (*loss)(int), bool reset = false) {
  RunSnapshot d;
  d.reset = reset;
  d.steps.replace_from = first;
  for (int s = first; s <= last; ++s) {
    StepColumns& c = d.steps;
    c.step.push_back(s);
    c.t.push_back(0.01 * s);
    c.loss.push_back(loss(s));
    for (auto* column : {&c.task_loss, &c.aux_loss, &c.z_loss, &c.lr, &c.grad_norm, &c.tokens,
                         &c.tokens_per_s, &c.step_ms, &c.tflops})
      column->push_back(1);
  }
  return d;
}

double firstLoss(int s) {
  return 3.0 / s + 0.1 * std::sin(s);
}
double secondLoss(int s) {
  return 2.0 / s + 0.05 * std::cos(s);
}

QVector<double> asStored(QVector<double> values) {
  for (double& v : values) v = static_cast<float>(v);
  return values;
}

void expectSmoothingOfRaw(TimeSeriesPlot* loss, double weight) {
  const QVector<double> raw = loss->rows(0).value;
  const QVector<double> smooth = loss->rows(1).value;
  QCOMPARE(smooth.size(), raw.size());
  const QVector<double> expected = asStored(smoothed(raw, weight));
  for (qsizetype i = 0; i < raw.size(); ++i) {
    if (smooth[i] != expected[i])
      QFAIL(qPrintable(QStringLiteral("row %1: %2, expected %3")
                           .arg(i)
                           .arg(smooth[i], 0, 'g', 9)
                           .arg(expected[i], 0, 'g', 9)));
  }
}

}  // namespace

class TestTrainingSmoothing : public QObject {
  Q_OBJECT

 private slots:
  void longRunsAndReplacementsSmoothTheRowsHeld() {
    PlotSync sync;
    TrainingPage page(&sync);
    TimeSeriesPlot* loss = page.lossPlot();
    page.apply(delta(1, 37, firstLoss, true));
    for (int first = 38; first <= 1500; first += 37)
      page.apply(delta(first, first + 36, firstLoss));
    QCOMPARE(loss->rows(0).value.size(), 1517);
    expectSmoothingOfRaw(loss, 0.9);

    // A resume from step 700 repeats the steps after it with other values: rows from 700 on are
    // replaced (past several checkpoints), then the run goes on.
    page.apply(delta(700, 800, secondLoss));
    QCOMPARE(loss->rows(0).value.size(), 800);
    expectSmoothingOfRaw(loss, 0.9);
    page.apply(delta(801, 1300, secondLoss));
    expectSmoothingOfRaw(loss, 0.9);

    // A replacement on a checkpoint's own row, and one before the first checkpoint's end.
    page.apply(delta(513, 600, firstLoss));
    expectSmoothingOfRaw(loss, 0.9);
    page.apply(delta(3, 40, secondLoss));
    expectSmoothingOfRaw(loss, 0.9);

    page.setSmoothing(0.5);  // the checkpoints of the old weight are dropped
    expectSmoothingOfRaw(loss, 0.5);
    page.apply(delta(41, 900, firstLoss));
    page.apply(delta(300, 310, secondLoss));
    expectSmoothingOfRaw(loss, 0.5);
  }
};

QTEST_MAIN(TestTrainingSmoothing)
#include "test_training_smoothing.moc"
