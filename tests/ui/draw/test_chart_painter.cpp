// The report charts drawn with QPainter (ui/draw): the ticks, the colours where the data is, and
// the SVG they become, from a program that links no widget toolkit.
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <limits>

#include "draw/axis_ticks.h"
#include "draw/chart_frame.h"
#include "draw/chart_painter.h"
#include "draw/chart_svg.h"
#include "draw/palette.h"

using namespace moe::ui;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

QImage draw(const ChartContent& chart, QSize size = QSize(600, 300)) {
  QImage image(size, QImage::Format_ARGB32);
  image.fill(Qt::black);  // the chart must paint its own background
  QPainter painter(&image);
  paintChart(painter, chart, QSizeF(size));
  painter.end();
  return image;
}

bool near(QColor a, QColor b, int tolerance = 24) {
  return std::abs(a.red() - b.red()) <= tolerance && std::abs(a.green() - b.green()) <= tolerance &&
         std::abs(a.blue() - b.blue()) <= tolerance;
}

// Pixels of `colour` in the image.
int pixelsOf(const QImage& image, QColor colour, int tolerance = 24) {
  int n = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x)
      n += near(image.pixelColor(x, y), colour, tolerance) ? 1 : 0;
  return n;
}

// The columns of the image in which `colour` shows.
std::vector<int> columnsOf(const QImage& image, QColor colour) {
  std::vector<int> columns;
  for (int x = 0; x < image.width(); ++x) {
    for (int y = 0; y < image.height(); ++y) {
      if (near(image.pixelColor(x, y), colour, 10)) {
        columns.push_back(x);
        break;
      }
    }
  }
  return columns;
}

LoadMatrix twoByTwo() {
  LoadMatrix m;
  m.experts = 2;
  m.bins = 2;
  m.first_step = {1, 11};
  m.last_step = {10, 20};
  m.values = {0, 50, 100, 0};  // bin 0: experts 0, 1; bin 1: experts 0, 1
  m.max_value = 100;
  return m;
}

}  // namespace

class TestChartPainter : public QObject {
  Q_OBJECT

 private slots:
  void ticksAreRoundAndInsideTheRange() {
    QCOMPARE(niceTicks(0, 10, 5), (std::vector<double>{0, 2, 4, 6, 8, 10}));
    QCOMPARE(niceTicks(0.3, 0.95, 3), (std::vector<double>{0.5, 0.75}));  // step 0.25
    QCOMPARE(niceTicks(-0.6, 3.6, 20, true), (std::vector<double>{0, 1, 2, 3}));
    QVERIFY(niceTicks(1, 1, 5).empty());
    QVERIFY(niceTicks(0, kNaN, 5).empty());
    for (double t : niceTicks(123.4, 98765.4, 6)) QVERIFY(t >= 123.4 && t <= 98765.4);
    QCOMPARE(tickLabel(0.1 + 0.2 - 0.3, 0.1), QStringLiteral("0"));
    QCOMPARE(tickLabel(2.5, 0.5), QStringLiteral("2.5"));
    QCOMPARE(tickLabel(400000, 200000), QStringLiteral("400000"));
  }

  void aCurveIsDrawnInItsColourAndBreaksAtNaN() {
    CurveChart chart(QStringLiteral("step"), QStringLiteral("loss"));
    // Steps 0..100, with no value from 40 to 60.
    std::vector<double> x, y;
    for (int i = 0; i <= 100; ++i) {
      x.push_back(i);
      y.push_back(i > 40 && i < 60 ? kNaN : std::sin(i / 10.0));
    }
    chart.add(lineSeries(QStringLiteral("loss"), x, y, 0, 3.0));
    const QImage image = draw(chart);
    const QColor colour = seriesColor(0);
    QVERIFY(pixelsOf(image, colour) > 300);
    // The line leaves a gap over the NaN steps: a run of columns without its colour, about a
    // fifth of the plot's width, between two runs with it.
    const std::vector<int> columns = columnsOf(image, colour);
    QVERIFY(!columns.empty());
    int widest_gap = 0;
    for (size_t i = 1; i < columns.size(); ++i)
      widest_gap = std::max(widest_gap, columns[i] - columns[i - 1]);
    const int span = columns.back() - columns.front();
    QVERIFY2(widest_gap > span / 8 && widest_gap < span / 3,
             qPrintable(QStringLiteral("gap %1 of %2").arg(widest_gap).arg(span)));
    // The chart paints its own background.
    QVERIFY(near(image.pixelColor(2, 2), Qt::white));
  }

  void heatmapCellsTakeTheirValuesColour() {
    const QImage image = draw(LoadHeatmapChart{twoByTwo()});
    // The four cells in the plot area: find the plot by its colours, then sample the middles.
    QVERIFY(pixelsOf(image, viridisColor(1.0)) > 500);  // bin 1, expert 0: 100 of 100
    QVERIFY(pixelsOf(image, viridisColor(0.5)) > 500);  // bin 0, expert 1
    QVERIFY(pixelsOf(image, viridisColor(0.0)) > 500);  // two cells of 0 (and the scale's foot)
    // Bin 1's expert 0 is right of bin 0's expert 0, and low (experts count up the y axis).
    const std::vector<int> full = columnsOf(image, viridisColor(1.0));
    const std::vector<int> half = columnsOf(image, viridisColor(0.5));
    QVERIFY(!full.empty() && !half.empty());
    QVERIFY(full.front() > half.front());
  }

  // In a PDF too, as a viewer renders it (pdftoppm): Qt's PDF engine would write an image's few
  // pixels JPEG-compressed, blending neighbouring cells' colours.
  void heatmapCellsKeepTheirColoursInAPdf() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString pdf = dir.filePath("heatmap.pdf");
    {
      QPdfWriter writer(pdf);
      writer.setPageSize(QPageSize(QSizeF(160, 80), QPageSize::Millimeter));
      writer.setPageMargins(QMarginsF(0, 0, 0, 0));
      writer.setResolution(96);
      QPainter painter(&writer);
      paintChart(painter, LoadHeatmapChart{twoByTwo()}, QSizeF(600, 300));
    }
    QProcess render;
    render.start("pdftoppm", {"-r", "96", "-png", "-singlefile", pdf, dir.filePath("page")});
    QVERIFY(render.waitForFinished(60000));
    QCOMPARE(render.exitCode(), 0);
    const QImage image(dir.filePath("page.png"));
    QVERIFY(!image.isNull());
    QVERIFY2(pixelsOf(image, viridisColor(1.0), 12) > 500,
             qPrintable(QString::number(pixelsOf(image, viridisColor(1.0), 12))));
    QVERIFY(pixelsOf(image, viridisColor(0.5), 12) > 500);
  }

  void phasesStackInTheirColours() {
    PhaseColumns phases;
    phases.step = {1, 2, 3, 4};
    phases.names = {"gate", "experts", "other"};
    phases.ms = {{1, 1, 1, 1}, {5, 5, 5, 5}, {2, 2, 2, 2}};
    const QImage image = draw(PhaseStackChart{phases});
    for (const char* name : {"gate", "experts", "other"})
      QVERIFY2(pixelsOf(image, phaseColor(name)) > 200, name);
    // Experts (5 ms) covers more of the plot than gate (1 ms).
    QVERIFY(pixelsOf(image, phaseColor("experts")) > 3 * pixelsOf(image, phaseColor("gate")));
  }

  void svgHasTheLabelsAndTheLegendOnlyWhenSeveralAreNamed() {
    CurveChart one(QStringLiteral("step"), QStringLiteral("tokens/s"));
    one.add(lineSeries(QStringLiteral("alpha-series"), {1, 2, 3}, {4, 5, 6}, 0, 1.5));
    const QString lone =
        QString::fromUtf8(chartSvg(ReportChart{one, QSize(400, 200)}, QStringLiteral("t")));
    QVERIFY(lone.contains(QLatin1String("<svg")));
    QVERIFY(lone.contains(QLatin1String(">tokens/s<")));
    QVERIFY(lone.contains(QLatin1String("viewBox=\"0 0 400 200\"")));
    QVERIFY(!lone.contains(QLatin1String("alpha-series")));
    CurveChart two = one;
    two.add(markerSeries(QStringLiteral("beta-series"), {1, 3}, {5, 5}, 3));
    const QString both =
        QString::fromUtf8(chartSvg(ReportChart{two, QSize(400, 200)}, QStringLiteral("t")));
    QVERIFY(both.contains(QLatin1String("alpha-series")));
    QVERIFY(both.contains(QLatin1String("beta-series")));
    QVERIFY(both.contains(QLatin1String("sans-serif")));
  }

  void anEmptyChartStillDraws() {
    RankColumns none;
    const QImage image = draw(RankWaitsChart{none});
    QVERIFY(near(image.pixelColor(2, 2), Qt::white));
    CurveChart empty(QStringLiteral("step"), QStringLiteral("loss"));
    QVERIFY(near(draw(empty).pixelColor(2, 2), Qt::white));
  }
};

QTEST_MAIN(TestChartPainter)
#include "test_chart_painter.moc"
