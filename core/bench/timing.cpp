#include "bench/timing.h"

#include <stdexcept>

namespace moe::bench {

double median_of(std::vector<double> values) {
  if (values.empty()) throw std::logic_error("median of no values");
  std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
  return values[values.size() / 2];
}

Rounds::Rounds(const TimingOptions& opt, const std::vector<std::function<void()>>& fns,
               const std::vector<int>& warmups)
    : ms_(fns.size()) {
  using clock = std::chrono::steady_clock;
  for (size_t f = 0; f < fns.size(); ++f) {
    const int runs = f < warmups.size() ? warmups[f] : opt.warmup;
    for (int i = 0; i < runs; ++i) fns[f]();
  }
  const auto begin = clock::now();
  while (static_cast<int>(count()) < opt.min_iters ||
         std::chrono::duration<double>(clock::now() - begin).count() < opt.min_seconds) {
    for (size_t f = 0; f < fns.size(); ++f) {
      const auto t0 = clock::now();
      fns[f]();
      ms_[f].push_back(std::chrono::duration<double, std::milli>(clock::now() - t0).count());
    }
  }
}

double Rounds::median_ratio(size_t a, size_t b) const {
  std::vector<double> ratios;
  for (size_t r = 0; r < count(); ++r) ratios.push_back(ms_.at(a)[r] / ms_.at(b)[r]);
  return median_of(ratios);
}

}  // namespace moe::bench
