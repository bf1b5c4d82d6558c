// detect_routing_problems: sustained streaks that end at the latest logged step warn, shorter or
// recovered ones do not; short runs warn early; the messages name the layer, value and step.
#include <QtTest>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "base/rules/routing_collapse.h"

using moe::ui::CollapseThresholds;
using moe::ui::detectRoutingProblems;
using moe::ui::LayerColumns;
using moe::ui::RoutingProblem;
using moe::ui::RoutingWarning;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A healthy layer of `rows` logged steps (first_step, first_step + stride, ...).
LayerColumns healthyLayer(int64_t layer, size_t rows, double first_step = 0, double stride = 10,
                          size_t experts = 8) {
  LayerColumns c;
  c.layer = layer;
  c.experts = experts;
  for (size_t i = 0; i < rows; ++i) {
    c.step.push_back(first_step + stride * static_cast<double>(i));
    c.load_entropy.push_back(0.93);
    c.dead_experts.push_back(0);
    c.max_over_mean.push_back(1.3);
  }
  return c;
}

// Sets rows [from, to) of a column to `value`.
void setRows(std::vector<double>& column, size_t from, size_t to, double value) {
  for (size_t i = from; i < to; ++i) column[i] = value;
}

std::vector<RoutingWarning> detect(const LayerColumns& layer, const CollapseThresholds& t = {}) {
  return detectRoutingProblems(std::vector<LayerColumns>{layer}, t);
}

}  // namespace

class TestRoutingCollapse : public QObject {
  Q_OBJECT

 private slots:
  void healthyLayerHasNoWarning() {
    QVERIFY(detect(healthyLayer(0, 40)).empty());
    QVERIFY(detect(healthyLayer(0, 0)).empty());
    QVERIFY(detectRoutingProblems({}).empty());
  }

  void sustainedCollapseWarns() {
    LayerColumns layer = healthyLayer(1, 40);
    setRows(layer.load_entropy, 12, 40, 0.4);
    layer.load_entropy.back() = 0.31;
    const auto warnings = detect(layer);
    QCOMPARE(warnings.size(), size_t{1});
    const RoutingWarning& w = warnings[0];
    QCOMPARE(w.kind, RoutingProblem::kCollapse);
    QCOMPARE(w.layer, int64_t{1});
    QCOMPARE(w.since_step, int64_t{120});
    QCOMPARE(w.latest_step, int64_t{390});
    QCOMPARE(w.rows, size_t{28});
    QCOMPARE(w.value, 0.31);
    QCOMPARE(
        w.message,
        std::string("Layer 1: routing collapsed \u2014 load entropy 0.31 (< 0.5) since step 120"));
  }

  void streakMustReachTheThreshold() {
    LayerColumns layer = healthyLayer(0, 40);
    setRows(layer.load_entropy, 21, 40, 0.2);  // 19 rows
    QVERIFY(detect(layer).empty());
    layer.load_entropy[20] = 0.2;  // 20 rows
    QCOMPARE(detect(layer).size(), size_t{1});
    layer.load_entropy[20] = 0.5;  // the threshold itself is not below it
    QVERIFY(detect(layer).empty());
  }

  void recoveryClearsTheWarning() {
    LayerColumns layer = healthyLayer(0, 40);
    setRows(layer.load_entropy, 5, 40, 0.1);
    setRows(layer.dead_experts, 5, 40, 2);
    QCOMPARE(detect(layer).size(), size_t{2});
    layer.load_entropy.back() = 0.8;  // the latest step is fine again
    layer.dead_experts.back() = 0;
    QVERIFY(detect(layer).empty());
  }

  void nanBreaksAStreak() {
    LayerColumns layer = healthyLayer(0, 40);
    setRows(layer.load_entropy, 0, 40, 0.1);
    layer.load_entropy.back() = kNaN;
    QVERIFY(detect(layer).empty());
  }

  void shortRunsWarnEarlyWithoutRecovery() {
    LayerColumns layer = healthyLayer(3, 5, 1, 1);  // steps 1..5
    setRows(layer.load_entropy, 0, 5, 0.2);
    auto warnings = detect(layer);
    QCOMPARE(warnings.size(), size_t{1});
    QCOMPARE(warnings[0].since_step, int64_t{1});
    QCOMPARE(warnings[0].rows, size_t{5});

    layer = healthyLayer(3, 6, 1, 1);
    setRows(layer.load_entropy, 3, 6, 0.2);  // good, good, good, bad, bad, bad
    warnings = detect(layer);
    QCOMPARE(warnings.size(), size_t{1});
    QCOMPARE(warnings[0].since_step, int64_t{4});

    setRows(layer.load_entropy, 3, 4, 0.9);  // only 2 bad rows: too few
    QVERIFY(detect(layer).empty());

    layer = healthyLayer(3, 6, 1, 1);
    setRows(layer.load_entropy, 0, 6, 0.2);
    layer.load_entropy[1] = 0.9;  // bad, good, bad, bad, bad, bad: it recovered once
    QVERIFY(detect(layer).empty());

    layer = healthyLayer(3, 2, 1, 1);
    setRows(layer.load_entropy, 0, 2, 0.2);  // two steps are not enough to say
    QVERIFY(detect(layer).empty());
  }

  void deadExpertsWarnWithCountAndSpan() {
    LayerColumns layer = healthyLayer(0, 96, 150, 1);  // steps 150..245
    setRows(layer.dead_experts, 40, 50, 1);            // an earlier episode, recovered
    setRows(layer.dead_experts, 50, 96, 2);            // steps 200..245
    layer.dead_experts.back() = 3;
    const auto warnings = detect(layer);
    QCOMPARE(warnings.size(), size_t{1});
    QCOMPARE(warnings[0].kind, RoutingProblem::kDeadExperts);
    QCOMPARE(warnings[0].since_step, int64_t{190});  // the streak started at the first episode
    QCOMPARE(warnings[0].value, 3.0);

    layer.dead_experts[49] = 0;  // now the streak starts at step 200
    const auto split = detect(layer);
    QCOMPARE(split.size(), size_t{1});
    QCOMPARE(split[0].message,
             std::string("Layer 0: 3 of 8 experts dead for 45 steps (since step 200)"));
  }

  void imbalanceIsTheMildWarning() {
    LayerColumns layer = healthyLayer(2, 30);
    setRows(layer.max_over_mean, 5, 30, 2.7);
    auto warnings = detect(layer);
    QCOMPARE(warnings.size(), size_t{1});
    QCOMPARE(warnings[0].kind, RoutingProblem::kImbalanced);
    QCOMPARE(warnings[0].since_step, int64_t{50});
    QVERIFY2(warnings[0].message.find("Layer 2: load imbalanced") == 0,
             warnings[0].message.c_str());
    QVERIFY(warnings[0].message.find("2.7x") != std::string::npos);

    setRows(layer.load_entropy, 5, 30, 0.3);  // collapsed as well: only the collapse is said
    warnings = detect(layer);
    QCOMPARE(warnings.size(), size_t{1});
    QCOMPARE(warnings[0].kind, RoutingProblem::kCollapse);
  }

  void warningsComeByLayerThenKind() {
    LayerColumns first = healthyLayer(0, 30);
    setRows(first.dead_experts, 0, 30, 1);
    setRows(first.load_entropy, 0, 30, 0.2);
    LayerColumns second = healthyLayer(1, 30);
    setRows(second.max_over_mean, 0, 30, 3);
    const auto warnings = detectRoutingProblems({first, second});
    QCOMPARE(warnings.size(), size_t{3});
    QCOMPARE(warnings[0].layer, int64_t{0});
    QCOMPARE(warnings[0].kind, RoutingProblem::kCollapse);
    QCOMPARE(warnings[1].kind, RoutingProblem::kDeadExperts);
    QCOMPARE(warnings[2].layer, int64_t{1});
    QCOMPARE(warnings[2].kind, RoutingProblem::kImbalanced);
    QVERIFY(warnings[1].message.find("1 of 8 experts dead for 290 steps") != std::string::npos);
  }

  void thresholdsAreSettings() {
    LayerColumns layer = healthyLayer(0, 40);
    setRows(layer.load_entropy, 34, 40, 0.6);  // 6 rows at 0.6
    QVERIFY(detect(layer).empty());
    CollapseThresholds strict;
    strict.min_load_entropy = 0.7;
    strict.sustained_rows = 5;
    const auto warnings = detect(layer, strict);
    QCOMPARE(warnings.size(), size_t{1});
    QVERIFY(warnings[0].message.find("(< 0.7)") != std::string::npos);
  }
};

QTEST_GUILESS_MAIN(TestRoutingCollapse)
#include "test_routing_collapse.moc"
