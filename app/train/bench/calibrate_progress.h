#pragma once
// Progress of a calibration on stderr: what is measured now, step i of n, and the seconds left
// at the pace so far.
#include <chrono>
#include <iostream>
#include <string>

namespace moe::train {

class CalibrationProgress {
 public:
  CalibrationProgress(std::string prefix, int total) : prefix_(std::move(prefix)), total_(total) {}
  void step(const std::string& what) {
    ++done_;
    std::cerr << prefix_ << " [" << done_ << "/" << total_ << "] " << what;
    if (done_ > 1) {
      const double elapsed =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
      std::cerr << "  (about " << static_cast<int>(elapsed / (done_ - 1) * (total_ - done_ + 1))
                << " s left)";
    }
    std::cerr << std::endl;
  }
  // The median just measured, for the record of what the fit saw.
  void done(double seconds) {
    std::cerr << prefix_ << "   median " << seconds * 1e6 << " us" << std::endl;
  }

 private:
  std::string prefix_;
  int total_ = 0, done_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace moe::train
