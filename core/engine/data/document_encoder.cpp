#include "data/document_encoder.h"

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "data/batch_source.h"
#include "data/fingerprint.h"
#include "data/gz_file.h"
#include "tokenize/tokenizer.h"
#include "tokenize/tokenizer_error.h"

namespace moe::data {
namespace fs = std::filesystem;

namespace {

std::string read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail_file(path, "cannot open");
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// A JSON file beside the tokenizer, or nothing when it is missing or not a JSON object.
std::optional<nlohmann::json> sibling_json(const fs::path& dir, const char* name) {
  std::error_code ec;
  if (!fs::is_regular_file(dir / name, ec)) return std::nullopt;
  nlohmann::json j = nlohmann::json::parse(read_whole((dir / name).string()), nullptr, false);
  if (!j.is_object()) return std::nullopt;
  return j;
}

// The EOS id that the Hugging Face files beside the tokenizer name, in the order transformers
// trusts them.
std::optional<uint32_t> eos_beside(const tokenize::Tokenizer& tokenizer, const fs::path& dir) {
  if (const auto config = sibling_json(dir, "tokenizer_config.json")) {
    const auto it = config->find("eos_token");
    if (it != config->end()) {
      const nlohmann::json& token = it->is_object() ? it->value("content", nlohmann::json()) : *it;
      if (token.is_string()) {
        if (const auto id = tokenizer.token_to_id(token.get<std::string>())) return id;
      }
    }
  }
  for (const char* name : {"config.json", "generation_config.json"}) {
    const auto config = sibling_json(dir, name);
    if (!config || !config->contains("eos_token_id")) continue;
    nlohmann::json id = (*config)["eos_token_id"];
    if (id.is_array() && !id.empty()) id = id[0];
    if (id.is_number_unsigned() && id.get<uint64_t>() <= 0xFFFFFFFFull) return id.get<uint32_t>();
  }
  return std::nullopt;
}

class TokenizerEncoder : public DocumentEncoder {
 public:
  TokenizerEncoder(std::string file, tokenize::Tokenizer tokenizer, uint32_t eos,
                   std::string fingerprint)
      : file_(std::move(file)),
        tokenizer_(std::move(tokenizer)),
        eos_(eos),
        fingerprint_(std::move(fingerprint)) {}

  std::vector<uint32_t> encode(const std::string& document) const override {
    std::vector<uint32_t> ids = tokenizer_.encode(document);
    ids.push_back(eos_);
    return ids;
  }
  uint32_t eos() const override { return eos_; }
  std::string name() const override { return file_; }
  std::string fingerprint() const override { return fingerprint_; }

 private:
  const std::string file_;
  const tokenize::Tokenizer tokenizer_;
  const uint32_t eos_;
  const std::string fingerprint_;
};

class ByteEncoder : public DocumentEncoder {
 public:
  explicit ByteEncoder(uint32_t eos) : eos_(eos) {}
  std::vector<uint32_t> encode(const std::string& document) const override {
    std::vector<uint32_t> ids(document.begin(), document.end());
    for (size_t i = 0; i < document.size(); ++i) ids[i] = static_cast<unsigned char>(document[i]);
    ids.push_back(eos_);
    return ids;
  }
  uint32_t eos() const override { return eos_; }
  std::string name() const override { return "bytes"; }
  std::string fingerprint() const override {
    return Fingerprint().add_field("bytes").add_number(eos_).hex();
  }

 private:
  const uint32_t eos_;
};

}  // namespace

std::string tokenizer_file(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(path, ec) ? (fs::path(path) / "tokenizer.json").string() : path;
}

std::unique_ptr<DocumentEncoder> tokenizer_encoder(const std::string& tokenizer, int64_t eos) {
  const std::string file = tokenizer_file(tokenizer);
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    throw DataError("data.tokenizer '" + tokenizer + "': no tokenizer.json there");
  }
  const std::string text = read_whole(file);
  std::optional<tokenize::Tokenizer> loaded;
  try {
    loaded.emplace(tokenize::Tokenizer::from_json(text, file));
  } catch (const tokenize::TokenizerError& e) {
    throw DataError(std::string("data.tokenizer: ") + e.what());
  }
  std::optional<uint32_t> id;
  if (eos >= 0) {
    id = static_cast<uint32_t>(eos);
  } else {
    id = eos_beside(*loaded, fs::path(file).parent_path());
  }
  if (!id) {
    throw DataError("data.tokenizer '" + file +
                    "': no EOS token found beside it (tokenizer_config.json \"eos_token\", "
                    "config.json or generation_config.json \"eos_token_id\"); set "
                    "data.eos_token to its id");
  }
  const std::string fingerprint = Fingerprint().add_field(text).add_number(*id).hex();
  return std::make_unique<TokenizerEncoder>(file, std::move(*loaded), *id, fingerprint);
}

std::unique_ptr<DocumentEncoder> byte_encoder(int64_t eos) {
  return std::make_unique<ByteEncoder>(eos >= 0 ? static_cast<uint32_t>(eos) : 10u);
}

}  // namespace moe::data
