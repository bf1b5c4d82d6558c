#include "train/checkpoint.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace moe::train {

namespace fs = std::filesystem;

namespace {

constexpr const char* kModelFile = kCheckpointModelFile;
constexpr const char* kOptimizerFile = kCheckpointOptimizerFile;
constexpr const char* kStateFile = kCheckpointStateFile;

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
  return protocol::run_layout::parse_step_dir_name(dir.filename().string());
}

}  // namespace

std::optional<int64_t> checkpoint_step(const std::string& step_dir) {
  fs::path dir(step_dir);
  if (dir.filename().empty()) dir = dir.parent_path();  // "…/step-3/"
  return step_of(dir);
}

namespace {

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

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "localhost";
  return name;
}

// ".step-<n>.tmp-<host>-<pid>": the name says who writes it, so that a save clears only the
// leftovers of writers that are gone and never another live writer's work (two ranks, or two
// runs sharing a run directory).
std::string temp_name(int64_t step) {
  // Appended, not "." + ...: GCC 12 warns (stringop-overflow) on that concatenation falsely.
  std::string name(".");
  name += protocol::run_layout::step_dir_name(step);
  name += ".tmp-" + host_name() + "-" + std::to_string(::getpid());
  return name;
}

// Whether the temporary directory `name` was left by a writer that can no longer finish it: one
// on this host whose process is gone, or this process itself (a save that failed half-way). Names
// of another host, or without a writer (older versions), are left alone.
bool is_abandoned_temp(const std::string& name) {
  const std::string prefix = ".tmp-";
  if (name.rfind(".step-", 0) != 0) return false;
  const size_t tmp = name.find(prefix);
  const size_t dash = name.rfind('-');
  if (tmp == std::string::npos || dash == std::string::npos || dash <= tmp + prefix.size()) {
    return false;
  }
  const std::string host = name.substr(tmp + prefix.size(), dash - tmp - prefix.size());
  const std::string digits = name.substr(dash + 1);
  if (host != host_name() || digits.empty() || digits.size() > 9 ||
      !std::all_of(digits.begin(), digits.end(), ::isdigit)) {
    return false;
  }
  const pid_t pid = static_cast<pid_t>(std::stol(digits));
  if (pid == ::getpid()) return true;
  // ESRCH: no such process. EPERM means it exists under another user: still alive.
  return pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH;
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
  const fs::path final_dir = root / protocol::run_layout::step_dir_name(step);
  const fs::path tmp = root / temp_name(step);
  // Leftovers of a save that was killed half-way are never read; clear those whose writer is gone.
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(root, ec)) {
    if (is_abandoned_temp(entry.path().filename().string())) fs::remove_all(entry.path(), ec);
  }
  try {
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
  } catch (...) {
    fs::remove_all(tmp, ec);  // a full disk keeps no half checkpoint; the older ones stay
    throw;
  }
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
