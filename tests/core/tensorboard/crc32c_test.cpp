#include "tensorboard/crc32c.h"

#include <gtest/gtest.h>

#include <string>

namespace moe::tensorboard {
namespace {

TEST(Crc32c, StandardCheckValue) {
  EXPECT_EQ(crc32c("123456789"), 0xE3069283u);
}

TEST(Crc32c, KnownVectors) {
  // RFC 3720 (iSCSI), B.4: 32 bytes of zeros, of 0xFF, and ascending 0..31.
  EXPECT_EQ(crc32c(std::string(32, '\0')), 0x8A9136AAu);
  EXPECT_EQ(crc32c(std::string(32, '\xFF')), 0x62A8AB43u);
  std::string ascending;
  for (int i = 0; i < 32; ++i) ascending.push_back(static_cast<char>(i));
  EXPECT_EQ(crc32c(ascending), 0x46DD794Eu);
  EXPECT_EQ(crc32c(""), 0u);
}

TEST(Crc32c, MaskIsTensorFlowsAndInvertible) {
  const uint32_t crc = crc32c("123456789");
  EXPECT_EQ(mask_crc32c(crc), ((crc >> 15) | (crc << 17)) + 0xa282ead8u);
  for (uint32_t value : {0u, 1u, crc, 0xFFFFFFFFu, 0x80000000u}) {
    EXPECT_EQ(unmask_crc32c(mask_crc32c(value)), value);
  }
  EXPECT_NE(mask_crc32c(crc), crc);
}

}  // namespace
}  // namespace moe::tensorboard
