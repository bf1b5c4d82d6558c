#include <QSignalSpy>
#include <QTest>

#include <cmath>
#include <memory>

#include "widgets/plot_sync.h"
#include "widgets/time_series_plot.h"

using moe::ui::PlotSync;
using moe::ui::TimeSeriesPlot;

namespace {

std::unique_ptr<TimeSeriesPlot> plotWithData(double last_step) {
  auto plot = std::make_unique<TimeSeriesPlot>("y");
  const int c = plot->addCurve("y", QPen(Qt::blue));
  plot->setRows(c, {{0, last_step / 2, last_step}, {0, 1, 2}, {3, 2, 1}});
  plot->refreshView();
  return plot;
}

}  // namespace

class TestPlotSync : public QObject {
  Q_OBJECT

 private slots:
  void oneRangeMovesTheOthers() {
    auto a = plotWithData(100), b = plotWithData(100), c = plotWithData(100);
    PlotSync sync;
    sync.add(a.get());
    sync.add(b.get());
    sync.add(c.get());
    QCOMPARE(sync.plots().size(), 3);
    a->xAxis->setRange(10, 20);
    QCOMPARE(b->xAxis->range(), QCPRange(10, 20));
    QCOMPARE(c->xAxis->range(), QCPRange(10, 20));
    c->xAxis->setRange(30, 40);
    QCOMPARE(a->xAxis->range(), QCPRange(30, 40));
  }

  void stoppingOneStopsTheGroup() {
    auto a = plotWithData(100), b = plotWithData(100);
    PlotSync sync;
    sync.add(a.get());
    sync.add(b.get());
    a->stopFollowing();
    QVERIFY(!b->followsData());
    a->xAxis->setRange(10, 20);
    // b gets more data but keeps the group's range.
    b->setRows(0, {{0, 500}, {0, 1}, {1, 2}});
    b->refreshView();
    QCOMPARE(b->xAxis->range(), QCPRange(10, 20));
    QCOMPARE(a->xAxis->range(), QCPRange(10, 20));
    // A reset on one resets all, to one shared range covering the data.
    a->resetView();
    QVERIFY(a->followsData() && b->followsData());
    QCOMPARE(a->xAxis->range(), QCPRange(0, 500));
    QCOMPARE(b->xAxis->range(), QCPRange(0, 500));
  }

  void resetViewsResumesFollowing() {
    auto a = plotWithData(100), b = plotWithData(100);
    PlotSync sync;
    sync.add(a.get());
    sync.add(b.get());
    b->stopFollowing();
    sync.resetViews();
    QVERIFY(a->followsData() && b->followsData());
  }

  void hoverIsShared() {
    auto a = plotWithData(100), b = plotWithData(100);
    PlotSync sync;
    sync.add(a.get());
    sync.add(b.get());
    // b shows a's hover; checked through the hover item b draws.
    emit a->hoverMoved(50);
    QCPItemText* text = nullptr;
    for (int i = 0; i < b->itemCount(); ++i)
      if (auto* t = qobject_cast<QCPItemText*>(b->item(i))) text = t;
    QVERIFY(text);
    QVERIFY(text->visible());
    QVERIFY(text->text().contains("step 50"));
    emit a->hoverMoved(std::nan(""));
    QVERIFY(!text->visible());
  }

  void deletedPlotLeavesTheGroup() {
    auto a = plotWithData(100), b = plotWithData(100);
    PlotSync sync;
    sync.add(a.get());
    sync.add(b.get());
    b.reset();
    QCOMPARE(sync.plots().size(), 1);
    a->xAxis->setRange(1, 2);  // must not touch the deleted plot
    a->stopFollowing();
    emit a->hoverMoved(1);
    sync.resetViews();
    QVERIFY(a->followsData());
  }

  void removedPlotNoLongerFollows() {
    auto a = plotWithData(100), b = plotWithData(100);
    PlotSync sync;
    sync.add(a.get());
    sync.add(b.get());
    sync.add(b.get());  // twice is once
    QCOMPARE(sync.plots().size(), 2);
    sync.remove(b.get());
    a->xAxis->setRange(5, 6);
    QVERIFY(b->xAxis->range() != QCPRange(5, 6));
  }
};

QTEST_MAIN(TestPlotSync)
#include "test_plot_sync.moc"
