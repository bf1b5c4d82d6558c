// One MoE layer's expert_load series inside a RunSeries: the scalar metrics as plot-ready
// columns, the per-expert counts of every row in a compact array, and the per-expert importance
// of the newest row only (no view shows older rows' importance, and holding it for every row
// cost as much as the counts: 128 bytes a row per 64-expert layer), and the selection bias of
// every row once a row carries one (moe.bias_balancing). Not thread-safe: RunSeries guards it
// with its lock.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "base/telemetry/change_log.h"
#include "base/telemetry/compact_counts.h"
#include "base/telemetry/series_columns.h"
#include "base/telemetry/telemetry_protocol.h"

namespace moe::ui::detail {

class LayerStore {
 public:
  LayerStore(int64_t layer, size_t experts);

  int64_t layer() const { return scalars_.layer; }
  size_t experts() const { return scalars_.experts; }
  size_t rows() const { return scalars_.size(); }
  bool wide() const { return counts_.wide(); }

  // Stores the event as the row of its step (replacing an earlier one). False, storing nothing,
  // when its expert count differs from the layer's.
  bool store(const protocol::ExpertLoadEvent& e, uint64_t version);
  void reserve(size_t rows);

  // The scalar columns within `range`.
  LayerColumns columns(const StepRange& range) const;
  // The rows changed after `version`; nothing when none did.
  std::optional<LayerColumns> changesSince(uint64_t version) const;

  // The whole row at `step`, or the latest one before it; the newest row without a step.
  // importance is filled for the newest row only and empty for older ones.
  std::optional<protocol::ExpertLoadEvent> row(std::optional<double> step) const;
  LoadMatrix matrix(const StepRange& range, size_t max_bins, LoadValue value) const;

  size_t bytes() const;

 private:
  double value(size_t row, size_t expert, LoadValue what) const;
  // Puts row `slot`'s bias (NaNs for a row without one), before the row's other columns.
  void storeBias(RowSlot slot, const std::optional<std::vector<double>>& bias);
  // The columns of scalars_ held as doubles; capacity and dead_experts, whole numbers, are held
  // as int32 instead (capacity_, dead_experts_) and scalars_ leaves them empty.
  std::array<std::vector<double>*, 9> doubles();
  std::array<const std::vector<double>*, 9> doubles() const;

  LayerColumns scalars_;
  std::vector<int32_t> capacity_, dead_experts_;
  CompactCounts counts_;
  std::vector<uint16_t> latest_importance_;  // the newest row's, quantizeShare; empty: no row
  // kept is min(count, capacity) by docs/ROUTING.md, "Load metrics", so it is derived; a row where
  // the engine reported otherwise keeps its own kept here (by step).
  std::map<double, std::vector<int32_t>> kept_exceptions_;
  // Row-major rows x experts; empty while no row had a bias (a layer balancing without one
  // holds nothing), float: the bias itself is float32.
  std::vector<float> bias_;
  ChangeLog changes_;
};

}  // namespace moe::ui::detail
