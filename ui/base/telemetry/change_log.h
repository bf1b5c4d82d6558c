// Which part of a series changed in which version, so a reader that holds the series up to some
// version copies only the rows from the lowest changed step on (usually just the new tail; after a
// resume, from the first repeated step).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace moe::ui::detail {

class ChangeLog {
 public:
  // Rows from `min_step` on changed in `version` (versions only grow).
  void record(uint64_t version, double min_step) {
    if (!entries_.empty() && entries_.back().first == version) {
      entries_.back().second = std::min(entries_.back().second, min_step);
      return;
    }
    entries_.emplace_back(version, min_step);
    if (entries_.size() > kMaxEntries) halve();
  }

  // The lowest step changed after `version`; nothing when the series did not change since.
  std::optional<double> since(uint64_t version) const {
    std::optional<double> lowest;
    for (auto it = entries_.rbegin(); it != entries_.rend() && it->first > version; ++it) {
      lowest = lowest ? std::min(*lowest, it->second) : it->second;
    }
    return lowest;
  }

  void clear() { entries_.clear(); }

 private:
  static constexpr size_t kMaxEntries = 512;

  // Bounded: merges neighbours pairwise, each pair into (the later version, the lower step). A
  // reader between two merged versions copies some rows more than it needs, never fewer. Older
  // entries have been merged more often, so their spans grow with age: a reader that lags L
  // versions copies at most about 2L versions' worth.
  void halve() {
    size_t out = 0;
    for (size_t i = 0; i < entries_.size(); i += 2, ++out) {
      entries_[out] = i + 1 < entries_.size()
                          ? std::make_pair(entries_[i + 1].first,
                                           std::min(entries_[i].second, entries_[i + 1].second))
                          : entries_[i];
    }
    entries_.resize(out);
  }

  std::vector<std::pair<uint64_t, double>> entries_;
};

}  // namespace moe::ui::detail
