// data.kind "synthetic": shapes and dtypes per model, determinism from (seed, batch), seek, and a
// learnable structure in the lm and image streams.
#include <cmath>
#include <map>

#include "data_test_util.h"

namespace moe::data::test {
namespace {

protocol::RunConfig synthetic(const std::string& model, int64_t seed = 1) {
  protocol::RunConfig c = config(model, "synthetic");
  c.seed = seed;
  c.model.seq_len = 12;
  c.model.dim = 6;
  c.model.vocab = 64;
  return c;
}

TEST(SyntheticTest, HelloworldShapesAndDtypes) {
  for (const auto& [name, type] :
       std::vector<std::pair<std::string, at::ScalarType>>{{"float32", at::kFloat},
                                                           {"float64", at::kDouble},
                                                           {"bfloat16", at::kBFloat16},
                                                           {"float16", at::kFloat}}) {
    SCOPED_TRACE(name);
    protocol::RunConfig c = synthetic("helloworld");
    c.train.dtype = protocol::enum_from_name<protocol::Dtype>(name).value();
    auto s = make_batch_source(c);
    const Batch b = s->next_train(5);
    EXPECT_EQ(b.inputs.sizes(), (at::IntArrayRef{5, 12, 6}));
    EXPECT_EQ(b.inputs.scalar_type(), type);
    EXPECT_TRUE(same(b.targets, at::zeros({5}, at::kLong)));
    EXPECT_NEAR(b.inputs.to(at::kDouble).std().item<double>(), 1.0, 0.2);
    EXPECT_EQ(s->train_samples(), 0);
    EXPECT_EQ(s->eval_batch_count(5), -1);
  }
}

TEST(SyntheticTest, SameSeedSameBatchesAndSeekRestores) {
  for (const char* model : {"helloworld", "lm", "image"}) {
    SCOPED_TRACE(model);
    auto a = make_batch_source(synthetic(model, 3)), b = make_batch_source(synthetic(model, 3));
    auto other = make_batch_source(synthetic(model, 4));
    std::vector<Batch> seen;
    for (int i = 0; i < 4; ++i) {
      seen.push_back(a->next_train(4));
      EXPECT_TRUE(same(seen.back(), b->next_train(4)));
      EXPECT_FALSE(same(seen.back(), other->next_train(4)));
    }
    EXPECT_FALSE(same(seen[0], seen[1]));
    EXPECT_EQ(a->position(), (nlohmann::json{{"batch", 4}}));
    auto c = make_batch_source(synthetic(model, 3));
    c->seek({{"batch", 2}});
    EXPECT_TRUE(same(c->next_train(4), seen[2]));
    EXPECT_TRUE(same(c->next_train(4), seen[3]));
    // Eval batches come from their own stream, the same for the same index.
    EXPECT_TRUE(same(a->eval_batch(0, 4), b->eval_batch(0, 4)));
    EXPECT_FALSE(same(a->eval_batch(0, 4), seen[0]));
    EXPECT_FALSE(same(a->eval_batch(0, 4), a->eval_batch(1, 4)));
    expect_data_error([&] { c->seek({{"batch", "x"}}); }, {"position"});
  }
}

// H(next | previous token) in nats, from the pairs in `batches`.
double conditional_entropy(const std::vector<Batch>& batches) {
  std::map<int64_t, std::map<int64_t, double>> counts;
  double total = 0;
  for (const Batch& b : batches) {
    const at::Tensor x = b.inputs.flatten(), y = b.targets.flatten();
    const int64_t* px = x.data_ptr<int64_t>();
    const int64_t* py = y.data_ptr<int64_t>();
    for (int64_t i = 0; i < x.numel(); ++i, ++total) counts[px[i]][py[i]] += 1;
  }
  double h = 0;
  for (const auto& [prev, next] : counts) {
    double row = 0;
    for (const auto& [token, n] : next) row += n;
    for (const auto& [token, n] : next) h -= n / total * std::log(n / row);
  }
  return h;
}

TEST(SyntheticTest, LmStreamIsAPredictableShiftedTokenSequence) {
  protocol::RunConfig c = synthetic("lm");
  c.model.vocab = 256;
  c.model.seq_len = 64;
  auto s = make_batch_source(c);
  std::vector<Batch> train;
  for (int i = 0; i < 20; ++i) train.push_back(s->next_train(16));
  const Batch& b = train[0];
  ASSERT_EQ(b.inputs.sizes(), (at::IntArrayRef{16, 64}));
  ASSERT_EQ(b.inputs.scalar_type(), at::kLong);
  EXPECT_TRUE(same(b.inputs.narrow(1, 1, 63), b.targets.narrow(1, 0, 63)));
  EXPECT_GE(b.inputs.min().item<int64_t>(), 0);
  EXPECT_LT(b.inputs.max().item<int64_t>(), 256);
  const double h = conditional_entropy(train);
  EXPECT_GT(h, 0.5);  // not a deterministic sequence either
  EXPECT_LT(h, 0.4 * std::log(256.0)) << h;
  // Held-out batches follow the same chain.
  std::vector<Batch> both = train;
  for (int j = 0; j < 20; ++j) both.push_back(s->eval_batch(j, 16));
  EXPECT_LT(conditional_entropy(both), h + 0.1);
}

TEST(SyntheticTest, ImageLabelIsTheTopLeftQuadrantBrightness) {
  auto s = make_batch_source(synthetic("image"));
  const Batch b = s->next_train(64);
  ASSERT_EQ(b.inputs.sizes(), (at::IntArrayRef{64, 1, 28, 28}));
  ASSERT_EQ(b.inputs.scalar_type(), at::kFloat);
  const at::Tensor raw = b.inputs * std::sqrt(1.0 / 12.0) + 0.5;
  const at::Tensor brightness = raw.narrow(2, 0, 14).narrow(3, 0, 14).mean({1, 2, 3});
  EXPECT_TRUE(same((brightness * 10).floor().to(at::kLong), b.targets));
  EXPECT_GT(at::bincount(b.targets).gt(0).sum().item<int64_t>(), 5);  // labels vary
  EXPECT_EQ(s->eval_batch_count(8), -1);
}

}  // namespace
}  // namespace moe::data::test
