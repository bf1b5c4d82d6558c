#include "launch/launch_note.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace moe::launch {

LaunchNote::LaunchNote(bool wanted) {
  if (!wanted) return;
  std::string pattern = (std::filesystem::temp_directory_path() / "moe-launch-XXXXXX").string();
  if (!mkdtemp(pattern.data()))  // mode 0700: only this user reads or writes the note
    throw std::system_error(errno, std::generic_category(), "mkdtemp " + pattern);
  dir_ = pattern;
  path_ = dir_ + "/run-directory";
}

LaunchNote::~LaunchNote() {
  if (dir_.empty()) return;
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

std::string read_launch_note(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_launch_note(const std::string& path, const std::string& run_dir) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << run_dir;
    if (!out.flush()) throw std::runtime_error("cannot write " + temporary);
  }
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) throw std::runtime_error("cannot write " + path + ": " + ec.message());
}

}  // namespace moe::launch
