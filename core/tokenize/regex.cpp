// PCRE2 behind tokenizer.json's patterns: compiled once with UTF and UCP (Unicode properties for
// \d, \b, caseless matching), JIT-compiled for speed; text is validated before it gets here, so
// matching skips PCRE2's own UTF-8 check.
#define PCRE2_CODE_UNIT_WIDTH 8
#include "tokenize/regex.h"

#include <pcre2.h>

#include "tokenize/regex_translation.h"
#include "tokenize/tokenizer_error.h"
#include "tokenize/utf8.h"

namespace moe::tokenize {

struct Regex::Compiled {
  pcre2_code* code = nullptr;
  ~Compiled() { pcre2_code_free(code); }
};

namespace {

// The match data for one search; a new one per find_matches call keeps Regex usable from
// several threads at once.
struct MatchData {
  pcre2_match_data* data;
  explicit MatchData(const pcre2_code* code)
      : data(pcre2_match_data_create_from_pattern(code, nullptr)) {}
  ~MatchData() { pcre2_match_data_free(data); }
};

// Whether PCRE2 knows `name` as a script (\p{sc:name} compiles).
bool is_script_name(const std::string& name) {
  const std::string probe = "\\p{sc:" + name + "}";
  int error = 0;
  PCRE2_SIZE offset = 0;
  pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(probe.data()), probe.size(),
                                   PCRE2_UTF | PCRE2_UCP, &error, &offset, nullptr);
  pcre2_code_free(code);
  return code != nullptr;
}

}  // namespace

Regex::Regex(const std::string& pattern, const std::string& where)
    : compiled_(std::make_unique<Compiled>()) {
  const std::string translated = oniguruma_to_pcre2(pattern, is_script_name);
  int error = 0;
  PCRE2_SIZE offset = 0;
  compiled_->code =
      pcre2_compile(reinterpret_cast<PCRE2_SPTR>(translated.data()), translated.size(),
                    PCRE2_UTF | PCRE2_UCP, &error, &offset, nullptr);
  if (!compiled_->code) {
    PCRE2_UCHAR message[256];
    pcre2_get_error_message(error, message, sizeof message);
    throw TokenizerError(where + ": the pattern \"" + pattern + "\" does not compile (" +
                         reinterpret_cast<const char*>(message) + " at offset " +
                         std::to_string(offset) + ")");
  }
  // JIT is an optimisation: where it is unavailable the interpreter gives the same matches.
  pcre2_jit_compile(compiled_->code, PCRE2_JIT_COMPLETE);
}

Regex Regex::literal(const std::string& text, const std::string& where) {
  return Regex(escape_literal(text), where);
}

Regex::~Regex() = default;
Regex::Regex(Regex&&) noexcept = default;
Regex& Regex::operator=(Regex&&) noexcept = default;

std::vector<Span> Regex::find_matches(std::string_view text) const {
  std::vector<Span> spans;
  if (text.empty()) {
    spans.push_back({0, 0, false});
    return spans;
  }
  MatchData match(compiled_->code);
  const auto* subject = reinterpret_cast<PCRE2_SPTR>(text.data());
  std::size_t search_from = 0;
  std::size_t previous_end = 0;  // where the last kept match ended
  bool have_previous = false;
  std::size_t gap_start = 0;
  while (search_from <= text.size()) {
    const int rc = pcre2_match(compiled_->code, subject, text.size(), search_from,
                               PCRE2_NO_UTF_CHECK, match.data, nullptr);
    if (rc < 0) break;  // PCRE2_ERROR_NOMATCH, or a limit hit: the rest is a gap
    const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(match.data);
    const std::size_t start = ovector[0], end = ovector[1];
    if (start == end && have_previous && end == previous_end) {
      // Oniguruma's find_iter: no empty match right after the previous one; one character on.
      if (search_from >= text.size()) break;
      search_from += utf8_length(static_cast<unsigned char>(text[search_from]));
      continue;
    }
    if (gap_start != start) spans.push_back({gap_start, start, false});
    spans.push_back({start, end, true});
    gap_start = end;
    previous_end = end;
    have_previous = true;
    if (end == start) {
      if (end >= text.size()) break;
      search_from = end + utf8_length(static_cast<unsigned char>(text[end]));
    } else {
      search_from = end;
    }
  }
  if (gap_start != text.size()) spans.push_back({gap_start, text.size(), false});
  return spans;
}

}  // namespace moe::tokenize
