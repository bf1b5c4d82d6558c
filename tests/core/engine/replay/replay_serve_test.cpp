// replay --serve's request loop in this process: one MoE layer written as a capture (its weights
// and input), served from a stream of request lines. The loop answers every line in order, a bad
// line with an error naming it and the loop going on, and a change of a key the loaded weights fix
// is refused; a file without the layer's tensors is refused before the ready line.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "io/safetensors.h"
#include "layer/moe_layer.h"
#include "protocol/run_config.h"
#include "replay/replay_serve.h"
#include "train/input_error.h"

namespace moe::replay {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

class ReplayServe : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("replay_serve_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    config_.model.dim = 16;
    config_.moe.experts = 4;
    config_.moe.top_k = 2;
    config_.moe.hidden = 24;
    config_file_ = (dir_ / "config.json").string();
    std::ofstream(config_file_) << protocol::to_json(config_).dump();
    torch::manual_seed(3);
    layer::MoeLayer layer(config_.model.dim, config_.moe);
    io::TensorMap tensors;
    for (const auto& p : layer->named_parameters()) tensors[prefix_ + p.key()] = p.value().detach();
    tensors["input"] = torch::randn({kTokens, config_.model.dim});
    tensors_file_ = (dir_ / "layer.safetensors").string();
    io::write_safetensors(tensors_file_, tensors);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The answers to `requests` (one per line), the ready line first.
  std::vector<json> serve(const std::string& requests, int* status = nullptr) {
    std::istringstream in(requests);
    std::ostringstream out;
    const int rc = serve_replay(config_file_, tensors_file_, prefix_, in, out);
    if (status) *status = rc;
    std::vector<json> lines;
    std::istringstream answers(out.str());
    for (std::string line; std::getline(answers, line);) lines.push_back(json::parse(line));
    return lines;
  }

  static constexpr int64_t kTokens = 40;
  fs::path dir_;
  protocol::RunConfig config_;
  std::string prefix_ = "layers.0.moe.";
  std::string config_file_, tensors_file_;
};

TEST_F(ReplayServe, AnswersEveryRequestInOrderAfterTheReadyLine) {
  int status = -1;
  const auto lines = serve(
      "{\"id\":1,\"moe\":{\"capacity_factor\":1.0}}\n"
      "{\"id\":2,\"moe\":{\"capacity_factor\":0.25}}\n"
      "{\"id\":3,\"moe\":{\"capacity_factor\":0}}\n",
      &status);
  EXPECT_EQ(status, 0);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0].at("ready"), true);
  EXPECT_EQ(lines[0].at("experts"), 4);
  EXPECT_EQ(lines[0].at("tokens"), kTokens);
  EXPECT_EQ(lines[0].at("dim"), 16);
  for (int i = 1; i <= 3; ++i) {
    const json& a = lines[i];
    ASSERT_FALSE(a.contains("error")) << a.dump();
    EXPECT_EQ(a.at("id"), i);
    EXPECT_EQ(a.at("tokens"), kTokens);
    // Every token makes top_k choices; what each expert keeps is at most its capacity.
    int64_t demand = 0;
    for (const auto& c : a.at("expert_counts")) demand += c.get<int64_t>();
    EXPECT_EQ(demand, kTokens * 2);
    for (const auto& k : a.at("expert_kept")) EXPECT_LE(k.get<int64_t>(), a.at("capacity"));
  }
  // capacity_factor 1: k * ceil(N / E); a quarter of it drops more; 0 is dropless.
  EXPECT_EQ(lines[1].at("capacity"), 2 * 10);
  EXPECT_GT(lines[2].at("dropped_frac").get<double>(), lines[1].at("dropped_frac").get<double>());
  EXPECT_EQ(lines[3].at("dropped_frac").get<double>(), 0.0);
}

TEST_F(ReplayServe, ABadLineIsAnsweredWithAnErrorAndTheLoopGoesOn) {
  const auto lines = serve(
      "not json\n"
      "{\"id\":7,\"moe\":{\"capacity_factor\":\"big\"}}\n"
      "{\"id\":8,\"moe\":{\"experts\":16}}\n"
      "{\"id\":9,\"colour\":\"red\"}\n"
      "{\"id\":10}\n");
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_TRUE(lines[1].at("id").is_null());
  EXPECT_FALSE(lines[1].at("error").get<std::string>().empty());
  EXPECT_EQ(lines[2].at("id"), 7);
  EXPECT_NE(lines[2].at("error").get<std::string>().find("capacity_factor"), std::string::npos)
      << lines[2].dump();
  EXPECT_EQ(lines[3].at("id"), 8);  // the weights fix the number of experts
  EXPECT_NE(lines[3].at("error").get<std::string>().find("experts"), std::string::npos)
      << lines[3].dump();
  EXPECT_EQ(lines[4].at("id"), 9);
  EXPECT_NE(lines[4].at("error").get<std::string>().find("colour"), std::string::npos)
      << lines[4].dump();
  EXPECT_EQ(lines[5].at("id"), 10);  // the loaded settings as they are
  EXPECT_FALSE(lines[5].contains("error")) << lines[5].dump();
}

TEST_F(ReplayServe, AFileWithoutTheLayersTensorsIsRefusedBeforeTheReadyLine) {
  prefix_ = "layers.1.moe.";  // the capture holds layer 0 only
  std::istringstream in("{\"id\":1}\n");
  std::ostringstream out;
  try {
    serve_replay(config_file_, tensors_file_, prefix_, in, out);
    FAIL() << "loaded a layer the file does not hold";
  } catch (const train::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("layers.1.moe."), std::string::npos) << e.what();
  }
  EXPECT_TRUE(out.str().empty());
}

TEST_F(ReplayServe, AnUnwritableOutputStopsTheLoop) {
  std::istringstream in("{\"id\":1}\n{\"id\":2}\n");
  std::ostringstream out;
  out.setstate(std::ios::badbit);
  EXPECT_EQ(serve_replay(config_file_, tensors_file_, prefix_, in, out), 1);
}

}  // namespace
}  // namespace moe::replay
