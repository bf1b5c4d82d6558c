// The Generate tab under the offscreen platform: a recorded generation fed in small chunks shows
// the prompts and generated text with each token on its top expert's colour in the chosen layer
// (and again in another layer), the strip's cells and tooltips, the figures, the phase split and
// the expert load; a stand-in moe-train shows the engine's refusal (exit 2) in the status line,
// and Stop ends a generation that streams and keeps the text so far.
#include <QComboBox>
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextCursor>
#include <QtTest>

#include "base/generate/generate_events.h"
#include "draw/palette.h"
#include "generate/generate_form.h"
#include "generate/generate_view.h"
#include "generate/generated_load_bars.h"
#include "generate/phase_share_bar.h"
#include "generate/routing_strip.h"
#include "generate/sparkline.h"
#include "generate/token_style.h"
#include "generate/token_text_view.h"
#include "generate_test_data.h"

using namespace moe::ui;

namespace {

// The recorded lines, in chunks as a pipe would cut them.
void feed(GenerateView& view, const QByteArray& bytes, int chunk = 50) {
  GenerateLineReader reader;
  for (qsizetype at = 0; at < bytes.size(); at += chunk)
    view.showLines(reader.feed(bytes.mid(at, chunk)));
  view.showLines(reader.finish());
}

QColor backgroundAt(const TokenTextView* text, int position) {
  QTextCursor cursor(text->document());
  cursor.setPosition(position);
  cursor.movePosition(QTextCursor::NextCharacter, QTextCursor::KeepAnchor);
  return cursor.charFormat().background().color();
}

}  // namespace

class TestGenerateView : public QObject {
  Q_OBJECT

  QTemporaryDir work_;
  QString model_;  // a run folder the form accepts (with a tokenizer: text prompts)

  // A stand-in moe-train: a shell script running `body`.
  QString fakeTrain(const QString& name, const QByteArray& body) {
    const QString path = work_.filePath(name);
    if (!test::writeFile(path, "#!/bin/sh\n" + body)) return {};
    QFile::setPermissions(path, QFile::permissions(path) | QFileDevice::ExeOwner);
    return path;
  }

  // The form pointed at the stand-in model, once it has read the folder.
  bool readyToGenerate(GenerateView& view) {
    view.form()->setModel(model_);
    view.form()->setPrompts(QStringLiteral("Hi\n---\nOk"));
    return QTest::qWaitFor([&] { return view.form()->generateButton()->isEnabled(); }, 10000);
  }

 private slots:
  void initTestCase() {
    QVERIFY(work_.isValid());
    model_ = work_.filePath("run");
    QVERIFY(
        test::writeFile(model_ + "/config.json", R"({"model":{"kind":"decoder","vocab":256}})"));
    QVERIFY(test::writeFile(model_ + "/tokenizer.json", "{}"));
    QVERIFY(test::writeFile(model_ + "/checkpoints/step-1/state.json", "{}"));
  }

  void drawsARecordedGeneration() {
    GenerateView view;
    view.resize(1300, 820);
    view.show();
    feed(view, test::recordedGeneration());
    const GenerateSession& session = view.session();
    QCOMPARE(session.generatedCount(), int64_t{12});

    // The layers, the first chosen.
    QCOMPARE(view.layerCombo()->count(), 3);
    QCOMPARE(view.colourLayer(), 0);

    // Each prompt plain, its continuation after it; the multi-byte start shows with its end.
    TokenTextView* text = view.textView();
    const QString plain = text->document()->toPlainText();
    QVERIFY2(plain.contains("Hi there,é you!"), qPrintable(plain));
    QVERIFY2(plain.contains("Ok go on x."), qPrintable(plain));
    QVERIFY2(plain.contains("stop string"), qPrintable(plain));
    const int you = static_cast<int>(plain.indexOf(" you")) + 1;
    QCOMPARE(text->tokenAtPosition(you), std::make_pair(0, 3));
    QCOMPARE(text->tokenAtPosition(static_cast<int>(plain.indexOf("Hi"))), std::make_pair(-1, -1));
    // Token 3 of prompt 0 chose (3 + l) % 8 first in layer l.
    QCOMPARE(backgroundAt(text, you), expertColor(3));
    view.layerCombo()->setCurrentIndex(2);
    QCOMPARE(view.colourLayer(), 2);
    QCOMPARE(backgroundAt(text, you), expertColor(5));
    // Hovering the token finds it, and its tooltip lists every layer with weights.
    const QRect rect = text->cursorRect([&] {
      QTextCursor c(text->document());
      c.setPosition(you + 1);
      return c;
    }());
    QCOMPARE(text->tokenAt(rect.center() - QPoint(2, 0)), std::make_pair(0, 3));
    const QString tip = tokenTooltip(session, 0, 3, 2);
    QVERIFY2(tip.contains("<b>layer 2</b>") && tip.contains("layer 0") && tip.contains("0.700"),
             qPrintable(tip));

    // The strip: a cell per token and layer, found again under the mouse.
    RoutingStrip* strip = view.strip();
    int layer_position = -1;
    const QRect cell = strip->cellRect(1, 2, 1);
    QCOMPARE(strip->tokenAt(cell.center(), &layer_position), std::make_pair(1, 2));
    QCOMPARE(layer_position, 1);
    QCOMPARE(strip->tokenAt(QPoint(2, cell.center().y())), std::make_pair(-1, -1));  // the gutter
    // Its height grew with the layers: every layer's row is in view.
    QTRY_VERIFY(strip->viewport()->height() > strip->cellRect(0, 0, 2).bottom());
    const QImage image = strip->viewport()->grab().toImage();
    QCOMPARE(QColor(image.pixel(cell.center())), expertColor((2 + 1 + 1) % 8));

    // Figures, sparkline, phases, load.
    // (redrawn at most 10 times a second)
    QTRY_VERIFY2(view.figuresText().contains("91.5") && view.figuresText().contains("50 ms") &&
                     view.figuresText().contains("12 / 12"),
                 qPrintable(view.figuresText()));
    QCOMPARE(view.sparkline()->values().size(), size_t{6});
    QCOMPARE(view.phaseBar()->phases().front().first, QStringLiteral("attention"));
    QCOMPARE(view.phaseBar()->phases().front().second, 5.0);
    const std::vector<double> counts = view.loadBars()->counts();
    QCOMPARE(counts.size(), size_t{8});
    QCOMPARE(std::accumulate(counts.begin(), counts.end(), 0.0), 24.0);
    QVERIFY2(view.loadBars()->title().startsWith("layer 2"), qPrintable(view.loadBars()->title()));
  }

  void appendsTokensAsTheyCome() {
    GenerateView view;
    view.show();
    const QByteArray bytes = test::recordedGeneration();
    GenerateLineReader reader;
    const qsizetype half = bytes.indexOf("this is not json");
    view.showLines(reader.feed(bytes.left(half)));
    QVERIFY(view.textView()->document()->toPlainText().contains("Hi there,é"));
    QVERIFY(!view.textView()->document()->toPlainText().contains("you"));
    view.showLines(reader.feed(bytes.mid(half)));
    QVERIFY(view.textView()->document()->toPlainText().contains("Hi there,é you!"));
  }

  void showsTheEnginesRefusal() {
    GenerateView view;
    view.setTrainProgram(fakeTrain("refuses",
                                   "echo 'moe-train: prompt 1: token 999 is outside "
                                   "the vocabulary (256)' >&2\nexit 2\n"));
    QVERIFY(readyToGenerate(view));
    QSignalSpy finished(&view, &GenerateView::finished);
    QVERIFY(view.generate());
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.front().front().value<GenerateProcess::Outcome>(),
             GenerateProcess::Outcome::Failed);
    QVERIFY2(view.statusText().contains("refused the input: prompt 1: token 999"),
             qPrintable(view.statusText()));
    QVERIFY(view.form()->generateButton()->isEnabled());
  }

  void stopKeepsTheTextSoFar() {
    GenerateView view;
    // Streams the first half of the recording, then waits as a slow model would.
    const QByteArray bytes = test::recordedGeneration();
    QVERIFY(test::writeFile(work_.filePath("half.jsonl"),
                            bytes.left(bytes.indexOf("this is not json"))));
    view.setTrainProgram(fakeTrain(
        "streams", "cat '" + work_.filePath("half.jsonl").toUtf8() + "'\nexec sleep 30\n"));
    QVERIFY(readyToGenerate(view));
    QSignalSpy finished(&view, &GenerateView::finished);
    QVERIFY(view.generate());
    QVERIFY(view.form()->stopButton()->isEnabled());
    QVERIFY(QTest::qWaitFor([&] { return view.session().generatedCount() == 6; }, 10000));
    view.form()->stopButton()->click();
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.front().front().value<GenerateProcess::Outcome>(),
             GenerateProcess::Outcome::Stopped);
    QVERIFY2(view.statusText().contains("Stopped after 6 token(s)"), qPrintable(view.statusText()));
    QVERIFY(view.textView()->document()->toPlainText().contains("Hi there,é"));
  }

  void refusesAFormThatIsNotReady() {
    GenerateView view;
    view.form()->setModel(work_.filePath("no-such-model"));
    QVERIFY(QTest::qWaitFor([&] { return view.form()->modelFolder().has_value(); }, 10000));
    QVERIFY(!view.form()->generateButton()->isEnabled());
    QVERIFY(!view.generate());
    QVERIFY2(view.statusText().contains("not a folder"), qPrintable(view.statusText()));
  }
};

QTEST_MAIN(TestGenerateView)
#include "test_generate_view.moc"
