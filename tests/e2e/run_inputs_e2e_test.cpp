// moe-train run with bad input: exit status 2 and a message naming the file and the problem;
// nothing the user made is touched. A diverging run ends "failed" naming the step.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "run_fixtures.h"

namespace moe::test {
namespace {

namespace fs = std::filesystem;

ProcessResult run_config(const TempDir& dir, const nlohmann::json& config) {
  return run_moe_train(
      {"run", "--config", write_config(dir, "c.json", config), "--runs-root", dir.file("runs")});
}

void expect_bad_input(const ProcessResult& r, const std::string& needle) {
  EXPECT_EQ(r.exit_status, 2) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

TEST(RunInputs, TruncatedIdxFileNamesTheFile) {
  TempDir dir;
  const std::string data = write_idx_dataset(dir.file("idx"), 20, 5);
  fs::resize_file(data + "/train-images-idx3-ubyte", 16 + 28 * 28 * 10);
  nlohmann::json c = tiny_config("image");
  c["data"] = {{"kind", "idx"}, {"path", data}};
  expect_bad_input(run_config(dir, c), "train-images-idx3-ubyte");
}

TEST(RunInputs, CifarFileOfTheWrongSizeIsTruncated) {
  TempDir dir;
  const std::string data = write_cifar_dataset(dir.file("cifar"), 10, 4);
  fs::resize_file(data + "/data_batch_1.bin", 3073 * 5 + 100);
  nlohmann::json c = tiny_config("image");
  c["data"] = {{"kind", "cifar10"}, {"path", data}};
  expect_bad_input(run_config(dir, c), "data_batch_1.bin");
}

TEST(RunInputs, TextTooShortForOneWindow) {
  TempDir dir;
  nlohmann::json c = tiny_config("lm");
  c["data"] = {{"kind", "text"}, {"path", dir.write("short.txt", "tiny")}};
  expect_bad_input(run_config(dir, c), "short.txt");
}

TEST(RunInputs, InvalidConfigListsEveryProblem) {
  TempDir dir;
  nlohmann::json c = tiny_config("lm");
  c["moe"]["top_k"] = 9;
  c["train"]["colour"] = "red";
  auto r = run_config(dir, c);
  expect_bad_input(r, "/moe/top_k");
  EXPECT_NE(r.err.find("/train/colour"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir.file("runs"))) << "no run directory for a config that cannot run";
}

TEST(RunInputs, NumberOutOfRangeNamesFileAndKey) {
  TempDir dir;
  nlohmann::json c = tiny_config("lm");
  c["moe"]["capacity_factor"] = 1.25;
  std::string text = c.dump(2);
  text.replace(text.find("1.25"), 4, "1e400");  // nlohmann cannot write it: edit the text
  const std::string path = dir.write("c.json", text);
  const std::string expected = path + ": /moe/capacity_factor: number 1e400 is out of range";
  expect_bad_input(run_moe_train({"run", "--config", path, "--runs-root", dir.file("runs")}),
                   expected);
  expect_bad_input(run_moe_train({"validate", "--config", path}), expected);
  EXPECT_FALSE(fs::exists(dir.file("runs")));
}

TEST(RunInputs, Float16NeedsCuda) {
  TempDir dir;
  nlohmann::json c = tiny_config("lm");
  c["train"]["dtype"] = "float16";
  expect_bad_input(run_config(dir, c), "/train/dtype");
}

TEST(RunInputs, ExistingRunIsNeverOverwritten) {
  TempDir dir;
  const std::string run = dir.file("run");
  const auto config = write_config(dir, "c.json", tiny_config("helloworld"));
  ASSERT_EQ(run_moe_train({"run", "--config", config, "--run-dir", run}).exit_status, 0);
  const auto before = fs::file_size(run + "/metrics.jsonl");
  auto r = run_moe_train({"run", "--config", config, "--run-dir", run});
  expect_bad_input(r, "--resume");
  EXPECT_EQ(fs::file_size(run + "/metrics.jsonl"), before);
}

TEST(RunInputs, ConfigAndResumeTogetherAreRefused) {
  TempDir dir;
  auto r = run_moe_train({"run", "--config", write_config(dir, "c.json", tiny_config("lm")),
                          "--resume", dir.file("x")});
  expect_bad_input(r, "--resume");
}

TEST(RunInputs, DivergingRunFailsNamingTheStep) {
  TempDir dir;
  nlohmann::json c = tiny_config("lm");
  c["train"].update({{"optimizer", "sgd"}, {"lr", 1e30}, {"steps", 20}});
  auto r = run_config(dir, c);
  EXPECT_EQ(r.exit_status, 1) << r.err;
  auto events = events_of(r.out);
  ASSERT_FALSE(events.empty());
  const auto& end = events.back();
  EXPECT_EQ(end["status"], "failed");
  EXPECT_NE(end["error"].get<std::string>().find("not finite at step"), std::string::npos)
      << end.dump();
  EXPECT_LT(end["steps"].get<int64_t>(), 20);
}

}  // namespace
}  // namespace moe::test
