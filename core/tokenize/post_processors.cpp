// The post-processors of tokenizer.json (post_processor.h) for a single sequence.
#include "tokenize/post_processor.h"

namespace moe::tokenize {
namespace {

// The "single" template: the sequence ($A) between the ids of the special tokens it names.
class TemplateProcessing final : public PostProcessor {
 public:
  explicit TemplateProcessing(std::vector<std::vector<std::uint32_t>> parts)
      : parts_(std::move(parts)) {}
  std::vector<std::uint32_t> process(std::vector<std::uint32_t> ids) const override {
    std::vector<std::uint32_t> out;
    out.reserve(ids.size() + 8);
    for (const auto& part : parts_) {
      if (part.empty()) {
        out.insert(out.end(), ids.begin(), ids.end());  // the sequence itself
      } else {
        out.insert(out.end(), part.begin(), part.end());
      }
    }
    return out;
  }

 private:
  std::vector<std::vector<std::uint32_t>> parts_;  // empty: the sequence
};

class IdentityProcessing final : public PostProcessor {
 public:
  std::vector<std::uint32_t> process(std::vector<std::uint32_t> ids) const override { return ids; }
};

class SequenceProcessing final : public PostProcessor {
 public:
  explicit SequenceProcessing(std::vector<std::unique_ptr<PostProcessor>> steps)
      : steps_(std::move(steps)) {}
  std::vector<std::uint32_t> process(std::vector<std::uint32_t> ids) const override {
    for (const auto& step : steps_) ids = step->process(std::move(ids));
    return ids;
  }

 private:
  std::vector<std::unique_ptr<PostProcessor>> steps_;
};

std::uint32_t id_of(const Json& value, const std::string& path) {
  if (!value.is_number_unsigned() || value.get<std::uint64_t>() > 0xFFFFFFFFull) {
    refuse(path, "expected a token id");
  }
  return value.get<std::uint32_t>();
}

std::unique_ptr<PostProcessor> make_template(const Json& spec, const std::string& path) {
  const Json& single = required_field(spec, "single", path);
  const Json& specials = spec.contains("special_tokens") ? spec["special_tokens"] : Json::object();
  if (!single.is_array()) refuse(path + ".single", "expected an array of template pieces");
  std::vector<std::vector<std::uint32_t>> parts;
  for (std::size_t i = 0; i < single.size(); ++i) {
    const std::string where = path + ".single[" + std::to_string(i) + "]";
    const Json& piece = single[i];
    if (piece.is_object() && piece.contains("Sequence")) {
      const std::string id = required_string(piece["Sequence"], "id", where + ".Sequence");
      if (id != "A") refuse(where + ".Sequence.id", "a single template uses sequence A only");
      parts.emplace_back();
      continue;
    }
    if (!piece.is_object() || !piece.contains("SpecialToken")) {
      refuse(where, "expected {\"Sequence\": ...} or {\"SpecialToken\": ...}");
    }
    const std::string name = required_string(piece["SpecialToken"], "id", where + ".SpecialToken");
    if (!specials.is_object() || !specials.contains(name)) {
      refuse(path + ".special_tokens", "\"" + name + "\" is used by the template but not defined");
    }
    const std::string special_path = path + ".special_tokens[\"" + name + "\"]";
    const Json& ids = required_field(specials[name], "ids", special_path);
    if (!ids.is_array() || ids.empty()) refuse(special_path + ".ids", "expected ids");
    std::vector<std::uint32_t> part;
    for (std::size_t k = 0; k < ids.size(); ++k) {
      part.push_back(id_of(ids[k], special_path + ".ids[" + std::to_string(k) + "]"));
    }
    parts.push_back(std::move(part));
  }
  return std::make_unique<TemplateProcessing>(std::move(parts));
}

// RobertaProcessing / BertProcessing: cls, the sequence, sep; each given as [token, id].
std::unique_ptr<PostProcessor> make_cls_sep(const Json& spec, const std::string& path) {
  auto id_at = [&](const std::string& key) {
    const Json& pair = required_field(spec, key, path);
    if (!pair.is_array() || pair.size() != 2) refuse(path + "." + key, "expected [token, id]");
    return id_of(pair[1], path + "." + key + "[1]");
  };
  std::vector<std::vector<std::uint32_t>> parts{{id_at("cls")}, {}, {id_at("sep")}};
  return std::make_unique<TemplateProcessing>(std::move(parts));
}

}  // namespace

std::unique_ptr<PostProcessor> make_post_processor(const Json& spec, const std::string& path) {
  if (spec.is_null()) return nullptr;
  const std::string type = component_type(spec, path);
  if (type == "TemplateProcessing") return make_template(spec, path);
  if (type == "ByteLevel") return std::make_unique<IdentityProcessing>();
  if (type == "RobertaProcessing" || type == "BertProcessing") return make_cls_sep(spec, path);
  if (type == "Sequence") {
    const Json& list = required_field(spec, "processors", path);
    if (!list.is_array()) refuse(path + ".processors", "expected an array");
    std::vector<std::unique_ptr<PostProcessor>> steps;
    for (std::size_t i = 0; i < list.size(); ++i) {
      auto step = make_post_processor(list[i], path + ".processors[" + std::to_string(i) + "]");
      if (step) steps.push_back(std::move(step));
    }
    return std::make_unique<SequenceProcessing>(std::move(steps));
  }
  refuse_component(path, type,
                   "TemplateProcessing, ByteLevel, RobertaProcessing, BertProcessing, Sequence");
}

}  // namespace moe::tokenize
