// ConfigForm: one editor per RunConfig key, inline problems, form edits reach the document and
// document changes reach the form.
#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QtTest>

#include "base/experiment/config_field_catalog.h"
#include "base/experiment/experiment_document.h"
#include "experiment/config_form.h"
#include "experiment/field_editor.h"
#include "protocol/config_fields.h"

using moe::ui::ConfigForm;
using moe::ui::ExperimentDocument;
using moe::ui::FieldEditor;

namespace {

// Counts the keys protocol's own visitor walks, independently of the catalog.
struct KeyCounter {
  int keys = 0;
  template <class T>
  void field(const char*, const T&) {
    ++keys;
  }
  template <class E>
  void choice(const char*, const E&) {
    ++keys;
  }
  void int_or_auto(const char*, const int64_t&, int64_t) { ++keys; }
  template <class F>
  void section(const char*, F&& body) {
    body();
  }
};

}  // namespace

class TestConfigForm : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    doc_ = std::make_unique<ExperimentDocument>();
    doc_->setValidateOptions({/*check_files=*/false});
    form_ = std::make_unique<ConfigForm>(doc_.get());
  }

  void everyKeyHasAnEditorWithATooltip() {
    KeyCounter counter;
    const moe::protocol::RunConfig config;
    moe::protocol::detail::visit_config(config, counter);
    QCOMPARE(int(form_->fieldEditors().size()), counter.keys);
    for (FieldEditor* e : form_->fieldEditors()) {
      const auto& f = e->field();
      QVERIFY2(!e->editor()->toolTip().isEmpty(), f.pointer.c_str());
      // Every key is described (a new key still gets an editor, but should get words too).
      QVERIFY2(e->editor()->toolTip().contains('\n'), f.pointer.c_str());
    }
  }

  void editorsFitTheirTypes() {
    QVERIFY(qobject_cast<QComboBox*>(form_->fieldEditor("/model/kind")->editor()));
    QVERIFY(qobject_cast<QComboBox*>(form_->fieldEditor("/train/dtype")->editor()));
    QVERIFY(qobject_cast<QSpinBox*>(form_->fieldEditor("/moe/experts")->editor()));
    QVERIFY(qobject_cast<QCheckBox*>(form_->fieldEditor("/moe/fp32_gate")->editor()));
    QVERIFY(qobject_cast<QLineEdit*>(form_->fieldEditor("/train/lr")->editor()));
    QVERIFY(qobject_cast<QLineEdit*>(form_->fieldEditor("/data/path")->editor()));
    auto* combo = qobject_cast<QComboBox*>(form_->fieldEditor("/moe/aux_loss")->editor());
    QCOMPARE(combo->count(), 5);  // gshard, load_importance, none, hf_load_balancing, seq_balance
    auto* dim = qobject_cast<QSpinBox*>(form_->fieldEditor("/model/dim")->editor());
    QCOMPARE(dim->minimum(), 2);
    QCOMPARE(dim->maximum(), int(moe::protocol::limits::kMaxDim));
    QCOMPARE(form_->findChildren<QGroupBox*>().size(), 7);  // Experiment + 6 sections
  }

  void badFieldShowsItsMessageInlineAndFixingClearsIt() {
    auto* top_k = form_->fieldEditor("/moe/top_k");
    auto* spin = qobject_cast<QSpinBox*>(top_k->editor());
    QCOMPARE(doc_->config().moe.experts, 8);
    spin->setValue(9);  // as if typed: the form writes the document
    QCOMPARE(doc_->config().moe.top_k, 9);
    QCOMPARE(top_k->problem(), QString("must be between 1 and 8 (moe.experts), got 9"));
    QVERIFY(form_->fieldEditor("/moe/experts")->problem().isEmpty());
    spin->setValue(2);
    QVERIFY(top_k->problem().isEmpty());
    QVERIFY(doc_->isValid());
  }

  void problemFromJsonShowsInline() {
    doc_->setText(R"({"moe": {"experts": 8, "top_k": 9}, "model": {"dim": 7}})");
    QVERIFY(form_->fieldEditor("/moe/top_k")->problem().contains("between 1 and 8"));
    QCOMPARE(form_->fieldEditor("/model/dim")->problem(), QString("must be even, got 7"));
    // The spin box shows the out-of-range value instead of clamping it away.
    doc_->setText(R"({"model": {"dim": 0}})");
    QCOMPARE(qobject_cast<QSpinBox*>(form_->fieldEditor("/model/dim")->editor())->value(), 0);
    QVERIFY(!form_->fieldEditor("/model/dim")->problem().isEmpty());
  }

  void sectionProblemsGoToTheirGroup() {
    doc_->setText(R"({"moe": {"expertz": 4}, "bogus": 1})");
    QVERIFY(form_->sectionProblem("moe").contains("moe.expertz: unknown key"));
    QVERIFY(form_->sectionProblem("").contains("bogus: unknown key"));
  }

  void editingTheFormUpdatesTheJson() {
    qobject_cast<QSpinBox*>(form_->fieldEditor("/moe/experts")->editor())->setValue(32);
    auto* gate = qobject_cast<QComboBox*>(form_->fieldEditor("/moe/gate")->editor());
    gate->setCurrentText("cosine");
    emit gate->activated(gate->currentIndex());  // what a user's pick emits
    qobject_cast<QCheckBox*>(form_->fieldEditor("/telemetry/trace")->editor())->setChecked(true);
    auto* lr = qobject_cast<QLineEdit*>(form_->fieldEditor("/train/lr")->editor());
    lr->clear();
    QTest::keyClicks(lr, "3e-4");
    auto* name = qobject_cast<QLineEdit*>(form_->fieldEditor("/name")->editor());
    name->clear();
    QTest::keyClicks(name, "my-run");

    const auto j = nlohmann::json::parse(doc_->text().toStdString());
    QCOMPARE(j["moe"]["experts"], nlohmann::json(32));
    QCOMPARE(j["moe"]["gate"], nlohmann::json("cosine"));
    QCOMPARE(j["telemetry"]["trace"], nlohmann::json(true));
    QCOMPARE(j["train"]["lr"].get<double>(), 3e-4);
    QCOMPARE(j["name"], nlohmann::json("my-run"));
    // What the user typed stays as typed (not rewritten to 0.0003 mid-edit).
    QCOMPARE(lr->text(), QString("3e-4"));
  }

  void halfTypedNumberIsALocalProblem() {
    auto* lr = qobject_cast<QLineEdit*>(form_->fieldEditor("/train/lr")->editor());
    lr->clear();
    QTest::keyClicks(lr, "1e-");
    QVERIFY(form_->fieldEditor("/train/lr")->problem().contains("expected a number"));
    QTest::keyClicks(lr, "2");
    QVERIFY(form_->fieldEditor("/train/lr")->problem().isEmpty());
    QCOMPARE(doc_->config().train.lr, 1e-2);
  }

  void editingTheJsonUpdatesTheForm() {
    doc_->setText(R"({"model": {"kind": "lm", "dim": 96}, "moe": {"activation": "silu",
                     "capacity_factor": -2}, "train": {"amp": true}})");
    QCOMPARE(qobject_cast<QComboBox*>(form_->fieldEditor("/model/kind")->editor())->currentText(),
             QString("lm"));
    QCOMPARE(qobject_cast<QSpinBox*>(form_->fieldEditor("/model/dim")->editor())->value(), 96);
    QCOMPARE(
        qobject_cast<QComboBox*>(form_->fieldEditor("/moe/activation")->editor())->currentText(),
        QString("silu"));
    QCOMPARE(qobject_cast<QLineEdit*>(form_->fieldEditor("/moe/capacity_factor")->editor())->text(),
             QString("-2"));
    QVERIFY(qobject_cast<QCheckBox*>(form_->fieldEditor("/train/amp")->editor())->isChecked());
  }

  void unknownEnumValueIsShownAndFlagged() {
    doc_->setText(R"({"moe": {"activation": "tanh"}})");
    auto* combo = qobject_cast<QComboBox*>(form_->fieldEditor("/moe/activation")->editor());
    QCOMPARE(combo->currentText(), QString("tanh"));
    QVERIFY(form_->fieldEditor("/moe/activation")->problem().contains("must be one of"));
    doc_->setText(R"({"moe": {"activation": "relu"}})");
    QCOMPARE(combo->count(), 3);  // the stray item is gone
    QCOMPARE(combo->currentText(), QString("relu"));
  }

  void parallelSectionComesAliveWithSeveralRanks() {
    FieldEditor* backend = form_->fieldEditor("/parallel/backend");
    FieldEditor* timeout = form_->fieldEditor("/parallel/timeout_s");
    FieldEditor* r = form_->fieldEditor("/parallel/adaptive_r");
    QVERIFY(backend->isUnused());  // one rank: nothing to parallelise
    QVERIFY(timeout->isUnused());
    QVERIFY(!form_->fieldEditor("/parallel/nproc")->isUnused());
    QVERIFY(!form_->fieldEditor("/parallel/nodes")->isUnused());
    doc_->setText(R"({"parallel": {"nproc": 4}})");
    QVERIFY(!backend->isUnused());
    QVERIFY(!timeout->isUnused());
    QVERIFY(!r->isUnused());
    doc_->setText(R"({"parallel": {"nproc": 4, "expert_parallel": false}})");
    QVERIFY(r->isUnused());
    QVERIFY(!backend->isUnused());
    QCOMPARE(form_->fieldEditor("/parallel/nproc")->label()->text(), QString("Processes per node"));
  }

  void adaptiveROffersTheLayoutsValues() {
    auto* combo = qobject_cast<QComboBox*>(form_->fieldEditor("/parallel/adaptive_r")->editor());
    QVERIFY(combo && combo->isEditable());
    auto items = [combo] {
      QStringList out;
      for (int i = 0; i < combo->count(); ++i) out << combo->itemText(i);
      return out;
    };
    QCOMPARE(items(), (QStringList{"auto", "0", "1"}));
    QCOMPARE(combo->currentText(), QString("1"));
    // 2 experts on 2 nodes x 4: each expert in 4 shards, so r may divide 4.
    doc_->setText(R"({"moe": {"experts": 2}, "parallel": {"nodes": 2, "nproc": 4}})");
    QCOMPARE(items(), (QStringList{"auto", "0", "1", "2", "4"}));
    combo->setCurrentIndex(combo->findText("auto"));
    emit combo->activated(combo->currentIndex());  // what a user's pick emits
    QCOMPARE(doc_->json()["parallel"]["adaptive_r"], nlohmann::json("auto"));
    QCOMPARE(doc_->config().parallel.adaptive_r, moe::protocol::kAdaptiveRAuto);
  }

  void adaptiveRTypedValuesAreCheckedInline() {
    FieldEditor* r = form_->fieldEditor("/parallel/adaptive_r");
    auto* combo = qobject_cast<QComboBox*>(r->editor());
    doc_->setText(R"({"moe": {"experts": 2}, "parallel": {"nproc": 8}})");
    combo->lineEdit()->clear();
    QTest::keyClicks(combo->lineEdit(), "3");  // not a divisor of the 4 shards
    QCOMPARE(doc_->config().parallel.adaptive_r, 3);
    QCOMPARE(r->problem(), QString(R"(must be "auto" or one of 0, 1, 2, 4 for 2 experts on 8 )"
                                   "ranks (each expert in 4 shards), got 3"));
    combo->lineEdit()->clear();
    QTest::keyClicks(combo->lineEdit(), "fast");
    QCOMPARE(r->problem(), QString(R"(expected an integer >= 0 or "auto", got "fast")"));
    combo->lineEdit()->clear();
    QTest::keyClicks(combo->lineEdit(), "2");
    QVERIFY(r->problem().isEmpty());
    QVERIFY(doc_->isValid());
  }

  void layoutProblemsShowUnderTheirFields() {
    doc_->setText(R"({"parallel": {"nproc": 3}, "train": {"batch_size": 2}})");
    QVERIFY(form_->fieldEditor("/moe/experts")->problem().contains("number of ranks (3)"));
    QCOMPARE(form_->fieldEditor("/train/batch_size")->problem(),
             QString("must be divisible by the number of ranks (3), got 2: more ranks than the "
                     "batch has rows"));
    doc_->setText(R"({"parallel": {"nodes": 2}})");
    QVERIFY(form_->fieldEditor("/parallel/nodes")->problem().contains("needs a cluster target"));
  }

  void syntaxErrorMakesTheFormReadOnly() {
    doc_->setText("{\"moe\": }");
    QVERIFY(!form_->fieldEditor("/moe/experts")->isEnabled());
    QVERIFY(form_->sectionProblem("").contains("line 1, column 9"));
    doc_->setText("{}");
    QVERIFY(form_->fieldEditor("/moe/experts")->isEnabled());
    QVERIFY(form_->sectionProblem("").isEmpty());
  }

 private:
  std::unique_ptr<ExperimentDocument> doc_;
  std::unique_ptr<ConfigForm> form_;
};

QTEST_MAIN(TestConfigForm)
#include "test_config_form.moc"
