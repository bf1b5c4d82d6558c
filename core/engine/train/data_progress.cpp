#include "train/data_progress.h"

#include <chrono>
#include <cstdio>
#include <memory>

#include "train/stop_signal.h"

namespace moe::train {
namespace {

using Clock = std::chrono::steady_clock;
constexpr double kLogEverySeconds = 5;

std::string megabytes(int64_t bytes) {
  char out[32];
  std::snprintf(out, sizeof out, "%.1f MB", static_cast<double>(bytes) / 1e6);
  return out;
}

std::string rate(int64_t bytes, double seconds) {
  char out[32];
  std::snprintf(out, sizeof out, "%.2f MB/s", seconds > 0 ? bytes / 1e6 / seconds : 0.0);
  return out;
}

std::string building_line(const data::CacheProgress& p) {
  const double share = p.bytes_total > 0 ? static_cast<double>(p.bytes_done) / p.bytes_total : 1;
  const double eta = share > 0 ? p.seconds * (1 - share) / share : -1;
  char percent[16];
  std::snprintf(percent, sizeof percent, "%.0f%%", share * 100);
  return "tokenizing into " + p.cache + ": " + percent + " (" + megabytes(p.bytes_done) + " of " +
         megabytes(p.bytes_total) + ", " + std::to_string(p.documents) + " documents, " +
         std::to_string(p.tokens) + " tokens, " + rate(p.bytes_done, p.seconds) + ", ETA " +
         format_duration(eta) + ")";
}

std::string done_line(const data::CacheProgress& p) {
  const std::string counts =
      std::to_string(p.documents) + " documents, " + std::to_string(p.tokens) + " tokens";
  if (p.reused) return "token cache " + p.cache + " reused (" + counts + ")";
  return "token cache " + p.cache + " built: " + counts + " from " + megabytes(p.bytes_total) +
         " in " + format_duration(p.seconds) + " (" + rate(p.bytes_total, p.seconds) + ")";
}

}  // namespace

data::SourceOptions run_data_options(const std::string& run_dir, RunLog& log) {
  data::SourceOptions options;
  options.run_tokenizer_dir = run_dir;
  auto last_logged = std::make_shared<Clock::time_point>(Clock::now());
  options.progress = [&log, last_logged](const data::CacheProgress& p) {
    if (p.done) {
      if (!p.reused) log.end_progress();
      log.info(done_line(p));
      return;
    }
    if (const int sig = stop_requested()) throw StoppedWhileTokenizing(sig);
    const std::string line = building_line(p);
    log.progress(line);
    if (Clock::now() - *last_logged >= std::chrono::duration<double>(kLogEverySeconds)) {
      *last_logged = Clock::now();
      log.info(line);
    }
  };
  return options;
}

}  // namespace moe::train
