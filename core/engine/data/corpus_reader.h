#pragma once
// The documents of a text corpus, read in batches for the token cache: data.kind "text" (each
// file is one document; a folder, every file below it in path order) or "jsonl" (each non-blank
// line of each file is a JSON object whose data.text_field string is one document).
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace moe::data {

// One document as read: a whole file's text, or one line of JSON not parsed yet (parsing is left
// to the threads that encode, which is where the time goes).
struct CorpusRecord {
  std::string text;
  size_t file = 0;   // index into the reader's files
  int64_t line = 0;  // 1-based line of a JSON Lines record; 0 for a whole file
};

class CorpusReader {
 public:
  // `files`: data_files(data.path). `text_field` "" reads each file as one document.
  CorpusReader(std::vector<std::string> files, std::string text_field);

  // The next records, about `max_bytes` of input (at least one unless the corpus is done), into
  // *records; false once every file is read. Blank lines of JSON Lines are skipped.
  bool next_batch(std::vector<CorpusRecord>* records, int64_t max_bytes);

  // The document of a record: the file's text, or the JSON line's `text_field` string. DataError
  // naming the file and line for a line that is not a JSON object with that string field. Safe
  // to call from several threads at once.
  std::string document(const CorpusRecord& record) const;

  // Bytes of input consumed so far, and in all.
  int64_t bytes_read() const { return bytes_read_; }
  int64_t total_bytes() const { return total_bytes_; }

 private:
  bool open_next_file();

  const std::vector<std::string> files_;
  const std::string text_field_;
  size_t next_file_ = 0;
  std::ifstream in_;
  int64_t line_ = 0;
  int64_t bytes_read_ = 0, total_bytes_ = 0;
};

// What a cache records of its source: each file's path, size, modification time and its first
// and last 64 KiB, hashed (data/fingerprint.h). Changes when a file is edited, added or removed.
std::string source_fingerprint(const std::vector<std::string>& files);

}  // namespace moe::data
