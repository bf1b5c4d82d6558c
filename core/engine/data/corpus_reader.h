#pragma once
// The documents of a text corpus, read in batches for the token cache: data.kind "text" (each
// file is one document; a folder, every file below it in path order) or "jsonl" (each non-blank
// line of each file is a JSON object whose data.text_field string is one document).
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace moe::data {

class CorpusReader {
 public:
  // `files`: data_files(data.path). `text_field` "" reads each file as one document.
  CorpusReader(std::vector<std::string> files, std::string text_field);

  // The next documents, about `max_bytes` of input (at least one document unless the corpus is
  // done), into *docs; false once every file is read. DataError naming the file and line for a
  // line that is not a JSON object with a string `text_field`.
  bool next_batch(std::vector<std::string>* docs, int64_t max_bytes);

  // Bytes of input consumed so far, and in all.
  int64_t bytes_read() const { return bytes_read_; }
  int64_t total_bytes() const { return total_bytes_; }

 private:
  bool open_next_file();
  std::string document_of_line(const std::string& line) const;

  const std::vector<std::string> files_;
  const std::string text_field_;
  size_t next_file_ = 0;
  std::ifstream in_;
  std::string file_;  // the file being read
  int64_t line_ = 0;
  int64_t bytes_read_ = 0, total_bytes_ = 0;
};

// What a cache records of its source: each file's path, size, modification time and its first
// and last 64 KiB, hashed (data/fingerprint.h). Changes when a file is edited, added or removed.
std::string source_fingerprint(const std::vector<std::string>& files);

}  // namespace moe::data
