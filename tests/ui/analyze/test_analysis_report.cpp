// What the Analyze view reads without the engine: analyze's JSON report (and the errors that name
// what is wrong where), analyze's progress line and arguments, and the report as chart data.
#include <QtTest>

#include <QTemporaryDir>

#include <cmath>

#include <nlohmann/json.hpp>

#include "base/analyze/analysis_report.h"
#include "base/analyze/analyze_job.h"
#include "base/report/analysis_charts.h"

using namespace moe::ui;
using nlohmann::json;

namespace {

// A report of two layers of E = 3, top-2, as analyze writes it: layer 1's expert 2 is dead and its
// expert 0 overloaded.
json goodReport() {
  json layer0 = {{"layer", 0},
                 {"experts", 3},
                 {"top_k", 2},
                 {"tokens", 6},
                 {"load", {4, 4, 4}},
                 {"cv", 0.0},
                 {"max_over_mean", 1.0},
                 {"dead_experts", 0},
                 {"capacity",
                  {{{"capacity_factor", 1.0}, {"dropped", 0}, {"dropped_share", 0.0}},
                   {{"capacity_factor", 2.0}, {"dropped", 0}, {"dropped_share", 0.0}}}},
                 {"co_selection", {{4, 2, 2}, {2, 4, 2}, {2, 2, 4}}},
                 {"top_tokens",
                  {{{{"id", 7}, {"count", 3}, {"text", " of"}}},
                   {{{"id", 8}, {"count", 2}, {"text", "\n"}}},
                   json::array()}},
                 {"capture", "layer-0.safetensors"}};
  json layer1 = layer0;
  layer1["layer"] = 2;
  layer1["load"] = {9, 3, 0};
  layer1["cv"] = 0.8;
  layer1["max_over_mean"] = 2.25;
  layer1["dead_experts"] = 1;
  layer1["capacity"][0]["dropped"] = 3;
  layer1["capacity"][0]["dropped_share"] = 0.25;
  layer1["co_selection"] = {{9, 3, 0}, {3, 3, 0}, {0, 0, 0}};
  layer1["top_tokens"] = {{{{"id", 5}, {"count", 9}}}, json::array(), json::array()};
  layer1.erase("capture");
  return {
      {"tokens", 6},  {"model", "run r (step-30)"}, {"data", "corpus.txt"},      {"batch_size", 1},
      {"seq_len", 6}, {"capture_dir", "/tmp/cap"},  {"layers", {layer0, layer1}}};
}

}  // namespace

class TestAnalysisReport : public QObject {
  Q_OBJECT

 private slots:
  void readsEveryField() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("analysis.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray::fromStdString(goodReport().dump(1)));
    file.close();
    AnalysisReport r;
    QString error;
    QVERIFY2(readAnalysisReport(path, &r, &error), qPrintable(error));
    QCOMPARE(r.tokens, 6);
    QCOMPARE(r.model, QStringLiteral("run r (step-30)"));
    QCOMPARE(r.layers.size(), size_t{2});
    const AnalyzedLayer& l = r.layers[1];
    QCOMPARE(l.layer, 2);
    QCOMPARE(l.load, (std::vector<int64_t>{9, 3, 0}));
    QCOMPARE(l.capacity.size(), size_t{2});
    QCOMPARE(l.capacity[0].dropped_share, 0.25);
    QCOMPARE(l.coSelected(0, 1), 3);
    QCOMPARE(l.dead_experts, 1);
    QVERIFY(l.overloaded(0));  // 9 of 12 choices: 2.25x the mean
    QVERIFY(!l.overloaded(1));
    QCOMPARE(l.loadShare(0), 0.75);
    QCOMPARE(r.layers[0].top_tokens[0][0].text, QStringLiteral(" of"));
    QCOMPARE(r.captureFile(0), QStringLiteral("/tmp/cap/layer-0.safetensors"));
    QVERIFY(r.captureFile(1).isEmpty());
  }

  void tokensShowTheirWhitespace() {
    QCOMPARE(tokenLabel({7, 3, QStringLiteral(" of")}), QStringLiteral("\u2423of"));
    QCOMPARE(tokenLabel({8, 2, QStringLiteral("\n")}), QStringLiteral("\u21B5"));
    QCOMPARE(tokenLabel({5, 9, QString()}), QStringLiteral("#5"));
  }

  void badReportsNameWhatAndWhere_data() {
    QTest::addColumn<QByteArray>("doc");
    QTest::addColumn<QString>("expected");
    const auto add = [](const char* name, const json& doc, const char* expected) {
      QTest::newRow(name) << QByteArray::fromStdString(doc.dump()) << QString::fromUtf8(expected);
    };
    QTest::newRow("not json") << QByteArray("{\"tokens\": ") << QStringLiteral("a.json: not JSON");
    add("array", json::array(), "a.json: expected a JSON object");
    json doc = goodReport();
    doc.erase("layers");
    add("no layers", doc, "a.json: layers: missing");
    doc = goodReport();
    doc["layers"] = json::array();
    add("empty layers", doc, "layers: empty");
    doc = goodReport();
    doc["layers"][1]["load"] = {1, 2};
    add("short load", doc, "a.json: layers[1].load: 2 values, expected 3");
    doc = goodReport();
    doc["layers"][0]["co_selection"][2] = {1, 2};
    add("short row", doc, "layers[0].co_selection[2]: 2 values, expected 3");
    doc = goodReport();
    doc["layers"][0]["co_selection"].erase(0);
    add("missing row", doc, "layers[0].co_selection: 2 rows, expected 3 (experts)");
    doc = goodReport();
    doc["layers"][1]["load"][0] = -1;
    add("negative count", doc, "layers[1].load[0]: expected a count");
    doc = goodReport();
    doc["layers"][0]["cv"] = "high";
    add("text for a number", doc, "layers[0].cv: expected a number, got \"high\"");
    doc = goodReport();
    doc["layers"][0]["top_tokens"][1][0].erase("count");
    add("token without count", doc, "layers[0].top_tokens[1][0].count: missing");
    doc = goodReport();
    doc["layers"][0]["capacity"][1].erase("dropped_share");
    add("capacity", doc, "layers[0].capacity[1].dropped_share: missing");
  }
  void badReportsNameWhatAndWhere() {
    QFETCH(QByteArray, doc);
    QFETCH(QString, expected);
    AnalysisReport report;
    QString error;
    QVERIFY(!parseAnalysisReport(doc, QStringLiteral("a.json"), &report, &error));
    QVERIFY2(error.contains(expected), qPrintable(error));
  }

  void aMissingFileIsNamed() {
    AnalysisReport report;
    QString error;
    QVERIFY(!readAnalysisReport(QStringLiteral("/nonexistent/analysis.json"), &report, &error));
    QVERIFY2(error.startsWith(QStringLiteral("/nonexistent/analysis.json: ")), qPrintable(error));
  }

  void progressLinesAndArguments() {
    int batch = 0, batches = 0;
    QVERIFY(
        parseAnalyzeProgress(QStringLiteral("analyze: batch 3/10, 6144 tokens"), &batch, &batches));
    QCOMPARE(batch, 3);
    QCOMPARE(batches, 10);
    QVERIFY(!parseAnalyzeProgress(QStringLiteral("layer 0: cv 0.9"), &batch, &batches));
    QCOMPARE(analyzeEta(2, 10, 4.0), 16.0);
    QVERIFY(analyzeEta(0, 10, 4.0) < 0);
    AnalyzeRequest r;
    r.model = QStringLiteral("run");
    r.data = QStringLiteral("c.txt");
    r.tokens = 500;
    r.capacity_factors = {1.0, 1.25};
    r.out = QStringLiteral("a.json");
    r.capture_dir = QStringLiteral("cap");
    QCOMPARE(analyzeArguments(r),
             (QStringList{"analyze", "--model", "run", "--data", "c.txt", "--tokens", "500",
                          "--capacity-factors", "1,1.25", "--out", "a.json", "--capture", "cap"}));
    QCOMPARE(runAnalysisPath(QStringLiteral("/r/run-1")),
             QStringLiteral("/r/run-1/analysis/analysis.json"));
  }

  void chartsMarkDeadAndOverloadedExperts() {
    AnalysisReport r;
    QString error;
    QVERIFY2(
        parseAnalysisReport(QByteArray::fromStdString(goodReport().dump()), "a.json", &r, &error),
        qPrintable(error));
    const MatrixChart load = loadShareMatrix(r);
    QCOMPARE(load.row_at, (std::vector<double>{0, 2}));  // the decoder blocks' indices
    QCOMPARE(load.columns, size_t{3});
    QCOMPARE(load.at(1, 0), 75.0);
    QVERIFY(load.marks[3] == MatrixChart::Mark::kOverloaded);
    QVERIFY(load.marks[5] == MatrixChart::Mark::kDead);
    QVERIFY(load.marks[0] == MatrixChart::Mark::kNone);
    const MatrixChart co = coSelectionMatrix(r.layers[0]);
    QVERIFY(std::isnan(co.at(1, 1)));  // the diagonal is the load: left out
    QCOMPARE(co.at(0, 1), 100.0 * 2 / 6);
    const CurveChart dropped = droppedShareCurves(r);
    QCOMPARE(dropped.series.size(), size_t{2});
    QCOMPARE(dropped.series[1].y, (std::vector<double>{25.0, 0.0}));
    QCOMPARE(worstBalancedLayer(r), size_t{1});
    const ReportTable table = balanceTable(r);
    QCOMPARE(table.rows.size(), 2);
    QCOMPARE(table.header.back(), QStringLiteral("Drop f=2"));
  }
};

QTEST_GUILESS_MAIN(TestAnalysisReport)
#include "test_analysis_report.moc"
