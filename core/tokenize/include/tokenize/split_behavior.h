#pragma once
// What a pre-tokenizer does with the matches it finds (`tokenizers`' SplitDelimiterBehavior):
// Removed drops them, Isolated keeps each as a piece, MergedWithPrevious / MergedWithNext glue
// each to the piece before / after, Contiguous keeps runs of matches together.
#include <string>
#include <vector>

#include "tokenize/piece.h"
#include "tokenize/regex.h"

namespace moe::tokenize {

enum class SplitBehavior { kRemoved, kIsolated, kMergedWithPrevious, kMergedWithNext, kContiguous };

// From tokenizer.json's name; TokenizerError naming `path` for any other.
SplitBehavior split_behavior_from_name(const std::string& name, const std::string& path);

// `piece` cut along `spans` (which cover it in order) by `behavior`; the non-empty parts are
// appended to `out`.
void split_piece(const Piece& piece, const std::vector<Span>& spans, SplitBehavior behavior,
                 std::vector<Piece>& out);

// The spans of the characters for which `is_match` holds, each character a match of its own
// (`tokenizers`' Pattern for a char predicate).
template <typename Predicate>
std::vector<Span> character_spans(const std::string& text, Predicate is_match);

}  // namespace moe::tokenize

#include "tokenize/utf8.h"

namespace moe::tokenize {

template <typename Predicate>
std::vector<Span> character_spans(const std::string& text, Predicate is_match) {
  std::vector<Span> spans;
  if (text.empty()) {
    spans.push_back({0, 0, false});
    return spans;
  }
  std::size_t gap_start = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t start = pos;
    if (is_match(next_code_point(text, pos))) {
      if (gap_start < start) spans.push_back({gap_start, start, false});
      spans.push_back({start, pos, true});
      gap_start = pos;
    }
  }
  if (gap_start < text.size()) spans.push_back({gap_start, text.size(), false});
  return spans;
}

}  // namespace moe::tokenize
