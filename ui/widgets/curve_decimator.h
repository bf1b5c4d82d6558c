#pragma once
// CurveDecimator: what a long curve draws. Points arrive in key order and fall into buckets of
// equal row counts; each bucket keeps its first, last, lowest and highest point (M4
// decimation), which draws the same line at one bucket per pixel column as all its points
// would. When there are more than kMaxBuckets buckets, neighbours merge and buckets double in
// size, so adding a point costs O(1) amortised and drawing costs O(kMaxBuckets) however long
// the run. A bucket with a NaN value keeps it too, so gaps still show.
#include <QVector>
#include <cstdint>
#include <vector>

#include <qcustomplot.h>

namespace moe::ui {

class CurveDecimator {
 public:
  static constexpr size_t kMaxBuckets = 512;  // about one per pixel column of a plot

  void clear();
  void add(double key, double value);  // keys ascending
  int64_t pointsAdded() const { return added_; }
  // The points to draw, in key order: at most four per bucket (and one NaN for a gap).
  QVector<QCPGraphData> points() const;

 private:
  struct Point {
    double key, value;
  };
  struct Bucket {
    int64_t rows = 0;
    Point first{}, last{}, low{}, high{};
    bool has_finite = false;
    double nan_key = 0;
    bool has_nan = false;
  };
  static void merge(Bucket* into, const Bucket& next);
  void halve();

  std::vector<Bucket> buckets_;
  int64_t rows_per_bucket_ = 1;
  int64_t added_ = 0;
};

}  // namespace moe::ui
