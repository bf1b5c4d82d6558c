#include "infer/generator.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace moe::infer {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

Generation generate(model::DecoderModelImpl& model, const std::vector<int64_t>& prompt,
                    const GenerationOptions& options, Sampler& sampler,
                    const TokenCallback& on_token) {
  if (prompt.empty()) throw std::invalid_argument("generate: the prompt has no tokens");
  at::NoGradGuard no_grad;
  Generation out;
  if (options.max_new_tokens <= 0) {
    out.finish = "length";
    return out;
  }
  const auto device = model.parameters().front().device();
  const int64_t length = static_cast<int64_t>(prompt.size());
  auto cache = model.make_cache(length + options.max_new_tokens);
  auto start = std::chrono::steady_clock::now();
  auto input = at::tensor(prompt, at::kLong).view({1, length}).to(device);
  for (;;) {
    const auto logits = model.logits(input, nullptr, &cache);  // [1, T, V]
    const int64_t token = sampler.next(logits[0][logits.size(1) - 1]);
    out.tokens.push_back(token);
    if (out.tokens.size() == 1) {  // the prompt's pass chose it
      out.prefill_seconds = seconds_since(start);
      start = std::chrono::steady_clock::now();
    }
    const bool stop = std::find(options.stop_tokens.begin(), options.stop_tokens.end(), token) !=
                      options.stop_tokens.end();
    const bool go_on = !on_token || on_token(token);
    if (stop) {
      out.finish = "stop_token";
    } else if (!go_on) {
      out.finish = "stopped";
    } else if (static_cast<int64_t>(out.tokens.size()) >= options.max_new_tokens) {
      out.finish = "length";
    }
    if (!out.finish.empty()) break;
    input = at::full({1, 1}, token, at::TensorOptions().dtype(at::kLong).device(device));
  }
  out.decode_seconds = seconds_since(start);
  return out;
}

}  // namespace moe::infer
