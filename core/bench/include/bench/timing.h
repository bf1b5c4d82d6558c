#pragma once
// Median wall time of a callable: warm-up runs first, then at least min_iters runs and at least
// min_seconds in total. The median resists the noise of a shared machine.
#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

namespace moe::bench {

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

}  // namespace moe::bench

namespace moe::bench {

double median_of(std::vector<double> values);

// Several callables timed in rounds: each runs once per round, in order, so the drift of a
// shared machine hits them alike. A ratio of two of them is taken per round and its median
// reported: far steadier than the ratio of two separate medians.
class Rounds {
 public:
  // warmups[i]: warm-up runs of fns[i] before the rounds (opt.warmup where not given).
  Rounds(const TimingOptions& opt, const std::vector<std::function<void()>>& fns,
         const std::vector<int>& warmups = {});
  size_t count() const { return ms_.empty() ? 0 : ms_.front().size(); }
  const std::vector<double>& ms(size_t fn) const { return ms_.at(fn); }
  double median_ms(size_t fn) const { return median_of(ms_.at(fn)); }
  // The median over rounds of ms(a) / ms(b): both from the same round.
  double median_ratio(size_t a, size_t b) const;

 private:
  std::vector<std::vector<double>> ms_;  // [callable][round]
};

}  // namespace moe::bench
