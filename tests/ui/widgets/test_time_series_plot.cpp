#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>

#include <cmath>
#include <limits>
#include <memory>

#include "base/plot_data/readout_format.h"
#include "widgets/time_series_plot.h"

using moe::ui::TimeSeriesPlot;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

QVector<double> graphKeys(QCPGraph* graph) {
  QVector<double> keys;
  for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
    keys << it->key;
  return keys;
}

// A plot laid out at a real size, so pixel <-> coordinate mapping works.
void layOut(TimeSeriesPlot& plot) {
  plot.resize(600, 400);
  plot.replot();
}

void wheelOver(TimeSeriesPlot& plot) {
  const QPointF at = plot.axisRect()->rect().center();
  QWheelEvent wheel(at, plot.mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton,
                    Qt::NoModifier, Qt::NoScrollPhase, false);
  QApplication::sendEvent(&plot, &wheel);
}

}  // namespace

class TestTimeSeriesPlot : public QObject {
  Q_OBJECT

 private slots:
  void replaceFromDropsThenAppends() {
    TimeSeriesPlot plot("loss");
    const int c = plot.addCurve("loss", QPen(Qt::blue));
    plot.replaceFrom(c, kInf, {1, 2, 3, 4}, {0.1, 0.2, 0.3, 0.4}, {10, 9, 8, 7});
    plot.replaceFrom(c, kInf, {5}, {0.5}, {6});
    QCOMPARE(plot.rows(c).step, QVector<double>({1, 2, 3, 4, 5}));
    // A resumed run repeats steps 3..: rows from 3 on are replaced.
    plot.replaceFrom(c, 3, {3, 4}, {1.3, 1.4}, {80, 70});
    QCOMPARE(plot.rows(c).step, QVector<double>({1, 2, 3, 4}));
    QCOMPARE(plot.rows(c).t, QVector<double>({0.1, 0.2, 1.3, 1.4}));
    QCOMPARE(plot.rows(c).value, QVector<double>({10, 9, 80, 70}));
    QCOMPARE(graphKeys(plot.graph(c)), QVector<double>({1, 2, 3, 4}));
    QCOMPARE(plot.graph(c)->data()->at(2)->value, 80.0);
  }

  // Curves sharing one PlotKeys: the keys are updated once, then each curve's values; a
  // replacement from a step drops and rebuilds only what changed; hover and rows() follow it.
  void sharedKeysFollowOneColumn() {
    TimeSeriesPlot a("a"), b("b");
    const int ca = a.addCurve("x", QPen(Qt::red));
    const int cb = b.addCurve("y", QPen(Qt::blue));
    auto keys = std::make_shared<moe::ui::PlotKeys>();
    a.shareKeys(ca, keys);
    b.shareKeys(cb, keys);
    keys->replaceFrom(-kInf, {1, 2, 3}, {0.1, 0.2, 0.3});
    QCOMPARE(keys->changedFrom(), qsizetype{0});
    a.replaceValuesFrom(ca, -kInf, {10, 20, 30});
    // b not yet updated: it has no rows, and shows none.
    QCOMPARE(b.rows(cb).step.size(), qsizetype{0});
    QVERIFY(b.readoutAt(2).isEmpty());
    b.replaceValuesFrom(cb, -kInf, {5, 6, 7});
    QCOMPARE(b.rows(cb).t, QVector<double>({0.1, 0.2, 0.3}));
    QCOMPARE(b.rows(cb).value, QVector<double>({5, 6, 7}));

    // A resume from step 3, and step 2 sent again unchanged.
    keys->replaceFrom(2, {2, 3, 4}, {0.2, 1.3, 1.4});
    QCOMPARE(keys->changedFrom(), qsizetype{2});
    a.replaceValuesFrom(ca, 2, {20, 33, 44});
    b.replaceValuesFrom(cb, 2, {6, 8, 9});
    QCOMPARE(a.rows(ca).step, QVector<double>({1, 2, 3, 4}));
    QCOMPARE(a.rows(ca).value, QVector<double>({10, 20, 33, 44}));
    QCOMPARE(b.rows(cb).t, QVector<double>({0.1, 0.2, 1.3, 1.4}));
    QCOMPARE(b.rows(cb).value, QVector<double>({5, 6, 8, 9}));
    QCOMPARE(graphKeys(a.graph(ca)), QVector<double>({1, 2, 3, 4}));
    QVERIFY2(a.readoutAt(4).contains("44"), qPrintable(a.readoutAt(4)));

    // Append only (+inf): after each curve's own values.
    keys->replaceFrom(kInf, {5}, {1.5});
    a.replaceValuesFrom(ca, kInf, {55});
    QCOMPARE(a.rows(ca).value, QVector<double>({10, 20, 33, 44, 55}));
    QCOMPARE(b.rows(cb).step.size(), qsizetype{4});  // b's value for step 5 not yet given

    // replaceFrom on a sharing curve gives it keys of its own; the other keeps the shared ones.
    b.replaceFrom(cb, kInf, {5}, {1.5}, {10});
    keys->replaceFrom(kInf, {6}, {1.6});
    a.replaceValuesFrom(ca, kInf, {66});
    QCOMPARE(a.rows(ca).step, QVector<double>({1, 2, 3, 4, 5, 6}));
    QCOMPARE(b.rows(cb).step, QVector<double>({1, 2, 3, 4, 5}));
    QCOMPARE(b.rows(cb).value, QVector<double>({5, 6, 8, 9, 10}));
  }

  void xModeSwitchUsesWallTimeKeys() {
    TimeSeriesPlot plot("loss");
    const int c = plot.addCurve("loss", QPen(Qt::blue));
    plot.setRows(c, {{10, 20, 30}, {1.5, 2.5, 4.0}, {3, 2, 1}});
    QCOMPARE(graphKeys(plot.graph(c)), QVector<double>({10, 20, 30}));
    plot.setXMode(TimeSeriesPlot::XMode::WallTime);
    QCOMPARE(graphKeys(plot.graph(c)), QVector<double>({1.5, 2.5, 4.0}));
    QCOMPARE(plot.xAxis->label(), QString("wall time (s)"));
    QCOMPARE(plot.xAxis->range().lower, 1.5);
    QCOMPARE(plot.xAxis->range().upper, 4.0);
    plot.setXMode(TimeSeriesPlot::XMode::Step);
    QCOMPARE(graphKeys(plot.graph(c)), QVector<double>({10, 20, 30}));
  }

  void followRescalesWithHeadroom() {
    TimeSeriesPlot plot("loss");
    const int c = plot.addCurve("loss", QPen(Qt::blue));
    plot.setRows(c, {{0, 100}, {0, 1}, {2, 4}});
    plot.refreshView();
    QCOMPARE(plot.xAxis->range().lower, 0.0);
    QCOMPARE(plot.xAxis->range().upper, 100.0);
    QVERIFY(plot.yAxis->range().lower < 2 && plot.yAxis->range().lower > 1.5);
    QVERIFY(plot.yAxis->range().upper > 4 && plot.yAxis->range().upper < 4.5);
  }

  void logYIgnoresNonPositiveValues() {
    TimeSeriesPlot plot("loss");
    const int c = plot.addCurve("loss", QPen(Qt::blue));
    plot.setRows(c, {{1, 2, 3, 4}, {1, 2, 3, 4}, {-5, 0, 0.01, 100}});
    plot.setLogY(true);
    plot.refreshView();
    QCOMPARE(plot.yAxis->scaleType(), QCPAxis::stLogarithmic);
    QVERIFY(plot.yAxis->range().lower > 0);
    QVERIFY(plot.yAxis->range().lower < 0.01 && plot.yAxis->range().lower > 0.001);
    QVERIFY(plot.yAxis->range().upper > 100 && plot.yAxis->range().upper < 1000);
    QVERIFY(std::isnan(plot.graph(c)->data()->at(0)->value));  // not drawn
    QVERIFY(std::isnan(plot.graph(c)->data()->at(1)->value));
    QCOMPARE(plot.rows(c).value[0], -5.0);  // but kept
    plot.setLogY(false);
    QCOMPARE(plot.graph(c)->data()->at(0)->value, -5.0);
    QVERIFY(plot.yAxis->range().lower < -5);
  }

  void wheelStopsFollowingAndResetResumes() {
    TimeSeriesPlot plot("loss");
    const int c = plot.addCurve("loss", QPen(Qt::blue));
    plot.setRows(c, {{0, 50, 100}, {0, 1, 2}, {3, 2, 1}});
    plot.refreshView();
    layOut(plot);
    QSignalSpy follow(&plot, &TimeSeriesPlot::followChanged);
    const QCPRange y_before = plot.yAxis->range();
    wheelOver(plot);
    QVERIFY(!plot.followsData());
    QCOMPARE(follow.count(), 1);
    QCOMPARE(follow.at(0).at(0).toBool(), false);
    QVERIFY(plot.xAxis->range().size() < 100);  // zoomed in along x
    QVERIFY(y_before.lower != plot.yAxis->range().lower ||
            y_before.upper != plot.yAxis->range().upper);  // y fits the view

    // New data no longer moves the x-range...
    const QCPRange zoomed = plot.xAxis->range();
    plot.replaceFrom(c, kInf, {200}, {3}, {0.5});
    plot.refreshView();
    QCOMPARE(plot.xAxis->range(), zoomed);
    // ...until the view is reset.
    plot.resetView();
    QVERIFY(plot.followsData());
    QCOMPARE(follow.last().at(0).toBool(), true);
    QCOMPARE(plot.xAxis->range().upper, 200.0);
  }

  void dragStopsFollowing() {
    TimeSeriesPlot plot("loss");
    const int c = plot.addCurve("loss", QPen(Qt::blue));
    plot.setRows(c, {{0, 100}, {0, 1}, {1, 2}});
    plot.refreshView();
    layOut(plot);
    const QPoint from = plot.axisRect()->rect().center();
    QTest::mousePress(&plot, Qt::LeftButton, Qt::NoModifier, from);
    QMouseEvent move(QEvent::MouseMove, QPointF(from + QPoint(60, 0)),
                     plot.mapToGlobal(QPointF(from + QPoint(60, 0))), Qt::NoButton, Qt::LeftButton,
                     Qt::NoModifier);
    QApplication::sendEvent(&plot, &move);
    QTest::mouseRelease(&plot, Qt::LeftButton, Qt::NoModifier, from + QPoint(60, 0));
    QVERIFY(!plot.followsData());
    QVERIFY(plot.xAxis->range().lower < 0);  // dragged right: earlier steps come into view
  }

  void hoverWithoutButtonsKeepsFollowing() {
    TimeSeriesPlot plot("loss");
    const int c = plot.addCurve("loss", QPen(Qt::blue));
    plot.setRows(c, {{0, 100}, {0, 1}, {1, 2}});
    plot.refreshView();
    layOut(plot);
    QSignalSpy hover(&plot, &TimeSeriesPlot::hoverMoved);
    const QPointF at = plot.axisRect()->rect().center();
    QMouseEvent move(QEvent::MouseMove, at, plot.mapToGlobal(at), Qt::NoButton, Qt::NoButton,
                     Qt::NoModifier);
    QApplication::sendEvent(&plot, &move);
    QVERIFY(plot.followsData());
    QCOMPARE(hover.count(), 1);
    QVERIFY(std::abs(hover.at(0).at(0).toDouble() - 50) < 5);
    QEvent leave(QEvent::Leave);
    QApplication::sendEvent(&plot, &leave);
    QCOMPARE(hover.count(), 2);
    QVERIFY(std::isnan(hover.at(1).at(0).toDouble()));
  }

  void readoutNamesNearestRows() {
    TimeSeriesPlot plot("loss");
    const int loss = plot.addCurve("loss", QPen(Qt::blue));
    const int eval = plot.addCurve("eval", QPen(Qt::red), true);
    plot.setRows(loss, {{100, 110, 120, 130}, {1, 2, 3, 4}, {2.5, 2.4, 2.31, 2.2}});
    plot.setRows(eval, {{0, 200}, {0, 5}, {3.0, 1.23456}});
    QCOMPARE(plot.readoutAt(121), QString("step 120   loss 2.31   eval 1.235"));
    QCOMPARE(plot.readoutAt(124.9), QString("step 120   loss 2.31   eval 1.235"));
    QCOMPARE(plot.readoutAt(90), QString("step 100   loss 2.5   eval 3"));
    QCOMPARE(plot.readoutAt(1e6), QString("step 130   loss 2.2   eval 1.235"));
    plot.setCurveVisible(loss, false);
    QCOMPARE(plot.readoutAt(150), QString("step 200   eval 1.235"));
    plot.setXMode(TimeSeriesPlot::XMode::WallTime);
    QCOMPARE(plot.readoutAt(0.2), QString("t 0.0 s   eval 3"));
    QVERIFY(plot.readoutAt(std::nan("")).isEmpty());
    plot.removeCurves();
    QVERIFY(plot.readoutAt(100).isEmpty());
    QCOMPARE(plot.curveCount(), 0);
  }

  void legendShowsForSeveralCurves() {
    TimeSeriesPlot plot("loss");
    plot.addCurve("loss", QPen(Qt::blue));
    QVERIFY(!plot.legend->visible());
    const int second = plot.addCurve("smoothed", QPen(Qt::red));
    QVERIFY(plot.legend->visible());
    QCOMPARE(plot.legend->itemCount(), 2);
    plot.setCurveVisible(second, false);
    QVERIFY(!plot.legend->visible());
  }

  void readoutFormats() {
    using namespace moe::ui;
    QCOMPARE(formatReadoutValue(2.31456), QString("2.315"));
    QCOMPARE(formatReadoutValue(123456.0), QString("123456"));
    QCOMPARE(formatReadoutValue(2.5e9), QString("2.5e+09"));
    QCOMPARE(formatReadoutStep(1200.0), QString("1200"));
    QCOMPARE(formatReadoutWallTime(12.34), QString("12.3 s"));
    QCOMPARE(formatReadoutWallTime(125), QString("2:05"));
    QCOMPARE(formatReadoutWallTime(3723), QString("1:02:03"));
    QCOMPARE(formatReadoutValue(std::nan("")), QString("–"));
  }
};

QTEST_MAIN(TestTimeSeriesPlot)
#include "test_time_series_plot.moc"
