#include "train/output_file.h"

#include <filesystem>
#include <fstream>

#include "train/input_error.h"

namespace moe::train {

void write_file_whole(const std::string& path, const std::string& text, const std::string& option) {
  // Beside the target, so the rename stays on one file system and is atomic.
  const std::string partial = path + ".partial";
  std::error_code ignored;
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    if (!(out << text) || !out.flush()) {
      std::filesystem::remove(partial, ignored);
      throw InputError(option + " " + path + ": cannot write");
    }
  }
  std::error_code ec;
  std::filesystem::rename(partial, path, ec);
  if (ec) {
    std::filesystem::remove(partial, ignored);
    throw InputError(option + " " + path + ": cannot write: " + ec.message());
  }
}

}  // namespace moe::train
