#pragma once
// What hf_config.cpp's family mappings share (config.json <-> RunConfig, docs/MODELS.md): the
// reader that records every key it maps or refuses, and the families kept in files of their own
// (deepseek_config.cpp, gpt_oss_config.cpp).
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hf/hf_error.h"
#include "protocol/run_config.h"

namespace moe::hf::detail {

// config.json's keys as typed values; refusals name the key (HfError). `used` lists what was
// read, so that the keys nothing read can be refused at the end.
struct Reader {
  const nlohmann::json& json;
  const std::string& where;
  std::set<std::string> used;
  std::vector<std::string> notes;

  [[noreturn]] void refuse(const std::string& key, const std::string& why) const {
    throw HfError(where + ": \"" + key + "\": " + why);
  }
  bool has(const std::string& key) const { return json.contains(key) && !json[key].is_null(); }
  const nlohmann::json& get(const std::string& key) {
    used.insert(key);
    if (!json.contains(key)) refuse(key, "missing");
    return json[key];
  }
  int64_t integer(const std::string& key) {
    const auto& v = get(key);
    if (!v.is_number_integer()) refuse(key, "must be an integer, got " + v.dump());
    return v.get<int64_t>();
  }
  int64_t integer_or(const std::string& key, int64_t fallback) {
    used.insert(key);
    return has(key) ? integer(key) : fallback;
  }
  double number(const std::string& key) {
    const auto& v = get(key);
    if (!v.is_number()) refuse(key, "must be a number, got " + v.dump());
    return v.get<double>();
  }
  bool boolean_or(const std::string& key, bool fallback) {
    used.insert(key);
    if (!has(key)) return fallback;
    const auto& v = json[key];
    if (!v.is_boolean()) refuse(key, "must be true or false, got " + v.dump());
    return v.get<bool>();
  }
  // A key whose only value the engine computes: absent, null or one of `allowed`.
  void require(const std::string& key, const std::vector<nlohmann::json>& allowed,
               const std::string& why) {
    used.insert(key);
    if (!has(key)) return;
    for (const auto& a : allowed) {
      if (json[key] == a) return;
    }
    refuse(key, json[key].dump() + " is not supported: " + why);
  }
  void note(const std::string& text) { notes.push_back(text); }
};

// num_experts or num_local_experts, whichever the family writes.
int64_t experts_key(Reader& r);

// export-hf's refusal of a key the family's config.json cannot say: HfError naming it.
[[noreturn]] void cannot_export(const protocol::RunConfig& c, const std::string& key,
                                const std::string& why);

// DeepSeek-V2/V3: latent attention, dense first layers, shared experts, group-limited routing.
void read_deepseek(Reader& r, protocol::RunConfig& c);
void check_deepseek_export(const protocol::RunConfig& c, const std::vector<int64_t>& dense);
void write_deepseek(const protocol::RunConfig& c, const std::vector<int64_t>& dense,
                    nlohmann::ordered_json& j);

// GPT-OSS: biases, sinks, a biased top-k-softmax router, clamped SwiGLU experts.
void read_gpt_oss(Reader& r, protocol::RunConfig& c);
void check_gpt_oss_export(const protocol::RunConfig& c);
void write_gpt_oss(const protocol::RunConfig& c, nlohmann::ordered_json& j);

}  // namespace moe::hf::detail
