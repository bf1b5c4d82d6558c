// moe-train replay end to end: tensors in, the layer's results and gradients out.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "io/safetensors.h"
#include "layer/moe_layer.h"
#include "process.h"

namespace moe::test {
namespace {

const char* kConfig = R"({"model": {"dim": 16},
  "moe": {"experts": 4, "top_k": 2, "hidden": 8, "capacity_factor": 0.5, "gate_noise": 0.3}})";

protocol::MoeConfig replay_moe_config() {
  protocol::MoeConfig c;
  c.experts = 4;
  c.top_k = 2;
  c.hidden = 8;
  c.capacity_factor = 0.5;
  return c;  // gate_noise: replay runs without noise
}

io::TensorMap replay_inputs(layer::MoeLayer& layer, at::ScalarType dtype, bool with_grad) {
  io::TensorMap in;
  in["input"] = torch::randn({3, 7, 16}).to(dtype);
  if (with_grad) in["grad_output"] = torch::randn({3, 7, 16}).to(dtype);
  for (auto& p : layer->named_parameters()) in[p.key()] = p.value().detach().to(dtype);
  return in;
}

struct ReplayFixture : ::testing::Test {
  TempDir dir;
  std::string config = dir.write("layer.json", kConfig);
  std::string in_path = dir.file("in.safetensors");
  std::string out_path = dir.file("out.safetensors");
  ProcessResult replay() {
    return run_moe_train({"replay", "--config", config, "--tensors", in_path, "--out", out_path});
  }
};

TEST_F(ReplayFixture, MatchesTheLayerInProcessWithGradients) {
  for (auto dtype : {at::kFloat, at::kDouble, at::kBFloat16}) {
    torch::manual_seed(2);
    layer::MoeLayer layer(16, replay_moe_config());
    layer->to(dtype);
    auto in = replay_inputs(layer, dtype, true);
    io::write_safetensors(in_path, in);
    auto r = replay();
    ASSERT_EQ(r.exit_status, 0) << r.err;
    auto out = io::read_safetensors(out_path);

    auto x = in["input"].clone().set_requires_grad(true);
    auto want = layer->forward(x);
    (want.output * in["grad_output"]).sum().backward();
    EXPECT_EQ(out["output"].scalar_type(), dtype);
    EXPECT_TRUE(out["output"].equal(want.output.detach()));
    EXPECT_EQ(out["l_aux"].dim(), 0);
    EXPECT_EQ(out["l_aux"].scalar_type(), dtype);
    EXPECT_NEAR(out["l_aux"].item<double>(), want.l_aux.item<double>(), 1e-2);
    EXPECT_TRUE(out["expert_counts"].equal(want.stats.demand));
    EXPECT_TRUE(out["expert_kept"].equal(want.stats.kept));
    EXPECT_EQ(out["capacity"].item<int64_t>(), want.stats.capacity);
    EXPECT_TRUE(out["grad.input"].equal(x.grad()));
    for (auto& p : layer->named_parameters()) {
      ASSERT_TRUE(out.count("grad." + p.key())) << p.key();
      EXPECT_TRUE(out["grad." + p.key()].equal(p.value().grad())) << p.key();
    }
  }
}

TEST_F(ReplayFixture, WithoutGradOutputWritesNoGradients) {
  torch::manual_seed(2);
  layer::MoeLayer layer(16, replay_moe_config());
  io::write_safetensors(in_path, replay_inputs(layer, at::kFloat, false));
  ASSERT_EQ(replay().exit_status, 0);
  auto out = io::read_safetensors(out_path);
  EXPECT_EQ(out.size(), 5u);
  EXPECT_EQ(out.count("grad.input"), 0u);
}

// Each broken input: exit 2, a message naming the culprit, and no output file.
void expect_bad_input(ReplayFixture& f, const io::TensorMap& in, const std::string& culprit) {
  io::write_safetensors(f.in_path, in);
  auto r = f.replay();
  EXPECT_EQ(r.exit_status, 2) << r.err;
  EXPECT_NE(r.err.find(culprit), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(f.out_path));
}

TEST_F(ReplayFixture, BadTensorsAreExitTwoAndNameTheTensor) {
  torch::manual_seed(2);
  layer::MoeLayer layer(16, replay_moe_config());
  auto good = replay_inputs(layer, at::kFloat, true);
  auto missing = good;
  missing.erase("experts.batched_fc2_w");
  expect_bad_input(*this, missing, "experts.batched_fc2_w");
  auto wrong_shape = good;
  wrong_shape["gates.0.wg.weight"] = torch::randn({5, 16});
  expect_bad_input(*this, wrong_shape, "gates.0.wg.weight");
  auto wrong_width = good;
  wrong_width["input"] = torch::randn({4, 12});
  expect_bad_input(*this, wrong_width, "model.dim");
  auto wrong_grad = good;
  wrong_grad["grad_output"] = torch::randn({3, 7, 15});
  expect_bad_input(*this, wrong_grad, "grad_output");
  auto int_input = good;
  int_input["input"] = torch::ones({3, 16}, at::kLong);
  expect_bad_input(*this, int_input, "input");
  auto no_input = good;
  no_input.erase("input");
  expect_bad_input(*this, no_input, "input");
}

TEST_F(ReplayFixture, CorruptFileAndBadConfigAreExitTwo) {
  std::ofstream(in_path) << "not a safetensors file at all";
  auto r = replay();
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.err.find("in.safetensors"), std::string::npos) << r.err;
  config = dir.write("bad.json", R"({"moe": {"top_k": 0}})");
  r = replay();
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.err.find("/moe/top_k"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out_path));
}

}  // namespace
}  // namespace moe::test
