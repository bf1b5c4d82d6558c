// The `ranks` events of a multi-process run inside a RunSeries: one row per logged step (step and
// time as doubles, shared by every rank), and per rank its six figures as float columns (7
// significant digits, as the plots keep them): 24 bytes a rank per logged step, so 64 ranks over
// 10 000 logged steps hold about 15 MB. A rank first seen late gets NaN for the rows before it.
// Not thread-safe: RunSeries guards it with its lock.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/telemetry/change_log.h"
#include "base/telemetry/series_columns.h"
#include "base/telemetry/telemetry_protocol.h"

namespace moe::ui::detail {

class RankStore {
 public:
  size_t rows() const { return step_.size(); }
  size_t ranks() const { return ranks_.size(); }

  // Stores the event as the row of its step (replacing an earlier one).
  void store(const protocol::RanksEvent& e, uint64_t version);
  void reserve(size_t rows);
  void clear();

  RankColumns columns(const StepRange& range) const;
  // The rows changed after `version`; nothing when none did.
  std::optional<RankColumns> changesSince(uint64_t version) const;
  // Ranks x at most `max_bins` bins of step_ms over `range`.
  RankMatrix matrix(const StepRange& range, size_t max_bins) const;

  size_t bytes() const;

 private:
  static constexpr size_t kFigures = 6;  // step_ms, compute_ms, a2a_ms, allreduce_ms, tokens, peak
  struct Rank {
    int64_t rank = 0;
    std::string host;
    std::array<std::vector<float>, kFigures> figures;
  };
  // The index of `rank` in ranks_, adding it (NaN for the rows held) when new.
  size_t rankIndex(int64_t rank);

  std::vector<double> step_, t_;
  std::vector<Rank> ranks_;  // ascending by rank
  size_t reserved_ = 0;
  ChangeLog changes_;
};

}  // namespace moe::ui::detail
