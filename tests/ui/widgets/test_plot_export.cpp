#include <QAction>
#include <QApplication>
#include <QFile>
#include <QImage>
#include <QMenu>
#include <QRegularExpression>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <cmath>
#include <limits>

#include "widgets/plot_export.h"
#include "widgets/time_series_plot.h"

using namespace moe::ui;

namespace {

QByteArray readAll(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return file.readAll();
}

// A plot with one graph of known data, laid out at a fixed size.
void fillGraphPlot(QCustomPlot& plot) {
  plot.resize(320, 200);
  plot.xAxis->setLabel("step");
  plot.yAxis->setLabel("loss");
  QCPGraph* graph = plot.addGraph();
  graph->setName("train, smoothed");
  graph->setData({1, 2, 3}, {0.5, 0.25, 0.1});
  plot.rescaleAxes();
  plot.replot();
}

}  // namespace

class TestPlotExport : public QObject {
  Q_OBJECT

 private slots:
  void formatFromSuffix() {
    PlotFormat f = PlotFormat::Csv;
    QVERIFY(plotFormatForPath("/tmp/a.PNG", &f));
    QCOMPARE(f, PlotFormat::Png);
    QVERIFY(plotFormatForPath("b.svg", &f));
    QCOMPARE(f, PlotFormat::Svg);
    QVERIFY(plotFormatForPath("c.Pdf", &f));
    QCOMPARE(f, PlotFormat::Pdf);
    QVERIFY(plotFormatForPath("d.csv", &f));
    QCOMPARE(f, PlotFormat::Csv);
    QVERIFY(!plotFormatForPath("e.jpg", &f));
    QVERIFY(!plotFormatForPath("noext", &f));
  }

  void pngAtTwiceTheSize() {
    QTemporaryDir dir;
    QCustomPlot plot;
    fillGraphPlot(plot);
    const QString path = dir.filePath("plot.png");
    QString error;
    QVERIFY2(exportPlot(&plot, path, &error), qPrintable(error));
    QImage image(path);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(640, 400));
  }

  void svgIsValid() {
    QTemporaryDir dir;
    QCustomPlot plot;
    fillGraphPlot(plot);
    const QString path = dir.filePath("plot.svg");
    QString error;
    QVERIFY2(exportPlot(&plot, path, &error), qPrintable(error));
    const QString svg = readAll(path);
    QVERIFY(svg.contains("<svg"));
    QVERIFY(QSvgRenderer(path).isValid());
    // Every text's family ends in a generic one a browser has (Qt's own may be an alias).
    static const QRegularExpression kFamily("font-family=\"([^\"]*)\"");
    int families = 0;
    for (auto it = kFamily.globalMatch(svg); it.hasNext(); ++families)
      QVERIFY2(it.next().captured(1).endsWith(", sans-serif"), qPrintable(svg.left(200)));
    QVERIFY(families > 0);
  }

  void pdfIsComplete() {
    QTemporaryDir dir;
    QCustomPlot plot;
    fillGraphPlot(plot);
    const QString path = dir.filePath("plot.pdf");
    QString error;
    QVERIFY2(exportPlot(&plot, path, &error), qPrintable(error));
    const QByteArray pdf = readAll(path);
    QVERIFY(pdf.startsWith("%PDF-"));
    QVERIFY(pdf.contains("%%EOF"));
  }

  void csvOfGraphQuotesNames() {
    QTemporaryDir dir;
    QCustomPlot plot;
    fillGraphPlot(plot);
    const QString path = dir.filePath("plot.csv");
    QString error;
    QVERIFY2(exportPlot(&plot, path, &error), qPrintable(error));
    QCOMPARE(QString::fromUtf8(readAll(path)), QString("series,step,loss\n"
                                                       "\"train, smoothed\",1,0.5\n"
                                                       "\"train, smoothed\",2,0.25\n"
                                                       "\"train, smoothed\",3,0.1\n"));
  }

  void csvOfBars() {
    QCustomPlot plot;
    plot.yAxis->setLabel("tokens \"routed\"");
    auto* bars = new QCPBars(plot.xAxis, plot.yAxis);
    bars->setName("load");
    bars->setData({0, 1, 2}, {10, 20, 1e-20});
    QCOMPARE(plotCsv(&plot), QString("series,x,\"tokens \"\"routed\"\"\"\n"
                                     "load,0,10\nload,1,20\nload,2,1e-20\n"));
  }

  void csvOfColorMapUsesCellCentres() {
    QCustomPlot plot;
    auto* map = new QCPColorMap(plot.xAxis, plot.yAxis);
    // 2 x 3 cells; cellToCoord puts cell centres from 0..1 in x and 10..30 in y.
    map->data()->setSize(2, 3);
    map->data()->setRange(QCPRange(0, 1), QCPRange(10, 30));
    for (int x = 0; x < 2; ++x)
      for (int y = 0; y < 3; ++y) map->data()->setCell(x, y, x * 10 + y);
    QCOMPARE(plotCsv(&plot), QString("x,y,value\n"
                                     "0,10,0\n0,20,1\n0,30,2\n"
                                     "1,10,10\n1,20,11\n1,30,12\n"));
  }

  void csvOfTimeSeriesKeepsRawRows() {
    TimeSeriesPlot plot("loss");
    const int c = plot.addCurve("loss", QPen(Qt::blue));
    plot.setRows(c, {{1, 2}, {0.5, 1.5}, {-1, 4}});
    plot.setLogY(true);  // hides -1 in the graph, not in the export
    const int hidden = plot.addCurve("other", QPen(Qt::red));
    plot.setRows(hidden, {{1}, {0.5}, {9}});
    plot.setCurveVisible(hidden, false);
    QCOMPARE(plotCsv(&plot), QString("series,step,loss\nloss,1,-1\nloss,2,4\n"));
    plot.setXMode(TimeSeriesPlot::XMode::WallTime);
    QCOMPARE(plotCsv(&plot), QString("series,wall time (s),loss\nloss,0.5,-1\nloss,1.5,4\n"));
  }

  // Values are kept as float: the export writes the shortest text of that float (0.1, not the
  // double 0.10000000149011612), a gap (NaN) as an empty field; keys stay exact doubles.
  void csvOfTimeSeriesWritesFloatValuesShortest() {
    TimeSeriesPlot plot("lr");
    const int c = plot.addCurve("lr", QPen(Qt::blue));
    plot.setRows(c, {{1, 2, 3}, {0.1, 0.2, 0.3}, {0.1, std::nan(""), 2.3}});
    QCOMPARE(plotCsv(&plot), QString("series,step,lr\nlr,1,0.1\nlr,2,\nlr,3,2.3\n"));
    plot.setXMode(TimeSeriesPlot::XMode::WallTime);
    QCOMPARE(plotCsv(&plot), QString("series,wall time (s),lr\nlr,0.1,0.1\nlr,0.2,\nlr,0.3,2.3\n"));
  }

  void menuOffersExportsAndReset() {
    TimeSeriesPlot plot("loss");
    const int c = plot.addCurve("loss", QPen(Qt::blue));
    plot.setRows(c, {{0, 100}, {0, 1}, {1, 2}});
    plot.stopFollowing();
    installPlotMenu(&plot, "loss");
    QCOMPARE(plot.contextMenuPolicy(), Qt::CustomContextMenu);
    QStringList texts;
    // The menu runs its own event loop: inspect it from there, then pick "Reset view".
    QTimer::singleShot(0, &plot, [&texts] {
      auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
      if (!menu) return;
      for (QAction* action : menu->actions())
        if (!action->isSeparator()) texts << action->text();
      menu->actions().last()->trigger();
      menu->close();
    });
    emit plot.customContextMenuRequested(QPoint(10, 10));
    QCOMPARE(texts, QStringList({"Export as PNG…", "Export as SVG…", "Export as PDF…",
                                 "Export as CSV…", "Reset view"}));
    QVERIFY(plot.followsData());
  }

  void unknownSuffixFails() {
    QTemporaryDir dir;
    QCustomPlot plot;
    QString error;
    QVERIFY(!exportPlot(&plot, dir.filePath("plot.bmp"), &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(!QFile::exists(dir.filePath("plot.bmp")));
  }

  void unwritablePathFails() {
    QTemporaryDir dir;
    QCustomPlot plot;
    fillGraphPlot(plot);
    for (const char* name : {"plot.png", "plot.svg", "plot.pdf", "plot.csv"}) {
      const QString path = dir.filePath(QString("missing/dir/") + name);
      QString error;
      QVERIFY2(!exportPlot(&plot, path, &error), name);
      QVERIFY2(!error.isEmpty(), name);
    }
  }
};

QTEST_MAIN(TestPlotExport)
#include "test_plot_export.moc"
