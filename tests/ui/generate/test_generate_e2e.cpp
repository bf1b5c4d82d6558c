// The Generate tab with the real `moe-train generate --telemetry -`: a tiny Mixtral-like run (one
// training step of the tiny-mixtral preset, no tokenizer, so prompts are token ids) generates two
// prompts decoded together; the tab gets every token with its routing in each MoE layer, the
// same ids as the command line's --json, the figures and the load; a bad id is refused with the
// engine's message; Stop ends a long generation and keeps its tokens.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <numeric>

#include "../window/window_test_support.h"
#include "base/runs/run_manager.h"
#include "generate/generate_form.h"
#include "generate/generate_view.h"
#include "generate/generated_load_bars.h"
#include "generate/token_text_view.h"
#include "moe_train_test_process.h"
#include "window/main_window.h"

using namespace moe::ui;
using moe::test::trainFails;

namespace {

GenerateProcess::Outcome outcomeOf(const QSignalSpy& finished) {
  return finished.front().front().value<GenerateProcess::Outcome>();
}

}  // namespace

class TestGenerateE2E : public QObject {
  Q_OBJECT

  QTemporaryDir work_;
  QString run_;

  // The tab on the tiny run with `prompts` (token ids), greedy; false when the form stays off.
  bool ready(GenerateView& view, const QString& prompts, int max_new_tokens, int batch_size) {
    view.setTrainProgram(MOE_TRAIN_BIN);
    view.form()->setModel(run_);
    view.form()->setPrompts(prompts);
    SamplingSettings sampling;
    sampling.greedy = true;
    sampling.max_new_tokens = max_new_tokens;
    sampling.batch_size = batch_size;
    view.form()->setSampling(sampling);
    return QTest::qWaitFor([&] { return view.form()->generateButton()->isEnabled(); }, 30000);
  }

 private slots:
  void initTestCase() {
    test::useTemporaryHome();
    QVERIFY(work_.isValid());
    run_ = work_.filePath("run");
    const QString error = trainFails(
        {"run", "--config", MOE_PRESETS_DIR "/tiny-mixtral.json", "--run-dir", run_, "--set",
         "train.steps=1", "--set", "train.batch_size=2", "--set", "model.seq_len=16", "--set",
         "train.eval_every=0", "--set", "train.threads=1", "--set", "train.checkpoint_every=1"});
    QVERIFY2(error.isEmpty(), qPrintable(error));
  }

  void streamsEveryTokenWithItsRouting() {
    GenerateView view;
    view.resize(1200, 800);
    view.show();
    QVERIFY(ready(view, QStringLiteral("1 2 3\n4 5"), 6, 2));
    QVERIFY(!view.form()->modelFolder()->has_tokenizer);
    QSignalSpy finished(&view, &GenerateView::finished);
    QVERIFY(view.generate());
    QVERIFY(finished.wait(120000));
    QCOMPARE(outcomeOf(finished), GenerateProcess::Outcome::Finished);

    const GenerateSession& session = view.session();
    QCOMPARE(session.badLines(), 0);
    QCOMPARE(session.moeLayers().size(), size_t{3});
    QCOMPARE(session.prompts().size(), size_t{2});
    QCOMPARE(session.generatedCount(), int64_t{12});
    for (const PromptRecord& prompt : session.prompts()) {
      QCOMPARE(prompt.generated.size(), size_t{6});
      QVERIFY(prompt.end.has_value());
      for (const GeneratedToken& token : prompt.generated) {
        QCOMPARE(token.routing.size(), size_t{3});
        for (const TokenRouting& r : token.routing) QCOMPARE(r.experts.size(), size_t{2});
      }
    }
    QVERIFY(session.end().has_value());
    QVERIFY(session.end()->decode_tokens_per_s > 0);
    QCOMPARE(session.steps().empty(), false);

    // The same ids as the command line's own output for the same request.
    const QString json = work_.filePath("out.json");
    QFile ids(work_.filePath("ids.json"));
    QVERIFY(ids.open(QIODevice::WriteOnly));
    ids.write("[[1,2,3],[4,5]]");
    ids.close();
    const QString error =
        trainFails({"generate", "--model", run_, "--prompt-tokens", ids.fileName(), "--greedy",
                    "--max-new-tokens", "6", "--batch-size", "2", "--json", json});
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QFile out(json);
    QVERIFY(out.open(QIODevice::ReadOnly));
    const QJsonArray tokens = QJsonDocument::fromJson(out.readAll()).object()["tokens"].toArray();
    QCOMPARE(tokens.size(), 2);
    for (int p = 0; p < 2; ++p) {
      const QJsonArray all = tokens[p].toArray();
      const auto& record = session.prompts()[static_cast<size_t>(p)];
      const qsizetype prompt_length = static_cast<qsizetype>(record.tokens.size());
      QCOMPARE(all.size(), prompt_length + 6);
      for (int i = 0; i < 6; ++i)
        QCOMPARE(record.generated[i].id, all[prompt_length + i].toInteger());
    }

    // The text shows the ids (no tokenizer), the load counts every choice.
    const QString text = view.textView()->document()->toPlainText();
    QVERIFY2(text.contains(QStringLiteral("[1 2 3] %1").arg(session.prompts()[0].generated[0].id)),
             qPrintable(text));
    const auto choices = [&] {
      const std::vector<double> counts = view.loadBars()->counts();
      return std::accumulate(counts.begin(), counts.end(), 0.0);
    };
    QTRY_COMPARE(choices(), 24.0);
  }

  // Run > Generate Text… shows the tab on a model; it generates with the window's moe-train.
  void generatesFromTheMainWindow() {
    MainWindow window;
    window.runs()->setTrainProgram(MOE_TRAIN_BIN);
    GenerateView* view = window.showGenerate(run_);
    QCOMPARE(window.tabs()->currentWidget(), view);
    QCOMPARE(view->form()->model(), run_);
    view->form()->setPrompts(QStringLiteral("7 8 9"));
    QVERIFY(QTest::qWaitFor([&] { return view->form()->generateButton()->isEnabled(); }, 30000));
    QSignalSpy finished(view, &GenerateView::finished);
    view->form()->generateButton()->click();
    QVERIFY(finished.wait(120000));
    QCOMPARE(outcomeOf(finished), GenerateProcess::Outcome::Finished);
    const int64_t tokens = view->session().generatedCount();
    QVERIFY2(tokens >= 1 && tokens <= 64, qPrintable(QString::number(tokens)));  // the form's 64
  }

  void showsTheEnginesRefusal() {
    GenerateView view;
    QVERIFY(ready(view, QStringLiteral("1 2 99999"), 4, 1));
    QSignalSpy finished(&view, &GenerateView::finished);
    QVERIFY(view.generate());
    QVERIFY(finished.wait(120000));
    QCOMPARE(outcomeOf(finished), GenerateProcess::Outcome::Failed);
    QVERIFY2(view.statusText().contains("refused the input") && view.statusText().contains("99999"),
             qPrintable(view.statusText()));
  }

  void stopKeepsWhatWasGenerated() {
    GenerateView view;
    QVERIFY(ready(view, QStringLiteral("1 2 3"), 100000, 1));
    QSignalSpy finished(&view, &GenerateView::finished);
    QVERIFY(view.generate());
    QVERIFY(QTest::qWaitFor([&] { return view.session().generatedCount() >= 5; }, 120000));
    view.form()->stopButton()->click();
    QVERIFY(finished.wait(30000));
    QCOMPARE(outcomeOf(finished), GenerateProcess::Outcome::Stopped);
    QVERIFY(view.session().generatedCount() >= 5);
    QVERIFY(view.statusText().startsWith("Stopped after"));
  }
};

QTEST_MAIN(TestGenerateE2E)
#include "test_generate_e2e.moc"
