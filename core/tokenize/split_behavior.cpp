// SplitDelimiterBehavior, as NormalizedString::split applies it.
#include "tokenize/split_behavior.h"

#include <algorithm>

#include "tokenize/json_fields.h"

namespace moe::tokenize {

SplitBehavior split_behavior_from_name(const std::string& name, const std::string& path) {
  if (name == "Removed") return SplitBehavior::kRemoved;
  if (name == "Isolated") return SplitBehavior::kIsolated;
  if (name == "MergedWithPrevious") return SplitBehavior::kMergedWithPrevious;
  if (name == "MergedWithNext") return SplitBehavior::kMergedWithNext;
  if (name == "Contiguous") return SplitBehavior::kContiguous;
  refuse(path, "\"" + name +
                   "\" is not a split behavior (Removed, Isolated, MergedWithPrevious, "
                   "MergedWithNext, Contiguous)");
}

namespace {

struct Part {
  std::size_t start, end;
  bool keep;
};

// The parts each behavior makes of the spans: the folds of `tokenizers`' split, step by step.
std::vector<Part> parts_of(const std::vector<Span>& spans, SplitBehavior behavior) {
  std::vector<Part> parts;
  parts.reserve(spans.size());
  bool previous_match = false;
  switch (behavior) {
    case SplitBehavior::kIsolated:
      for (const Span& s : spans) parts.push_back({s.start, s.end, true});
      break;
    case SplitBehavior::kRemoved:
      for (const Span& s : spans) parts.push_back({s.start, s.end, !s.is_match});
      break;
    case SplitBehavior::kContiguous:
      for (const Span& s : spans) {
        if (s.is_match == previous_match && !parts.empty()) {
          parts.back().end = s.end;
        } else {
          parts.push_back({s.start, s.end, true});
        }
        previous_match = s.is_match;
      }
      break;
    case SplitBehavior::kMergedWithPrevious:
      for (const Span& s : spans) {
        if (s.is_match && !previous_match && !parts.empty()) {
          parts.back().end = s.end;
        } else {
          parts.push_back({s.start, s.end, true});
        }
        previous_match = s.is_match;
      }
      break;
    case SplitBehavior::kMergedWithNext:
      // Walked from the end: a match joins the part after it.
      for (auto it = spans.rbegin(); it != spans.rend(); ++it) {
        if (it->is_match && !previous_match && !parts.empty()) {
          parts.back().start = it->start;
        } else {
          parts.push_back({it->start, it->end, true});
        }
        previous_match = it->is_match;
      }
      std::reverse(parts.begin(), parts.end());
      break;
  }
  return parts;
}

}  // namespace

void split_piece(const Piece& piece, const std::vector<Span>& spans, SplitBehavior behavior,
                 std::vector<Piece>& out) {
  for (const Part& part : parts_of(spans, behavior)) {
    if (!part.keep || part.end == part.start) continue;
    Piece sub;
    sub.text = piece.text.substr(part.start, part.end - part.start);
    sub.at_text_start = piece.at_text_start && part.start == 0;
    out.push_back(std::move(sub));
  }
}

}  // namespace moe::tokenize
