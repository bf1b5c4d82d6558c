#pragma once
// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum of TFRecord framing
// (tfrecord_writer.h). Table-driven, one byte at a time: event files are small.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace moe::tensorboard {

// The CRC-32C of `size` bytes at `data` ("123456789" -> 0xE3069283).
uint32_t crc32c(const void* data, size_t size);
inline uint32_t crc32c(std::string_view bytes) {
  return crc32c(bytes.data(), bytes.size());
}

// TFRecord stores CRCs masked (rotated and offset), because a CRC computed over data that holds
// CRCs is weak: ((crc >> 15) | (crc << 17)) + 0xa282ead8.
uint32_t mask_crc32c(uint32_t crc);
uint32_t unmask_crc32c(uint32_t masked);

}  // namespace moe::tensorboard
