// Every preset that ships in resources/presets must pass `moe-train validate`.
#include <gtest/gtest.h>

#include <filesystem>

#include "process.h"

namespace moe::test {
namespace {

TEST(Presets, EveryShippedPresetValidates) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(MOE_PRESETS_DIR)) {
    if (entry.path().extension() != ".json") continue;
    auto r = run_moe_train({"validate", "--config", entry.path().string()});
    EXPECT_EQ(r.exit_status, 0) << entry.path() << ": " << r.err;
    ++count;
  }
  EXPECT_GE(count, 2);
}

}  // namespace
}  // namespace moe::test
