#include "train/rng_state.h"

#include <ATen/CPUGeneratorImpl.h>

#include <mutex>
#include <stdexcept>

namespace moe::train {

std::string generator_state(at::Generator gen) {
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

void set_generator_state(at::Generator gen, const std::string& hex) {
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
  std::lock_guard<std::mutex> lock(gen.mutex());
  try {
    gen.set_state(state);
  } catch (const c10::Error& e) {
    throw std::invalid_argument(std::string("rng state: ") + e.what_without_backtrace());
  }
}

std::string save_rng_state() {
  return generator_state(at::detail::getDefaultCPUGenerator());
}

void restore_rng_state(const std::string& hex) {
  set_generator_state(at::detail::getDefaultCPUGenerator(), hex);
}

namespace {

// The device's default generator, through LibTorch's device-generic context (no CUDA headers).
at::Generator device_generator(const at::Device& device) {
  return at::globalContext().defaultGenerator(device);
}

}  // namespace

void save_run_rng(nlohmann::json& state, const at::Device& device) {
  state["rng"] = save_rng_state();
  if (device.is_cuda()) state["rng_cuda"] = generator_state(device_generator(device));
}

void restore_run_rng(const nlohmann::json& state, const at::Device& device) {
  const auto cpu = state.find("rng");
  if (cpu == state.end() || !cpu->is_string()) {
    throw std::invalid_argument("no \"rng\" (the CPU generator's state)");
  }
  restore_rng_state(cpu->get<std::string>());
  const auto cuda = state.find("rng_cuda");
  if (!device.is_cuda() || cuda == state.end()) return;
  if (!cuda->is_string()) throw std::invalid_argument("\"rng_cuda\" is not a string");
  try {
    set_generator_state(device_generator(device), cuda->get<std::string>());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("\"rng_cuda\": ") + e.what());
  }
}

}  // namespace moe::train
