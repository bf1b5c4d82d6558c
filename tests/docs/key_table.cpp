#include "key_table.h"

#include <cstdint>
#include <set>

#include <nlohmann/json.hpp>

#include "base/experiment/config_field_catalog.h"
#include "protocol/config_validation.h"
#include "protocol/run_config.h"

namespace moe::docs {
namespace {

using nlohmann::json;

std::string type_name(ui::FieldType type) {
  switch (type) {
    case ui::FieldType::kInteger:
      return "integer";
    case ui::FieldType::kNumber:
      return "number";
    case ui::FieldType::kBoolean:
      return "boolean";
    case ui::FieldType::kString:
      break;
  }
  return "string";
}

// Values far outside any sensible range, and malformed strings: what the validator says about
// them is the key's rule. Integers stay well inside int64 so no product overflows.
std::vector<json> probes(ui::FieldType type) {
  switch (type) {
    case ui::FieldType::kInteger:
      return {json(-(int64_t{1} << 62)), json(int64_t{1} << 62)};
    case ui::FieldType::kNumber:
      return {json(-1e300), json(1e300)};
    case ui::FieldType::kString:
      return {json(""), json(std::string(300, 'x')), json("a b/c")};
    case ui::FieldType::kBoolean:
      break;
  }
  return {};
}

// "must be >= 1, got -4611686018427387904" -> "must be >= 1".
std::string rule_of(std::string message) {
  const auto got = message.rfind(", got ");
  if (got != std::string::npos) message.erase(got);
  return message;
}

// Configs where more keys are in play: on the default config (helloworld) the validator has
// nothing, or only where a key applies, to say about the decoder's keys, DeepSeek's and GPT-OSS's.
std::vector<protocol::RunConfig> probe_contexts() {
  protocol::RunConfig decoder;
  decoder.model.kind = protocol::ModelKind::Decoder;
  decoder.moe.expert_ffn = protocol::ExpertFfn::Glu;
  protocol::RunConfig deepseek = decoder;
  deepseek.model.attention = protocol::AttentionKind::Mla;
  deepseek.moe.router = protocol::RouterKind::GroupLimitedTopK;
  protocol::RunConfig gpt_oss = decoder;
  gpt_oss.model.rope_scaling = protocol::RopeScaling::Yarn;
  gpt_oss.model.sliding_window = 4;
  gpt_oss.moe.activation = protocol::Activation::Silu;
  gpt_oss.moe.swiglu_limit = 7.0;
  return {protocol::RunConfig{}, decoder, deepseek, gpt_oss};
}

// The validator's rules for one key, probed on `base` (files are not checked: a doc must not
// depend on the machine). A bound that comes from another key names it in parentheses, with that
// key's default value.
std::string validator_rule(const ui::ConfigField& field, const protocol::RunConfig& base) {
  std::set<std::string> seen;
  std::string out;
  for (const json& value : probes(field.type)) {
    json config = protocol::to_json(base);
    config[json::json_pointer(field.pointer)] = value;
    std::vector<protocol::ConfigProblem> parse_problems;  // none: every probe is well typed
    const protocol::RunConfig parsed = protocol::parse_config(config, &parse_problems);
    protocol::ValidateOptions options;
    options.check_files = false;
    for (const protocol::ConfigProblem& p : protocol::validate(parsed, options)) {
      if (p.pointer != field.pointer) continue;
      const std::string rule = rule_of(p.message);
      if (!seen.insert(rule).second) continue;
      out += (out.empty() ? "" : "; ") + rule;
    }
  }
  return out;
}

std::string allowed_values(const ui::ConfigField& field) {
  if (field.type == ui::FieldType::kBoolean) return "`true`, `false`";
  if (!field.choices.empty()) {
    std::string out;
    for (const std::string& c : field.choices) out += (out.empty() ? "`\"" : ", `\"") + c + "\"`";
    return out;
  }
  std::string rule;
  for (const protocol::RunConfig& context : probe_contexts()) {
    // A rule that only says where the key applies gives way to the key's own, where it applies.
    if (!rule.empty() && rule.rfind("is used ", 0) != 0 && rule.rfind("needs model.kind", 0) != 0 &&
        rule.find("the clamped SwiGLU needs") == std::string::npos)
      break;
    const std::string in_play = validator_rule(field, context);
    if (!in_play.empty()) rule = in_play;
  }
  if (!rule.empty()) return rule;
  switch (field.type) {
    case ui::FieldType::kInteger:
      return "any integer";
    case ui::FieldType::kNumber:
      return "any finite number";
    default:
      return "any text";
  }
}

// The tooltip starts with the dotted key on a line of its own; the rest is the meaning.
std::string meaning_of(const ui::ConfigField& field) {
  std::string help = field.help;
  const auto newline = help.find('\n');
  help = newline == std::string::npos ? "" : help.substr(newline + 1);
  for (char& c : help) {
    if (c == '\n') c = ' ';
  }
  if (field.read_only) help += (help.empty() ? "" : " ") + std::string("Read-only in the editor.");
  if (field.is_path)
    help += (help.empty() ? "" : " ") + std::string("The editor offers a file browser.");
  return help;
}

// A table cell: pipes escaped, so text cannot end the cell early.
std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

std::vector<KeyRow> key_rows() {
  const json defaults = protocol::to_json(protocol::RunConfig{});
  std::vector<KeyRow> rows;
  for (const ui::ConfigField& field : ui::configFields()) {
    KeyRow row;
    row.key = ui::dottedKey(field.pointer);
    row.type = field.takes_auto ? "integer or `\"auto\"`" : type_name(field.type);
    row.default_value = defaults.at(json::json_pointer(field.pointer)).dump();
    row.allowed = allowed_values(field);
    row.label = field.label;
    row.meaning = meaning_of(field);
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string key_table_markdown(const std::vector<KeyRow>& rows) {
  std::string out =
      "| Key | Type | Default | Allowed | Editor label | Meaning |\n"
      "|---|---|---|---|---|---|\n";
  for (const KeyRow& r : rows) {
    out += "| `" + r.key + "` | " + r.type + " | `" + cell(r.default_value) + "` | " +
           cell(r.allowed) + " | " + cell(r.label) + " | " + cell(r.meaning) + " |\n";
  }
  return out;
}

}  // namespace moe::docs
