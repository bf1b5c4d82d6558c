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
