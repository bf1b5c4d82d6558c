#include "base/rules/slow_rank.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace moe::ui {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double median(std::vector<double>& values) {
  if (values.empty()) return kNaN;
  const size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  const double lower =
      *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid));
  return (lower + upper) / 2;
}

// step_ms of `rank` in `row` over the median of the other ranks that reported there; NaN when
// either side is missing.
double ratioToOthers(const RankColumns& c, size_t rank, size_t row, std::vector<double>& scratch) {
  const double own = c.ranks[rank].step_ms[row];
  if (!std::isfinite(own)) return kNaN;
  scratch.clear();
  for (size_t other = 0; other < c.ranks.size(); ++other) {
    const double ms = c.ranks[other].step_ms[row];
    if (other != rank && std::isfinite(ms)) scratch.push_back(ms);
  }
  const double others = median(scratch);
  return others > 0 ? own / others : kNaN;
}

std::string describe(const SlowRankWarning& w) {
  std::string who = "Rank " + std::to_string(w.rank);
  if (!w.host.empty()) who += " (" + w.host + ")";
  char excess[32];
  std::snprintf(excess, sizeof excess, "%+.0f%%", w.excess * 100);
  return who + " is persistently slower: step time " + excess +
         " over the other ranks' median in " + std::to_string(w.slow_rows) + " of the last " +
         std::to_string(w.window_rows) + " logged steps (to step " + std::to_string(w.latest_step) +
         ")";
}

}  // namespace

std::vector<SlowRankWarning> detectSlowRanks(const RankColumns& ranks, const SlowRankRule& rule) {
  std::vector<SlowRankWarning> out;
  const size_t rows = std::min(ranks.size(), rule.window_rows);
  if (ranks.ranks.size() < 2 || rows < std::max<size_t>(rule.min_rows, 1)) return out;
  const size_t first = ranks.size() - rows;
  // 0.8 * 20 must give 16, not 17 by a rounding error upward.
  const auto needed =
      static_cast<size_t>(std::ceil(rule.min_share * static_cast<double>(rows) - 1e-9));
  std::vector<double> scratch, ratios;
  for (size_t r = 0; r < ranks.ranks.size(); ++r) {
    size_t slow = 0;
    ratios.clear();
    for (size_t row = first; row < ranks.size(); ++row) {
      const double ratio = ratioToOthers(ranks, r, row, scratch);
      if (!std::isfinite(ratio)) continue;
      ratios.push_back(ratio);
      if (ratio > 1 + rule.min_excess) ++slow;
    }
    if (slow == 0 || slow < needed) continue;
    SlowRankWarning w;
    w.rank = ranks.ranks[r].rank;
    w.host = ranks.ranks[r].host;
    w.slow_rows = slow;
    w.window_rows = rows;
    w.latest_step = static_cast<int64_t>(ranks.step.back());
    w.excess = median(ratios) - 1;
    w.message = describe(w);
    out.push_back(std::move(w));
  }
  return out;
}

}  // namespace moe::ui
