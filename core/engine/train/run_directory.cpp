#include "train/run_directory.h"

#include <ctime>
#include <filesystem>
#include <stdexcept>

#include "train/input_error.h"

namespace moe::train {

namespace fs = std::filesystem;

namespace {

RunDirectory at_path(const fs::path& path) {
  fs::path clean = path.lexically_normal();
  if (clean.filename().empty()) clean = clean.parent_path();  // "runs/x/" -> "runs/x"
  return RunDirectory{clean.string(), clean.filename().string()};
}

}  // namespace

std::string make_run_id(const std::string& name, std::chrono::system_clock::time_point when) {
  const std::time_t t = std::chrono::system_clock::to_time_t(when);
  std::tm local{};
  localtime_r(&t, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
  return std::string(stamp) + "-" + name;
}

RunDirectory create_run_directory(const std::string& runs_root, const std::string& name) {
  fs::create_directories(runs_root);
  const std::string id = make_run_id(name, std::chrono::system_clock::now());
  for (int n = 1; n < 1000; ++n) {
    fs::path dir = fs::path(runs_root) / (n == 1 ? id : id + "-" + std::to_string(n));
    if (fs::create_directory(dir)) return at_path(dir);  // false: it existed
  }
  throw std::runtime_error("cannot create a run directory under " + runs_root);
}

RunDirectory use_run_directory(const std::string& path) {
  RunDirectory dir = at_path(path);
  std::error_code ec;
  if (fs::exists(dir.config(), ec) || fs::exists(dir.metrics(), ec)) {
    throw InputError("--run-dir " + path +
                     ": already holds a run; continue it with `moe-train run --resume " + path +
                     "` or choose another directory");
  }
  fs::create_directories(dir.path);
  return dir;
}

RunDirectory existing_run_directory(const std::string& path) {
  RunDirectory dir = at_path(path);
  std::error_code ec;
  if (!fs::is_directory(dir.path, ec)) throw InputError("--resume " + path + ": no such directory");
  if (!fs::exists(dir.config(), ec)) {
    throw InputError("--resume " + path + ": not a run directory (no config.json)");
  }
  return dir;
}

}  // namespace moe::train
