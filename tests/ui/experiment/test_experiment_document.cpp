// ExperimentDocument: parsing, problems, canonical text, syntax errors, save/open round trip.
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "base/experiment/experiment_document.h"
#include "protocol/run_config.h"

using moe::ui::ExperimentDocument;
using nlohmann::json;

namespace {

bool hasProblem(const ExperimentDocument& doc, const std::string& pointer) {
  for (const auto& p : doc.problems()) {
    if (p.pointer == pointer) return true;
  }
  return false;
}

}  // namespace

class TestExperimentDocument : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    // File checks depend on the machine; these tests are about the document.
    doc_ = std::make_unique<ExperimentDocument>();
    doc_->setValidateOptions({/*check_files=*/false});
  }

  void startsWithTheDefaultConfigInSpecOrder() {
    QVERIFY(doc_->isValid());
    QVERIFY(!doc_->isModified());
    const QString expected =
        QString::fromStdString(moe::protocol::to_ordered_json(moe::protocol::RunConfig{}).dump(2));
    QCOMPARE(doc_->text(), expected);
    QVERIFY(doc_->text().indexOf("\"schema\"") < doc_->text().indexOf("\"model\""));
  }

  void setValueRewritesTextAndValidates() {
    QSignalSpy text(doc_.get(), &ExperimentDocument::textChanged);
    QSignalSpy content(doc_.get(), &ExperimentDocument::contentChanged);
    doc_->setValue("/moe/top_k", 9);
    QCOMPARE(text.count(), 1);
    QCOMPARE(content.count(), 1);
    QVERIFY(doc_->isModified());
    QCOMPARE(doc_->config().moe.top_k, 9);
    QVERIFY(hasProblem(*doc_, "/moe/top_k"));
    QVERIFY(doc_->text().contains("\"top_k\": 9"));
    doc_->setValue("/moe/top_k", 2);
    QVERIFY(doc_->isValid());
    // The same value again changes nothing.
    doc_->setValue("/moe/top_k", 2);
    QCOMPARE(text.count(), 2);
  }

  void setTextKeepsTheTextAsTyped() {
    const QString typed = R"({"moe": {"experts": 4, "top_k": 3}})";
    doc_->setText(typed);
    QCOMPARE(doc_->text(), typed);
    QCOMPARE(doc_->config().moe.experts, 4);
    QCOMPARE(doc_->config().moe.top_k, 3);
    QVERIFY(doc_->isValid());
  }

  void syntaxErrorKeepsTextAndLastGoodConfig() {
    doc_->setText(R"({"moe": {"experts": 4}})");
    const QString broken = "{\n  \"moe\": {\"experts\": 4,,}\n}";
    doc_->setText(broken);
    QCOMPARE(doc_->text(), broken);
    QVERIFY(doc_->hasSyntaxError());
    QVERIFY(!doc_->isValid());
    QCOMPARE(doc_->syntaxError()->line, 2);
    QCOMPARE(doc_->syntaxError()->column, 24);  // the second ,
    QCOMPARE(doc_->config().moe.experts, 4);
    // The form cannot overwrite the text while it does not parse.
    doc_->setValue("/moe/experts", 16);
    QCOMPARE(doc_->text(), broken);
    doc_->setText(R"({"moe": {"experts": 16}})");
    QVERIFY(!doc_->hasSyntaxError());
    QCOMPARE(doc_->config().moe.experts, 16);
  }

  void syntaxErrorColumnCountsCharactersNotBytes() {
    doc_->setText("{\"name\": \"été\" x}");
    QVERIFY(doc_->hasSyntaxError());
    QCOMPARE(doc_->syntaxError()->line, 1);
    QCOMPARE(doc_->syntaxError()->column, 16);
  }

  void canonicalTextKeepsUnknownKeysAndBadValues() {
    doc_->setText(R"({"moe": {"expertz": 3, "hidden": "big"}, "extra": true})");
    QVERIFY(hasProblem(*doc_, "/moe/expertz"));
    QVERIFY(hasProblem(*doc_, "/moe/hidden"));
    doc_->setValue("/moe/top_k", 1);
    const json j = json::parse(doc_->text().toStdString());
    QCOMPARE(j["moe"]["expertz"], json(3));
    QCOMPARE(j["moe"]["hidden"], json("big"));
    QCOMPARE(j["extra"], json(true));
    QCOMPARE(j["moe"]["top_k"], json(1));
    QVERIFY(j.contains("telemetry"));  // every key, resolved
    // Unknown keys come after the known ones of their object.
    QVERIFY(doc_->text().indexOf("\"expertz\"") > doc_->text().indexOf("\"bias_balancing\""));
  }

  void setValueCreatesMissingSections() {
    doc_->setText("{}");
    doc_->setValue("/moe/bias_balancing/rate", 0.5);
    QCOMPARE(doc_->json()["moe"]["bias_balancing"]["rate"], json(0.5));
    QCOMPARE(doc_->config().moe.bias_balancing.rate, 0.5);
  }

  void checkFilesFollowsTheOption() {
    doc_->setText(R"({"model": {"kind": "image"}, "data": {"kind": "idx", "path": "/no/such"}})");
    QVERIFY(doc_->isValid());
    doc_->setValidateOptions({/*check_files=*/true});
    QVERIFY(hasProblem(*doc_, "/data/path"));
  }

  void nodesAboveOneCannotRunLocally() {
    doc_->setValue("/parallel/nodes", 2);
    QVERIFY(!doc_->isValid());
    QCOMPARE(doc_->problems().size(), size_t(1));
    QCOMPARE(doc_->problems()[0].pointer, std::string("/parallel/nodes"));
    QCOMPARE(doc_->problems()[0].message,
             std::string("parallel.nodes > 1 needs a cluster target: a local run starts every "
                         "rank on this machine, got 2"));
    // In key order with the validator's problems.
    doc_->setValue("/model/dim", 7);
    doc_->setValue("/train/steps", 0);
    std::vector<std::string> pointers;
    for (const auto& p : doc_->problems()) pointers.push_back(p.pointer);
    QCOMPARE(pointers, (std::vector<std::string>{"/model/dim", "/parallel/nodes", "/train/steps"}));
    doc_->setValue("/parallel/nodes", 1);
    doc_->setValue("/model/dim", 8);
    doc_->setValue("/train/steps", 10);
    QVERIFY(doc_->isValid());
  }

  void saveAndOpenRoundTrip() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    doc_->setText(R"({"name": "round-trip", "moe": {"experts": 16, "top_k": 4}})");
    const QString path = dir.filePath("exp.json");
    QString error;
    QSignalSpy file(doc_.get(), &ExperimentDocument::fileChanged);
    QVERIFY2(doc_->save(path, &error), qPrintable(error));
    QCOMPARE(file.count(), 1);
    QVERIFY(!doc_->isModified());
    QCOMPARE(doc_->filePath(), path);
    QCOMPARE(doc_->displayName(), QString("exp.json"));
    // The file is the resolved config the engine reads, and the view shows just that.
    const auto loaded = moe::protocol::load_config_file(path.toStdString());
    QCOMPARE(loaded.moe.experts, 16);
    QCOMPARE(loaded.name, std::string("round-trip"));
    QCOMPARE(doc_->text() + "\n", [&] {
      QFile f(path);
      f.open(QIODevice::ReadOnly);
      return QString::fromUtf8(f.readAll());
    }());

    ExperimentDocument other;
    QVERIFY2(other.open(path, &error), qPrintable(error));
    QCOMPARE(other.text(), doc_->text());
    QCOMPARE(other.config().moe.top_k, 4);
    QVERIFY(!other.isModified());
    QCOMPARE(other.filePath(), path);
  }

  void saveRefusesASyntaxError() {
    QTemporaryDir dir;
    doc_->setText("{\"moe\": ");
    QString error;
    QVERIFY(!doc_->save(dir.filePath("x.json"), &error));
    QVERIFY(error.contains("line 1"));
    QVERIFY(!QFile::exists(dir.filePath("x.json")));
  }

  void saveKeepsWhatDoesNotParse() {
    QTemporaryDir dir;
    doc_->setText(R"({"moe": {"experts": "eight"}})");
    QString error;
    const QString path = dir.filePath("x.json");
    QVERIFY2(doc_->save(path, &error), qPrintable(error));
    const json j = moe::protocol::read_config_json_file(path.toStdString());
    QCOMPARE(j["moe"]["experts"], json("eight"));
  }

  void openKeepsAFileWithASyntaxError() {
    QTemporaryDir dir;
    const QString path = dir.filePath("broken.json");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\n  \"name\": \"x\"\n  \"seed\": 2\n}\n");
    f.close();
    QString error;
    QVERIFY(doc_->open(path, &error));
    QVERIFY(doc_->hasSyntaxError());
    QCOMPARE(doc_->syntaxError()->line, 3);
    QVERIFY(doc_->text().contains("\"seed\": 2"));
    QVERIFY(!doc_->open(dir.filePath("missing.json"), &error));
    QVERIFY(error.contains("missing.json"));
  }

  void templateHasNoFilePath() {
    QTemporaryDir dir;
    const QString path = dir.filePath("my-preset.json");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"name": "p", "moe": {"experts": 4}})");
    f.close();
    QString error;
    QVERIFY(doc_->open(path, &error, /*as_template=*/true));
    QVERIFY(doc_->filePath().isEmpty());
    QCOMPARE(doc_->displayName(), QString("my-preset (preset)"));
    QVERIFY(doc_->text().contains("\"telemetry\""));  // shown resolved
  }

 private:
  std::unique_ptr<ExperimentDocument> doc_;
};

QTEST_GUILESS_MAIN(TestExperimentDocument)
#include "test_experiment_document.moc"
