// ExperimentEditor as a whole: the JSON view and the form stay in sync both ways through the
// document, a syntax error keeps the typed text, problems are listed and lead to their field.
#include <QDir>
#include <QLabel>
#include <QListView>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QtTest>

#include "base/experiment/experiment_document.h"
#include "experiment/config_form.h"
#include "experiment/estimates_panel.h"
#include "experiment/experiment_editor.h"
#include "experiment/experiment_file_actions.h"
#include "experiment/field_editor.h"
#include "experiment/json_editor.h"
#include "experiment/problem_list_model.h"

using moe::ui::EstimatesPanel;
using moe::ui::ExperimentEditor;
using moe::ui::JsonEditor;

class TestExperimentEditor : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    editor_ = std::make_unique<ExperimentEditor>();
    editor_->document()->setValidateOptions({/*check_files=*/false});
    editor_->resize(1400, 900);
    editor_->show();
  }

  void formEditRewritesTheJsonView() {
    auto* experts = qobject_cast<QSpinBox*>(editor_->form()->fieldEditor("/moe/experts")->editor());
    experts->setValue(64);
    const QString text = editor_->jsonEditor()->textEdit()->toPlainText();
    QCOMPARE(nlohmann::json::parse(text.toStdString())["moe"]["experts"], nlohmann::json(64));
  }

  void typingJsonUpdatesTheFormAfterAPause() {
    QPlainTextEdit* edit = editor_->jsonEditor()->textEdit();
    edit->selectAll();
    QTest::keyClicks(edit, R"({"moe": {"experts": 4, "top_k": 1}})");
    auto* experts = qobject_cast<QSpinBox*>(editor_->form()->fieldEditor("/moe/experts")->editor());
    // Debounced: not on each keystroke (keyClicks delivers the keys without turning the event
    // loop, so however slow the machine no timer has fired yet)...
    QCOMPARE(experts->value(), 8);
    // ...but soon after the typing stops.
    QTRY_COMPARE_WITH_TIMEOUT(experts->value(), 4, 2000);
    // The text is what was typed, not reformatted under the cursor.
    QCOMPARE(edit->toPlainText(), QString(R"({"moe": {"experts": 4, "top_k": 1}})"));
  }

  void syntaxErrorKeepsTheTextAndShowsLineAndColumn() {
    QPlainTextEdit* edit = editor_->jsonEditor()->textEdit();
    const QString broken = "{\n  \"moe\": {\"experts\": 4\n  \"train\": {}\n}";
    edit->setPlainText(broken);
    editor_->jsonEditor()->flush();
    QCOMPARE(edit->toPlainText(), broken);
    QVERIFY(editor_->document()->hasSyntaxError());
    // Where the parser stopped: the end of the unexpected "train" (as moe-train validate says).
    QVERIFY2(editor_->jsonEditor()->statusText().startsWith("Syntax error at line 3, column 9"),
             qPrintable(editor_->jsonEditor()->statusText()));
    // The problem list holds just the syntax error, and the form waits for a fix.
    QCOMPARE(editor_->problemView()->model()->rowCount(), 1);
    QVERIFY(!editor_->form()->fieldEditor("/moe/experts")->isEnabled());
    // Fixing it brings everything back.
    edit->setPlainText("{\n  \"moe\": {\"experts\": 4},\n  \"train\": {}\n}");
    editor_->jsonEditor()->flush();
    QVERIFY(!editor_->document()->hasSyntaxError());
    QCOMPARE(editor_->jsonEditor()->statusText(), QString("Valid JSON"));
    QVERIFY(editor_->form()->fieldEditor("/moe/experts")->isEnabled());
  }

  void problemListLeadsToTheField() {
    editor_->document()->setText(R"({"moe": {"experts": 8, "top_k": 9}})");
    QAbstractItemModel* model = editor_->problemView()->model();
    QCOMPARE(model->rowCount(), 1);
    const QModelIndex row = model->index(0, 0);
    QCOMPARE(row.data().toString(),
             QString("/moe/top_k: must be between 1 and 8 (moe.experts), got 9"));
    QCOMPARE(row.data(moe::ui::ProblemListModel::kPointerRole).toString(), QString("/moe/top_k"));
    emit editor_->problemView()->activated(row);
    QWidget* top_k = editor_->form()->fieldEditor("/moe/top_k")->editor();
    QTRY_VERIFY(top_k->hasFocus() || QApplication::focusWidget() == top_k);
  }

  void estimatesFollowTheDocument() {
    editor_->document()->setText(
        R"({"model": {"kind": "helloworld", "dim": 16}, "moe": {"experts": 4, "hidden": 8}})");
    // 2*E*H*M + E*H + E*M = 1024 + 32 + 64 experts; E*M = 64 dense.
    QCOMPARE(editor_->estimatesPanel()->valueText("parameters"), QString("1.18 k"));
    QVERIFY(editor_->estimatesPanel()->valueText("experts").startsWith("1.12 k"));
    editor_->document()->setText(R"({"moe": {"capacity_factor": 0}})");
    QVERIFY(editor_->estimatesPanel()->valueText("capacity").startsWith("dropless (max demand)"));
  }

  // Total and active parameters per token for every kind; the KV cache where there is attention.
  void estimatesShowActiveParametersForEveryKind() {
    EstimatesPanel* panel = editor_->estimatesPanel();
    editor_->document()->setText(
        R"({"model": {"kind": "helloworld", "dim": 16}, "moe": {"experts": 4, "hidden": 8}})");
    // 64 dense and 2 of the 4 experts' 1120.
    QVERIFY(panel->isRowVisible("active"));
    QVERIFY(panel->valueText("active").startsWith("624"));
    QVERIFY(!panel->isRowVisible("kv_cache"));
    editor_->document()->setText(R"({"model": {"kind": "decoder", "dim": 16, "layers": 2,
        "heads": 4, "kv_heads": 2, "vocab": 64, "tie_embeddings": false},
        "moe": {"experts": 4, "top_k": 2, "hidden": 8, "expert_ffn": "glu", "fc1_bias": false,
        "fc2_bias": false}})");
    // Dense: embedding and head 2 x 64 x 16, final norm 16, per block norms 32, q/k/v/o
    // 256 + 128 + 128 + 256, gate 64: 3792. Experts 2 x 3 x 4 x 8 x 16 = 3072, half active.
    QCOMPARE(panel->valueText("parameters"), QString("6.86 k"));
    QVERIFY(panel->valueText("active").startsWith("5.33 k"));
    QVERIFY(panel->valueText("active").contains("78%"));
    // 2 layers x keys and values of 2 heads x 4 x float32.
    QVERIFY(panel->isRowVisible("kv_cache"));
    QCOMPARE(panel->valueText("kv_cache"), QString("128 B"));
  }

  void rankEstimatesShowWithSeveralRanks() {
    EstimatesPanel* panel = editor_->estimatesPanel();
    editor_->document()->setText(
        R"({"model": {"kind": "helloworld", "dim": 16}, "moe": {"experts": 4, "hidden": 8}})");
    QVERIFY(!panel->isRowVisible("all_to_all"));
    QVERIFY(!panel->isRowVisible("rank_parameters"));
    editor_->document()->setText(R"({"model": {"kind": "helloworld", "dim": 16},
        "moe": {"experts": 4, "hidden": 8}, "parallel": {"nproc": 4}})");
    QVERIFY(panel->isRowVisible("all_to_all"));
    QVERIFY(panel->valueText("ranks").startsWith("4"));
    QVERIFY(panel->valueText("ranks").contains("1 expert each"));
    // 1120 / 4 expert parameters + 64 dense.
    QVERIFY(panel->valueText("rank_parameters").startsWith("344"));
    QVERIFY(panel->valueText("all_to_all").startsWith("192 KiB"));
    editor_->document()->setText(R"({"parallel": {"nproc": 2, "adaptive_r": 0}})");
    QVERIFY(panel->valueText("all_to_all").startsWith("none"));
  }

  // The editor with the default experiment (fashion-mnist), at a laptop-sized window: no label
  // is cut off. With MOE_SCREENSHOT_DIR set it saves experiment_editor.png there to look at.
  void lookWithFashionMnist() {
    QVERIFY(editor_->fileActions()->openPreset("fashion-mnist"));
    editor_->resize(1366, 860);
    QTest::qWait(50);
    for (QLabel* label : editor_->findChildren<QLabel*>()) {
      if (!label->isVisible() || label->wordWrap() || label->text().isEmpty()) continue;
      QVERIFY2(label->width() >= label->minimumSizeHint().width(), qPrintable(label->text()));
    }
    const QString dir = qEnvironmentVariable("MOE_SCREENSHOT_DIR");
    if (!dir.isEmpty()) {
      const QString path = QDir(dir).filePath("experiment_editor.png");
      QVERIFY(editor_->grab().save(path));
      qInfo("saved %s", qPrintable(path));
      // And how a problem looks inline.
      editor_->document()->setValue("/moe/top_k", 9);
      editor_->document()->setValue("/model/dim", 63);
      QTest::qWait(50);  // let the layouts make room for the messages
      const QString problem_path = QDir(dir).filePath("experiment_editor_problems.png");
      QVERIFY(editor_->grab().save(problem_path));
      qInfo("saved %s", qPrintable(problem_path));
    }
  }

 private:
  std::unique_ptr<ExperimentEditor> editor_;
};

QTEST_MAIN(TestExperimentEditor)
#include "test_experiment_editor.moc"
