#include "hf/hf_folder.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "hf/hf_config.h"
#include "hf/hf_error.h"
#include "hf/hf_weights.h"

namespace moe::hf {

namespace fs = std::filesystem;

namespace {

nlohmann::json read_json(const fs::path& path) {
  std::ifstream in(path);
  if (!in) throw HfError(path.string() + ": cannot be read");
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw HfError(path.string() + ": not valid JSON: " + e.what());
  }
}

// Every tensor of the folder: one model.safetensors, or the shards its index names.
io::TensorMap read_tensors(const fs::path& dir) {
  const auto single = dir / "model.safetensors";
  if (fs::exists(single)) return io::read_safetensors(single.string());
  const auto index_path = dir / "model.safetensors.index.json";
  if (!fs::exists(index_path)) {
    throw HfError(dir.string() +
                  ": has neither model.safetensors nor model.safetensors.index.json "
                  "(PyTorch .bin checkpoints are not read: convert them with save_pretrained)");
  }
  const auto index = read_json(index_path);
  if (!index.contains("weight_map") || !index["weight_map"].is_object())
    throw HfError(index_path.string() + ": no \"weight_map\" object");
  std::map<std::string, std::set<std::string>> by_file;
  for (const auto& [name, file] : index["weight_map"].items()) {
    if (!file.is_string()) throw HfError(index_path.string() + ": weight_map." + name);
    by_file[file.get<std::string>()].insert(name);
  }
  io::TensorMap all;
  for (const auto& [file, names] : by_file) {
    auto shard = io::read_safetensors((dir / file).string());
    for (const auto& name : names) {
      auto it = shard.find(name);
      if (it == shard.end())
        throw HfError((dir / file).string() + ": has no tensor \"" + name + "\" (the index says)");
      all[name] = std::move(it->second);
    }
  }
  return all;
}

}  // namespace

const std::vector<std::string>& tokenizer_files() {
  static const std::vector<std::string> files = {"tokenizer.json", "tokenizer_config.json",
                                                 "special_tokens_map.json",
                                                 "generation_config.json"};
  return files;
}

bool is_hf_folder(const std::string& dir) {
  const auto path = fs::path(dir) / "config.json";
  if (!fs::is_regular_file(path)) return false;
  try {
    const auto j = read_json(path);
    return j.is_object() && j.contains("model_type");
  } catch (const HfError&) {
    return false;
  }
}

HfModel read_hf_folder(const std::string& dir_name) {
  const fs::path dir(dir_name);
  if (!fs::is_directory(dir)) throw HfError(dir_name + ": not a folder");
  const auto config_path = dir / "config.json";
  if (!fs::exists(config_path)) throw HfError(dir_name + ": has no config.json");
  auto imported = config_from_hf(read_json(config_path), config_path.string());
  HfModel model;
  model.config = std::move(imported.config);
  model.notes = std::move(imported.notes);
  auto tensors = read_tensors(dir);
  // A tied head may still be stored; the engine reads the embedding's.
  if (model.config.model.tie_embeddings) tensors.erase("lm_head.weight");
  model.weights = weights_from_hf(model.config, tensors, dir_name);
  return model;
}

void write_hf_folder(const std::string& dir_name, const protocol::RunConfig& config,
                     const io::TensorMap& weights, const std::string& tokenizer_from) {
  const fs::path dir(dir_name);
  const auto hf_config = config_to_hf(config);  // refuses before anything is written
  const auto tensors = weights_to_hf(config, weights);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw HfError(dir_name + ": cannot be created: " + ec.message());
  {
    std::ofstream out(dir / "config.json");
    out << hf_config.dump(2) << "\n";
    if (!out) throw HfError((dir / "config.json").string() + ": cannot be written");
  }
  io::write_safetensors((dir / "model.safetensors").string(), tensors, {{"format", "pt"}});
  if (tokenizer_from.empty()) return;
  for (const auto& name : tokenizer_files()) {
    const auto from = fs::path(tokenizer_from) / name;
    if (!fs::exists(from)) continue;
    fs::copy_file(from, dir / name, fs::copy_options::overwrite_existing, ec);
    if (ec) throw HfError((dir / name).string() + ": cannot be written: " + ec.message());
  }
}

}  // namespace moe::hf
