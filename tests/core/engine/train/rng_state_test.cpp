// The generators' states as hex text: restore replays the same draws, garbage throws.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <string>

#include "train/rng_state.h"

namespace moe::train {
namespace {

TEST(RngState, RestoreReplaysTheSameNumbers) {
  torch::manual_seed(123);
  torch::randn({3});  // somewhere in the stream, not at a fresh seed
  const std::string saved = save_rng_state();
  const at::Tensor first = torch::randn({64});
  const at::Tensor uniform = torch::rand({5});
  const at::Tensor more = torch::randn({64});
  EXPECT_FALSE(torch::equal(first, more));

  restore_rng_state(saved);
  EXPECT_TRUE(torch::equal(torch::randn({64}), first));
  EXPECT_TRUE(torch::equal(torch::rand({5}), uniform));
  EXPECT_TRUE(torch::equal(torch::randn({64}), more));
}

TEST(RngState, StateIsLowercaseHex) {
  torch::manual_seed(1);
  const std::string hex = save_rng_state();
  EXPECT_FALSE(hex.empty());
  EXPECT_EQ(hex.size() % 2, 0u);
  EXPECT_EQ(hex.find_first_not_of("0123456789abcdef"), std::string::npos);
  torch::manual_seed(2);
  EXPECT_NE(save_rng_state(), hex);
}

TEST(RngState, GarbageIsRejected) {
  torch::manual_seed(1);
  const std::string good = save_rng_state();
  EXPECT_THROW(restore_rng_state("xyz0"), std::invalid_argument);
  EXPECT_THROW(restore_rng_state(good.substr(0, good.size() - 1)), std::invalid_argument);
  EXPECT_THROW(restore_rng_state("00ff"), std::invalid_argument);  // hex, but not a state
  std::string bad_char = good;
  bad_char[10] = 'g';
  EXPECT_THROW(restore_rng_state(bad_char), std::invalid_argument);
  // A rejected state leaves the generator working.
  restore_rng_state(good);
  const at::Tensor a = torch::randn({4});
  restore_rng_state(good);
  EXPECT_TRUE(torch::equal(torch::randn({4}), a));
}

TEST(RngState, RunStateOnCpuHasTheCpuGeneratorOnly) {
  torch::manual_seed(7);
  nlohmann::json state;
  save_run_rng(state, at::Device(at::kCPU));
  EXPECT_EQ(state["rng"], save_rng_state());
  EXPECT_FALSE(state.contains("rng_cuda"));
  const at::Tensor next = torch::randn({8});
  restore_run_rng(state, at::Device(at::kCPU));
  EXPECT_TRUE(torch::equal(torch::randn({8}), next));
}

TEST(RngState, RunStateNeedsTheCpuGeneratorAndIgnoresCudaOnCpu) {
  torch::manual_seed(7);
  nlohmann::json state;
  save_run_rng(state, at::Device(at::kCPU));
  // A checkpoint of a CUDA run resumed on the CPU: the device generator's state is not needed.
  state["rng_cuda"] = "00ff";
  const at::Tensor next = torch::randn({8});
  restore_run_rng(state, at::Device(at::kCPU));
  EXPECT_TRUE(torch::equal(torch::randn({8}), next));
  state.erase("rng");
  EXPECT_THROW(restore_run_rng(state, at::Device(at::kCPU)), std::invalid_argument);
}

}  // namespace
}  // namespace moe::train
