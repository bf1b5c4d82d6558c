// Generation's KV cache is exact (docs/INFERENCE.md): every family's tiny preset, in float64, gives
// the same logits when the sequence runs as one forward pass and when it runs as a prefill, a
// chunk and single decode steps through model::DecoderCache.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <set>
#include <string>

#include "infer/generator.h"
#include "model/decoder_model.h"
#include "model/model.h"
#include "protocol/run_config.h"

namespace moe {
namespace {

protocol::RunConfig preset(const std::string& name) {
  auto config = protocol::load_config_file(std::string(MOE_PRESETS_DIR) + "/" + name + ".json");
  config.model.layers = 2;
  config.moe.fp32_gate = false;  // routing in float64 too: float32 scores differ by batch shape
  // Short windows so that the sequence below slides past them.
  if (config.model.sliding_window > 0) config.model.sliding_window = 5;
  return config;
}

std::shared_ptr<model::DecoderModelImpl> decoder(const protocol::RunConfig& config) {
  torch::manual_seed(7);
  auto m = std::dynamic_pointer_cast<model::DecoderModelImpl>(model::make_model(config));
  m->to(at::kDouble);
  m->eval();
  at::NoGradGuard no_grad;  // biases start at zero: give the cache's paths some to carry
  for (auto& p : m->named_parameters()) {
    if (p.value().dim() == 1 && p.key().find("norm") == std::string::npos) {
      p.value().normal_(0.0, 0.1);
    }
  }
  return m;
}

class KvCacheTest : public ::testing::TestWithParam<std::string> {};

TEST_P(KvCacheTest, StepsEqualOneForwardPass) {
  const auto config = preset(GetParam());
  auto m = decoder(config);
  at::NoGradGuard no_grad;
  const int64_t t = 13;
  const auto tokens = torch::randint(0, config.model.vocab, {2, t}, torch::kLong);
  const auto whole = m->logits(tokens);
  auto cache = m->make_cache(t);
  std::vector<at::Tensor> pieces;
  pieces.push_back(m->logits(tokens.narrow(1, 0, 6), nullptr, &cache));  // prefill
  pieces.push_back(m->logits(tokens.narrow(1, 6, 3), nullptr, &cache));  // a chunk after it
  for (int64_t i = 9; i < t; ++i)
    pieces.push_back(m->logits(tokens.narrow(1, i, 1), nullptr, &cache));
  EXPECT_EQ(cache.length(), t);
  const auto stepped = at::cat(pieces, 1);
  ASSERT_EQ(stepped.sizes(), whole.sizes());
  const double err =
      (stepped - whole).abs().max().item<double>() / whole.abs().max().item<double>();
  EXPECT_LT(err, 1e-12) << GetParam();
  EXPECT_THROW(m->logits(tokens.narrow(1, 0, 1), nullptr, &cache), std::length_error);
}

TEST_P(KvCacheTest, GreedyGenerationFollowsTheArgmaxOfFullPasses) {
  const auto config = preset(GetParam());
  auto m = decoder(config);
  at::NoGradGuard no_grad;
  const std::vector<int64_t> prompt = {3, 17, 4, 200 % config.model.vocab, 9};
  infer::GenerationOptions options;
  options.max_new_tokens = 8;
  options.sampling.greedy = true;
  infer::Sampler sampler(options.sampling);
  const auto out = infer::generate(*m, prompt, options, sampler);
  ASSERT_EQ(out.tokens.size(), 8u);
  EXPECT_EQ(out.finish, "length");
  auto sequence = prompt;
  for (int64_t token : out.tokens) {
    const auto logits = m->logits(at::tensor(sequence, at::kLong).view({1, -1}));
    EXPECT_EQ(logits[0][-1].argmax().item<int64_t>(), token);
    sequence.push_back(token);
  }
}

INSTANTIATE_TEST_SUITE_P(Families, KvCacheTest,
                         ::testing::Values("tiny-mixtral", "tiny-qwen2-moe", "tiny-qwen3-moe",
                                           "tiny-olmoe", "tiny-deepseek-v2", "tiny-deepseek-v3",
                                           "tiny-gpt-oss"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (auto& c : name) c = c == '-' ? '_' : c;
                           return name;
                         });

TEST(Sampler, SeedReproducesAndFiltersHold) {
  const auto logits = torch::tensor({0.0, 3.0, 2.5, -1.0, 1.0}, torch::kDouble);
  infer::SamplingOptions options;
  options.seed = 11;
  infer::Sampler a(options), b(options);
  std::vector<int64_t> drawn_a, drawn_b;
  for (int i = 0; i < 40; ++i) {
    drawn_a.push_back(a.next(logits));
    drawn_b.push_back(b.next(logits));
  }
  EXPECT_EQ(drawn_a, drawn_b);
  EXPECT_GT(std::set<int64_t>(drawn_a.begin(), drawn_a.end()).size(), 2u);  // it does sample
  options.top_k = 2;
  infer::Sampler top_k(options);
  options.top_k = 0;
  options.top_p = 0.5;  // token 1 alone holds more than half
  infer::Sampler top_p(options);
  options.top_p = 1.0;
  options.min_p = 0.5;  // exp(-0.5) = 0.61 of the likeliest: token 2 stays, the rest go
  infer::Sampler min_p(options);
  options.greedy = true;
  infer::Sampler greedy(options);
  for (int i = 0; i < 40; ++i) {
    const auto k = top_k.next(logits);
    EXPECT_TRUE(k == 1 || k == 2) << k;
    EXPECT_EQ(top_p.next(logits), 1);
    const auto m = min_p.next(logits);
    EXPECT_TRUE(m == 1 || m == 2) << m;
    EXPECT_EQ(greedy.next(logits), 1);
  }
}

}  // namespace
}  // namespace moe
