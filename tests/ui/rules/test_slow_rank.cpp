// The straggler rule (slow_rank.h): which rank counts as persistently slower, and when not.
#include <QtTest>

#include <cmath>
#include <limits>

#include "base/rules/slow_rank.h"

using moe::ui::detectSlowRanks;
using moe::ui::RankColumns;
using moe::ui::SlowRankRule;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// `rows` logged steps of `ranks` ranks, every step_ms 100 unless `ms` says otherwise.
RankColumns columns(size_t ranks, size_t rows) {
  RankColumns c;
  for (size_t row = 0; row < rows; ++row) {
    c.step.push_back(static_cast<double>(10 * (row + 1)));
    c.t.push_back(static_cast<double>(row));
  }
  for (size_t r = 0; r < ranks; ++r) {
    auto& s = c.ranks.emplace_back();
    s.rank = static_cast<int64_t>(r);
    s.host = r < 2 ? "node-a" : "node-b";
    s.step_ms.assign(rows, 100.0);
  }
  return c;
}

// Rank `rank`'s step_ms times `factor` in the last `rows` rows.
void slowDown(RankColumns& c, size_t rank, double factor, size_t rows) {
  auto& ms = c.ranks[rank].step_ms;
  for (size_t row = ms.size() - rows; row < ms.size(); ++row) ms[row] *= factor;
}

}  // namespace

class TestSlowRank : public QObject {
  Q_OBJECT

 private slots:
  void aRankThirtyPercentSlowerIsNamed() {
    RankColumns c = columns(4, 30);
    slowDown(c, 2, 1.3, 30);
    const auto warnings = detectSlowRanks(c);
    QCOMPARE(warnings.size(), size_t{1});
    QCOMPARE(warnings[0].rank, int64_t{2});
    QCOMPARE(warnings[0].host, std::string("node-b"));
    QCOMPARE(warnings[0].slow_rows, size_t{20});
    QCOMPARE(warnings[0].window_rows, size_t{20});
    QCOMPARE(warnings[0].latest_step, int64_t{300});
    QCOMPARE(std::round(warnings[0].excess * 100), 30.0);
    QCOMPARE(warnings[0].message,
             std::string("Rank 2 (node-b) is persistently slower: step time +30% over the other "
                         "ranks' median in 20 of the last 20 logged steps (to step 300)"));
  }

  // Two ranks: against the median of both (their mean) a 30 % slower rank is only 13 % above;
  // against the other rank it is 30 % above, and the faster one is not flagged.
  void withTwoRanksTheSlowerOneIsNamed() {
    RankColumns c = columns(2, 30);
    slowDown(c, 1, 1.3, 30);
    const auto warnings = detectSlowRanks(c);
    QCOMPARE(warnings.size(), size_t{1});
    QCOMPARE(warnings[0].rank, int64_t{1});
  }

  void theThresholdIsFifteenPercent() {
    RankColumns c = columns(4, 20);
    slowDown(c, 0, 1.14, 20);
    QVERIFY(detectSlowRanks(c).empty());
    c = columns(4, 20);
    slowDown(c, 0, 1.16, 20);
    QCOMPARE(detectSlowRanks(c).size(), size_t{1});
  }

  // Persistently: in at least 80 % of the last 20 logged steps, i.e. 16 of them.
  void sixteenOfTwentyStepsWarnFifteenDoNot() {
    RankColumns c = columns(3, 40);
    slowDown(c, 1, 1.5, 16);
    QCOMPARE(detectSlowRanks(c).size(), size_t{1});
    c = columns(3, 40);
    slowDown(c, 1, 1.5, 15);
    QVERIFY(detectSlowRanks(c).empty());
  }

  // Slow long ago, recovered since: only the latest window counts.
  void aRecoveredRankDoesNotWarn() {
    RankColumns c = columns(4, 60);
    for (size_t row = 0; row < 40; ++row) c.ranks[3].step_ms[row] *= 2;
    QVERIFY(detectSlowRanks(c).empty());
  }

  void shortRunsAndSingleRanksSayNothing() {
    RankColumns c = columns(4, 4);  // below min_rows
    slowDown(c, 0, 2, 4);
    QVERIFY(detectSlowRanks(c).empty());
    c = columns(4, 5);  // a window of 5: all 5 slow
    slowDown(c, 0, 2, 5);
    QCOMPARE(detectSlowRanks(c).size(), size_t{1});
    c = columns(1, 30);
    QVERIFY(detectSlowRanks(c).empty());
    QVERIFY(detectSlowRanks(RankColumns{}).empty());
  }

  // NaN (a rank that did not report) is never slow, and does not move the others' median.
  void missingFiguresAreNeverSlow() {
    RankColumns c = columns(3, 20);
    for (double& ms : c.ranks[0].step_ms) ms = kNaN;
    slowDown(c, 1, 1.3, 20);
    const auto warnings = detectSlowRanks(c);
    QCOMPARE(warnings.size(), size_t{1});
    QCOMPARE(warnings[0].rank, int64_t{1});
  }

  // Everyone slow together (a slow phase of the run) is nobody's straggling.
  void allRanksSlowTogetherIsNoWarning() {
    RankColumns c = columns(4, 20);
    for (size_t r = 0; r < 4; ++r) slowDown(c, r, 1.5, 20);
    QVERIFY(detectSlowRanks(c).empty());
  }

  void theRuleIsConfigurable() {
    RankColumns c = columns(4, 10);
    slowDown(c, 2, 1.1, 10);
    SlowRankRule rule;
    rule.min_excess = 0.05;
    rule.window_rows = 10;
    QCOMPARE(detectSlowRanks(c, rule).size(), size_t{1});
  }
};

QTEST_GUILESS_MAIN(TestSlowRank)
#include "test_slow_rank.moc"
