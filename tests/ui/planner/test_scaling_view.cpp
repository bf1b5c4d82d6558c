// The Scaling view: one point per world size the config can run on (moe_plan's scalingTable),
// the best r marked at each, sizes that do not fit drawn as such, the CSV export's rows equal to
// the library's figures, PNG and SVG exports of the three charts. With MOE_SCREENSHOT_DIR set it
// saves scaling.png (a scaled-up lm on h100-sxm) there.
#include <qcustomplot.h>

#include <QFile>
#include <QImage>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QToolTip>
#include <QtTest>

#include <cmath>
#include <map>
#include <set>

#include "base/planner/plan_model.h"
#include "base/planner/planner_profile_choice.h"
#include "planner/scaling_view.h"
#include "protocol/run_config.h"

using namespace moe::ui;
using moe::plan::LayoutPrediction;
using moe::plan::load_profile;
using moe::protocol::RunConfig;

namespace {

// The lm preset scaled up: 64 experts, bfloat16, a batch that divides among 1024 ranks.
RunConfig bigLm() {
  RunConfig c;
  c.model.kind = moe::protocol::ModelKind::Lm;
  c.model.dim = 2048;
  c.model.layers = 24;
  c.model.heads = 16;
  c.model.seq_len = 2048;
  c.model.vocab = 32000;
  c.moe.experts = 64;
  c.moe.top_k = 2;
  c.moe.hidden = 8192;
  c.train.batch_size = 1024;
  c.train.dtype = moe::protocol::Dtype::BFloat16;
  c.parallel.adaptive_r = moe::protocol::kAdaptiveRAuto;
  return c;
}

// 24 experts and a batch of 48: not every power of two can run it.
RunConfig oddLm() {
  RunConfig c;
  c.model.kind = moe::protocol::ModelKind::Lm;
  c.model.dim = 128;
  c.model.layers = 2;
  c.model.heads = 4;
  c.model.seq_len = 128;
  c.model.vocab = 256;
  c.moe.experts = 24;
  c.moe.hidden = 256;
  c.train.batch_size = 48;
  return c;
}

QStringList splitCsvLine(const QString& line) {
  return line.split(',');  // the planner's fields hold no commas or quotes
}

const QCPItemText* labelAt(QCustomPlot* plot, double x) {
  for (int i = 0; i < plot->itemCount(); ++i) {
    auto* text = qobject_cast<QCPItemText*>(plot->item(i));
    if (text && std::fabs(text->position->coords().x() - x) < 1e-9) return text;
  }
  return nullptr;
}

}  // namespace

class TestScalingView : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void init() {
    QSettings().remove(PlannerProfileChoice::kSettingsKey);
    QFile::remove(PlannerProfileChoice::thisMachinePath());
  }

  void onePointPerSizeWithTheBestR() {
    ScalingView view;
    view.resize(900, 860);
    view.show();
    QTRY_VERIFY(view.profile().has_value());
    const RunConfig c = bigLm();
    view.setConfig(c);
    const auto table = moe::plan::scaling_table(c, load_profile("h100-sxm"), 1024);
    std::map<int64_t, std::vector<LayoutPrediction>> by_world;
    for (const LayoutPrediction& l : table) by_world[l.layout.world()].push_back(l);
    QVERIFY(by_world.size() >= 8);
    QCOMPARE(view.points().size(), by_world.size());
    QCOMPARE(view.throughputPlot()->graph(0)->dataCount(), int(by_world.size()));
    QCOMPARE(view.memoryPlot()->graph(0)->dataCount(), int(by_world.size()));
    size_t i = 0;
    for (const auto& [world, layouts] : by_world) {
      const auto best = moe::plan::best_of(layouts);
      const auto& point = view.points()[i++];
      QCOMPARE(point.world, world);
      QCOMPARE(point.best.layout.r, best->layout.r);
      QCOMPARE(point.best.prediction.tokens_per_s, best->prediction.tokens_per_s);
      const double x = std::log2(double(world));
      const QCPItemText* label = labelAt(view.throughputPlot(), x);
      QVERIFY(label);
      QVERIFY2(label->text().startsWith(QString("r=%1").arg(best->layout.r)),
               qPrintable(label->text()));
      QCOMPARE(label->text(), view.pointLabel(world));
      const QString tip = view.pointToolTip(world);
      QVERIFY2(tip.contains(QString("%1 ranks per node, r=%2")
                                .arg(best->layout.nproc_per_node)
                                .arg(best->layout.r)),
               qPrintable(tip));
    }
    QVERIFY(view.statusText().startsWith("On h100-sxm: runs on"));

    // Resting the mouse over a size shows its tooltip.
    QCustomPlot* plot = view.memoryPlot();
    const int64_t world = view.points().back().world;
    const QPoint at(int(plot->xAxis->coordToPixel(std::log2(double(world)))),
                    int(plot->yAxis->axisRect()->center().y()));
    QTest::mouseMove(plot, at);
    QTRY_COMPARE(QToolTip::text(), view.pointToolTip(world));
  }

  void sizesItCannotRunOnAreLeftOut() {
    ScalingView view;
    QTRY_VERIFY(view.profile().has_value());
    const RunConfig c = oddLm();
    view.setConfig(c);
    std::set<int64_t> expected;
    for (const auto& l : moe::plan::scaling_table(c, load_profile("h100-sxm"), 1024))
      expected.insert(l.layout.world());
    QVERIFY(!expected.empty() && expected.size() < 11);
    std::set<int64_t> shown;
    for (const auto& p : view.points()) shown.insert(p.world);
    QCOMPARE(shown, expected);
    QVERIFY(view.pointLabel(1024).isEmpty());
  }

  void sizesThatDoNotFitSaySo() {
    QSettings().setValue(PlannerProfileChoice::kSettingsKey, "a100-sxm");
    ScalingView view;
    QTRY_VERIFY(view.profile().has_value());
    RunConfig c = bigLm();
    c.model.dim = 8192;  // too big for 1 A100; the experts spread over many fit
    c.model.heads = 64;
    c.moe.hidden = 32768;
    view.setConfig(c);
    int no_fit = 0;
    for (const auto& p : view.points()) {
      const bool fits = p.best.prediction.fits;
      no_fit += fits ? 0 : 1;
      QCOMPARE(view.pointLabel(p.world).contains("does not fit"), !fits);
    }
    QVERIFY(no_fit > 0);
    QCOMPARE(view.throughputPlot()->graph(1)->dataCount(), no_fit);
    QCOMPARE(view.memoryPlot()->graph(1)->dataCount(), no_fit);
    QVERIFY(view.statusText().contains(QString("%1 do not fit").arg(no_fit)));
  }

  void csvRowsAreTheLibrarysNumbers() {
    ScalingView view;
    QTRY_VERIFY(view.profile().has_value());
    const RunConfig c = bigLm();
    view.setConfig(c);
    QTemporaryDir dir;
    const QString path = dir.filePath("scaling.csv");
    QSignalSpy exported(&view, &ScalingView::exported);
    view.exportTo(path);
    QVERIFY(exported.count() == 1 || exported.wait());
    QCOMPARE(exported.first().at(1).toString(), QString());
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
    const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
    const QStringList header = splitCsvLine(lines.first());
    for (const char* column : {"world", "nodes", "nproc_per_node", "r", "best", "step_ms",
                               "tokens_per_s", "memory_bytes_per_rank", "fits"})
      QVERIFY2(header.contains(column), column);
    const auto table = moe::plan::scaling_table(c, load_profile("h100-sxm"), 1024);
    QCOMPARE(lines.size() - 1, qsizetype(table.size()));
    std::map<int64_t, int> best_rows;
    for (qsizetype i = 1; i < lines.size(); ++i) {
      const QStringList row = splitCsvLine(lines[i]);
      QCOMPARE(row.size(), header.size());
      auto field = [&](const char* name) { return row[header.indexOf(name)]; };
      const int64_t world = field("world").toLongLong();
      const int64_t r = field("r").toLongLong();
      const LayoutPrediction* match = nullptr;
      for (const auto& l : table)
        if (l.layout.world() == world && l.layout.r == r) match = &l;
      QVERIFY2(match, qPrintable(lines[i]));
      QCOMPARE(field("nodes").toLongLong(), match->layout.nodes);
      QCOMPARE(field("nproc_per_node").toLongLong(), match->layout.nproc_per_node);
      QCOMPARE(field("step_ms").toDouble(), match->prediction.step_ms);
      QCOMPARE(field("tokens_per_s").toDouble(), match->prediction.tokens_per_s);
      QCOMPARE(field("memory_bytes_per_rank").toDouble(), match->prediction.memory_bytes);
      QCOMPARE(field("fits"), QString(match->prediction.fits ? "true" : "false"));
      for (const auto& [phase, ms] : match->prediction.phases_ms)
        QCOMPARE(field(("phase_" + phase + "_ms").c_str()).toDouble(), ms);
      if (field("best") == "true") {
        ++best_rows[world];
        for (const auto& p : view.points())
          if (p.world == world) QCOMPARE(p.best.layout.r, r);
      }
    }
    QCOMPARE(best_rows.size(), view.points().size());
    for (const auto& [world, count] : best_rows) QCOMPARE(count, 1);
  }

  void pngAndSvgExportsAreWritten() {
    ScalingView view;
    view.resize(900, 860);
    view.show();
    QTRY_VERIFY(view.profile().has_value());
    view.setConfig(bigLm());
    QTemporaryDir dir;
    QSignalSpy exported(&view, &ScalingView::exported);
    for (const char* suffix : {"png", "svg"}) {
      view.exportTo(dir.filePath(QString("plan.%1").arg(suffix)));
      QCOMPARE(exported.last().at(1).toString(), QString());
      for (const char* chart : {"throughput", "memory", "breakdown"}) {
        const QFileInfo written(dir.filePath(QString("plan-%1.%2").arg(chart, suffix)));
        QVERIFY2(written.exists() && written.size() > 0, qPrintable(written.filePath()));
      }
    }
    view.exportTo(dir.filePath("plan.txt"));
    QVERIFY(exported.last().at(1).toString().contains("give a .csv"));
  }

  // The view of a big model renders whole; saved as docs/screenshots/scaling.png with
  // MOE_SCREENSHOT_DIR set, to a scratch directory otherwise.
  void aBigModelRenders() {
    QTemporaryDir scratch;
    const QString env = qEnvironmentVariable("MOE_SCREENSHOT_DIR");
    const QString shots = env.isEmpty() ? scratch.path() : env;
    ScalingView view;
    view.resize(1000, 900);
    view.show();
    QTRY_VERIFY(view.profile().has_value());
    view.setConfig(bigLm());
    QCoreApplication::processEvents();  // the status line's new height
    const QString path = QDir(shots).filePath("scaling.png");
    QVERIFY(view.grab().save(path));
    const QImage image(path);
    QVERIFY(!image.isNull());
    QVERIFY(image.width() >= view.width() && image.height() >= view.height());
  }
};

QTEST_MAIN(TestScalingView)
#include "test_scaling_view.moc"
