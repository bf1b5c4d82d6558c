// Saves docs/screenshots/generate.png: moe-studio's Generate tab streaming two prompts from a real
// model (tests/ui/take_screenshots.sh calls this). The model is the tiny-mixtral preset trained
// here for a few minutes on the bytes of /usr/share/common-licenses; its ids are bytes, so a
// byte-level tokenizer.json (id b is byte b, as the training data was read) beside its config
// lets it take and write text. Rendered with QWidget::grab: the picture is the app's own drawing.
// Usage: generate_screenshot MOE_TRAIN PRESETS_DIR OUT.png [STEPS]
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>

#include "base/runs/run_manager.h"
#include "generate/generate_form.h"
#include "generate/generate_view.h"
#include "window/main_window.h"

namespace {

// GPT-2's byte-to-character table (the ByteLevel pre-tokenizer's): printable bytes stand for
// themselves, the others for 256 + n.
QString byteChar(int byte) {
  const auto printable = [](int b) {
    return (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
  };
  if (printable(byte)) return QString(QChar(byte));
  int n = 0;
  for (int b = 0; b < byte; ++b) n += printable(b) ? 0 : 1;
  return QString(QChar(256 + n));
}

// A byte-level BPE without merges: token b is byte b.
QByteArray byteTokenizer() {
  QJsonObject vocab;
  for (int b = 0; b < 256; ++b) vocab[byteChar(b)] = b;
  const QJsonObject byte_level{{"type", "ByteLevel"},
                               {"add_prefix_space", false},
                               {"trim_offsets", true},
                               {"use_regex", false}};
  const QJsonObject model{{"type", "BPE"},
                          {"dropout", QJsonValue()},
                          {"unk_token", QJsonValue()},
                          {"continuing_subword_prefix", QJsonValue()},
                          {"end_of_word_suffix", QJsonValue()},
                          {"fuse_unk", false},
                          {"byte_fallback", false},
                          {"ignore_merges", false},
                          {"vocab", vocab},
                          {"merges", QJsonArray()}};
  const QJsonObject tokenizer{{"version", "1.0"},
                              {"truncation", QJsonValue()},
                              {"padding", QJsonValue()},
                              {"added_tokens", QJsonArray()},
                              {"normalizer", QJsonValue()},
                              {"pre_tokenizer", byte_level},
                              {"post_processor", QJsonValue()},
                              {"decoder", byte_level},
                              {"model", model}};
  return QJsonDocument(tokenizer).toJson(QJsonDocument::Compact);
}

int fail(const QString& what) {
  std::fprintf(stderr, "generate_screenshot: %s\n", qPrintable(what));
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  if (argc < 4) {
    std::fprintf(stderr, "usage: generate_screenshot MOE_TRAIN PRESETS_DIR OUT.png [STEPS]\n");
    return 2;
  }
  const QString train = QString::fromLocal8Bit(argv[1]);
  const QString presets = QString::fromLocal8Bit(argv[2]);
  const QString steps = argc > 4 ? QString::fromLocal8Bit(argv[4]) : QStringLiteral("1200");
  QTemporaryDir work;
  const QString run = work.filePath("tiny-mixtral");
  QProcess process;
  process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
  process.setStandardOutputFile(QProcess::nullDevice());
  process.start(train, {"run", "--config", presets + "/tiny-mixtral.json", "--run-dir", run,
                        "--set", "train.steps=" + steps, "--set", "train.eval_every=0", "--set",
                        "train.checkpoint_every=" + steps});
  if (!process.waitForFinished(-1) || process.exitCode() != 0) return fail("training failed");
  QFile tokenizer(run + "/tokenizer.json");
  if (!tokenizer.open(QIODevice::WriteOnly) || tokenizer.write(byteTokenizer()) < 0) {
    return fail("cannot write " + tokenizer.fileName());
  }
  tokenizer.close();

  moe::ui::MainWindow window;
  window.runs()->setTrainProgram(train);
  window.resize(1366, 860);
  window.show();
  moe::ui::GenerateView* view = window.showGenerate(run);
  view->form()->setPrompts(
      QStringLiteral("THE SOFTWARE IS PROVIDED \"AS IS\"\n---\nThis program is free software"));
  moe::ui::SamplingSettings sampling;
  sampling.temperature = 0.7;
  sampling.top_p = 0.9;
  sampling.seed = 3;
  sampling.max_new_tokens = 180;
  sampling.batch_size = 2;
  view->form()->setSampling(sampling);
  QSignalSpy finished(view, &moe::ui::GenerateView::finished);
  QTimer ready;
  QObject::connect(&ready, &QTimer::timeout, [&] {
    if (view->form()->modelFolder() && view->form()->modelFolder()->ok()) {
      ready.stop();
      view->generate();
    }
  });
  ready.start(100);
  if (!finished.wait(300000)) return fail("no end of generation: " + view->statusText());
  if (view->layerCombo()->count() > 1) view->layerCombo()->setCurrentIndex(1);
  QTimer::singleShot(400, &app, &QApplication::quit);  // layout and paint settle
  app.exec();
  return window.grab().save(QString::fromLocal8Bit(argv[3])) ? 0 : fail("cannot save the PNG");
}
