// The decoders of tokenizer.json (decoder.h), each as `tokenizers` defines it.
#include <optional>

#include "tokenize/byte_level.h"
#include "tokenize/decoder.h"
#include "tokenize/string_pattern.h"
#include "tokenize/utf8.h"

namespace moe::tokenize {
namespace {

constexpr const char* kReplacementChar = "\xEF\xBF\xBD";

// Each token's characters back to the bytes they stand for (a token with a character outside
// the alphabet, e.g. an added token with a space, keeps its own bytes); the bytes of all tokens
// then decoded with U+FFFD for what is not UTF-8 (String::from_utf8_lossy).
class ByteLevelDecoder final : public Decoder {
 public:
  std::vector<std::string> decode_chain(std::vector<std::string> tokens) const override {
    std::string bytes;
    for (const std::string& token : tokens) {
      std::string mapped;
      bool all_mapped = true;
      for (std::size_t pos = 0; pos < token.size() && all_mapped;) {
        const auto byte = byte_level_byte(next_code_point(token, pos));
        if (byte) {
          mapped.push_back(static_cast<char>(*byte));
        } else {
          all_mapped = false;
        }
      }
      bytes += all_mapped ? mapped : token;
    }
    return {to_valid_utf8(bytes)};
  }
};

// The replacement character back to spaces, except in the first token when a prefix was
// prepended (prepend_scheme first or always): there it is dropped.
class MetaspaceDecoder final : public Decoder {
 public:
  MetaspaceDecoder(char32_t replacement, bool prepended)
      : replacement_(replacement), prepended_(prepended) {}
  std::vector<std::string> decode_chain(std::vector<std::string> tokens) const override {
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      std::string out;
      const std::string& token = tokens[i];
      for (std::size_t pos = 0; pos < token.size();) {
        const std::size_t begin = pos;
        if (next_code_point(token, pos) != replacement_) {
          out.append(token, begin, pos - begin);
        } else if (!(i == 0 && prepended_)) {
          out += ' ';
        }
      }
      tokens[i] = std::move(out);
    }
    return tokens;
  }

 private:
  char32_t replacement_;
  bool prepended_;
};

class ReplaceDecoder final : public Decoder {
 public:
  ReplaceDecoder(Regex pattern, std::string content)
      : pattern_(std::move(pattern)), content_(std::move(content)) {}
  std::vector<std::string> decode_chain(std::vector<std::string> tokens) const override {
    for (std::string& token : tokens) token = replace_all(pattern_, token, content_);
    return tokens;
  }

 private:
  Regex pattern_;
  std::string content_;
};

// The byte u8::from_str_radix(token[3..5], 16) reads from a "<0xNN>" token (it takes a leading
// '+', so "<0x+A>" is byte 0x0A), or nothing.
std::optional<unsigned char> byte_token_value(const std::string& token) {
  if (token.size() != 6 || token.compare(0, 3, "<0x") != 0 || token[5] != '>') return std::nullopt;
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  if (token[3] == '+') {
    const int low = digit(token[4]);
    if (low < 0) return std::nullopt;
    return static_cast<unsigned char>(low);
  }
  const int high = digit(token[3]), low = digit(token[4]);
  if (high < 0 || low < 0) return std::nullopt;
  return static_cast<unsigned char>(high * 16 + low);
}

// Runs of <0xNN> tokens become the text their bytes spell, or one U+FFFD per byte when they
// are not valid UTF-8.
class ByteFallbackDecoder final : public Decoder {
 public:
  std::vector<std::string> decode_chain(std::vector<std::string> tokens) const override {
    std::vector<std::string> out;
    out.reserve(tokens.size());
    std::string pending;
    auto flush = [&] {
      if (pending.empty()) return;
      if (is_valid_utf8(pending)) {
        out.push_back(pending);
      } else {
        for (std::size_t i = 0; i < pending.size(); ++i) out.emplace_back(kReplacementChar);
      }
      pending.clear();
    };
    for (std::string& token : tokens) {
      if (const auto byte = byte_token_value(token)) {
        pending.push_back(static_cast<char>(*byte));
        continue;
      }
      flush();
      out.push_back(std::move(token));
    }
    flush();
    return out;
  }
};

class FuseDecoder final : public Decoder {
 public:
  std::vector<std::string> decode_chain(std::vector<std::string> tokens) const override {
    std::string joined;
    for (const std::string& token : tokens) joined += token;
    return {joined};
  }
};

// Up to `start` leading and `stop` trailing `content` characters removed from each token.
class StripDecoder final : public Decoder {
 public:
  StripDecoder(char32_t content, std::size_t start, std::size_t stop)
      : content_(content), start_(start), stop_(stop) {}
  std::vector<std::string> decode_chain(std::vector<std::string> tokens) const override {
    for (std::string& token : tokens) {
      std::vector<std::size_t> offsets;  // byte offset of each character, and the end
      std::vector<char32_t> chars;
      for (std::size_t pos = 0; pos < token.size();) {
        offsets.push_back(pos);
        chars.push_back(next_code_point(token, pos));
      }
      offsets.push_back(token.size());
      std::size_t start_cut = 0;
      for (std::size_t i = 0; i < start_ && i < chars.size() && chars[i] == content_; ++i) {
        start_cut = i + 1;
      }
      std::size_t stop_cut = chars.size();
      for (std::size_t i = 0; i < stop_ && i < chars.size(); ++i) {
        const std::size_t index = chars.size() - i - 1;
        if (chars[index] != content_) break;
        stop_cut = index;
      }
      token = stop_cut > start_cut
                  ? token.substr(offsets[start_cut], offsets[stop_cut] - offsets[start_cut])
                  : std::string();
    }
    return tokens;
  }

 private:
  char32_t content_;
  std::size_t start_, stop_;
};

class SequenceDecoder final : public Decoder {
 public:
  explicit SequenceDecoder(std::vector<std::unique_ptr<Decoder>> steps)
      : steps_(std::move(steps)) {}
  std::vector<std::string> decode_chain(std::vector<std::string> tokens) const override {
    for (const auto& step : steps_) tokens = step->decode_chain(std::move(tokens));
    return tokens;
  }

 private:
  std::vector<std::unique_ptr<Decoder>> steps_;
};

bool metaspace_prepends(const Json& spec, const std::string& path) {
  if (!spec.contains("prepend_scheme") || spec["prepend_scheme"].is_null()) {
    return bool_field(spec, "add_prefix_space", path, true);
  }
  const std::string scheme = required_string(spec, "prepend_scheme", path);
  if (scheme == "first" || scheme == "always") return true;
  if (scheme == "never") return false;
  refuse(path + ".prepend_scheme", "\"" + scheme + "\" is not first, always or never");
}

std::size_t count_field(const Json& spec, const std::string& key, const std::string& path) {
  const long long n = integer_field(spec, key, path, 0);
  if (n < 0) refuse(path + "." + key, "expected a count, not " + std::to_string(n));
  return static_cast<std::size_t>(n);
}

}  // namespace

std::unique_ptr<Decoder> make_decoder(const Json& spec, const std::string& path) {
  if (spec.is_null()) return nullptr;
  const std::string type = component_type(spec, path);
  if (type == "ByteLevel") return std::make_unique<ByteLevelDecoder>();
  if (type == "Metaspace") {
    return std::make_unique<MetaspaceDecoder>(char_field(spec, "replacement", path, U'\u2581'),
                                              metaspace_prepends(spec, path));
  }
  if (type == "Replace") {
    return std::make_unique<ReplaceDecoder>(
        make_pattern(required_field(spec, "pattern", path), path + ".pattern"),
        required_string(spec, "content", path));
  }
  if (type == "ByteFallback") return std::make_unique<ByteFallbackDecoder>();
  if (type == "Fuse") return std::make_unique<FuseDecoder>();
  if (type == "Strip") {
    return std::make_unique<StripDecoder>(char_field(spec, "content", path, U' '),
                                          count_field(spec, "start", path),
                                          count_field(spec, "stop", path));
  }
  if (type == "Sequence") {
    const Json& list = required_field(spec, "decoders", path);
    if (!list.is_array()) refuse(path + ".decoders", "expected an array");
    std::vector<std::unique_ptr<Decoder>> steps;
    for (std::size_t i = 0; i < list.size(); ++i) {
      auto step = make_decoder(list[i], path + ".decoders[" + std::to_string(i) + "]");
      if (step) steps.push_back(std::move(step));
    }
    return std::make_unique<SequenceDecoder>(std::move(steps));
  }
  refuse_component(path, type,
                   "ByteLevel, Metaspace, Replace, ByteFallback, Fuse, Strip, Sequence");
}

}  // namespace moe::tokenize
