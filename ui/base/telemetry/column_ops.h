// Row operations shared by the column-wise series of RunSeries: every series is a set of
// equally long vectors sorted by a step column; a step seen again overwrites its row.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <utility>
#include <vector>

#include "base/telemetry/series_columns.h"

namespace moe::ui::detail {

// Where the row of `step` goes: its index, and whether it is a new row to insert there.
struct RowSlot {
  size_t row = 0;
  bool insert = true;
};

inline RowSlot findSlot(const std::vector<double>& steps, double step) {
  if (steps.empty() || step > steps.back()) return {steps.size(), true};  // the usual append
  auto it = std::lower_bound(steps.begin(), steps.end(), step);
  return {static_cast<size_t>(it - steps.begin()), it == steps.end() || *it != step};
}

template <class T, class V>
void put(std::vector<T>& column, RowSlot slot, V value) {
  if (slot.insert) {
    column.insert(column.begin() + static_cast<std::ptrdiff_t>(slot.row), static_cast<T>(value));
  } else {
    column[slot.row] = static_cast<T>(value);
  }
}

// The same for a row of `width` values in a flat row-major array.
template <class T>
void putRow(std::vector<T>& flat, size_t width, RowSlot slot, const T* values) {
  auto at = flat.begin() + static_cast<std::ptrdiff_t>(slot.row * width);
  if (slot.insert) {
    flat.insert(at, values, values + width);
  } else {
    std::copy(values, values + width, at);
  }
}

// Rows [begin, end) whose step lies in `range`, cut to its last max_rows.
inline std::pair<size_t, size_t> rowsIn(const std::vector<double>& steps, const StepRange& range) {
  size_t begin = static_cast<size_t>(std::lower_bound(steps.begin(), steps.end(), range.first) -
                                     steps.begin());
  size_t end =
      static_cast<size_t>(std::upper_bound(steps.begin(), steps.end(), range.last) - steps.begin());
  if (end < begin) end = begin;
  if (end - begin > range.max_rows) begin = end - range.max_rows;
  return {begin, end};
}

// Bin b of `bins` over rows [begin, begin + rows): rows / bins rows each, give or take one (the
// heatmaps' decimation: bins <= rows).
inline std::pair<size_t, size_t> binRows(size_t begin, size_t rows, size_t bins, size_t b) {
  return {begin + b * rows / bins, begin + (b + 1) * rows / bins};
}

// Rows [begin, end) of every source column appended to the matching destination column.
template <size_t N>
void copyRows(const std::array<const std::vector<double>*, N>& from,
              const std::array<std::vector<double>*, N>& to, size_t begin, size_t end) {
  for (size_t i = 0; i < N; ++i) {
    to[i]->assign(from[i]->begin() + static_cast<std::ptrdiff_t>(begin),
                  from[i]->begin() + static_cast<std::ptrdiff_t>(end));
  }
}

template <size_t N>
void reserveRows(const std::array<std::vector<double>*, N>& columns, size_t rows) {
  for (auto* c : columns) c->reserve(rows);
}

template <size_t N>
size_t columnBytes(const std::array<const std::vector<double>*, N>& columns) {
  size_t bytes = 0;
  for (const auto* c : columns) bytes += c->capacity() * sizeof(double);
  return bytes;
}

}  // namespace moe::ui::detail
