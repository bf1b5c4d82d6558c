#include "train/rng_state.h"

#include <ATen/CPUGeneratorImpl.h>
#include <torch/torch.h>

#include <mutex>
#include <stdexcept>

namespace moe::train {

std::string save_rng_state() {
  at::Generator gen = at::detail::getDefaultCPUGenerator();
  at::Tensor state;
  {
    std::lock_guard<std::mutex> lock(gen.mutex());
    state = gen.get_state();
  }
  static const char* kHex = "0123456789abcdef";
  std::string out;
  const auto* bytes = state.data_ptr<uint8_t>();
  for (int64_t i = 0; i < state.numel(); ++i) {
    out += kHex[bytes[i] >> 4];
    out += kHex[bytes[i] & 15];
  }
  return out;
}

void restore_rng_state(const std::string& hex) {
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    throw std::invalid_argument("rng state: not a hex string");
  };
  if (hex.size() % 2 != 0) throw std::invalid_argument("rng state: odd length");
  at::Tensor state = at::empty({static_cast<int64_t>(hex.size() / 2)}, at::kByte);
  auto* bytes = state.data_ptr<uint8_t>();
  for (size_t i = 0; i < hex.size(); i += 2)
    bytes[i / 2] = nibble(hex[i]) * 16 + nibble(hex[i + 1]);
  at::Generator gen = at::detail::getDefaultCPUGenerator();
  std::lock_guard<std::mutex> lock(gen.mutex());
  try {
    gen.set_state(state);
  } catch (const c10::Error& e) {
    throw std::invalid_argument(std::string("rng state: ") + e.what_without_backtrace());
  }
}

}  // namespace moe::train
