#pragma once
// The regular expressions of tokenizer.json (Split patterns, Replace patterns, ByteLevel's GPT-2
// pattern), matched with PCRE2 (UTF + UCP, JIT). `tokenizers` compiles them with Oniguruma, whose
// Unicode \s, \w and \h differ from PCRE2's; the pattern is rewritten so those classes mean what
// they mean in Oniguruma (regex_translation.h).
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace moe::tokenize {

// A stretch of the searched text: a match of the pattern, or the text between two matches.
struct Span {
  std::size_t start = 0;
  std::size_t end = 0;
  bool is_match = false;
};

class Regex {
 public:
  // `pattern` in Oniguruma's syntax as tokenizer.json holds it. TokenizerError naming `where`
  // (a JSON path) and PCRE2's message when it does not compile.
  Regex(const std::string& pattern, const std::string& where);
  // A literal string (Split's and Replace's {"String": ...} patterns).
  static Regex literal(const std::string& text, const std::string& where);
  ~Regex();
  Regex(Regex&&) noexcept;
  Regex& operator=(Regex&&) noexcept;

  // The whole of valid UTF-8 `text` cut into matches and the gaps between them, in order, as
  // `tokenizers`' Pattern::find_matches does: an empty text is one empty gap; an empty match
  // right where the previous match ended is skipped.
  std::vector<Span> find_matches(std::string_view text) const;

 private:
  struct Compiled;
  std::unique_ptr<Compiled> compiled_;
};

}  // namespace moe::tokenize
