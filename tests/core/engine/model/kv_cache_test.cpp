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
  auto cache = m->make_cache(t, 2);
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

// Batched decode: slots at their own lengths, rows in any order, a slot cleared and refilled.
TEST_P(KvCacheTest, RowsAtTheirOwnPositionsEqualOneForwardPassEach) {
  const auto config = preset(GetParam());
  auto m = decoder(config);
  at::NoGradGuard no_grad;
  const auto a = torch::randint(0, config.model.vocab, {1, 12}, torch::kLong);
  const auto b = torch::randint(0, config.model.vocab, {1, 9}, torch::kLong);
  const auto c = torch::randint(0, config.model.vocab, {1, 8}, torch::kLong);
  auto cache = m->make_cache(12, 3);
  const auto check = [&](const at::Tensor& got, const at::Tensor& sequence, int64_t position) {
    const auto whole = m->logits(sequence.narrow(1, 0, position + 1))[0][position];
    const double err = (got - whole).abs().max().item<double>() / whole.abs().max().item<double>();
    EXPECT_LT(err, 1e-12) << GetParam() << " at position " << position;
  };
  cache.use_rows({0});
  m->logits(a.narrow(1, 0, 6), nullptr, &cache);
  cache.use_rows({2});
  m->logits(b.narrow(1, 0, 2), nullptr, &cache);
  for (int64_t step = 0; step < 5; ++step) {  // a at 6.., b at 2..; reversed rows on odd steps
    const bool reversed = step % 2 == 1;
    cache.use_rows(reversed ? std::vector<int64_t>{2, 0} : std::vector<int64_t>{0, 2});
    const auto rows = reversed ? at::cat({b.narrow(1, 2 + step, 1), a.narrow(1, 6 + step, 1)})
                               : at::cat({a.narrow(1, 6 + step, 1), b.narrow(1, 2 + step, 1)});
    const auto logits = m->logits(rows, nullptr, &cache);
    check(logits[reversed ? 1 : 0][0], a, 6 + step);
    check(logits[reversed ? 0 : 1][0], b, 2 + step);
  }
  cache.clear(2);  // slot 2 takes a new sequence beside slot 0's
  cache.use_rows({2});
  m->logits(c.narrow(1, 0, 4), nullptr, &cache);
  cache.use_rows({0, 2});
  const auto logits = m->logits(at::cat({a.narrow(1, 11, 1), c.narrow(1, 4, 1)}), nullptr, &cache);
  EXPECT_EQ(cache.length(0), 12);
  EXPECT_EQ(cache.length(2), 5);
  check(logits[0][0], a, 11);
  check(logits[1][0], c, 4);
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
  const auto run = infer::generate(*m, {prompt}, options, sampler);
  ASSERT_EQ(run.generations.size(), 1u);
  const auto& out = run.generations[0];
  ASSERT_EQ(out.tokens.size(), 8u);
  EXPECT_EQ(out.finish, "length");
  auto sequence = prompt;
  for (int64_t token : out.tokens) {
    const auto logits = m->logits(at::tensor(sequence, at::kLong).view({1, -1}));
    EXPECT_EQ(logits[0][-1].argmax().item<int64_t>(), token);
    sequence.push_back(token);
  }
}

// Two slots for five prompts of different lengths (slots refilled as sequences end): each
// prompt's tokens and routing are those of generating it alone.
TEST_P(KvCacheTest, BatchedGenerationEqualsOnePromptAtATime) {
  const auto config = preset(GetParam());
  auto m = decoder(config);
  const int64_t v = config.model.vocab;
  // Prompts 0 and 4 have one length: they are prefilled together.
  const std::vector<std::vector<int64_t>> prompts = {
      {3, 17, 4}, {200 % v, 9, 11, 5, 6, 7, 1}, {8}, {12, 13, 14, 15, 16}, {5, 6, 7}};
  infer::GenerationOptions options;
  options.max_new_tokens = 6;
  options.sampling.greedy = true;
  options.record_routing = true;
  struct Record : infer::GenerationListener {
    std::vector<std::vector<infer::GeneratedToken>> tokens =
        std::vector<std::vector<infer::GeneratedToken>>(5);
    bool on_token(const infer::GeneratedToken& t) override {
      tokens[t.prompt].push_back(t);
      return true;
    }
  };
  {  // prompt 1's third token stops every sequence that chooses it (prompt 1 after 3 tokens)
    infer::Sampler sampler(options.sampling);
    options.stop_tokens = {
        infer::generate(*m, {prompts[1]}, options, sampler).generations[0].tokens[2]};
  }
  Record alone, together;
  std::vector<infer::Generation> expected(prompts.size());
  for (size_t i = 0; i < prompts.size(); ++i) {
    infer::Sampler sampler(options.sampling);
    Record one;
    expected[i] = infer::generate(*m, {prompts[i]}, options, sampler, &one).generations[0];
    alone.tokens[i] = one.tokens[0];
  }
  options.batch_size = 2;
  infer::Sampler sampler(options.sampling);
  const auto run = infer::generate(*m, prompts, options, sampler, &together);
  ASSERT_EQ(run.generations.size(), prompts.size());
  for (size_t i = 0; i < prompts.size(); ++i) {
    EXPECT_EQ(run.generations[i].tokens, expected[i].tokens) << GetParam() << " prompt " << i;
    EXPECT_EQ(run.generations[i].finish, expected[i].finish) << GetParam() << " prompt " << i;
    ASSERT_EQ(together.tokens[i].size(), alone.tokens[i].size());
    for (size_t j = 0; j < alone.tokens[i].size(); ++j) {
      const auto& a = alone.tokens[i][j].routing;
      const auto& b = together.tokens[i][j].routing;
      ASSERT_EQ(a.size(), b.size());
      ASSERT_FALSE(a.empty());
      for (size_t l = 0; l < a.size(); ++l) {
        EXPECT_EQ(a[l].layer, b[l].layer);
        EXPECT_EQ(a[l].experts, b[l].experts) << GetParam() << " prompt " << i << " token " << j;
        for (size_t e = 0; e < a[l].weights.size(); ++e) {
          EXPECT_NEAR(a[l].weights[e], b[l].weights[e], 1e-12);
        }
      }
    }
  }
  int64_t generated = 0;
  for (const auto& g : expected) generated += static_cast<int64_t>(g.tokens.size());
  EXPECT_EQ(run.decode_tokens + static_cast<int64_t>(prompts.size()), generated);
  EXPECT_EQ(run.prefill_tokens, 3 + 7 + 1 + 5 + 3);
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
