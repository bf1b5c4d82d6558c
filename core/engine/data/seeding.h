#pragma once
// Seeds derived from (config.seed, stream, position), and random draws that are the same on every
// platform: std::shuffle and the std:: distributions are implementation-defined, std::mt19937_64's
// output sequence is not.
#include <cstdint>
#include <random>
#include <vector>

namespace moe::data {

// The independent random streams of one run; each gets its own seed family.
enum class Stream : uint64_t { kTrain = 1, kEval = 2, kStructure = 3, kEpoch = 4 };

// SplitMix64's finaliser: a bijection that spreads every input bit over the output.
inline uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// The seed of item `index` of `stream` under the run seed; nearby inputs give unrelated seeds.
inline uint64_t mix_seed(uint64_t seed, Stream stream, uint64_t index) {
  return splitmix64(splitmix64(splitmix64(seed) ^ static_cast<uint64_t>(stream)) ^ index);
}

// Uniform in [0, n), n >= 1. The modulo bias is below n / 2^64: invisible at data-set sizes.
inline uint64_t uniform_below(std::mt19937_64& rng, uint64_t n) {
  return rng() % n;
}

// Uniform in [0, 1) with 53 random bits.
inline double uniform01(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

// A Fisher-Yates permutation of 0..n-1.
inline std::vector<int64_t> permutation(int64_t n, std::mt19937_64& rng) {
  std::vector<int64_t> order(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) order[i] = i;
  for (int64_t i = n - 1; i > 0; --i) {
    const auto j = static_cast<int64_t>(uniform_below(rng, static_cast<uint64_t>(i) + 1));
    std::swap(order[i], order[j]);
  }
  return order;
}

}  // namespace moe::data
