#pragma once
// Files moe-train's commands write for other programs (--json outputs, profiles): whole or not at
// all, so a reader never sees half a file.
#include <string>

namespace moe::train {

// Writes `text` to `path` under a temporary name beside it, then renames it into place. A file
// that cannot be written is an InputError naming `option` and the path (exit status 2).
void write_file_whole(const std::string& path, const std::string& text, const std::string& option);

}  // namespace moe::train
