#include "train/checkpoint.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace moe::train {

namespace fs = std::filesystem;

namespace {

constexpr const char* kModelFile = "model.safetensors";
constexpr const char* kOptimizerFile = "optimizer.safetensors";
constexpr const char* kStateFile = "state.json";

// Flushes a file or directory to disk, so that a rename after it never exposes lost data after a
// power cut. Best effort: some file systems refuse fsync on directories.
void sync_path(const fs::path& path) {
  int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// n for a directory named step-<n>, else nullopt.
std::optional<int64_t> step_of(const fs::path& dir) {
  const std::string name = dir.filename().string();
  if (name.rfind("step-", 0) != 0 || name.size() == 5) return std::nullopt;
  const std::string digits = name.substr(5);
  if (!std::all_of(digits.begin(), digits.end(), ::isdigit) || digits.size() > 18) {
    return std::nullopt;
  }
  return std::stoll(digits);
}

// Step directories, newest first.
std::vector<std::pair<int64_t, fs::path>> step_dirs(const fs::path& root) {
  std::vector<std::pair<int64_t, fs::path>> dirs;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return dirs;
  for (const auto& entry : fs::directory_iterator(root, ec)) {
    if (auto step = step_of(entry.path()); step && entry.is_directory(ec)) {
      dirs.emplace_back(*step, entry.path());
    }
  }
  std::sort(dirs.begin(), dirs.end(), [](auto& a, auto& b) { return a.first > b.first; });
  return dirs;
}

nlohmann::json read_state(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error(file.string() + ": cannot be read");
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(file.string() + ": not valid JSON (" + e.what() + ")");
  }
}

bool is_complete(const fs::path& dir, int64_t step) {
  std::error_code ec;
  if (!fs::exists(dir / kModelFile, ec) || !fs::exists(dir / kOptimizerFile, ec)) return false;
  try {
    nlohmann::json state = read_state(dir / kStateFile);
    return state.value("step", int64_t{-1}) == step;
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace

std::string save_checkpoint(const std::string& checkpoints_dir, int64_t step,
                            const Checkpoint& checkpoint, int64_t keep) {
  const fs::path root(checkpoints_dir);
  fs::create_directories(root);
  const fs::path final_dir = root / ("step-" + std::to_string(step));
  const fs::path tmp =
      root / (".step-" + std::to_string(step) + ".tmp-" + std::to_string(::getpid()));
  // Leftovers of a save that was killed half-way are never read; clear them.
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(root, ec)) {
    if (entry.path().filename().string().rfind(".step-", 0) == 0) fs::remove_all(entry.path(), ec);
  }
  fs::create_directories(tmp);
  io::write_safetensors((tmp / kModelFile).string(), checkpoint.model);
  io::write_safetensors((tmp / kOptimizerFile).string(), checkpoint.optimizer);
  nlohmann::json state = checkpoint.state;
  state["step"] = step;
  {
    std::ofstream out(tmp / kStateFile, std::ios::trunc);
    out << state.dump(2) << "\n";
    if (!out.flush()) throw std::runtime_error((tmp / kStateFile).string() + ": write failed");
  }
  for (const char* f : {kModelFile, kOptimizerFile, kStateFile}) sync_path(tmp / f);
  sync_path(tmp);
  fs::remove_all(final_dir);  // a leftover of the same step (resumed run): replaced whole
  fs::rename(tmp, final_dir);
  sync_path(root);

  // Keep the new checkpoint and the keep-1 newest other complete ones; damaged step directories
  // (never picked for resume) go too.
  int64_t kept = 1;
  for (const auto& [other_step, dir] : step_dirs(root)) {
    if (dir == final_dir) continue;
    if (is_complete(dir, other_step) && kept < std::max<int64_t>(keep, 1)) {
      ++kept;
    } else {
      fs::remove_all(dir, ec);
    }
  }
  return final_dir.string();
}

std::optional<std::string> latest_checkpoint(const std::string& checkpoints_dir) {
  for (const auto& [step, dir] : step_dirs(checkpoints_dir)) {
    if (is_complete(dir, step)) return dir.string();
  }
  return std::nullopt;
}

Checkpoint load_checkpoint(const std::string& step_dir) {
  const fs::path dir(step_dir);
  Checkpoint c;
  c.state = read_state(dir / kStateFile);
  c.model = io::read_safetensors((dir / kModelFile).string());
  c.optimizer = io::read_safetensors((dir / kOptimizerFile).string());
  return c;
}

}  // namespace moe::train
