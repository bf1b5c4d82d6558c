#pragma once
// Text generation with a decoder (docs/INFERENCE.md): the prompt in one forward pass (prefill)
// into a KV cache sized for the whole sequence, then one position per step (decode), each next
// token from the Sampler. One prompt at a time.
#include <torch/torch.h>

#include <functional>
#include <string>
#include <vector>

#include "infer/sampler.h"
#include "model/decoder_model.h"

namespace moe::infer {

struct GenerationOptions {
  int64_t max_new_tokens = 64;
  std::vector<int64_t> stop_tokens;  // generation ends after one of these (it is kept)
  SamplingOptions sampling;
};

struct Generation {
  std::vector<int64_t> tokens;   // the generated ids, without the prompt
  std::string finish;            // "stop_token", "length" or "stopped" (by the caller)
  double prefill_seconds = 0.0;  // the prompt's forward pass and the first token's choice
  double decode_seconds = 0.0;   // the steps after the first token
};

// Called with each generated token as it is chosen; returning false ends the generation (a stop
// string, the user's Stop).
using TokenCallback = std::function<bool(int64_t token)>;

// `model` in eval mode; prompt ids below the vocabulary size, at least one.
Generation generate(model::DecoderModelImpl& model, const std::vector<int64_t>& prompt,
                    const GenerationOptions& options, Sampler& sampler,
                    const TokenCallback& on_token = {});

}  // namespace moe::infer
