// Dynamic loss scaling: the arithmetic of scale/unscale, overflow and growth with their clamps,
// the state through a checkpoint, agreement over two ranks, and a tiny model whose step is skipped
// when a gradient overflows.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <torch/torch.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <future>
#include <limits>
#include <sstream>
#include <vector>

#include "temp_dir.h"
#include "train/checkpoint.h"
#include "train/loss_scaler.h"

namespace moe::train {
namespace {

using test::TempDir;

constexpr double kInf = std::numeric_limits<double>::infinity();

// A parameter whose gradient is `grad`.
at::Tensor param_with_grad(const at::Tensor& grad) {
  at::Tensor p = torch::zeros_like(grad).requires_grad_(true);
  p.mutable_grad() = grad.clone();
  return p;
}

std::string scaler_log_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(LossScaler, StartsAt2To16AndScalesTheLoss) {
  LossScaler scaler;
  EXPECT_EQ(scaler.current(), 65536.0);
  EXPECT_EQ(scaler.good_steps(), 0);
  const at::Tensor scaled = scaler.scale(torch::tensor(1.5f));
  EXPECT_EQ(scaled.scalar_type(), at::kFloat);
  EXPECT_EQ(scaled.item<float>(), 1.5f * 65536.0f);
}

TEST(LossScaler, UnscaleDividesEveryGradientExactly) {
  LossScaler scaler;
  const at::Tensor a = torch::tensor({0.1f, -3.0f, 1e-6f}), b = torch::randn({2, 4});
  std::vector<at::Tensor> params = {param_with_grad(a * 65536.0), param_with_grad(b * 65536.0),
                                    torch::zeros({3}).requires_grad_(true)};  // no gradient
  EXPECT_TRUE(scaler.unscale_and_check(params));
  EXPECT_TRUE(torch::equal(params[0].grad(), a));
  EXPECT_TRUE(torch::equal(params[1].grad(), b));
  EXPECT_FALSE(params[2].grad().defined());
}

TEST(LossScaler, InfOrNanInAnyGradientIsReported) {
  LossScaler scaler;
  for (double bad : {kInf, -kInf, std::nan("")}) {
    std::vector<at::Tensor> params = {param_with_grad(torch::ones({4})),
                                      param_with_grad(torch::ones({2, 3}))};
    params[1].mutable_grad()[1][2] = bad;
    EXPECT_FALSE(scaler.unscale_and_check(params)) << bad;
  }
  std::vector<at::Tensor> fine = {param_with_grad(torch::full({3}, 6e4))};
  EXPECT_TRUE(scaler.unscale_and_check(fine));
  EXPECT_TRUE(scaler.unscale_and_check({}));
}

TEST(LossScaler, OverflowHalvesTheScaleAndRestartsTheCount) {
  LossScaler scaler;
  for (int i = 0; i < 5; ++i) scaler.update(true);
  EXPECT_EQ(scaler.good_steps(), 5);
  scaler.update(false);
  EXPECT_EQ(scaler.current(), 32768.0);
  EXPECT_EQ(scaler.good_steps(), 0);
  scaler.update(false);
  EXPECT_EQ(scaler.current(), 16384.0);
}

TEST(LossScaler, DoublesAfterTheGrowthIntervalOfGoodSteps) {
  LossScaler scaler;
  for (int64_t i = 0; i < LossScaler::kGrowthInterval - 1; ++i) scaler.update(true);
  EXPECT_EQ(scaler.current(), 65536.0);
  EXPECT_EQ(scaler.good_steps(), 1999);
  scaler.update(true);
  EXPECT_EQ(scaler.current(), 131072.0);
  EXPECT_EQ(scaler.good_steps(), 0);

  // An overflow in between starts the interval again.
  LossScaler short_interval(3);
  short_interval.update(true);
  short_interval.update(true);
  short_interval.update(false);  // 32768
  short_interval.update(true);
  short_interval.update(true);
  EXPECT_EQ(short_interval.current(), 32768.0);
  short_interval.update(true);
  EXPECT_EQ(short_interval.current(), 65536.0);
}

TEST(LossScaler, NeverBelowOneNorAbove2To24) {
  LossScaler scaler;
  for (int i = 0; i < 16; ++i) scaler.update(false);
  EXPECT_EQ(scaler.current(), 1.0);
  scaler.update(false);
  EXPECT_EQ(scaler.current(), 1.0);

  LossScaler growing(1);
  for (int i = 0; i < 8; ++i) growing.update(true);
  EXPECT_EQ(growing.current(), 16777216.0);
  growing.update(true);
  EXPECT_EQ(growing.current(), 16777216.0);
  EXPECT_EQ(growing.good_steps(), 0);
}

TEST(LossScaler, StateRoundTripsThroughACheckpoint) {
  LossScaler scaler;
  scaler.update(false);
  scaler.update(false);
  for (int i = 0; i < 7; ++i) scaler.update(true);
  Checkpoint c;
  c.model["w"] = torch::ones({2});
  c.optimizer["step"] = at::tensor(int64_t{3});
  c.state["rng"] = "00";
  scaler.save_to(c.state);
  TempDir dir;
  const std::string path = save_checkpoint(dir / "checkpoints", 12, c, 2);

  LossScaler restored;
  restored.restore_from(load_checkpoint(path).state);
  EXPECT_EQ(restored.current(), 16384.0);
  EXPECT_EQ(restored.good_steps(), 7);
  // The restored scaler goes on as the saved one would.
  for (int64_t i = 7; i < LossScaler::kGrowthInterval; ++i) restored.update(true);
  EXPECT_EQ(restored.current(), 32768.0);
}

TEST(LossScaler, StateWithoutTheEntryRestoresTheInitialState) {
  LossScaler scaler;
  scaler.update(false);
  scaler.update(true);
  scaler.restore_from({{"step", 40}, {"rng", "00"}});  // a checkpoint from before loss scaling
  EXPECT_EQ(scaler.current(), LossScaler::kInitialScale);
  EXPECT_EQ(scaler.good_steps(), 0);
}

TEST(LossScaler, DamagedStateIsRefused) {
  for (const char* entry :
       {R"(12)", R"({"scale": 3.0, "good_steps": 0})", R"({"scale": 0.5, "good_steps": 0})",
        R"({"scale": 33554432.0, "good_steps": 0})", R"({"scale": 1024.0, "good_steps": -1})",
        R"({"scale": 1024.0, "good_steps": 2000})", R"({"scale": 1024.0, "good_steps": 1.5})",
        R"({"scale": "1024", "good_steps": 1})", R"({"good_steps": 1})"}) {
    LossScaler scaler;
    const nlohmann::json state = {{"loss_scale", nlohmann::json::parse(entry)}};
    EXPECT_THROW(scaler.restore_from(state), std::runtime_error) << entry;
    EXPECT_EQ(scaler.current(), LossScaler::kInitialScale) << entry;
  }
}

// A TCP port nobody listens on now, for the two ranks' rendezvous.
int scaler_free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    throw std::runtime_error("no free port");
  }
  ::close(fd);
  return ntohs(addr.sin_port);
}

TEST(LossScaler, EveryRankSkipsWhenOneRankOverflows) {
  // Two ranks in one process (gloo over loopback): only rank 1's gradient overflows.
  const int port = scaler_free_port();
  const auto rank_result = [port](int64_t rank) {
    launch::RankLayout layout;
    layout.rank = rank;
    layout.world_size = 2;
    layout.local_rank = rank;
    layout.local_world_size = 2;
    layout.master_port = port;
    layout.source = "torchrun";
    dist::ProcessGroup group(layout, protocol::Backend::Gloo, std::chrono::seconds(60));
    std::vector<at::Tensor> params = {param_with_grad(torch::ones({3}))};
    if (rank == 1) params[0].mutable_grad()[0] = kInf;
    std::vector<bool> results;
    results.push_back(LossScaler().unscale_and_check(params, group));
    params[0].mutable_grad() = torch::ones({3});  // now finite everywhere
    results.push_back(LossScaler().unscale_and_check(params, group));
    return results;
  };
  auto rank0 = std::async(std::launch::async, rank_result, 0);
  auto rank1 = std::async(std::launch::async, rank_result, 1);
  EXPECT_EQ(rank0.get(), (std::vector<bool>{false, true}));
  EXPECT_EQ(rank1.get(), (std::vector<bool>{false, true}));
}

// A tiny float32 model trained with the scaler, step by step as the trainer does.
struct ScaledLinear {
  torch::nn::Linear layer{torch::nn::LinearOptions(4, 3)};
  std::vector<NamedParameter> params;
  std::unique_ptr<Optimizer> optimizer;
  at::Tensor x = torch::randn({5, 4}), target = torch::tensor({0, 2, 1, 1, 0}, torch::kLong);

  ScaledLinear() {
    for (const auto& p : layer->named_parameters()) params.push_back({p.key(), p.value()});
    optimizer = make_optimizer(protocol::TrainConfig{}, params);
  }
  at::Tensor loss() { return at::cross_entropy_loss(layer->forward(x), target); }
  std::vector<at::Tensor> weights() const {
    std::vector<at::Tensor> out;
    for (const auto& p : params) out.push_back(p.param.detach().clone());
    return out;
  }
};

TEST(LossScaler, TinyModelTakesGoodStepsAndSkipsAnOverflow) {
  torch::manual_seed(3);
  ScaledLinear model;
  TempDir dir;
  const std::string log_path = dir / "stderr.log";
  RunLog log(nullptr, log_path);
  dist::ProcessGroup single(launch::RankLayout{}, protocol::Backend::Auto,
                            std::chrono::seconds(10));
  LossScaler scaler;

  // Step 1: the unscaled gradients are exactly the unscaled loss's, and the update happens.
  model.loss().backward();
  std::vector<at::Tensor> reference;
  for (const auto& p : model.params) reference.push_back(p.param.grad().clone());
  model.optimizer->zero_grad();
  scaler.scale(model.loss()).backward();
  EXPECT_FALSE(torch::equal(model.params[0].param.grad(), reference[0]));  // still scaled
  const auto before_first = model.weights();
  ASSERT_TRUE(unscale_for_step(scaler, model.params, single, log, 1));
  for (size_t i = 0; i < reference.size(); ++i) {
    EXPECT_TRUE(torch::equal(model.params[i].param.grad(), reference[i])) << i;
  }
  model.optimizer->step(1e-2);
  EXPECT_FALSE(torch::equal(model.weights()[0], before_first[0]));
  EXPECT_EQ(scaler.good_steps(), 1);

  // Step 2: an infinite gradient skips the update and halves the scale, with a warning.
  model.optimizer->zero_grad();
  scaler.scale(model.loss()).backward();
  model.params[1].param.mutable_grad()[0] = kInf;
  const auto before_second = model.weights();
  EXPECT_FALSE(unscale_for_step(scaler, model.params, single, log, 2));
  EXPECT_EQ(scaler.current(), 32768.0);
  EXPECT_EQ(scaler.good_steps(), 0);
  const auto after_second = model.weights();
  for (size_t i = 0; i < after_second.size(); ++i) {
    EXPECT_TRUE(torch::equal(after_second[i], before_second[i])) << i;
  }
  EXPECT_EQ(model.optimizer->steps_taken(), 1);
  log.close_file();
  const std::string text = scaler_log_text(log_path);
  EXPECT_NE(text.find("step 2: float16 gradients overflowed (inf/NaN), optimizer step skipped; "
                      "loss scale now 32768"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("step 1"), std::string::npos) << text;
}

}  // namespace
}  // namespace moe::train
