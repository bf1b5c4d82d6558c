// Replaying the dashboard's warning rules over a whole run (warning_history.h).
#include "base/report/warning_history.h"

#include <algorithm>
#include <map>

#include "base/rules/routing_collapse.h"
#include "base/rules/slow_rank.h"

namespace moe::ui {

namespace {

std::vector<double> slice(const std::vector<double>& column, size_t begin, size_t end) {
  if (column.size() < end) return {};
  return {column.begin() + static_cast<std::ptrdiff_t>(begin),
          column.begin() + static_cast<std::ptrdiff_t>(end)};
}

LayerColumns layerRows(const LayerColumns& layer, size_t begin, size_t end) {
  LayerColumns out;
  out.layer = layer.layer;
  out.experts = layer.experts;
  const auto from = layer.columns();
  const auto to = out.columns();
  for (size_t c = 0; c < from.size(); ++c) *to[c] = slice(*from[c], begin, end);
  return out;
}

RankColumns rankRows(const RankColumns& ranks, size_t begin, size_t end) {
  RankColumns out;
  out.step = slice(ranks.step, begin, end);
  out.t = slice(ranks.t, begin, end);
  for (const RankSeries& r : ranks.ranks) {
    RankSeries s;
    s.rank = r.rank;
    s.host = r.host;
    s.step_ms = slice(r.step_ms, begin, end);
    s.compute_ms = slice(r.compute_ms, begin, end);
    s.a2a_ms = slice(r.a2a_ms, begin, end);
    s.allreduce_ms = slice(r.allreduce_ms, begin, end);
    s.tokens = slice(r.tokens, begin, end);
    s.peak_bytes = slice(r.peak_bytes, begin, end);
    out.ranks.push_back(std::move(s));
  }
  return out;
}

// Follows which warnings stand after each logged step and turns them into episodes.
class EpisodeTracker {
 public:
  struct Standing {
    std::string key, subject, message;
    int64_t since_step = 0;
  };

  void atStep(int64_t step, const std::vector<Standing>& now) {
    std::map<std::string, size_t> still;
    for (const Standing& s : now) {
      auto open = open_.find(s.key);
      if (open != open_.end()) {
        still[s.key] = open->second;
        continue;
      }
      WarningEpisode e;
      e.subject = s.subject;
      e.since_step = s.since_step;
      e.raised_step = step;
      e.message = s.message;
      still[s.key] = episodes_.size();
      episodes_.push_back(std::move(e));
    }
    for (const auto& [key, index] : open_) {
      if (!still.count(key)) episodes_[index].cleared_step = step;
    }
    open_ = std::move(still);
  }

  std::vector<WarningEpisode> take() { return std::move(episodes_); }

 private:
  std::map<std::string, size_t> open_;  // key -> index in episodes_
  std::vector<WarningEpisode> episodes_;
};

}  // namespace

std::vector<WarningEpisode> routingWarningHistory(const std::vector<LayerColumns>& layers) {
  const CollapseThresholds rules;  // the dashboard's
  std::vector<WarningEpisode> out;
  for (const LayerColumns& layer : layers) {
    EpisodeTracker tracker;
    const size_t n = layer.size();
    for (size_t i = 0; i < n; ++i) {
      // The rules look back at most sustained_rows rows (a shorter run: all of them).
      const size_t begin = i + 1 > rules.sustained_rows ? i + 1 - rules.sustained_rows : 0;
      std::vector<EpisodeTracker::Standing> now;
      for (const RoutingWarning& w : detectRoutingProblems({layerRows(layer, begin, i + 1)})) {
        const std::string kind = routingProblemName(w.kind);
        now.push_back(
            {kind, "layer " + std::to_string(w.layer) + ": " + kind, w.message, w.since_step});
      }
      tracker.atStep(static_cast<int64_t>(layer.step[i]), now);
    }
    for (WarningEpisode& e : tracker.take()) out.push_back(std::move(e));
  }
  std::stable_sort(out.begin(), out.end(), [](const WarningEpisode& a, const WarningEpisode& b) {
    return a.raised_step < b.raised_step;
  });
  return out;
}

std::vector<WarningEpisode> slowRankHistory(const RankColumns& ranks) {
  const SlowRankRule rule;  // the dashboard's
  EpisodeTracker tracker;
  const size_t n = ranks.size();
  for (size_t i = 0; i < n; ++i) {
    const size_t begin = i + 1 > rule.window_rows ? i + 1 - rule.window_rows : 0;
    std::vector<EpisodeTracker::Standing> now;
    for (const SlowRankWarning& w : detectSlowRanks(rankRows(ranks, begin, i + 1), rule)) {
      std::string subject = "rank " + std::to_string(w.rank);
      if (!w.host.empty()) subject += " (" + w.host + ")";
      now.push_back(
          {std::to_string(w.rank), subject, w.message, static_cast<int64_t>(ranks.step[begin])});
    }
    tracker.atStep(static_cast<int64_t>(ranks.step[i]), now);
  }
  return tracker.take();
}

}  // namespace moe::ui
