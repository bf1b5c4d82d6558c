#include "data/synthetic_source.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/detail/CUDAHooksInterface.h>

#include <array>
#include <cmath>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "data/seeding.h"

namespace moe::data {
namespace {

using json = nlohmann::json;

class GeneratedSource : public BatchSource {
 public:
  GeneratedSource(uint64_t seed, GenerateBatch generate, std::string description)
      : seed_(seed), generate_(std::move(generate)), description_(std::move(description)) {}

  Batch next_train(int64_t batch_size) override {
    check_batch_size(batch_size);
    Batch batch =
        generate_(mix_seed(seed_, Stream::kTrain, static_cast<uint64_t>(batch_)), batch_size);
    ++batch_;
    return batch;
  }

  Batch eval_batch(int64_t index, int64_t batch_size) override {
    check_batch_size(batch_size);
    if (index < 0) throw std::out_of_range("eval batch " + std::to_string(index));
    return generate_(mix_seed(seed_, Stream::kEval, static_cast<uint64_t>(index)), batch_size);
  }

  int64_t eval_batch_count(int64_t /*batch_size*/) const override { return -1; }
  int64_t train_samples() const override { return 0; }
  json position() const override { return {{"batch", batch_}}; }

  void seek(const json& position) override {
    if (!position.is_object() || !position.contains("batch") ||
        !position["batch"].is_number_integer() || position["batch"].get<int64_t>() < 0) {
      throw DataError("synthetic data: bad data position " + position.dump() +
                      " (expected {\"batch\": i}, i >= 0)");
    }
    batch_ = position["batch"].get<int64_t>();
  }

  std::string describe() const override { return description_; }

 private:
  static void check_batch_size(int64_t batch_size) {
    if (batch_size < 1) throw std::invalid_argument("batch_size must be >= 1");
  }

  const uint64_t seed_;
  const GenerateBatch generate_;
  const std::string description_;
  int64_t batch_ = 0;
};

at::Generator torch_generator(uint64_t seed) {
  return at::make_generator<at::CPUGeneratorImpl>(seed);
}

// A generator of its own on `device` (CPU or CUDA), seeded with `seed`.
at::Generator generator_on(const at::Device& device, uint64_t seed) {
  if (!device.is_cuda()) return torch_generator(seed);
  at::Generator gen = at::detail::getCUDAHooks().getNewGenerator(device.index());
  gen.set_current_seed(seed);
  return gen;
}

// Successor k of a token is taken with probability kSuccessorProbs[k] (entropy ~1.1 nats).
constexpr std::array<double, 4> kSuccessorProbs = {0.6, 0.25, 0.1, 0.05};

}  // namespace

std::unique_ptr<BatchSource> make_generated_source(uint64_t seed, GenerateBatch generate,
                                                   std::string description) {
  return std::make_unique<GeneratedSource>(seed, std::move(generate), std::move(description));
}

GenerateBatch helloworld_batches(int64_t seq_len, int64_t dim, at::ScalarType dtype,
                                 const at::Device& device) {
  const at::Device on = device.is_cuda() ? device : at::Device(at::kCPU);
  return [=](uint64_t seed, int64_t batch_size) {
    at::Generator gen = generator_on(on, seed);
    // Drawn in float32 for every dtype, so float32 and float64 runs see the same numbers.
    at::Tensor x =
        at::randn({batch_size, seq_len, dim}, gen, at::TensorOptions(at::kFloat).device(on));
    return Batch{x.to(dtype), at::zeros({batch_size}, at::TensorOptions(at::kLong).device(on))};
  };
}

GenerateBatch markov_batches(int64_t vocab, int64_t seq_len, uint64_t seed) {
  constexpr size_t K = kSuccessorProbs.size();
  // successors[v * K + k]: the chain, fixed for the run.
  auto successors = std::make_shared<std::vector<int64_t>>(static_cast<size_t>(vocab) * K);
  std::mt19937_64 rng(mix_seed(seed, Stream::kStructure, 0));
  for (int64_t& s : *successors) s = static_cast<int64_t>(uniform_below(rng, vocab));
  std::array<double, K> cumulative{};
  double total = 0;
  for (size_t k = 0; k < K; ++k) cumulative[k] = total += kSuccessorProbs[k];

  return [=](uint64_t batch_seed, int64_t batch_size) {
    std::mt19937_64 r(batch_seed);
    const int64_t W = seq_len + 1;
    at::Tensor tokens = at::empty({batch_size, W}, at::kLong);
    int64_t* t = tokens.data_ptr<int64_t>();
    for (int64_t b = 0; b < batch_size; ++b) {
      int64_t token = static_cast<int64_t>(uniform_below(r, vocab));
      for (int64_t i = 0; i < W; ++i) {
        t[b * W + i] = token;
        const double u = uniform01(r);
        size_t k = 0;
        while (k + 1 < K && u >= cumulative[k]) ++k;
        token = (*successors)[static_cast<size_t>(token) * K + k];
      }
    }
    return Batch{tokens.narrow(1, 0, seq_len).contiguous(),
                 tokens.narrow(1, 1, seq_len).contiguous()};
  };
}

GenerateBatch quadrant_image_batches() {
  return [](uint64_t seed, int64_t batch_size) {
    at::Generator gen = torch_generator(seed);
    at::Tensor x = at::rand({batch_size, 1, 28, 28}, gen, at::kFloat);
    at::Tensor labels = at::randint(10, {batch_size}, gen, at::kLong);
    // Top-left quadrant pixels in [label, label + 1) / 10: its mean brightness is the label.
    at::Tensor quadrant = x.narrow(2, 0, 14).narrow(3, 0, 14);
    quadrant.add_(labels.to(at::kFloat).view({batch_size, 1, 1, 1})).div_(10.0);
    // Uniform [0, 1) has mean 1/2 and standard deviation sqrt(1/12).
    x.sub_(0.5).div_(std::sqrt(1.0 / 12.0));
    return Batch{x, labels};
  };
}

}  // namespace moe::data
