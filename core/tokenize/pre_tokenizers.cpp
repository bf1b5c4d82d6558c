// The pre-tokenizers of tokenizer.json (pre_tokenizer.h), each as `tokenizers` defines it.
#include "tokenize/byte_level.h"
#include "tokenize/pre_tokenizer.h"
#include "tokenize/split_behavior.h"
#include "tokenize/string_pattern.h"
#include "tokenize/unicode_text.h"
#include "tokenize/utf8.h"

namespace moe::tokenize {
namespace {

// Applies `cut(piece, out)` to every piece that is not an added token.
template <typename Cut>
void cut_pieces(std::vector<Piece>& pieces, Cut cut) {
  std::vector<Piece> out;
  out.reserve(pieces.size() * 4);
  for (Piece& piece : pieces) {
    if (piece.token) {
      out.push_back(std::move(piece));
    } else {
      cut(piece, out);
    }
  }
  pieces = std::move(out);
}

class Split final : public PreTokenizer {
 public:
  Split(Regex pattern, SplitBehavior behavior, bool invert)
      : pattern_(std::move(pattern)), behavior_(behavior), invert_(invert) {}
  void pre_tokenize(std::vector<Piece>& pieces) const override {
    cut_pieces(pieces, [&](const Piece& piece, std::vector<Piece>& out) {
      auto spans = pattern_.find_matches(piece.text);
      if (invert_) {
        for (Span& span : spans) span.is_match = !span.is_match;
      }
      split_piece(piece, spans, behavior_, out);
    });
  }

 private:
  Regex pattern_;
  SplitBehavior behavior_;
  bool invert_;
};

// A space before each piece that lacks one (add_prefix_space), GPT-2's pattern (use_regex), then
// every byte as its byte-level character.
class ByteLevel final : public PreTokenizer {
 public:
  ByteLevel(bool add_prefix_space, bool use_regex) : add_prefix_space_(add_prefix_space) {
    if (use_regex) pattern_ = std::make_unique<Regex>(kGpt2Pattern, "ByteLevel");
  }
  void pre_tokenize(std::vector<Piece>& pieces) const override {
    cut_pieces(pieces, [&](Piece& piece, std::vector<Piece>& out) {
      if (add_prefix_space_ && piece.text.front() != ' ') piece.text.insert(0, 1, ' ');
      const std::size_t first = out.size();
      if (pattern_) {
        split_piece(piece, pattern_->find_matches(piece.text), SplitBehavior::kIsolated, out);
      } else {
        out.push_back(std::move(piece));
      }
      for (std::size_t i = first; i < out.size(); ++i) out[i].text = to_byte_level(out[i].text);
    });
  }

 private:
  bool add_prefix_space_;
  std::unique_ptr<Regex> pattern_;
};

class Digits final : public PreTokenizer {
 public:
  explicit Digits(bool individual) : individual_(individual) {}
  void pre_tokenize(std::vector<Piece>& pieces) const override {
    cut_pieces(pieces, [&](const Piece& piece, std::vector<Piece>& out) {
      split_piece(piece, character_spans(piece.text, is_numeric),
                  individual_ ? SplitBehavior::kIsolated : SplitBehavior::kContiguous, out);
    });
  }

 private:
  bool individual_;
};

enum class PrependScheme { kFirst, kAlways, kNever };

// Spaces become the replacement character, which is put before the piece (always, or only at
// the start of the text) and, with `split`, starts every word.
class Metaspace final : public PreTokenizer {
 public:
  Metaspace(char32_t replacement, PrependScheme scheme, bool split)
      : replacement_(replacement), scheme_(scheme), split_(split) {
    append_utf8(replacement_text_, replacement);
  }
  void pre_tokenize(std::vector<Piece>& pieces) const override {
    cut_pieces(pieces, [&](Piece& piece, std::vector<Piece>& out) {
      piece.text = replace_spaces(piece.text);
      const bool starts_with_replacement = piece.text.rfind(replacement_text_, 0) == 0;
      if (!starts_with_replacement && (scheme_ == PrependScheme::kAlways ||
                                       (scheme_ == PrependScheme::kFirst && piece.at_text_start))) {
        piece.text.insert(0, replacement_text_);
      }
      if (!split_) {
        out.push_back(std::move(piece));
        return;
      }
      const char32_t replacement = replacement_;
      split_piece(
          piece,
          character_spans(piece.text, [replacement](char32_t c) { return c == replacement; }),
          SplitBehavior::kMergedWithNext, out);
    });
  }

 private:
  char32_t replacement_;
  PrependScheme scheme_;
  bool split_;
  std::string replacement_text_;

  std::string replace_spaces(const std::string& text) const {
    std::string out;
    out.reserve(text.size() + 8);
    for (const char c : text) {
      if (c == ' ') {
        out += replacement_text_;
      } else {
        out += c;
      }
    }
    return out;
  }
};

class WhitespaceSplit final : public PreTokenizer {
 public:
  void pre_tokenize(std::vector<Piece>& pieces) const override {
    cut_pieces(pieces, [&](const Piece& piece, std::vector<Piece>& out) {
      split_piece(piece, character_spans(piece.text, is_whitespace), SplitBehavior::kRemoved, out);
    });
  }
};

class SequencePreTokenizer final : public PreTokenizer {
 public:
  explicit SequencePreTokenizer(std::vector<std::unique_ptr<PreTokenizer>> steps)
      : steps_(std::move(steps)) {}
  void pre_tokenize(std::vector<Piece>& pieces) const override {
    for (const auto& step : steps_) step->pre_tokenize(pieces);
  }

 private:
  std::vector<std::unique_ptr<PreTokenizer>> steps_;
};

PrependScheme prepend_scheme(const Json& spec, const std::string& path) {
  // Older files have add_prefix_space instead: true is "always".
  if (!spec.contains("prepend_scheme") || spec["prepend_scheme"].is_null()) {
    return bool_field(spec, "add_prefix_space", path, true) ? PrependScheme::kAlways
                                                            : PrependScheme::kNever;
  }
  const std::string scheme = required_string(spec, "prepend_scheme", path);
  if (scheme == "first") return PrependScheme::kFirst;
  if (scheme == "always") return PrependScheme::kAlways;
  if (scheme == "never") return PrependScheme::kNever;
  refuse(path + ".prepend_scheme", "\"" + scheme + "\" is not first, always or never");
}

std::unique_ptr<PreTokenizer> make_metaspace(const Json& spec, const std::string& path) {
  return std::make_unique<Metaspace>(char_field(spec, "replacement", path, U'\u2581'),
                                     prepend_scheme(spec, path),
                                     bool_field(spec, "split", path, true));
}

}  // namespace

std::unique_ptr<PreTokenizer> make_pre_tokenizer(const Json& spec, const std::string& path) {
  if (spec.is_null()) return nullptr;
  const std::string type = component_type(spec, path);
  if (type == "ByteLevel") {
    return std::make_unique<ByteLevel>(bool_field(spec, "add_prefix_space", path, true),
                                       bool_field(spec, "use_regex", path, true));
  }
  if (type == "Split") {
    return std::make_unique<Split>(
        make_pattern(required_field(spec, "pattern", path), path + ".pattern"),
        split_behavior_from_name(required_string(spec, "behavior", path), path + ".behavior"),
        bool_field(spec, "invert", path, false));
  }
  if (type == "Digits") {
    return std::make_unique<Digits>(bool_field(spec, "individual_digits", path, false));
  }
  if (type == "Metaspace") return make_metaspace(spec, path);
  if (type == "WhitespaceSplit") return std::make_unique<WhitespaceSplit>();
  if (type == "Sequence") {
    const Json& list = required_field(spec, "pretokenizers", path);
    if (!list.is_array()) refuse(path + ".pretokenizers", "expected an array");
    std::vector<std::unique_ptr<PreTokenizer>> steps;
    for (std::size_t i = 0; i < list.size(); ++i) {
      auto step = make_pre_tokenizer(list[i], path + ".pretokenizers[" + std::to_string(i) + "]");
      if (step) steps.push_back(std::move(step));
    }
    return std::make_unique<SequencePreTokenizer>(std::move(steps));
  }
  refuse_component(path, type, "ByteLevel, Split, Digits, Metaspace, WhitespaceSplit, Sequence");
}

}  // namespace moe::tokenize
