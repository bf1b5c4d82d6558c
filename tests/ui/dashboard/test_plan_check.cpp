// The dashboard's "Predicted vs measured" page over real runs: moe-train trains a one-process run
// and a two-process run (moe-train launch, adaptive_r "auto"), the dashboard replays each
// metrics.jsonl, and the page's figures are checked against what the file holds: the measured
// median step time and phase medians after the warm-up, the slowest rank's medians, and the
// planner's own predict() on the run's config and layout for the profile stored in the test's
// QSettings; the shares of each bar sum to 1; another profile recomputes; the calibration hint
// shows for a shipped GPU profile against a CPU run, not for this machine's profile measured by
// moe-train bench --calibrate.
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <variant>

#include <qcustomplot.h>

#include "base/planner/planner_format.h"
#include "base/planner/planner_profile_choice.h"
#include "dashboard/plan_check_page.h"
#include "dashboard/run_dashboard.h"
#include "protocol/telemetry_reader.h"
#include "widgets/phase_breakdown_plot.h"

using namespace moe::ui;
namespace plan = moe::plan;
namespace protocol = moe::protocol;

namespace {

constexpr int kRunTimeoutMs = 300000;  // two shared cores: be patient
constexpr int kWaitMs = 20000;

// 40 steps: the warm-up is the first 10 %, steps 1-4.
const QByteArray kOneProcessConfig =
    R"({"name":"plan-check-1","model":{"kind":"lm","dim":32,"layers":2,"heads":2,"seq_len":16},)"
    R"("moe":{"experts":4,"hidden":32},"train":{"steps":40,"batch_size":8,"threads":1}})";
// 24 steps: the warm-up is at least 3 steps; adaptive_r "auto" decides during the run.
const QByteArray kTwoRankConfig =
    R"({"name":"plan-check-2","model":{"kind":"helloworld","dim":32,"seq_len":16},)"
    R"("moe":{"experts":4,"top_k":2,"hidden":32},"train":{"steps":24,"batch_size":8,"threads":1},)"
    R"("parallel":{"nproc":2,"adaptive_r":"auto"}})";

// What metrics.jsonl says, read here without the dashboard.
struct FileRun {
  protocol::RunStartEvent start;
  std::vector<protocol::StepEvent> steps;
  std::vector<protocol::PhasesEvent> phases;
  std::vector<protocol::RanksEvent> ranks;
  std::vector<protocol::AdaptiveREvent> decisions;
};

FileRun readRun(const QString& run_dir) {
  FileRun run;
  QFile file(QDir(run_dir).filePath("metrics.jsonl"));
  if (!file.open(QIODevice::ReadOnly)) return run;
  const QByteArray bytes = file.readAll();
  protocol::TelemetryReader reader;
  auto events = reader.feed(std::string_view(bytes.constData(), size_t(bytes.size())));
  for (auto& e : reader.finish()) events.push_back(std::move(e));
  for (const auto& e : events) {
    if (const auto* s = std::get_if<protocol::RunStartEvent>(&e)) run.start = *s;
    if (const auto* s = std::get_if<protocol::StepEvent>(&e)) run.steps.push_back(*s);
    if (const auto* p = std::get_if<protocol::PhasesEvent>(&e)) run.phases.push_back(*p);
    if (const auto* r = std::get_if<protocol::RanksEvent>(&e)) run.ranks.push_back(*r);
    if (const auto* a = std::get_if<protocol::AdaptiveREvent>(&e)) run.decisions.push_back(*a);
  }
  return run;
}

// The textbook median: sort, the middle one, or the mean of the two middle ones.
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The planner's prediction for the run as the file describes it, on `profile`.
plan::StepPrediction expectedPrediction(const FileRun& run, const plan::HardwareProfile& profile) {
  const protocol::RunConfig config = protocol::config_from_json(run.start.config);
  plan::Layout layout;
  layout.nodes = config.parallel.nodes;
  layout.nproc_per_node = run.start.world_size / config.parallel.nodes;
  layout.overlap = config.parallel.a2a_overlap_degree;
  layout.r = config.parallel.adaptive_r == protocol::kAdaptiveRAuto
                 ? (run.decisions.empty() ? 1 : run.decisions.back().r)
                 : config.parallel.adaptive_r;
  return plan::predict(config, layout, profile);
}

double barSum(const PlanCheckPage* page, double key) {
  double sum = 0;
  for (QCPBars* bars : page->shareBars()) {
    auto it = bars->data()->findBegin(key, false);
    if (it != bars->data()->constEnd() && it->key == key) sum += it->value;
  }
  return sum;
}

}  // namespace

class TestPlanCheck : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;
  QString one_dir_, two_dir_;
  QString calibrated_;  // this machine's profile, measured by moe-train bench --calibrate

  QString path(const QString& name) const { return dir_.filePath(name); }

  bool train(const QStringList& arguments) {
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(MOE_TRAIN_BIN, arguments);
    const bool finished = process.waitForFinished(kRunTimeoutMs);
    if (!finished) process.kill();
    process.waitForFinished(1000);
    const bool ok =
        finished && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
    if (!ok) qWarning().noquote() << process.readAll();
    return ok;
  }

  bool writeFile(const QString& name, const QByteArray& bytes) {
    QFile file(path(name));
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
  }

  // The run's dashboard on the Predicted vs measured page, once the page has a prediction.
  std::unique_ptr<RunDashboard> openOnPage(const QString& run_dir) {
    std::unique_ptr<RunDashboard> dashboard(RunDashboard::replay(run_dir));
    QSignalSpy done(dashboard.get(), &RunDashboard::replayFinished);
    if (!done.wait(kWaitMs)) return nullptr;
    dashboard->refresh();
    dashboard->pages()->setCurrentWidget(dashboard->planCheck());
    PlanCheckPage* page = dashboard->planCheck();
    if (!QTest::qWaitFor([page] { return page->result().predicted.has_value(); }, kWaitMs))
      return nullptr;
    return dashboard;
  }

  // The checks every run gets: the measured figures from the file, the prediction from predict().
  void checkFigures(const PlanCheckPage* page, const FileRun& run, int64_t warmup,
                    const QString& profile_name) {
    const PlanCheckResult& r = page->result();
    QCOMPARE(r.measured.warmup, warmup);
    std::vector<double> step_ms;
    for (const auto& s : run.steps)
      if (s.step > warmup) step_ms.push_back(s.step_ms);
    QVERIFY(step_ms.size() >= 10);
    QCOMPARE(r.measured.steps, step_ms.size());
    QCOMPARE(r.measured.step_ms, median(step_ms));

    // Each phase's median over the same steps.
    std::map<std::string, std::vector<double>> phase_ms;
    for (const auto& p : run.phases)
      if (p.step > warmup)
        for (const auto& [name, ms] : p.ms) phase_ms[name].push_back(ms);
    QCOMPARE(r.measured.phase_ms.size(), phase_ms.size());
    for (const auto& [name, ms] : r.measured.phase_ms) {
      QVERIFY2(phase_ms.count(name), name.c_str());
      QCOMPARE(ms, median(phase_ms[name]));
    }

    const plan::StepPrediction expected =
        expectedPrediction(run, plan::load_profile(profile_name.toStdString()));
    QCOMPARE(r.profile, profile_name);
    QVERIFY(r.predicted);
    QCOMPARE(r.predicted->step_ms, expected.step_ms);
    QVERIFY(r.predicted->phases_ms == expected.phases_ms);
    QCOMPARE(page->findChild<QLabel*>("measuredStep")->text(), formatStepTime(median(step_ms)));
    QCOMPARE(page->findChild<QLabel*>("predictedStep")->text(), formatStepTime(expected.step_ms));
    const double error = expected.step_ms / median(step_ms) - 1;
    QVERIFY2(page->findChild<QLabel*>("predictionError")
                 ->text()
                 .endsWith(QString::number(std::fabs(error) * 100, 'f', 1) + " %"),
             qPrintable(page->findChild<QLabel*>("predictionError")->text()));

    // Shares: each bar sums to 100 %, and the measured ones are the medians' shares.
    double measured_sum = 0;
    for (const auto& [name, share] : phaseShares(r.measured.phase_ms)) measured_sum += share;
    QCOMPARE(measured_sum, 1.0);
    QCOMPARE(barSum(page, 0), 100.0);
    QCOMPARE(barSum(page, 1), 100.0);
    for (QCPBars* bars : page->shareBars())
      QCOMPARE(bars->brush().color(), PhaseBreakdownPlot::phaseColor(bars->name().toStdString()));
    // Hovering a bar lists its phases with their milliseconds.
    const QString measured_tip = page->tooltipAt(1), predicted_tip = page->tooltipAt(0);
    QVERIFY(measured_tip.startsWith("Measured: " + formatStepTime(median(step_ms))));
    QVERIFY(predicted_tip.startsWith("Predicted: " + formatStepTime(expected.step_ms)));
    for (const auto& [name, ms] : r.measured.phase_ms)
      QVERIFY(measured_tip.contains(QString("\n%1  %2 (").arg(name.c_str(), formatStepTime(ms))));
    QCOMPARE(page->tooltipAt(0.5), QString());
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    // Settings and this machine's profile file live in the test's own directory.
    qputenv("XDG_DATA_HOME", path("home/data").toUtf8());
    qputenv("XDG_CONFIG_HOME", path("home/config").toUtf8());
    QVERIFY(writeFile("one.json", kOneProcessConfig));
    QVERIFY(writeFile("two.json", kTwoRankConfig));
    one_dir_ = path("one-process");
    two_dir_ = path("two-ranks");
    QVERIFY(train({"run", "--config", path("one.json"), "--run-dir", one_dir_}));
    QVERIFY(train({"launch", "--nproc-per-node", "2", "--", "run", "--config", path("two.json"),
                   "--run-dir", two_dir_}));
    calibrated_ = path("this-machine.json");
    QVERIFY(train({"bench", "--calibrate", "--quick", "--nproc", "2", "--config", path("two.json"),
                   "--json", calibrated_}));
  }

  void init() {
    QSettings settings;
    settings.clear();
    settings.setValue(PlannerProfileChoice::kSettingsKey, "a100-sxm");
  }

  void oneProcessRun() {
    const FileRun run = readRun(one_dir_);
    QCOMPARE(run.start.world_size, int64_t{1});
    auto dashboard = openOnPage(one_dir_);
    QVERIFY(dashboard);
    PlanCheckPage* page = dashboard->planCheck();
    QCOMPARE(dashboard->pages()->tabText(dashboard->pages()->indexOf(page)),
             QString("Predicted vs measured"));
    checkFigures(page, run, 4, "a100-sxm");
    QVERIFY(!page->result().measured.slowest);
    QVERIFY(!page->ranksTable()->isVisibleTo(page));
    // A shipped GPU profile against a CPU run: the hint to calibrate.
    QCOMPARE(QString::fromStdString(run.start.device), QString("cpu"));
    QVERIFY(page->result().cpu_hint);
    QVERIFY(page->calibrateHint()->isVisibleTo(page));
    QVERIFY(page->calibrateHint()->text().contains("moe-train bench --calibrate --json FILE"));
  }

  void anotherProfileRecomputes() {
    const FileRun run = readRun(one_dir_);
    auto dashboard = openOnPage(one_dir_);
    QVERIFY(dashboard);
    PlanCheckPage* page = dashboard->planCheck();
    const double before = page->result().predicted->step_ms;

    // A shipped profile with another network: still a GPU's.
    page->profileChoice()->setChoice("h100-sxm+ib-hdr");
    QVERIFY(QTest::qWaitFor(
        [page] { return page->result().profile == "h100-sxm+ib-hdr" && page->result().predicted; },
        kWaitMs));
    checkFigures(page, run, 4, "h100-sxm+ib-hdr");
    QVERIFY(page->result().predicted->step_ms != before);
    QVERIFY(page->calibrateHint()->isVisibleTo(page));

    // This machine's measured profile (`bench --calibrate`): no hint.
    const QString file = calibrated_;
    page->profileChoice()->setChoice(file);
    QVERIFY(QTest::qWaitFor(
        [page, file] { return page->result().profile == file && page->result().predicted; },
        kWaitMs));
    checkFigures(page, run, 4, file);
    QVERIFY(!page->result().cpu_hint);
    QVERIFY(!page->calibrateHint()->isVisibleTo(page));
  }

  void twoRankRun() {
    const FileRun run = readRun(two_dir_);
    QCOMPARE(run.start.world_size, int64_t{2});
    QVERIFY(!run.ranks.empty());
    auto dashboard = openOnPage(two_dir_);
    QVERIFY(dashboard);
    PlanCheckPage* page = dashboard->planCheck();
    checkFigures(page, run, 3, "a100-sxm");

    const RunLayout& layout = page->result().layout;
    QCOMPARE(layout.layout.nodes, int64_t{1});
    QCOMPARE(layout.layout.nproc_per_node, int64_t{2});
    QVERIFY(layout.auto_r);
    QVERIFY(!run.decisions.empty());
    QCOMPARE(layout.layout.r, run.decisions.back().r);
    QVERIFY(layout.decided_at == std::optional<int64_t>(run.decisions.back().step));

    // The slowest rank (highest median step time after the warm-up) and its medians; the series
    // keeps rank figures as floats.
    struct Figures {
      std::vector<double> step, compute, a2a, allreduce;
    };
    std::map<int64_t, Figures> by_rank;
    for (const auto& e : run.ranks) {
      if (e.step <= 3) continue;
      for (const auto& f : e.ranks) {
        Figures& r = by_rank[f.rank];
        r.step.push_back(static_cast<float>(f.step_ms));
        r.compute.push_back(static_cast<float>(f.compute_ms));
        r.a2a.push_back(static_cast<float>(f.a2a_ms));
        r.allreduce.push_back(static_cast<float>(f.allreduce_ms));
      }
    }
    QCOMPARE(by_rank.size(), size_t{2});
    const auto slowest = std::max_element(by_rank.begin(), by_rank.end(), [](auto& a, auto& b) {
      return median(a.second.step) < median(b.second.step);
    });
    const auto& measured = page->result().measured.slowest;
    QVERIFY(measured);
    QCOMPARE(measured->rank, slowest->first);
    QCOMPARE(measured->step_ms, median(slowest->second.step));
    QCOMPARE(measured->compute_ms, median(slowest->second.compute));
    QCOMPARE(measured->a2a_ms, median(slowest->second.a2a));
    QCOMPARE(measured->allreduce_ms, median(slowest->second.allreduce));

    // The table: predicted beside measured, per part of the step.
    const plan::StepPrediction expected = expectedPrediction(run, plan::load_profile("a100-sxm"));
    QTableWidget* table = page->ranksTable();
    QVERIFY(table->isVisibleTo(page));
    const double predicted[4] = {expected.step_ms, expected.compute_ms, expected.a2a_ms,
                                 expected.allreduce_ms};
    const double measured_ms[4] = {measured->step_ms, measured->compute_ms, measured->a2a_ms,
                                   measured->allreduce_ms};
    for (int row = 0; row < 4; ++row) {
      QCOMPARE(table->item(row, 0)->text(), formatStepTime(predicted[row]));
      QCOMPARE(table->item(row, 1)->text(), formatStepTime(measured_ms[row]));
    }

    // The picture for docs/screenshots/plan_check.png, when asked for: on this machine's
    // measured profile, as the page suggests for a CPU run.
    const QByteArray shots = qgetenv("MOE_SCREENSHOT_DIR");
    if (!shots.isEmpty()) {
      page->profileChoice()->setChoice(calibrated_);
      QVERIFY(QTest::qWaitFor(
          [&] { return page->result().profile == calibrated_ && page->result().predicted; },
          kWaitMs));
      dashboard->resize(1100, 820);
      dashboard->show();
      QVERIFY(QTest::qWaitForWindowExposed(dashboard.get()));
      dashboard->refresh();
      QTest::qWait(300);
      QVERIFY(dashboard->grab().save(QDir(QString::fromUtf8(shots)).filePath("plan_check.png")));
    }
  }
};

QTEST_MAIN(TestPlanCheck)
#include "test_plan_check.moc"
