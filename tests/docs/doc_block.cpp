#include "doc_block.h"

#include <map>
#include <sstream>
#include <vector>

namespace moe::docs {
namespace {

struct Span {
  size_t begin, end;  // the block: after the BEGIN line's newline, up to the END line's start
};

std::optional<Span> find_block(const std::string& document) {
  const std::string begin = kBeginMarker, end = kEndMarker;
  const size_t b = document.find(begin);
  const size_t e = document.find(end);
  if (b == std::string::npos || e == std::string::npos || e < b) return std::nullopt;
  if (document.find(begin, b + 1) != std::string::npos) return std::nullopt;
  if (document.find(end, e + 1) != std::string::npos) return std::nullopt;
  const size_t line_end = document.find('\n', b);
  if (line_end == std::string::npos || line_end > e) return std::nullopt;
  return Span{line_end + 1, e};
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// "| `moe.top_k` | integer | ..." -> "moe.top_k"; "" for lines that are not key rows.
std::string row_key(const std::string& line) {
  if (line.rfind("| `", 0) != 0) return "";
  const size_t end = line.find('`', 3);
  return end == std::string::npos ? "" : line.substr(3, end - 3);
}

}  // namespace

std::optional<std::string> extract_block(const std::string& document) {
  const auto span = find_block(document);
  if (!span) return std::nullopt;
  return document.substr(span->begin, span->end - span->begin);
}

std::optional<std::string> replace_block(const std::string& document, const std::string& block) {
  const auto span = find_block(document);
  if (!span) return std::nullopt;
  return document.substr(0, span->begin) + block + document.substr(span->end);
}

std::string describe_differences(const std::string& documented, const std::string& generated) {
  if (documented == generated) return "";
  const auto doc_lines = lines_of(documented), gen_lines = lines_of(generated);
  std::map<std::string, std::string> doc_rows;
  std::vector<std::string> doc_order;
  for (const auto& line : doc_lines) {
    const std::string key = row_key(line);
    if (key.empty()) continue;
    doc_rows[key] = line;
    doc_order.push_back(key);
  }
  std::string out;
  std::vector<std::string> gen_order;
  for (const auto& line : gen_lines) {
    const std::string key = row_key(line);
    if (key.empty()) continue;
    gen_order.push_back(key);
    auto it = doc_rows.find(key);
    if (it == doc_rows.end()) {
      out += "key " + key + ": missing from the document; the code has\n  " + line + "\n";
    } else if (it->second != line) {
      out += "key " + key + ": the document has\n  " + it->second + "\nbut the code gives\n  " +
             line + "\n";
    }
  }
  std::map<std::string, bool> generated_keys;
  for (const auto& key : gen_order) generated_keys[key] = true;
  for (const auto& key : doc_order) {
    if (!generated_keys.count(key))
      out += "key " + key + ": in the document, but not in RunConfig\n";
  }
  if (out.empty() && doc_order != gen_order) out += "the keys are in a different order\n";
  // Same rows in the same order: the difference is in the header or the lines around the table.
  if (out.empty()) out += "the table's header or surrounding lines differ\n";
  return out;
}

}  // namespace moe::docs
