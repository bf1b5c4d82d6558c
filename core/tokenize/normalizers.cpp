// The normalizers of tokenizer.json (normalizer.h), each as `tokenizers` defines it.
#include <vector>

#include "tokenize/byte_level.h"
#include "tokenize/normalizer.h"
#include "tokenize/string_pattern.h"
#include "tokenize/unicode_text.h"
#include "tokenize/utf8.h"

namespace moe::tokenize {
namespace {

class UnicodeNormalizer final : public Normalizer {
 public:
  explicit UnicodeNormalizer(NormalForm form) : form_(form) {}
  void normalize(std::string& text) const override { text = moe::tokenize::normalize(text, form_); }

 private:
  NormalForm form_;
};

class Lowercase final : public Normalizer {
 public:
  void normalize(std::string& text) const override { text = to_lowercase(text); }
};

// Leading and/or trailing White_Space characters removed.
class Strip final : public Normalizer {
 public:
  Strip(bool left, bool right) : left_(left), right_(right) {}
  void normalize(std::string& text) const override {
    std::size_t begin = 0, end = text.size();
    if (left_) {
      for (std::size_t pos = 0; pos < text.size();) {
        if (!is_whitespace(next_code_point(text, pos))) break;
        begin = pos;
      }
    }
    if (right_) {
      std::size_t last_kept = begin;  // end of the last non-space character
      for (std::size_t pos = begin; pos < text.size();) {
        if (!is_whitespace(next_code_point(text, pos))) last_kept = pos;
      }
      end = last_kept;
    }
    text = text.substr(begin, end - begin);
  }

 private:
  bool left_, right_;
};

// Combining marks (Mn, Mc, Me) removed (meant to follow NFD or NFKD).
class StripAccents final : public Normalizer {
 public:
  void normalize(std::string& text) const override {
    std::string out;
    out.reserve(text.size());
    for (std::size_t pos = 0; pos < text.size();) {
      const std::size_t at = pos;
      if (!is_mark(next_code_point(text, pos))) out.append(text, at, pos - at);
    }
    text = std::move(out);
  }
};

class Replace final : public Normalizer {
 public:
  Replace(Regex pattern, std::string content)
      : pattern_(std::move(pattern)), content_(std::move(content)) {}
  void normalize(std::string& text) const override { text = replace_all(pattern_, text, content_); }

 private:
  Regex pattern_;
  std::string content_;
};

// `prepend` put before any non-empty piece.
class Prepend final : public Normalizer {
 public:
  explicit Prepend(std::string prepend) : prepend_(std::move(prepend)) {}
  void normalize(std::string& text) const override {
    if (!text.empty()) text.insert(0, prepend_);
  }

 private:
  std::string prepend_;
};

class ByteLevelNormalizer final : public Normalizer {
 public:
  void normalize(std::string& text) const override { text = to_byte_level(text); }
};

class SequenceNormalizer final : public Normalizer {
 public:
  explicit SequenceNormalizer(std::vector<std::unique_ptr<Normalizer>> steps)
      : steps_(std::move(steps)) {}
  void normalize(std::string& text) const override {
    for (const auto& step : steps_) step->normalize(text);
  }

 private:
  std::vector<std::unique_ptr<Normalizer>> steps_;
};

}  // namespace

std::unique_ptr<Normalizer> make_normalizer(const Json& spec, const std::string& path) {
  if (spec.is_null()) return nullptr;
  const std::string type = component_type(spec, path);
  if (type == "NFC") return std::make_unique<UnicodeNormalizer>(NormalForm::kNfc);
  if (type == "NFD") return std::make_unique<UnicodeNormalizer>(NormalForm::kNfd);
  if (type == "NFKC") return std::make_unique<UnicodeNormalizer>(NormalForm::kNfkc);
  if (type == "NFKD") return std::make_unique<UnicodeNormalizer>(NormalForm::kNfkd);
  if (type == "Lowercase") return std::make_unique<Lowercase>();
  if (type == "StripAccents") return std::make_unique<StripAccents>();
  if (type == "ByteLevel") return std::make_unique<ByteLevelNormalizer>();
  if (type == "Strip") {
    return std::make_unique<Strip>(bool_field(spec, "strip_left", path, true),
                                   bool_field(spec, "strip_right", path, true));
  }
  if (type == "Replace") {
    return std::make_unique<Replace>(
        make_pattern(required_field(spec, "pattern", path), path + ".pattern"),
        required_string(spec, "content", path));
  }
  if (type == "Prepend") return std::make_unique<Prepend>(required_string(spec, "prepend", path));
  if (type == "Sequence") {
    const Json& list = required_field(spec, "normalizers", path);
    if (!list.is_array()) refuse(path + ".normalizers", "expected an array");
    std::vector<std::unique_ptr<Normalizer>> steps;
    for (std::size_t i = 0; i < list.size(); ++i) {
      auto step = make_normalizer(list[i], path + ".normalizers[" + std::to_string(i) + "]");
      if (step) steps.push_back(std::move(step));
    }
    return std::make_unique<SequenceNormalizer>(std::move(steps));
  }
  refuse_component(path, type,
                   "NFC, NFD, NFKC, NFKD, Lowercase, Strip, StripAccents, Replace, Prepend, "
                   "ByteLevel, Sequence");
}

}  // namespace moe::tokenize
