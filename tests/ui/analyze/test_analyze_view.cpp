// The Analyze view with the real engine: a tiny decoder run trained by moe-train, analyzed from the
// app's dialog (moe-train analyze in a QProcess, its progress shown), the report opened in the
// view, its layer's capture opened in What-if, the view and its charts exported, and the run
// report's "Routing analysis" section. Bad input ends with moe-train's message naming it.
#include <QtTest>

#include <QComboBox>
#include <QFile>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>

#include "../whatif/whatif_test_run.h"
#include "../window/window_test_support.h"
#include "analyze/analyze_dialog.h"
#include "analyze/analyze_view.h"
#include "analyze/chart_view.h"
#include "base/analyze/analyze_job.h"
#include "base/report/run_report.h"
#include "base/report/run_report_document.h"
#include "base/runs/run_manager.h"
#include "whatif/whatif_view.h"
#include "window/main_window.h"

using namespace moe::ui;

namespace {

// A decoder of two MoE layers of 4 experts, top-2, one step on `corpus`; Tutel's FFN experts, the
// kind the What-if view routes.
QByteArray tinyDecoder(const QString& corpus) {
  return QStringLiteral(R"({"name": "tiny-decoder",
      "model": {"kind": "decoder", "family": "mixtral", "dim": 32, "layers": 2, "heads": 2,
                "kv_heads": 1, "seq_len": 16, "vocab": 256, "tie_embeddings": false},
      "moe": {"experts": 4, "top_k": 2, "hidden": 32, "capacity_factor": 0.0,
              "router": "top_k_softmax"},
      "train": {"steps": 1, "batch_size": 4, "threads": 1, "checkpoint_every": 1},
      "data": {"kind": "text", "path": "%1"}})")
      .arg(corpus)
      .toUtf8();
}

bool writeCorpus(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return false;
  for (int i = 0; i < 200; ++i) file.write("the router sends each token to a few experts. ");
  return true;
}

}  // namespace

class TestAnalyzeView : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;
  QString corpus_, run_dir_;

 private slots:
  void initTestCase() {
    test::useTemporaryHome();
    QVERIFY(dir_.isValid());
    corpus_ = dir_.filePath(QStringLiteral("corpus.txt"));
    QVERIFY(writeCorpus(corpus_));
    QString error;
    run_dir_ = moe::test::runWithCaptures(dir_.path(), QStringLiteral("run"), tinyDecoder(corpus_),
                                          &error);
    QVERIFY2(!run_dir_.isEmpty(), qPrintable(error));
  }

  // Run ▸ Analyze Routing… on the run: progress, then the view of <run>/analysis/analysis.json.
  void dialogAnalyzesARunAndOpensTheView() {
    MainWindow window;
    window.runs()->setTrainProgram(MOE_TRAIN_BIN);
    AnalyzeDialog* dialog = window.showAnalyzeDialog(run_dir_);
    dialog->setCorpus(corpus_);
    dialog->setTokens(640);
    dialog->setCapacityFactors(QStringLiteral("1, 1.5, 2"));
    QSignalSpy progress(dialog->job(), &AnalyzeJob::progress);
    QSignalSpy ready(dialog, &AnalyzeDialog::analysisReady);
    QSignalSpy finished(dialog->job(), &AnalyzeJob::finished);
    QVERIFY2(dialog->start(), qPrintable(dialog->statusText()));
    QVERIFY(finished.wait(moe::test::kEngineTimeoutMs));
    const auto result = finished.front().front().value<AnalyzeJobResult>();
    QVERIFY2(result.ok, qPrintable(result.message));
    QCOMPARE(ready.size(), 1);
    QCOMPARE(ready.front().front().toString(), runAnalysisPath(run_dir_));
    QVERIFY(!progress.isEmpty());
    QCOMPARE(progress.back().at(0).toInt(), progress.back().at(1).toInt());  // the last batch

    auto* view = qobject_cast<AnalyzeView*>(window.tabs()->currentWidget());
    QVERIFY(view);
    if (!view->report()) {
      QSignalSpy loaded(view, &AnalyzeView::loaded);
      QVERIFY2(loaded.wait(30000), qPrintable(view->statusText()));
    }
    const AnalysisReport& r = *view->report();
    QCOMPARE(r.layers.size(), size_t{2});
    QCOMPARE(r.tokens, 640);
    QCOMPARE(r.layers[0].capacity.size(), size_t{3});
    QVERIFY(view->loadChart()->chart());
    QVERIFY(view->droppedChart()->chart());
    QCOMPARE(view->balanceTable()->rowCount(), 2);
    QCOMPARE(view->topTokensTable()->rowCount(), 4);  // one row per expert
    view->setLayerIndex(1);
    QCOMPARE(view->layerIndex(), 1);
    QCOMPARE(view->balanceTable()->currentRow(), 1);

    // The layer's capture (the dialog asks for one) opens in What-if.
    auto* what_if = view->findChild<QPushButton*>();
    QVERIFY(!r.captureFile(1).isEmpty());
    QVERIFY(QFile::exists(r.captureFile(1)));
    const int tabs = window.tabs()->count();
    for (auto* button : view->findChildren<QPushButton*>()) {
      if (button->text().contains(QStringLiteral("What-if"))) what_if = button;
    }
    QVERIFY(what_if->isEnabled());
    what_if->click();
    QCOMPARE(window.tabs()->count(), tabs + 1);
    auto* whatif_view = qobject_cast<WhatIfView*>(window.tabs()->currentWidget());
    QVERIFY(whatif_view);
    if (!whatif_view->source()) {
      QSignalSpy whatif_loaded(whatif_view, &WhatIfView::loaded);
      QVERIFY2(whatif_loaded.wait(30000), qPrintable(whatif_view->statusText()));
    }
    QCOMPARE(whatif_view->source()->tokens, 64);  // the first batch: 4 sequences of 16

    // Exports: the view and a chart, PNG and SVG.
    window.tabs()->setCurrentWidget(view);
    view->resize(1200, 800);
    QString error;
    for (const QString& name : {QStringLiteral("view.png"), QStringLiteral("view.svg")}) {
      const QString path = dir_.filePath(name);
      QVERIFY2(view->exportView(path, &error), qPrintable(error));
      QVERIFY(QFileInfo(path).size() > 1000);
    }
    const QString chart_svg = dir_.filePath(QStringLiteral("load.svg"));
    QVERIFY2(view->loadChart()->exportTo(chart_svg, &error), qPrintable(error));
    QFile svg(chart_svg);
    QVERIFY(svg.open(QIODevice::ReadOnly));
    QVERIFY(svg.readAll().contains("expert"));
    QVERIFY(!view->loadChart()->exportTo(dir_.filePath(QStringLiteral("load.gif")), &error));
    QVERIFY2(error.contains(QStringLiteral(".png or .svg")), qPrintable(error));
    // Opening the same report again shows its tab.
    QCOMPARE(window.openRoutingAnalysis(runAnalysisPath(run_dir_)), view);
  }

  // The run now keeps an analysis: its report has a "Routing analysis" section.
  void runReportHasARoutingAnalysisSection() {
    QVERIFY(QFile::exists(runAnalysisPath(run_dir_)));
    RunReport report;
    QString error;
    QVERIFY2(loadRunReport(run_dir_, &report, &error), qPrintable(error));
    QVERIFY2(report.analysis, qPrintable(report.analysis_error));
    QVERIFY(runReportSections(report).contains(QStringLiteral("analysis")));
    const ReportDocument doc = runReportDocument(report);
    bool found = false;
    for (const auto& block : doc.blocks)
      found = found ||
              (block.kind == ReportBlock::Kind::kHeading && block.id == QStringLiteral("analysis"));
    QVERIFY(found);
  }

  void aMissingCorpusEndsWithMoeTrainsMessage() {
    AnalyzeJob job(QStringLiteral(MOE_TRAIN_BIN));
    QSignalSpy finished(&job, &AnalyzeJob::finished);
    AnalyzeRequest r;
    r.model = run_dir_;
    r.data = dir_.filePath(QStringLiteral("missing.txt"));
    r.out = dir_.filePath(QStringLiteral("never.json"));
    QVERIFY(job.start(r));
    QVERIFY(finished.wait(moe::test::kEngineTimeoutMs));
    const auto result = finished.front().front().value<AnalyzeJobResult>();
    QVERIFY(!result.ok);
    QCOMPARE(result.exit_code, 2);
    QVERIFY2(result.message.contains(QStringLiteral("missing.txt")), qPrintable(result.message));
  }

  void aBrokenReportSaysWhatIsWrong() {
    const QString path = dir_.filePath(QStringLiteral("broken.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"tokens": 5, "layers": [{"layer": 0}]})");
    file.close();
    AnalyzeView view(path);
    QSignalSpy failed(&view, &AnalyzeView::failed);
    QVERIFY(failed.wait(30000));
    const QString error = failed.front().front().toString();
    QVERIFY2(error.startsWith(path) && error.contains(QStringLiteral("layers[0].experts: missing")),
             qPrintable(error));
    QCOMPARE(view.statusText(), error);
  }
};

QTEST_MAIN(TestAnalyzeView)
#include "test_analyze_view.moc"
