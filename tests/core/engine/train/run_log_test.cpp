// format_duration: the ETA text of the progress line.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "train/run_log.h"

namespace moe::train {
namespace {

TEST(FormatDuration, MinutesAndSecondsBelowAnHour) {
  EXPECT_EQ(format_duration(0), "0:00");
  EXPECT_EQ(format_duration(59), "0:59");
  EXPECT_EQ(format_duration(61), "1:01");
  EXPECT_EQ(format_duration(3599), "59:59");
}

TEST(FormatDuration, HoursMinutesSeconds) {
  EXPECT_EQ(format_duration(3600), "1:00:00");
  EXPECT_EQ(format_duration(3725), "1:02:05");
  EXPECT_EQ(format_duration(36000 + 59 * 60 + 9), "10:59:09");
}

TEST(FormatDuration, RoundsToWholeSeconds) {
  EXPECT_EQ(format_duration(59.4), "0:59");
  EXPECT_EQ(format_duration(59.6), "1:00");
}

TEST(FormatDuration, UnknownForNegativeOrNonFinite) {
  EXPECT_EQ(format_duration(-1), "?");
  EXPECT_EQ(format_duration(std::numeric_limits<double>::quiet_NaN()), "?");
  EXPECT_EQ(format_duration(std::numeric_limits<double>::infinity()), "?");
}

}  // namespace
}  // namespace moe::train
