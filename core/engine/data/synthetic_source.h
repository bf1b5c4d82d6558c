#pragma once
// data.kind "synthetic": batches generated from (config.seed, batch number), endless.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "data/batch_source.h"

namespace moe::data {

// Makes one batch of `batch_size` samples from `seed`; must only read immutable state (eval
// batches may be generated concurrently with training batches).
using GenerateBatch = std::function<Batch(uint64_t seed, int64_t batch_size)>;

// Train batch i is generate(mix_seed(seed, kTrain, i)), eval batch j generate(mix_seed(seed,
// kEval, j)). Position: {"batch": i}. train_samples() 0, eval_batch_count -1.
std::unique_ptr<BatchSource> make_generated_source(uint64_t seed, GenerateBatch generate,
                                                   std::string description);

// helloworld: inputs randn[B, seq_len, dim] (drawn in float32, then cast to `dtype`), targets 0.
// Drawn on `device` when it is a CUDA device (its own Philox stream: other numbers than the
// CPU's, as reproducible), since a CPU drawing millions of normals per step would be most of a
// GPU step; else on the CPU.
GenerateBatch helloworld_batches(int64_t seq_len, int64_t dim, at::ScalarType dtype,
                                 const at::Device& device);

// lm: sequences from a fixed sparse Markov chain over `vocab` tokens (built from `seed`): each
// token has a few likely successors, so the next token is predictable well below log(vocab).
GenerateBatch markov_batches(int64_t vocab, int64_t seq_len, uint64_t seed);

// image: float32 [B, 1, 28, 28] uniform noise whose top-left quadrant's brightness encodes the
// label (0..9), normalised to mean 0 and standard deviation 1 over the image.
GenerateBatch quadrant_image_batches();

}  // namespace moe::data
