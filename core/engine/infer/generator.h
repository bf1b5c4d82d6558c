#pragma once
// Text generation with a decoder (docs/INFERENCE.md): prompts share a KV cache of `batch_size`
// slots. Waiting prompts run into free slots in one forward pass per length (prefill); then every
// step decodes one position of each busy slot in one forward pass (rows at their own positions),
// each next token from the Sampler. A finished sequence's slot takes the next prompt.
#include <torch/torch.h>

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "infer/routing_recorder.h"
#include "infer/sampler.h"
#include "model/decoder_model.h"

namespace moe::infer {

struct GenerationOptions {
  int64_t max_new_tokens = 64;
  int64_t batch_size = 1;            // sequences decoded together
  std::vector<int64_t> stop_tokens;  // a sequence ends after one of these (it is kept)
  SamplingOptions sampling;
  bool record_routing = false;  // GeneratedToken::routing filled
};

// One prompt's generation.
struct Generation {
  std::vector<int64_t> tokens;   // the generated ids, without the prompt
  std::string finish;            // "stop_token", "length" or "stopped" (by the listener)
  double prefill_seconds = 0.0;  // the prefill pass that held the prompt, the first token's choice
};

struct GeneratedToken {
  size_t prompt = 0;
  int64_t index = 0;  // among the prompt's generated tokens
  int64_t id = 0;
  // Each MoE layer's choice for the position whose logits chose the token (record_routing).
  std::vector<ExpertChoice> routing;
};

struct DecodeStep {
  int64_t step = 0;
  int64_t batch = 0;  // sequences in the step
  double seconds = 0.0;
  std::map<std::string, double> phase_ms;  // attention, gate, dispatch, experts, combine, sampling
};

// Told of a generation as it goes; every call from the generating thread.
class GenerationListener {
 public:
  virtual ~GenerationListener() = default;
  virtual void on_prompt_start(size_t /*prompt*/) {}
  // Returning false ends the prompt's generation after this token (a stop string, a Stop).
  virtual bool on_token(const GeneratedToken& /*token*/) { return true; }
  virtual void on_step(const DecodeStep& /*step*/) {}
  virtual void on_prompt_end(size_t /*prompt*/, const Generation& /*generation*/) {}
};

struct GenerationRun {
  std::vector<Generation> generations;  // one per prompt, in the prompts' order
  double prefill_seconds = 0.0, decode_seconds = 0.0;
  int64_t prefill_tokens = 0, decode_tokens = 0;  // decode: tokens chosen by decode steps

  double prefill_tokens_per_s() const {
    return prefill_seconds > 0 ? static_cast<double>(prefill_tokens) / prefill_seconds : 0.0;
  }
  double decode_tokens_per_s() const {
    return decode_seconds > 0 ? static_cast<double>(decode_tokens) / decode_seconds : 0.0;
  }
  // The time to first token (a prompt's prefill pass), the prompts' mean.
  double mean_ttft_ms() const {
    double ms = 0;
    for (const auto& g : generations) ms += g.prefill_seconds * 1e3;
    return generations.empty() ? 0.0 : ms / static_cast<double>(generations.size());
  }
};

// `model` in eval mode; every prompt has ids below the vocabulary size, at least one.
GenerationRun generate(model::DecoderModelImpl& model,
                       const std::vector<std::vector<int64_t>>& prompts,
                       const GenerationOptions& options, Sampler& sampler,
                       GenerationListener* listener = nullptr);

}  // namespace moe::infer
