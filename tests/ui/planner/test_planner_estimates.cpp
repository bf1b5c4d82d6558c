// The estimates panel's planner rows: the predicted step and memory per rank are moe_plan's own
// figures for the config's layout and the chosen profile (adaptive_r "auto": the best r), a
// config that does not fit says so in red, the profile choice persists in QSettings and reaches
// every view, and a bad profile file shows the loader's error.
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QPointer>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "base/experiment/experiment_document.h"
#include "base/planner/plan_model.h"
#include "base/planner/planner_format.h"
#include "base/planner/planner_profile_choice.h"
#include "experiment/estimates_panel.h"
#include "planner/planner_profile_combo.h"
#include "planner/scaling_view.h"

using namespace moe::ui;
using moe::plan::HardwareProfile;
using moe::plan::load_profile;

namespace {

// A small lm on 4 ranks: every figure of the prediction is non-zero.
nlohmann::json smallLm() {
  return nlohmann::json::parse(R"({
    "model": {"kind": "lm", "dim": 64, "layers": 2, "heads": 4, "seq_len": 64, "vocab": 256},
    "moe": {"experts": 8, "top_k": 2, "hidden": 128},
    "train": {"batch_size": 16},
    "parallel": {"nproc": 4}
  })");
}

// Experts far beyond an A100's 80 GB on one rank.
nlohmann::json hugeExperts() {
  return nlohmann::json::parse(R"({
    "model": {"kind": "lm", "dim": 8192, "layers": 16, "heads": 64, "seq_len": 2048,
              "vocab": 32000},
    "moe": {"experts": 64, "top_k": 2, "hidden": 32768},
    "train": {"batch_size": 8}
  })");
}

}  // namespace

class TestPlannerEstimates : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void init() {
    QSettings().remove(PlannerProfileChoice::kSettingsKey);
    QFile::remove(PlannerProfileChoice::thisMachinePath());
    document_ = std::make_unique<ExperimentDocument>();
    document_->setValidateOptions({/*check_files=*/false});
    document_->reset(smallLm());
    panel_ = std::make_unique<EstimatesPanel>(document_.get());
    QTRY_VERIFY(panel_->profileChoice()->profile().has_value());
  }

  void cleanup() {
    panel_.reset();
    document_.reset();
  }

  void stepAndMemoryAreTheLibrarysPrediction() {
    QCOMPARE(panel_->profileChoice()->choice(), QString("h100-sxm"));
    const HardwareProfile profile = load_profile("h100-sxm");
    for (int nproc : {4, 2}) {
      document_->setValue("/parallel/nproc", nproc);
      const auto& c = document_->config();
      const auto p = moe::plan::predict(c, moe::plan::config_layout(c), profile);
      QVERIFY(p.step_ms > 0 && p.fits);
      QCOMPARE(panel_->valueText("step"),
               formatStepTime(p.step_ms) + " · " + formatTokensPerSecond(p.tokens_per_s));
      const QString tip = panel_->valueToolTip("step");
      QVERIFY2(tip.contains("compute " + formatStepTime(p.compute_ms)), qPrintable(tip));
      QVERIFY(tip.contains("all-to-all " + formatStepTime(p.a2a_ms)));
      QVERIFY(tip.contains("all-reduce " + formatStepTime(p.allreduce_ms)));
      const QString memory = panel_->valueText("memory_per_rank");
      QVERIFY2(memory.startsWith(formatMemory(p.memory_bytes) + " of " +
                                 formatMemory(profile.device.memory_bytes)),
               qPrintable(memory));
      QVERIFY(memory.contains(QString::fromStdString(profile.device.name)));
      QVERIFY(!memory.contains("does not fit"));
      QVERIFY(panel_->isRowVisible("step") && panel_->isRowVisible("memory_per_rank"));
    }
  }

  void autoRTakesTheBestR() {
    document_->setValue("/parallel/adaptive_r", "auto");
    const auto& c = document_->config();
    const auto layout = moe::plan::config_layout(c);
    const auto best = moe::plan::best_of(
        moe::plan::layouts_for(c, layout.nodes, layout.nproc_per_node, load_profile("h100-sxm")));
    QVERIFY(best.has_value());
    const QString text = panel_->valueText("step");
    QVERIFY2(text.startsWith(formatStepTime(best->prediction.step_ms) + " · " +
                             formatTokensPerSecond(best->prediction.tokens_per_s)),
             qPrintable(text));
    QVERIFY2(text.contains(QString("auto → r=%1").arg(best->layout.r)), qPrintable(text));
  }

  void aConfigThatDoesNotFitIsRed() {
    panel_->profileChoice()->setChoice("a100-sxm");
    QTRY_VERIFY(panel_->profileChoice()->profile() &&
                panel_->profileChoice()->profile()->name == load_profile("a100-sxm").name);
    document_->reset(hugeExperts());
    const HardwareProfile a100 = load_profile("a100-sxm");
    const auto& c = document_->config();
    const auto p = moe::plan::predict(c, moe::plan::config_layout(c), a100);
    QVERIFY(!p.fits);
    const QString memory = panel_->valueText("memory_per_rank");
    const QString warning =
        QString("does not fit on %1 (%2 of %3)")
            .arg(QString::fromStdString(a100.device.name), formatMemory(p.memory_bytes),
                 formatMemory(a100.device.memory_bytes))
            .toHtmlEscaped();
    QVERIFY2(memory.contains(warning), qPrintable(memory));
    QVERIFY(memory.contains("color:#c82828"));
    // With MOE_SCREENSHOT_DIR set: the panel as it looks then, to check by eye.
    const QString shots = qEnvironmentVariable("MOE_SCREENSHOT_DIR");
    if (!shots.isEmpty()) {
      panel_->resize(520, panel_->sizeHint().height());
      QVERIFY(panel_->grab().save(QDir(shots).filePath("estimates-no-fit.png")));
    }
  }

  void theChoicePersistsAndReachesEveryView() {
    PlannerProfileChoice other;
    QSignalSpy changed(&other, &PlannerProfileChoice::changed);
    panel_->profileChoice()->setChoice("h200-sxm+ib-hdr");
    QCOMPARE(QSettings().value(PlannerProfileChoice::kSettingsKey).toString(),
             QString("h200-sxm+ib-hdr"));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(other.choice(), QString("h200-sxm+ib-hdr"));
    QCOMPARE(PlannerProfileChoice().choice(), QString("h200-sxm+ib-hdr"));
    QTRY_VERIFY(other.profile() && other.profile()->name == load_profile("h200-sxm+ib-hdr").name);
    // The combo shows it, as an entry of its own (not a shipped name).
    QCOMPARE(panel_->profileCombo()->currentData().toString(), QString("h200-sxm+ib-hdr"));
    panel_->profileChoice()->setChoice("");  // back to the default
    QVERIFY(!QSettings().contains(PlannerProfileChoice::kSettingsKey));
    QCOMPARE(other.choice(), QString("h100-sxm"));
  }

  void thisMachinesFileIsTheDefaultAndListed() {
    const QString path = PlannerProfileChoice::thisMachinePath();
    QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
    HardwareProfile measured = load_profile("h200-sxm");
    measured.name = "this machine";
    measured.device.name = "Test GPU (measured)";
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray::fromStdString(moe::plan::profile_json(measured)));
    file.close();
    QCOMPARE(PlannerProfileChoice::currentChoice(), path);
    PlannerProfileCombo combo(panel_->profileChoice());
    QTRY_VERIFY(combo.isFilled());
    QCOMPARE(combo.currentData().toString(), path);
    QCOMPARE(combo.currentText(), QString("This machine (measured)"));
    for (const std::string& name : moe::plan::shipped_profile_names())
      QVERIFY(combo.findData(QString::fromStdString(name)) >= 0);
    panel_->profileChoice()->load();
    QTRY_VERIFY(panel_->profileChoice()->profile() &&
                panel_->profileChoice()->profile()->device.name == "Test GPU (measured)");
    QFile::remove(path);
  }

  // "Scaling…" opens one view of the document's config, which follows the edits.
  void theScalingViewFollowsTheDocument() {
    ScalingView* view = panel_->showScaling();
    QVERIFY(view && view->isWindow());
    QCOMPARE(panel_->showScaling(), view);
    QTRY_VERIFY(!view->points().empty());
    auto worlds = [view] {
      std::vector<int64_t> out;
      for (const auto& p : view->points()) out.push_back(p.world);
      return out;
    };
    auto expected = [this] {
      std::vector<int64_t> out;
      for (const auto& p : moe::plan::scaling_table(document_->config(), load_profile("h100-sxm"),
                                                    ScalingView::kMaxRanks))
        if (out.empty() || out.back() != p.layout.world()) out.push_back(p.layout.world());
      return out;
    };
    QCOMPARE(worlds(), expected());
    document_->setValue("/train/batch_size", 4);  // 4 samples: at most 4 ranks
    QCOMPARE(worlds(), expected());
    QCOMPARE(worlds().back(), int64_t(4));
    QPointer<ScalingView> closed = view;
    view->close();  // deleted on close; the next press opens a new one
    QTRY_VERIFY(closed.isNull());
    ScalingView* again = panel_->showScaling();
    QVERIFY(again && again->isVisible());
  }

  void aBadProfileFileShowsItsError() {
    QTemporaryDir dir;
    const QString path = dir.filePath("broken.json");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{ \"schema\": 1, \"kind\": \"device\", \"name\": ");
    file.close();
    QString expected;
    try {
      load_profile(path.toStdString());
    } catch (const std::exception& e) {
      expected = QString::fromStdString(e.what());
    }
    QVERIFY(!expected.isEmpty());
    panel_->profileChoice()->setChoice(path);
    QTRY_COMPARE(panel_->profileError(), expected);
    QVERIFY(!panel_->profileChoice()->profile().has_value());
    QCOMPARE(panel_->valueText("step"), QString("—"));
    QCOMPARE(panel_->valueText("memory_per_rank"), QString("—"));
    // Picking a shipped profile again clears it.
    panel_->profileChoice()->setChoice("h100-sxm");
    QTRY_VERIFY(panel_->profileError().isEmpty());
    QVERIFY(panel_->valueText("step").contains("tokens/s"));
  }

 private:
  std::unique_ptr<ExperimentDocument> document_;
  std::unique_ptr<EstimatesPanel> panel_;
};

QTEST_MAIN(TestPlannerEstimates)
#include "test_planner_estimates.moc"
