// The What-if view over a real run's capture and the real `moe-train replay --serve`: its numbers
// are those of a one-shot `moe-train replay` of the same setting, a change of setting redraws the
// bars, a drag is coalesced, a refused setting and a crashed server are reported (and the server
// starts again), a file whose names carry a prefix opens, and closing the view ends the process.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QTemporaryDir>

#include <csignal>
#include <memory>

#include "base/whatif/replay_server.h"
#include "safetensors_test_file.h"
#include "whatif/routing_bars.h"
#include "whatif/routing_metrics_table.h"
#include "whatif/whatif_controls.h"
#include "whatif/whatif_view.h"
#include "whatif_test_run.h"

using namespace moe::ui;

namespace {

// helloworld: N = batch_size x seq_len = 128 tokens of dim 32 over 8 experts.
const QByteArray kConfig =
    R"({"name":"whatif-test","model":{"kind":"helloworld","dim":32,"seq_len":16},)"
    R"("moe":{"experts":8,"hidden":32,"top_k":2,"capacity_factor":1.0},)"
    R"("train":{"steps":4,"batch_size":8,"threads":1},"telemetry":{"capture_every":2}})";

struct OneShot {
  std::vector<double> counts, kept;
  double capacity = -1, l_aux = 0;
  QString error;
};

}  // namespace

class TestWhatIfView : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;
  QString run_dir_, capture_;
  int replays_ = 0;

  std::unique_ptr<WhatIfView> openView(const QString& tensors, const QString& prefix = {},
                                       const QString& program = QStringLiteral(MOE_TRAIN_BIN)) {
    WhatIfView::Options options;
    options.tensors = tensors;
    options.prefix = prefix;
    options.program = program;
    return std::make_unique<WhatIfView>(options);
  }

  // Waits until the view shows the what-if numbers of `setting`.
  static bool waitForWhatIf(const WhatIfView& view, const RoutingSetting& setting) {
    QElapsedTimer waited;
    waited.start();
    while (!(view.whatIfAnswer() && view.whatIfAnswerSetting() == setting)) {
      if (waited.elapsed() > moe::test::kEngineTimeoutMs) return false;
      QTest::qWait(10);
    }
    return true;
  }

  // `moe-train replay --config C --tensors F --out OUT` with the view's config under `setting`.
  OneShot oneShot(const WhatIfView& view, const RoutingSetting& setting,
                  const QString& prefix = {}) {
    OneShot out;
    nlohmann::json config = view.source()->config;
    const nlohmann::json keys = moeKeys(setting);
    for (const auto& [key, value] : keys.items()) config["moe"][key] = value;
    const QString name = dir_.filePath(QString("replay-%1").arg(++replays_));
    QFile file(name + ".json");
    if (!file.open(QIODevice::WriteOnly)) return out;
    file.write(QByteArray::fromStdString(config.dump()));
    file.close();
    QStringList args = {
        "replay", "--config",           name + ".json", "--tensors", view.source()->server_tensors,
        "--out",  name + ".safetensors"};
    if (!prefix.isEmpty()) args << "--prefix" << prefix;
    QProcess replay;
    replay.start(QStringLiteral(MOE_TRAIN_BIN), args);
    if (!replay.waitForFinished(moe::test::kEngineTimeoutMs) || replay.exitCode() != 0) {
      out.error = QString::fromUtf8(replay.readAllStandardError());
      return out;
    }
    auto tensors = moe::test::readSafetensors(name + ".safetensors");
    out.counts = moe::test::values(tensors["expert_counts"]);
    out.kept = moe::test::values(tensors["expert_kept"]);
    const auto capacity = moe::test::values(tensors["capacity"]);
    const auto l_aux = moe::test::values(tensors["l_aux"]);
    if (capacity.size() != 1 || l_aux.size() != 1) {
      out.error = "no capacity or l_aux in " + name + ".safetensors";
      return out;
    }
    out.capacity = capacity[0];
    out.l_aux = l_aux[0];
    return out;
  }

  static std::vector<double> asDoubles(const std::vector<int64_t>& v) {
    return std::vector<double>(v.begin(), v.end());
  }

  static std::vector<double> barValues(QCPBars* bars) {
    std::vector<double> out;
    for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
      out.push_back(it->value);
    return out;
  }

  // The answer, the bars and the table all say what the one-shot replay says.
  static void compareWithOneShot(const WhatIfView& view, const OneShot& expected) {
    QVERIFY2(expected.error.isEmpty(), qPrintable(expected.error));
    const ReplayAnswer& got = *view.whatIfAnswer();
    QCOMPARE(asDoubles(got.counts), expected.counts);
    QCOMPARE(asDoubles(got.kept), expected.kept);
    QCOMPARE(static_cast<double>(got.capacity), expected.capacity);
    QVERIFY2(std::abs(got.l_aux - expected.l_aux) <= 1e-5 * std::max(1.0, std::abs(expected.l_aux)),
             qPrintable(QString("l_aux %1 vs one-shot %2").arg(got.l_aux).arg(expected.l_aux)));
    QCOMPARE(barValues(view.whatIfBars()->keptBars()), expected.kept);
    std::vector<double> dropped;
    for (size_t e = 0; e < expected.counts.size(); ++e)
      dropped.push_back(expected.counts[e] - expected.kept[e]);
    QCOMPARE(barValues(view.whatIfBars()->droppedBars()), dropped);
    QCOMPARE(view.whatIfBars()->capacityLine()->data()->constBegin()->value, expected.capacity);
    QCOMPARE(view.metrics()->text(RoutingMetricsTable::kWhatIf, RoutingMetricsTable::kCapacity),
             QString::number(static_cast<qint64>(expected.capacity)));
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    QString error;
    run_dir_ = moe::test::runWithCaptures(dir_.path(), "run", kConfig, &error);
    QVERIFY2(!run_dir_.isEmpty(), qPrintable(error));
    capture_ = run_dir_ + "/captures/step-2/layer-0.safetensors";
    QVERIFY2(QFile::exists(capture_), qPrintable(capture_));
  }

  void theCapturedSideIsTheRunsSetting() {
    auto view = openView(capture_);
    QSignalSpy shown(view.get(), &WhatIfView::capturedShown);
    QVERIFY(shown.wait(moe::test::kEngineTimeoutMs));
    QVERIFY(view->source()->config_file.endsWith("/run/config.json"));
    QCOMPARE(view->source()->captured.capacity_factor, 1.0);
    QCOMPARE(view->source()->captured.top_k, 2);
    QCOMPARE(view->server()->experts(), 8);
    QCOMPARE(view->server()->tokens(), 128);
    QVERIFY2(view->headerText().contains("8 experts · 128 tokens · dim 32"),
             qPrintable(view->headerText()));
    QVERIFY(waitForWhatIf(*view, view->source()->captured));
    // Both sides route the same setting: the same numbers, no change.
    QCOMPARE(view->capturedAnswer()->counts, view->whatIfAnswer()->counts);
    QCOMPARE(view->metrics()->text(RoutingMetricsTable::kDelta, RoutingMetricsTable::kCv),
             QString("0.0000"));
    compareWithOneShot(*view, oneShot(*view, view->source()->captured));
  }

  void everySettingMatchesTheOneShotReplay() {
    auto view = openView(capture_);
    QSignalSpy loaded(view.get(), &WhatIfView::loaded);
    QVERIFY(loaded.wait(moe::test::kEngineTimeoutMs));
    RoutingSetting fewer;  // fixed capacity below the demand: drops
    fewer.capacity_factor = 0.5;
    fewer.top_k = 1;
    fewer.batch_prioritized_routing = true;
    RoutingSetting dropless;
    dropless.capacity_factor = 0;
    RoutingSetting capped;  // dropless up to a cap, three choices, gate values as they come
    capped.capacity_factor = -0.75;
    capped.top_k = 3;
    capped.normalize_gate = false;
    for (const RoutingSetting& s : {fewer, dropless, capped}) {
      view->controls()->setSetting(s);
      QCOMPARE(view->controls()->setting(), s);
      QVERIFY(waitForWhatIf(*view, s));
      compareWithOneShot(*view, oneShot(*view, s));
      if (QTest::currentTestFailed()) return;
    }
    // Dropless keeps every choice: capacity is the busiest expert's demand.
    view->controls()->setSetting(dropless);
    QVERIFY(waitForWhatIf(*view, dropless));
    const ReplayAnswer& a = *view->whatIfAnswer();
    QCOMPARE(a.dropped(), 0);
    QCOMPARE(a.capacity, *std::max_element(a.counts.begin(), a.counts.end()));
    QCOMPARE(view->controls()->capacityRegime(), QString("dropless"));
  }

  // Gate noise is drawn from the request's seed: the same seed routes the same, another differs.
  void gateNoiseFollowsItsSeed() {
    auto view = openView(capture_);
    QSignalSpy loaded(view.get(), &WhatIfView::loaded);
    QVERIFY(loaded.wait(moe::test::kEngineTimeoutMs));
    RoutingSetting noisy;
    noisy.gate_noise = 2.0;
    noisy.seed = 11;
    view->controls()->setSetting(noisy);
    QVERIFY(view->controls()->seedBox()->isEnabled());
    QVERIFY(waitForWhatIf(*view, noisy));
    const std::vector<int64_t> first = view->whatIfAnswer()->counts;
    QVERIFY(first != view->capturedAnswer()->counts);  // the captured side has no noise
    RoutingSetting other = noisy;
    other.seed = 12;
    view->controls()->setSetting(other);
    QVERIFY(waitForWhatIf(*view, other));
    QVERIFY(view->whatIfAnswer()->counts != first);
    view->controls()->setSetting(noisy);
    QVERIFY(waitForWhatIf(*view, noisy));
    QCOMPARE(view->whatIfAnswer()->counts, first);
    RoutingSetting capped;
    capped.capacity_factor = -1;
    view->controls()->setSetting(capped);
    QCOMPARE(view->controls()->capacityRegime(), QString("dropless up to a cap"));
    QVERIFY(!view->controls()->seedBox()->isEnabled());
  }

  // Moving the slider through 40 positions before the server can answer sends the first and the
  // last, not 40 requests.
  void aDragIsCoalesced() {
    auto view = openView(capture_);
    QSignalSpy captured(view.get(), &WhatIfView::capturedShown);
    QVERIFY(captured.wait(moe::test::kEngineTimeoutMs));
    QVERIFY(waitForWhatIf(*view, view->source()->captured));
    QSignalSpy answered(view->server(), &ReplayServer::answered);
    QSlider* slider = view->controls()->capacitySlider();
    for (int v = 1; v <= 40; ++v) slider->setValue(v);  // f = 0.05 … 2.0
    RoutingSetting last = view->source()->captured;
    last.capacity_factor = 2.0;
    QCOMPARE(view->controls()->setting(), last);
    QVERIFY(waitForWhatIf(*view, last));
    QVERIFY2(answered.count() <= 2, qPrintable(QString::number(answered.count())));
    QVERIFY(view->lastRoundTripMs() > 0);
    QVERIFY2(view->statusText().contains("ms after the change"), qPrintable(view->statusText()));
    compareWithOneShot(*view, oneShot(*view, last));
  }

  void aRefusedSettingIsShownAndTheServerGoesOn() {
    auto view = openView(capture_);
    QSignalSpy captured(view.get(), &WhatIfView::capturedShown);
    QVERIFY(captured.wait(moe::test::kEngineTimeoutMs));
    QSignalSpy rejected(view->server(), &ReplayServer::rejected);
    RoutingSetting too_many;
    too_many.top_k = 9;  // of 8 experts: the spin box would not allow it, the server says why
    view->server()->request("what-if", too_many);
    QVERIFY(rejected.wait(moe::test::kEngineTimeoutMs));
    const QString error = rejected.at(0).at(2).toString();
    QVERIFY2(error.contains("/moe/top_k"), qPrintable(error));
    QVERIFY2(view->statusText().contains("refused") && view->statusText().contains("/moe/top_k"),
             qPrintable(view->statusText()));
    QVERIFY(view->whatIfBars()->title().contains("refused"));
    RoutingSetting fine;
    fine.capacity_factor = 1.5;
    view->controls()->setSetting(fine);
    QVERIFY(waitForWhatIf(*view, fine));
  }

  void aCrashIsReportedAndTheServerStartsAgain() {
    auto view = openView(capture_);
    QSignalSpy captured(view.get(), &WhatIfView::capturedShown);
    QVERIFY(captured.wait(moe::test::kEngineTimeoutMs));
    QSignalSpy failed(view.get(), &WhatIfView::failed);
    QCOMPARE(::kill(static_cast<pid_t>(view->server()->processId()), SIGKILL), 0);
    QVERIFY(failed.wait(moe::test::kEngineTimeoutMs));
    QVERIFY2(failed.at(0).at(0).toString().contains("moe-train replay crashed"),
             qPrintable(failed.at(0).at(0).toString()));
    QVERIFY(view->statusText().contains("crashed"));
    QPushButton* again = nullptr;
    for (QPushButton* b : view->findChildren<QPushButton*>())
      if (b->text() == "Start replay again") again = b;
    QVERIFY(again && again->isVisibleTo(view.get()));
    again->click();
    QSignalSpy shown_again(view.get(), &WhatIfView::capturedShown);
    QVERIFY(shown_again.wait(moe::test::kEngineTimeoutMs));
    QCOMPARE(view->server()->state(), ReplayServer::State::Ready);
  }

  void aServerThatCannotStartIsReported() {
    auto view = openView(capture_, {}, dir_.filePath("no-such-moe-train"));
    QSignalSpy failed(view.get(), &WhatIfView::failed);
    QVERIFY(failed.wait(moe::test::kEngineTimeoutMs));
    QVERIFY2(failed.at(0).at(0).toString().contains("cannot start"),
             qPrintable(failed.at(0).at(0).toString()));
  }

  // The capture's weights under a model's names (blocks.3.moe.gates.0.wg.weight, ...).
  void aFileWithAPrefixOpens() {
    auto tensors = moe::test::readSafetensors(capture_);
    std::map<std::string, moe::test::TestTensor> renamed;
    for (auto& [name, t] : tensors) renamed[name == "input" ? name : "blocks.3.moe." + name] = t;
    const QString model = dir_.filePath("model.safetensors");
    QVERIFY(moe::test::writeSafetensors(model, renamed));
    QString error;
    QCOMPARE(routingLayerPrefixes(model, &error), QStringList{"blocks.3.moe."});

    auto view = openView(model, "blocks.3.moe.");
    QSignalSpy captured(view.get(), &WhatIfView::capturedShown);
    QVERIFY(captured.wait(moe::test::kEngineTimeoutMs));
    QVERIFY(view->source()->config_file.isEmpty());  // no run config beside it
    QVERIFY(view->headerText().contains("blocks.3.moe."));
    RoutingSetting s;
    s.capacity_factor = 0.75;
    view->controls()->setSetting(s);
    QVERIFY(waitForWhatIf(*view, s));
    compareWithOneShot(*view, oneShot(*view, s, "blocks.3.moe."));
  }

  // Gated experts (gate, up, down: the decoder families') with a router bias, captured by a run:
  // the run's config is trusted and both sides route as the one-shot replay does.
  void aGatedExpertsCaptureOpens() {
    const QByteArray config =
        R"({"name":"whatif-glu","model":{"kind":"helloworld","dim":32,"seq_len":16},)"
        R"("moe":{"experts":4,"hidden":16,"top_k":2,"capacity_factor":1.0,"expert_ffn":"glu",)"
        R"("activation":"silu","gate_bias":true},)"
        R"("train":{"steps":2,"batch_size":4,"threads":1},"telemetry":{"capture_every":2}})";
    QString error;
    const QString run = moe::test::runWithCaptures(dir_.path(), "glu", config, &error);
    QVERIFY2(!run.isEmpty(), qPrintable(error));
    auto view = openView(run + "/captures/step-2/layer-0.safetensors");
    QSignalSpy shown(view.get(), &WhatIfView::capturedShown);
    QVERIFY(shown.wait(moe::test::kEngineTimeoutMs));
    QVERIFY2(view->source()->config_file.endsWith("/glu/config.json"),
             qPrintable(view->source()->config_note));
    QVERIFY(view->source()->config["moe"]["expert_ffn"] == "glu");
    QCOMPARE(view->server()->experts(), 4);
    RoutingSetting s;
    s.capacity_factor = 0.5;
    view->controls()->setSetting(s);
    QVERIFY(waitForWhatIf(*view, s));
    compareWithOneShot(*view, oneShot(*view, s));
  }

  // A checkpoint has the weights but no input: 4096 standard-normal tokens are routed instead.
  void aFileWithoutInputRoutesSyntheticTokens() {
    auto tensors = moe::test::readSafetensors(capture_);
    tensors.erase("input");
    const QString weights = dir_.filePath("weights-only.safetensors");
    QVERIFY(moe::test::writeSafetensors(weights, tensors));
    auto view = openView(weights);
    QSignalSpy captured(view.get(), &WhatIfView::capturedShown);
    QVERIFY(captured.wait(moe::test::kEngineTimeoutMs));
    QVERIFY(view->source()->synthetic_input);
    QVERIFY(view->headerText().contains("synthetic tokens"));
    QCOMPARE(view->capturedAnswer()->tokens, 4096);
    RoutingSetting s;
    s.top_k = 1;
    s.capacity_factor = 1.25;
    view->controls()->setSetting(s);
    QVERIFY(waitForWhatIf(*view, s));
    compareWithOneShot(*view, oneShot(*view, s));
  }

  void closingTheViewEndsTheServer() {
    auto view = openView(capture_);
    QSignalSpy captured(view.get(), &WhatIfView::capturedShown);
    QVERIFY(captured.wait(moe::test::kEngineTimeoutMs));
    const auto pid = static_cast<pid_t>(view->server()->processId());
    QVERIFY(pid > 0);
    view.reset();
    QCOMPARE(::kill(pid, 0), -1);  // gone (and reaped)
  }
};

QTEST_MAIN(TestWhatIfView)
#include "test_whatif_view.moc"
