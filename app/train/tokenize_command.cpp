// moe-train tokenize --model DIR (--text TEXT | --file F) [--decode] [--no-special-tokens]
// [--keep-special-tokens]: the ids of a text under a Hugging Face model folder's tokenizer.json
// as one JSON array, or with --decode the text of a JSON array of ids as one JSON string
// (docs/TOKENIZERS.md). Defaults are the `tokenizers` package's: encode adds the
// post-processor's special tokens, decode skips special tokens.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "commands.h"
#include "tokenize/tokenizer.h"
#include "tokenize/tokenizer_error.h"
#include "train/input_error.h"

namespace moe::train {
namespace {

struct TokenizeOptions {
  std::string model_dir;
  std::string text;
  std::string file;
  bool decode = false;
  bool no_special_tokens = false;
  bool keep_special_tokens = false;
};

std::string read_input_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot be read");
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

// A JSON array of token ids; `source` names where it came from in errors.
std::vector<std::uint32_t> parse_ids(const std::string& json_text, const std::string& source) {
  nlohmann::json ids;
  try {
    ids = nlohmann::json::parse(json_text);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(source + ": not a JSON array of token ids (" + e.what() + ")");
  }
  if (!ids.is_array()) throw InputError(source + ": expected a JSON array of token ids");
  std::vector<std::uint32_t> out;
  out.reserve(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (!ids[i].is_number_unsigned() || ids[i].get<std::uint64_t>() > 0xFFFFFFFFull) {
      throw InputError(source + ": element " + std::to_string(i) + " (" + ids[i].dump() +
                       ") is not a token id (a non-negative integer)");
    }
    out.push_back(ids[i].get<std::uint32_t>());
  }
  return out;
}

tokenize::Tokenizer load_tokenizer(const std::string& model_dir) {
  namespace fs = std::filesystem;
  if (!fs::is_directory(model_dir)) {
    throw InputError(model_dir + ": not a folder (--model takes a Hugging Face model folder)");
  }
  const fs::path file = fs::path(model_dir) / "tokenizer.json";
  if (!fs::is_regular_file(file)) throw InputError(file.string() + ": no such file");
  return tokenize::Tokenizer::from_file(file.string());
}

int run_tokenize(const TokenizeOptions& options) {
  try {
    const tokenize::Tokenizer tokenizer = load_tokenizer(options.model_dir);
    const std::string input = options.file.empty() ? options.text : read_input_file(options.file);
    const std::string source = options.file.empty() ? "--text" : options.file;
    if (options.decode) {
      const std::string text =
          tokenizer.decode(parse_ids(input, source), !options.keep_special_tokens);
      std::cout << nlohmann::json(text).dump(-1, ' ', false,
                                             nlohmann::json::error_handler_t::replace)
                << "\n";
    } else {
      std::cout << nlohmann::json(tokenizer.encode(input, !options.no_special_tokens)).dump()
                << "\n";
    }
  } catch (const tokenize::TokenizerError& e) {
    throw InputError(e.what());  // a tokenizer.json or ids it cannot use: exit status 2
  }
  return std::cout.flush() ? kExitOk : kExitRuntimeFailure;
}

}  // namespace

Command add_tokenize_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "tokenize", "Print the token ids of a text (or the text of ids) under a tokenizer.json");
  auto options = std::make_shared<TokenizeOptions>();
  cmd->add_option("--model", options->model_dir, "Hugging Face model folder with tokenizer.json")
      ->required();
  auto* text = cmd->add_option("--text", options->text, "The text (with --decode: a JSON array)");
  auto* file = cmd->add_option("--file", options->file, "Read the text (or JSON ids) from a file");
  text->excludes(file);
  file->excludes(text);
  cmd->add_flag("--decode", options->decode, "Decode a JSON array of ids to text");
  cmd->add_flag("--no-special-tokens", options->no_special_tokens,
                "Encode without the post-processor's special tokens (BOS, ...)");
  cmd->add_flag("--keep-special-tokens", options->keep_special_tokens,
                "Decode special tokens too (they are skipped by default, as in `tokenizers`)");
  return [options, text] {
    if (text->count() == 0 && options->file.empty()) {
      throw InputError("tokenize: give the input with --text or --file");
    }
    return run_tokenize(*options);
  };
}

}  // namespace moe::train
