#pragma once
// tokenizer.json's "post_processor": what encode adds around one sequence's ids when asked to
// add special tokens (a BOS, [CLS] ... [SEP]). Supported: TemplateProcessing (its "single"
// template), ByteLevel (offsets only: no ids change), RobertaProcessing, BertProcessing,
// Sequence; anything else is refused by name.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tokenize/json_fields.h"

namespace moe::tokenize {

class PostProcessor {
 public:
  virtual ~PostProcessor() = default;
  virtual std::vector<std::uint32_t> process(std::vector<std::uint32_t> ids) const = 0;
};

// nullptr for a null "post_processor".
std::unique_ptr<PostProcessor> make_post_processor(const Json& spec, const std::string& path);

}  // namespace moe::tokenize
