#include "base/telemetry/compact_counts.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace moe::ui::detail {

namespace {
constexpr uint16_t kNanShare = 0xFFFF;
constexpr double kShareScale = 65534.0;
}  // namespace

void CompactCounts::put(RowSlot slot, const std::vector<int64_t>& values) {
  scratch_.resize(width_);
  int32_t largest = 0;
  for (size_t i = 0; i < width_; ++i) {
    const int64_t v = i < values.size() ? values[i] : 0;
    scratch_[i] =
        static_cast<int32_t>(std::clamp<int64_t>(v, 0, std::numeric_limits<int32_t>::max()));
    largest = std::max(largest, scratch_[i]);
  }
  if (!wide_ && largest > std::numeric_limits<uint16_t>::max()) widen();
  if (wide_) {
    putRow(wide_values_, width_, slot, scratch_.data());
    return;
  }
  scratch16_.assign(scratch_.begin(), scratch_.end());
  putRow(narrow_, width_, slot, scratch16_.data());
}

namespace {
template <class T>
void addRowsOf(const T* values, size_t width, size_t begin, size_t end, float* out) {
  for (size_t r = begin; r < end; ++r) {
    const T* row = values + r * width;
    for (size_t i = 0; i < width; ++i) out[i] += static_cast<float>(row[i]);
  }
}
}  // namespace

void CompactCounts::addRows(size_t begin, size_t end, float* out) const {
  if (wide_) {
    addRowsOf(wide_values_.data(), width_, begin, end, out);
  } else {
    addRowsOf(narrow_.data(), width_, begin, end, out);
  }
}

void CompactCounts::widen() {
  wide_values_.reserve(narrow_.capacity());
  wide_values_.assign(narrow_.begin(), narrow_.end());
  std::vector<uint16_t>().swap(narrow_);
  wide_ = true;
}

void CompactCounts::reserve(size_t rows) {
  if (wide_) {
    wide_values_.reserve(rows * width_);
  } else {
    narrow_.reserve(rows * width_);
  }
}

void CompactCounts::clear() {
  std::vector<uint16_t>().swap(narrow_);
  std::vector<int32_t>().swap(wide_values_);
  wide_ = false;
}

size_t CompactCounts::bytes() const {
  return narrow_.capacity() * sizeof(uint16_t) + wide_values_.capacity() * sizeof(int32_t);
}

uint16_t quantizeShare(double value) {
  if (std::isnan(value)) return kNanShare;
  return static_cast<uint16_t>(std::lround(std::clamp(value, 0.0, 1.0) * kShareScale));
}

double dequantizeShare(uint16_t q) {
  if (q == kNanShare) return std::numeric_limits<double>::quiet_NaN();
  return q / kShareScale;
}

}  // namespace moe::ui::detail
