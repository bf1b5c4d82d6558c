// File ▸ Import Hugging Face Model… with the real moe-train: a tiny Qwen2-MoE folder made by the
// test (a one-step run of the tiny-qwen2-moe preset, written out by `moe-train export-hf`) opens
// in the editor as an unsaved experiment named after the folder, with what import-hf read shown,
// and Run starts it from the folder's weights (--init-from, in the command lines too); a folder
// whose config.json holds a key the engine does not know is refused with that key named.
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include "base/experiment/experiment_document.h"
#include "base/report/command_exports.h"
#include "base/run/run.h"
#include "base/runs/run_manager.h"
#include "experiment/experiment_editor.h"
#include "experiment/hf_import_dialog.h"
#include "moe_train_test_process.h"
#include "window/main_window.h"
#include "window_test_support.h"

using namespace moe::ui;
using moe::test::trainFails;

namespace {

// Waits for the dialog's import to end; its outcome.
bool importEnds(HfImportDialog* dialog, bool* ok) {
  QSignalSpy imported(dialog, &HfImportDialog::imported);
  if (!imported.wait(120000)) return false;
  *ok = imported.front().front().toBool();
  return true;
}

}  // namespace

class TestHfImport : public QObject {
  Q_OBJECT

  QTemporaryDir work_;
  QString model_;  // the tiny Qwen2-MoE folder

 private slots:
  void initTestCase() {
    test::useTemporaryHome();
    QVERIFY(work_.isValid());
    const QString preset = QStringLiteral(MOE_PRESETS_DIR "/tiny-qwen2-moe.json");
    const QString run = work_.filePath("run");
    QString error = trainFails({"run", "--config", preset, "--run-dir", run, "--set",
                                "train.steps=1", "--set", "train.batch_size=2", "--set",
                                "model.seq_len=16", "--set", "train.eval_every=0", "--set",
                                "train.threads=1", "--set", "train.checkpoint_every=1"});
    QVERIFY2(error.isEmpty(), qPrintable(error));
    model_ = work_.filePath("tiny-qwen2");
    error = trainFails({"export-hf", run, model_});
    QVERIFY2(error.isEmpty(), qPrintable(error));
    // A file the run copies when it starts from the folder: proof that Run passed --init-from.
    QFile marker(model_ + "/generation_config.json");
    QVERIFY(marker.open(QIODevice::WriteOnly));
    marker.write(R"({"marker": "imported"})");
  }

  void opensTheModelInTheEditorAndRunsFromItsWeights() {
    MainWindow window;
    window.runs()->setTrainProgram(MOE_TRAIN_BIN);
    HfImportDialog* dialog = window.importHfModel(model_);
    QVERIFY(dialog);
    bool ok = false;
    QVERIFY(importEnds(dialog, &ok));
    QVERIFY2(ok, qPrintable(dialog->details()->text()));

    // What import-hf read, in the dialog.
    const QString headline = dialog->headline()->text();
    QVERIFY2(headline.startsWith("qwen2_moe, 3 layers, dim 128, 6 experts top-2, "),
             qPrintable(headline));
    QVERIFY(headline.contains("parameters"));
    QVERIFY(dialog->details()->text().contains("--init-from " + QDir::toNativeSeparators(model_)));

    // The editor has the config, unsaved and named after the folder, and says where runs start.
    ExperimentDocument* doc = window.editor()->document();
    QCOMPARE(window.tabs()->currentWidget(), static_cast<QWidget*>(window.editor()));
    QVERIFY(doc->config().model.family == moe::protocol::ModelFamily::Qwen2Moe);
    QCOMPARE(doc->config().moe.experts, int64_t{6});
    QCOMPARE(doc->config().moe.shared_hidden, int64_t{256});
    QCOMPARE(doc->config().name, std::string("tiny-qwen2"));
    QVERIFY(doc->filePath().isEmpty());
    QVERIFY(doc->isModified());
    QCOMPARE(doc->displayName(), QStringLiteral("tiny-qwen2 (imported)"));
    QCOMPARE(doc->initFrom(), model_);
    QVERIFY(window.editor()->initFromNote()->isVisibleTo(window.editor()));
    QVERIFY(window.editor()->initFromNote()->text().contains(model_));

    // The command lines that start it by hand name the weights too.
    const auto commands =
        exportedCommands("c.json", doc->config(), defaultSlurmTarget(), doc->initFrom());
    QVERIFY(commands.front().text.contains("--init-from " + model_));

    // Run: a short fine-tune from the folder's weights.
    doc->setValue("/train/steps", 1);
    doc->setValue("/train/batch_size", 2);
    doc->setValue("/model/seq_len", 16);
    doc->setValue("/train/eval_every", 0);
    doc->setValue("/train/threads", 1);
    doc->setValue("/data/path", "/usr/share/common-licenses");
    QVERIFY2(doc->isValid(),
             doc->problems().empty() ? "syntax" : doc->problems().front().message.c_str());
    Run* run = window.runExperiment();
    QVERIFY(run);
    QSignalSpy finished(run, &Run::finished);
    QVERIFY(finished.wait(300000));
    QCOMPARE(run->state(), Run::State::Finished);
    QVERIFY(QFile::exists(run->runDir() + "/generation_config.json"));

    // Another experiment opened afterwards starts from scratch again.
    doc->reset(nlohmann::json::object());
    QVERIFY(doc->initFrom().isEmpty());
    QVERIFY(!window.editor()->initFromNote()->isVisibleTo(window.editor()));
  }

  void aKeyTheEngineDoesNotKnowIsRefusedByName() {
    QTemporaryDir copy;
    for (const QString& name : QDir(model_).entryList(QDir::Files))
      QVERIFY(QFile::copy(model_ + "/" + name, copy.filePath(name)));
    QFile file(copy.filePath("config.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    nlohmann::json config = nlohmann::json::parse(file.readAll().toStdString());
    file.close();
    config["expert_jitter_magic"] = 0.5;
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(QByteArray::fromStdString(config.dump(2)));
    file.close();

    MainWindow window;
    window.runs()->setTrainProgram(MOE_TRAIN_BIN);
    window.editor()->document()->setText(R"({"name": "kept"})");
    window.editor()->document()->setModified(false);
    HfImportDialog* dialog = window.importHfModel(copy.path());
    QVERIFY(dialog);
    bool ok = true;
    QVERIFY(importEnds(dialog, &ok));
    QVERIFY(!ok);
    QVERIFY(dialog->headline()->text().startsWith("Cannot import"));
    const QString details = dialog->details()->text();
    QVERIFY2(details.contains("expert_jitter_magic"), qPrintable(details));
    QVERIFY2(details.contains("exit status 2"), qPrintable(details));
    // The editor keeps what it had.
    QCOMPARE(window.editor()->document()->config().name, std::string("kept"));
    QVERIFY(window.editor()->document()->initFrom().isEmpty());
  }
};

QTEST_MAIN(TestHfImport)
#include "test_hf_import.moc"
