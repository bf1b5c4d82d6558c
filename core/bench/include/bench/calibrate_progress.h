#pragma once
// Progress of a calibration on stderr: what is measured now, step i of n, and the seconds left
// at the pace so far. Steps differ in cost (a GEMM shape against a whole collectives child), so
// each carries a weight: its expected share of the time, in any unit.
#include <chrono>
#include <iostream>
#include <string>

namespace moe::bench {

class CalibrationProgress {
 public:
  CalibrationProgress(std::string prefix, int steps, double total_weight)
      : prefix_(std::move(prefix)), steps_(steps), total_weight_(total_weight) {}
  void step(const std::string& what, double weight = 1) {
    ++done_;
    std::cerr << prefix_ << " [" << done_ << "/" << steps_ << "] " << what;
    if (done_weight_ > 0) {
      const double elapsed =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
      const double left = elapsed / done_weight_ * (total_weight_ - done_weight_);
      std::cerr << "  (about " << static_cast<int>(left + 0.5) << " s left)";
    }
    std::cerr << std::endl;
    done_weight_ += weight;
  }
  // The median just measured, for the record of what the fit saw.
  void done(double seconds) {
    std::cerr << prefix_ << "   median " << seconds * 1e6 << " us" << std::endl;
  }

 private:
  std::string prefix_;
  int steps_ = 0, done_ = 0;
  double total_weight_ = 0, done_weight_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace moe::bench
