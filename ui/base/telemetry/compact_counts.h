// Per-expert token counts of many steps: the largest thing the dashboard holds (layers x experts
// per logged step). Stored as uint16 while every count fits, which is the usual case (a step's
// tokens x top_k spread over the experts), and widened to int32 for good once one does not: half
// the memory of int32 without a limit on what can be shown.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/telemetry/column_ops.h"

namespace moe::ui::detail {

class CompactCounts {
 public:
  explicit CompactCounts(size_t width) : width_(width) {}

  size_t width() const { return width_; }
  bool wide() const { return wide_; }

  // Inserts or overwrites the row at `slot`. Values are clamped to [0, INT32_MAX].
  void put(RowSlot slot, const std::vector<int64_t>& values);
  int32_t at(size_t row, size_t column) const {
    const size_t i = row * width_ + column;
    return wide_ ? wide_values_[i] : static_cast<int32_t>(narrow_[i]);
  }
  // out[i] += the sum of column i over rows [begin, end): the heatmap's inner loop, on raw rows.
  void addRows(size_t begin, size_t end, float* out) const;
  void reserve(size_t rows);
  void clear();
  size_t bytes() const;

 private:
  void widen();

  size_t width_;
  bool wide_ = false;
  std::vector<uint16_t> narrow_;
  std::vector<int32_t> wide_values_;
  std::vector<int32_t> scratch_;     // one row, clamped
  std::vector<uint16_t> scratch16_;  // the same row, narrow
};

// Importance (mean router probability, in [0, 1]) as 16-bit fixed point: resolution 1.5e-5,
// invisible in a plot, a quarter of a double. NaN is kept as NaN.
uint16_t quantizeShare(double value);
double dequantizeShare(uint16_t q);

}  // namespace moe::ui::detail
