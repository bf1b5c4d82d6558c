#include "run_fixtures.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

namespace moe::test {

namespace {

void put_u32_be(std::ofstream& out, uint32_t v) {
  const char bytes[4] = {static_cast<char>(v >> 24), static_cast<char>(v >> 16),
                         static_cast<char>(v >> 8), static_cast<char>(v)};
  out.write(bytes, 4);
}

// Pixels of a sample whose class is the quadrant that is brighter (classes 0..3).
std::vector<uint8_t> quadrant_image(int label, int side, std::mt19937& rng) {
  std::vector<uint8_t> px(side * side);
  std::uniform_int_distribution<int> noise(0, 60);
  for (int y = 0; y < side; ++y) {
    for (int x = 0; x < side; ++x) {
      const int quadrant = (y >= side / 2) * 2 + (x >= side / 2);
      px[y * side + x] = static_cast<uint8_t>(noise(rng) + (quadrant == label ? 180 : 0));
    }
  }
  return px;
}

void write_idx_pair(const std::string& dir, const std::string& prefix, int n, std::mt19937& rng) {
  std::ofstream images(dir + "/" + prefix + "-images-idx3-ubyte", std::ios::binary);
  std::ofstream labels(dir + "/" + prefix + "-labels-idx1-ubyte", std::ios::binary);
  put_u32_be(images, 0x803);
  put_u32_be(images, n);
  put_u32_be(images, 28);
  put_u32_be(images, 28);
  put_u32_be(labels, 0x801);
  put_u32_be(labels, n);
  for (int i = 0; i < n; ++i) {
    const int label = static_cast<int>(rng() % 4);
    auto px = quadrant_image(label, 28, rng);
    images.write(reinterpret_cast<const char*>(px.data()), px.size());
    labels.put(static_cast<char>(label));
  }
}

void write_cifar_file(const std::string& path, int n, std::mt19937& rng) {
  std::ofstream out(path, std::ios::binary);
  for (int i = 0; i < n; ++i) {
    const int label = static_cast<int>(rng() % 4);
    out.put(static_cast<char>(label));
    for (int c = 0; c < 3; ++c) {
      auto px = quadrant_image(label, 32, rng);
      out.write(reinterpret_cast<const char*>(px.data()), px.size());
    }
  }
}

}  // namespace

nlohmann::json tiny_config(const std::string& kind) {
  nlohmann::json c = {
      {"name", "tiny-" + kind},
      {"model",
       {{"kind", kind}, {"dim", 32}, {"layers", 2}, {"heads", 2}, {"seq_len", 16}, {"vocab", 256}}},
      {"moe", {{"experts", 4}, {"top_k", 2}, {"hidden", 32}}},
      {"train", {{"steps", 4}, {"batch_size", 8}, {"lr", 0.01}, {"threads", 1}}},
      {"data", {{"kind", "synthetic"}}},
  };
  return c;
}

std::string write_idx_dataset(const std::string& dir, int train, int test) {
  std::filesystem::create_directories(dir);
  std::mt19937 rng(7);
  write_idx_pair(dir, "train", train, rng);
  write_idx_pair(dir, "t10k", test, rng);
  return dir;
}

std::string write_cifar_dataset(const std::string& dir, int train, int test) {
  std::filesystem::create_directories(dir);
  std::mt19937 rng(11);
  write_cifar_file(dir + "/data_batch_1.bin", train, rng);
  write_cifar_file(dir + "/test_batch.bin", test, rng);
  return dir;
}

std::string write_text_file(const std::string& path, size_t bytes) {
  static const char* kWords[] = {"the ",   "expert ",  "router ",  "sends ", "each ",
                                 "token ", "to ",      "a ",       "few ",   "experts, ",
                                 "and ",   "balance ", "matters. "};
  std::mt19937 rng(3);
  std::string text;
  while (text.size() < bytes) text += kWords[rng() % (sizeof kWords / sizeof *kWords)];
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::vector<nlohmann::json> events_of(const std::string& stream) {
  std::vector<nlohmann::json> events;
  std::istringstream in(stream);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) events.push_back(nlohmann::json::parse(line));
  }
  return events;
}

std::vector<nlohmann::json> events_of_type(const std::vector<nlohmann::json>& events,
                                           const std::string& type) {
  std::vector<nlohmann::json> out;
  for (const auto& e : events) {
    if (e.at("type") == type) out.push_back(e);
  }
  return out;
}

std::map<int64_t, double> step_losses(const std::vector<nlohmann::json>& events) {
  std::map<int64_t, double> losses;
  for (const auto& e : events_of_type(events, "step")) {
    losses[e.at("step").get<int64_t>()] = e.at("loss").get<double>();
  }
  return losses;
}

std::string write_config(const TempDir& dir, const std::string& name,
                         const nlohmann::json& config) {
  return dir.write(name, config.dump(2));
}

bool wait_for_event(const std::string& metrics, const std::string& type, int64_t step) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    std::istringstream in(read_file(metrics));
    for (std::string line; std::getline(in, line);) {
      auto e = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
      if (e.is_object() && e.value("type", "") == type && e.value("step", int64_t{0}) >= step)
        return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

}  // namespace moe::test
