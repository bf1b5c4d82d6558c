#include "widgets/curve_decimator.h"

#include <algorithm>
#include <cmath>

namespace moe::ui {

void CurveDecimator::clear() {
  buckets_.clear();
  rows_per_bucket_ = 1;
  added_ = 0;
}

void CurveDecimator::add(double key, double value) {
  ++added_;
  if (buckets_.empty() || buckets_.back().rows >= rows_per_bucket_) {
    if (buckets_.size() >= kMaxBuckets) halve();
    if (buckets_.empty() || buckets_.back().rows >= rows_per_bucket_) buckets_.emplace_back();
  }
  Bucket& b = buckets_.back();
  ++b.rows;
  if (std::isnan(value)) {
    if (!b.has_nan) b.nan_key = key;
    b.has_nan = true;
    return;
  }
  const Point p{key, value};
  if (!b.has_finite) b.first = b.low = b.high = p;
  if (value < b.low.value) b.low = p;
  if (value > b.high.value) b.high = p;
  b.last = p;
  b.has_finite = true;
}

void CurveDecimator::merge(Bucket* into, const Bucket& next) {
  into->rows += next.rows;
  if (next.has_nan && !into->has_nan) into->nan_key = next.nan_key;
  into->has_nan |= next.has_nan;
  if (!next.has_finite) return;
  if (!into->has_finite) {
    const int64_t rows = into->rows;
    const bool has_nan = into->has_nan;
    const double nan_key = into->nan_key;
    *into = next;
    into->rows = rows, into->has_nan = has_nan, into->nan_key = nan_key;
    return;
  }
  if (next.low.value < into->low.value) into->low = next.low;
  if (next.high.value > into->high.value) into->high = next.high;
  into->last = next.last;
}

// Pairs of buckets become one; the buckets are now twice as many rows each.
void CurveDecimator::halve() {
  size_t out = 0;
  for (size_t i = 0; i < buckets_.size(); i += 2) {
    Bucket b = buckets_[i];
    if (i + 1 < buckets_.size()) merge(&b, buckets_[i + 1]);
    buckets_[out++] = b;
  }
  buckets_.resize(out);
  rows_per_bucket_ *= 2;
}

QVector<QCPGraphData> CurveDecimator::points() const {
  QVector<QCPGraphData> out;
  out.reserve(static_cast<qsizetype>(buckets_.size()) * 4);
  std::vector<Point> kept;
  for (const Bucket& b : buckets_) {
    kept.clear();
    if (b.has_finite) kept = {b.first, b.low, b.high, b.last};
    if (b.has_nan) kept.push_back({b.nan_key, std::nan("")});
    std::stable_sort(kept.begin(), kept.end(),
                     [](const Point& a, const Point& c) { return a.key < c.key; });
    for (size_t i = 0; i < kept.size(); ++i) {
      // The same row may be first and lowest, say: draw it once.
      if (i > 0 && kept[i].key == kept[i - 1].key &&
          (kept[i].value == kept[i - 1].value || std::isnan(kept[i].value)))
        continue;
      out.append(QCPGraphData(kept[i].key, kept[i].value));
    }
  }
  return out;
}

}  // namespace moe::ui
