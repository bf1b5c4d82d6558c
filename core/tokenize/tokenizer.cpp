// Reading tokenizer.json and the encode/decode pipelines (tokenizer.h).
#include "tokenize/tokenizer.h"

#include <fstream>
#include <sstream>

#include "tokenize/tokenizer_error.h"
#include "tokenize/utf8.h"

namespace moe::tokenize {
namespace {

// The model, which must be BPE (older files leave "type" out; a BPE model has "merges").
std::unique_ptr<BpeModel> make_model(const Json& spec) {
  if (!spec.is_object()) refuse("model", "expected an object");
  const std::string type = spec.contains("type") ? required_string(spec, "type", "model")
                                                 : (spec.contains("merges") ? "BPE" : "");
  if (type != "BPE") {
    refuse_component("model", type.empty() ? "(no type)" : type, "BPE");
  }
  return std::make_unique<BpeModel>(spec, "model");
}

}  // namespace

Tokenizer::Tokenizer(const Json& spec, const std::string& source) {
  try {
    if (!spec.is_object()) refuse("(top level)", "expected an object");
    const std::string version = string_field(spec, "version", "", "1.0");
    if (version != "1.0") refuse("version", "\"" + version + "\" is not 1.0");
    // Encode would truncate or pad the ids; neither is implemented, so neither is ignored.
    for (const char* key : {"truncation", "padding"}) {
      if (spec.contains(key) && !spec[key].is_null()) {
        refuse(key, "is set; truncation and padding are not supported (set it to null)");
      }
    }
    normalizer_ = make_normalizer(spec.value("normalizer", Json()), "normalizer");
    pre_tokenizer_ = make_pre_tokenizer(spec.value("pre_tokenizer", Json()), "pre_tokenizer");
    model_ = make_model(required_field(spec, "model", ""));
    post_processor_ = make_post_processor(spec.value("post_processor", Json()), "post_processor");
    decoder_ = make_decoder(spec.value("decoder", Json()), "decoder");
    added_ = AddedVocabulary(spec.value("added_tokens", Json()), "added_tokens", *model_,
                             normalizer_.get());
  } catch (const TokenizerError& e) {
    throw TokenizerError(source + ": " + e.what());
  } catch (const Json::exception& e) {
    throw TokenizerError(source + ": " + e.what());
  }
}

Tokenizer Tokenizer::from_json(const std::string& json_text, const std::string& source) {
  Json spec;
  try {
    spec = Json::parse(json_text);
  } catch (const Json::parse_error& e) {
    throw TokenizerError(source + ": not valid JSON (" + e.what() + ")");
  }
  return Tokenizer(spec, source);
}

Tokenizer Tokenizer::from_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TokenizerError(path + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  return from_json(text.str(), path);
}

std::vector<std::uint32_t> Tokenizer::encode(const std::string& text,
                                             bool add_special_tokens) const {
  std::vector<Piece> pieces = added_.extract_and_normalize(to_valid_utf8(text), normalizer_.get());
  if (pre_tokenizer_) pre_tokenizer_->pre_tokenize(pieces);
  std::vector<std::uint32_t> ids;
  ids.reserve(text.size() / 3 + 8);
  for (const Piece& piece : pieces) {
    if (piece.token) {
      ids.push_back(*piece.token);
    } else {
      model_->tokenize(piece.text, ids);
    }
  }
  if (add_special_tokens && post_processor_) return post_processor_->process(std::move(ids));
  return ids;
}

const std::string* Tokenizer::id_to_token(std::uint32_t id) const {
  if (const std::string* added = added_.id_to_token(id)) return added;
  return model_->id_to_token(id);
}

std::optional<std::uint32_t> Tokenizer::token_to_id(const std::string& token) const {
  if (const auto added = added_.token_to_id(token)) return added;
  return model_->token_to_id(token);
}

std::size_t Tokenizer::vocab_size() const {
  return model_->vocab_size();
}

std::string Tokenizer::decode(const std::vector<std::uint32_t>& ids,
                              bool skip_special_tokens) const {
  std::vector<std::string> tokens;
  tokens.reserve(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const std::string* token = id_to_token(ids[i]);
    if (!token) {
      throw TokenizerError("id " + std::to_string(ids[i]) + " (position " + std::to_string(i) +
                           ") is not in the vocabulary");
    }
    if (skip_special_tokens && added_.is_special_id(ids[i])) continue;
    tokens.push_back(*token);
  }
  if (!decoder_) {
    std::string joined;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      if (i) joined += ' ';
      joined += tokens[i];
    }
    return joined;
  }
  std::string text;
  for (const std::string& part : decoder_->decode_chain(std::move(tokens))) text += part;
  return text;
}

}  // namespace moe::tokenize
