#include "data/corpus_reader.h"

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "data/fingerprint.h"
#include "data/gz_file.h"

namespace moe::data {
namespace fs = std::filesystem;

namespace {

int64_t size_of(const std::string& file) {
  std::error_code ec;
  const auto size = fs::file_size(file, ec);
  if (ec) fail_file(file, "cannot read its size: " + ec.message());
  return static_cast<int64_t>(size);
}

bool blank(const std::string& line) {
  return std::all_of(line.begin(), line.end(),
                     [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; });
}

}  // namespace

CorpusReader::CorpusReader(std::vector<std::string> files, std::string text_field)
    : files_(std::move(files)), text_field_(std::move(text_field)) {
  for (const auto& f : files_) total_bytes_ += size_of(f);
}

bool CorpusReader::open_next_file() {
  if (next_file_ >= files_.size()) return false;
  in_ = std::ifstream(files_[next_file_++], std::ios::binary);
  if (!in_) fail_file(files_[next_file_ - 1], "cannot open");
  line_ = 0;
  return true;
}

std::string CorpusReader::document(const CorpusRecord& record) const {
  if (record.line == 0) return record.text;
  const std::string& file = files_[record.file];
  const std::string where = "line " + std::to_string(record.line) + ": ";
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(record.text);
  } catch (const nlohmann::json::parse_error& e) {
    fail_file(file, where + "not JSON (" + e.what() + ")");
  }
  if (!j.is_object()) fail_file(file, where + "not a JSON object");
  const auto it = j.find(text_field_);
  if (it == j.end() || !it->is_string()) {
    fail_file(file, where + "has no string field \"" + text_field_ + "\" (data.text_field)");
  }
  return it->get<std::string>();
}

bool CorpusReader::next_batch(std::vector<CorpusRecord>* records, int64_t max_bytes) {
  records->clear();
  int64_t batch_bytes = 0;
  while (batch_bytes < max_bytes) {
    if (!in_.is_open() && !open_next_file()) break;
    const size_t file = next_file_ - 1;
    if (text_field_.empty()) {  // the whole file is one document
      std::ostringstream content;
      content << in_.rdbuf();
      if (in_.bad()) fail_file(files_[file], "read error");
      records->push_back({content.str(), file, 0});
      batch_bytes += static_cast<int64_t>(records->back().text.size());
      in_.close();
      continue;
    }
    std::string line;
    if (!std::getline(in_, line)) {
      if (in_.bad()) fail_file(files_[file], "read error");
      in_.close();
      continue;
    }
    ++line_;
    batch_bytes += static_cast<int64_t>(line.size()) + 1;
    if (!blank(line)) records->push_back({std::move(line), file, line_});
  }
  bytes_read_ = std::min(total_bytes_, bytes_read_ + batch_bytes);
  return !records->empty() || in_.is_open() || next_file_ < files_.size();
}

std::string source_fingerprint(const std::vector<std::string>& files) {
  constexpr int64_t kEdge = 64 * 1024;
  Fingerprint f;
  std::vector<char> buffer(static_cast<size_t>(kEdge));
  for (const auto& file : files) {
    std::error_code ec;
    const auto mtime = fs::last_write_time(file, ec);
    if (ec) fail_file(file, "cannot read its modification time: " + ec.message());
    const int64_t size = size_of(file);
    f.add_field(file).add_number(static_cast<uint64_t>(size));
    f.add_number(static_cast<uint64_t>(mtime.time_since_epoch().count()));
    std::ifstream in(file, std::ios::binary);
    if (!in) fail_file(file, "cannot open");
    for (const int64_t at : {int64_t{0}, std::max<int64_t>(0, size - kEdge)}) {
      in.seekg(at);
      in.read(buffer.data(), kEdge);
      f.add(std::string_view(buffer.data(), static_cast<size_t>(in.gcount())));
      in.clear();
    }
  }
  return f.hex();
}

}  // namespace moe::data
