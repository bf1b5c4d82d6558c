#pragma once
// Median wall time of a callable: warm-up runs first, then at least min_iters runs and at least
// min_seconds in total. The median resists the noise of a shared machine.
#include <algorithm>
#include <chrono>
#include <vector>

namespace moe::train {

struct TimingOptions {
  int warmup = 2;
  int min_iters = 5;
  double min_seconds = 1.0;
};

template <typename Fn>
double median_ms(const TimingOptions& opt, Fn&& fn) {
  using clock = std::chrono::steady_clock;
  for (int i = 0; i < opt.warmup; ++i) fn();
  std::vector<double> ms;
  const auto begin = clock::now();
  while (static_cast<int>(ms.size()) < opt.min_iters ||
         std::chrono::duration<double>(clock::now() - begin).count() < opt.min_seconds) {
    const auto t0 = clock::now();
    fn();
    ms.push_back(std::chrono::duration<double, std::milli>(clock::now() - t0).count());
  }
  std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
  return ms[ms.size() / 2];
}

}  // namespace moe::train

namespace moe::train {

struct PairedTiming {
  double a_ms = 0, b_ms = 0;  // medians
  double a_over_b = 0;        // median of the per-round ratios
};

// Times a and b alternately, one run each per round, so that the drift of a shared machine hits
// both alike; the per-round ratio is far steadier than the ratio of two separate medians.
template <typename FnA, typename FnB>
PairedTiming paired_median_ms(const TimingOptions& opt, FnA&& a, FnB&& b) {
  using clock = std::chrono::steady_clock;
  auto time_ms = [](auto& fn) {
    const auto t0 = clock::now();
    fn();
    return std::chrono::duration<double, std::milli>(clock::now() - t0).count();
  };
  for (int i = 0; i < opt.warmup; ++i) {
    a();
    b();
  }
  std::vector<double> as, bs, ratios;
  const auto begin = clock::now();
  while (static_cast<int>(as.size()) < opt.min_iters ||
         std::chrono::duration<double>(clock::now() - begin).count() < opt.min_seconds) {
    as.push_back(time_ms(a));
    bs.push_back(time_ms(b));
    ratios.push_back(as.back() / bs.back());
  }
  auto median = [](std::vector<double> v) {
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
  };
  return PairedTiming{median(as), median(bs), median(ratios)};
}

}  // namespace moe::train
