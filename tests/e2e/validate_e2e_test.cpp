// moe-train validate: exit status and messages for good and bad configs.
#include <gtest/gtest.h>

#include "process.h"

namespace moe::test {
namespace {

TEST(ValidateCommand, AcceptsAGoodConfig) {
  TempDir dir;
  auto path = dir.write("ok.json", R"({"name": "ok", "moe": {"experts": 4, "top_k": 2}})");
  auto r = run_moe_train({"validate", "--config", path});
  EXPECT_EQ(r.exit_status, 0) << r.err;
  EXPECT_NE(r.out.find("ok"), std::string::npos);
}

TEST(ValidateCommand, ReportsEveryProblemWithExitTwo) {
  TempDir dir;
  auto path = dir.write("bad.json", R"({"moe": {"experts": 8, "top_k": 9, "colour": 1},
                                        "model": {"dim": 7}})");
  auto r = run_moe_train({"validate", "--config", path});
  EXPECT_EQ(r.exit_status, 2);
  // Unknown keys and range problems, all in one go, each prefixed with the file.
  EXPECT_NE(r.err.find("bad.json: /moe/colour"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("bad.json: /moe/top_k"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("bad.json: /model/dim"), std::string::npos) << r.err;
}

TEST(ValidateCommand, MissingFileAndSyntaxErrorAreBadInput) {
  TempDir dir;
  auto r = run_moe_train({"validate", "--config", dir.file("absent.json")});
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.err.find("absent.json"), std::string::npos) << r.err;
  auto path = dir.write("broken.json", "{\n  \"name\": \"x\",\n  oops\n}");
  auto r2 = run_moe_train({"validate", "--config", path});
  EXPECT_EQ(r2.exit_status, 2);
  EXPECT_NE(r2.err.find("broken.json"), std::string::npos) << r2.err;
  EXPECT_NE(r2.err.find("line 3"), std::string::npos) << r2.err;
}

TEST(ValidateCommand, BadArgumentsAreExitTwo) {
  EXPECT_EQ(run_moe_train({"validate"}).exit_status, 2);
  EXPECT_EQ(run_moe_train({"no-such-command"}).exit_status, 2);
  EXPECT_EQ(run_moe_train({}).exit_status, 2);
  EXPECT_EQ(run_moe_train({"--help"}).exit_status, 0);
}

}  // namespace
}  // namespace moe::test
