#pragma once
// A file of one `moe-train launch --max-restarts`, in a private temporary directory: rank 0 notes
// there the run directory it made (MOE_LAUNCH_NOTE), so that the ranks started again after a
// failure continue that run from its last checkpoint. Removed with the object.
#include <string>

namespace moe::launch {

class LaunchNote {
 public:
  explicit LaunchNote(bool wanted);  // no file when not wanted; throws std::system_error
  ~LaunchNote();
  LaunchNote(const LaunchNote&) = delete;
  LaunchNote& operator=(const LaunchNote&) = delete;
  const std::string& path() const { return path_; }  // empty when not wanted

 private:
  std::string dir_, path_;
};

// The run directory noted at `path` (MOE_LAUNCH_NOTE), "" when none was noted yet.
std::string read_launch_note(const std::string& path);
// Notes `run_dir` at `path`, replacing the file whole (write, then rename).
void write_launch_note(const std::string& path, const std::string& run_dir);

}  // namespace moe::launch
