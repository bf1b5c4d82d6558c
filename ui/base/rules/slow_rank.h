// Straggler detection for multi-process runs: a rank whose step takes persistently longer than
// the others' holds every rank up at the next collective (all-to-all, all-reduce). Plain C++, no
// Qt: the dashboard shows the warning, a test checks the rule.
//
// The rule, over the last `window_rows` (20) logged steps of RankColumns (fewer while the run has
// logged fewer, but at least `min_rows` (5): a handful of rows says nothing yet):
// - In one row, a rank is slow when its step_ms exceeds the median step_ms of the *other* ranks
//   that reported in that row by more than `min_excess` (15 %). The others' median, not all
//   ranks': with two ranks the median of both is their mean, and a rank 30 % slower than its
//   peer would sit only 14 % above it; a straggler must not drag its own yardstick either.
//   A row where the rank or every other rank reported NaN (or nothing) does not count as slow.
// - The rank is persistently slow when it is slow in at least `min_share` (80 %) of the window's
//   rows. So a single hiccup (a checkpoint write, a page fault) never warns, and a rank that
//   recovered stops warning within a window.
// Warnings come ordered by rank. A single-process run (fewer than two ranks) has none.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/telemetry/series_columns.h"

namespace moe::ui {

struct SlowRankRule {
  double min_excess = 0.15;  // slower than the others' median by more than this fraction
  double min_share = 0.8;    // of the window's rows
  size_t window_rows = 20;   // the latest logged steps looked at
  size_t min_rows = 5;       // the least a window needs to say anything
};

struct SlowRankWarning {
  int64_t rank = 0;
  std::string host;
  size_t slow_rows = 0;    // rows of the window in which the rank was slow
  size_t window_rows = 0;  // rows looked at
  int64_t latest_step = 0;
  double excess = 0;  // the median over the window of step_ms / the others' median - 1
  // "Rank 3 (node-b) is persistently slower: step time +31% over the other ranks' median in
  // 20 of the last 20 logged steps (to step 30)"
  std::string message;
};

std::vector<SlowRankWarning> detectSlowRanks(const RankColumns& ranks,
                                             const SlowRankRule& rule = {});

}  // namespace moe::ui
