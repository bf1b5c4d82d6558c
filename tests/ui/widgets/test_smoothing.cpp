#include <QTest>

#include <cmath>
#include <limits>

#include "base/plot_data/smoothing.h"

using moe::ui::EmaSmoother;
using moe::ui::smoothed;

class TestSmoothing : public QObject {
  Q_OBJECT

 private slots:
  void firstValueEqualsInput() {
    EmaSmoother s(0.9);
    QCOMPARE(s.add(3.5), 3.5);
  }

  void constantSeriesStaysConstant() {
    const QVector<double> out = smoothed(QVector<double>(50, 2.0), 0.95);
    for (double v : out) QVERIFY(std::abs(v - 2.0) < 1e-12);
  }

  void weightZeroIsIdentity() {
    const QVector<double> in = {1, -4, 9.5, 0, 3};
    QCOMPARE(smoothed(in, 0.0), in);
  }

  void handComputedThreeValues() {
    // w = 0.5: a = 0.5, 1.25, 2.625; norm = 0.5, 0.75, 0.875.
    const QVector<double> out = smoothed({1, 2, 4}, 0.5);
    QCOMPARE(out.size(), 3);
    QCOMPARE(out[0], 1.0);
    QVERIFY(std::abs(out[1] - 1.25 / 0.75) < 1e-12);
    QVERIFY(std::abs(out[2] - 3.0) < 1e-12);
  }

  void nanPassesThroughWithoutPollutingTheAverage() {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const QVector<double> with_gap = smoothed({1, nan, 2, 4}, 0.5);
    const QVector<double> without = smoothed({1, 2, 4}, 0.5);
    QVERIFY(std::isnan(with_gap[1]));
    QCOMPARE(with_gap[0], without[0]);
    QCOMPARE(with_gap[2], without[1]);
    QCOMPARE(with_gap[3], without[2]);
    EmaSmoother s(0.5);
    QVERIFY(std::isinf(s.add(std::numeric_limits<double>::infinity())));
    QCOMPARE(s.add(7.0), 7.0);
  }

  void heavyWeightStillWorks() {
    EmaSmoother s(0.999);
    QVERIFY(std::abs(s.add(10.0) - 10.0) < 1e-9);
    double last = 0;
    for (int i = 0; i < 1000; ++i) last = s.add(20.0);
    QVERIFY(std::isfinite(last));
    QVERIFY(last > 10.0 && last < 20.0);
    // Debiased: after n values of 20 following one 10 the weight on the 10 is w^n / (1-w^(n+1)).
    const double w = 0.999, wn = std::pow(w, 1000);
    const double expected = (10 * (1 - w) * wn + 20 * (1 - wn)) / (1 - wn * w);
    QVERIFY(std::abs(last - expected) < 1e-9);
  }

  void resetStartsOver() {
    EmaSmoother s(0.9);
    s.add(100);
    s.reset();
    QCOMPARE(s.add(1.0), 1.0);
  }
};

QTEST_GUILESS_MAIN(TestSmoothing)
#include "test_smoothing.moc"
