#pragma once
// Where training and evaluation samples come from (data.kind of docs/PROTOCOL.md, "RunConfig"). A
// BatchSource is deterministic: the same seed and position give the same batches, which is what
// makes a resumed run continue bit-for-bit (the position is saved in every checkpoint).
#include <torch/torch.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "data/token_cache_builder.h"
#include "protocol/run_config.h"

namespace moe::data {

// One batch, on the CPU. Shapes by model:
//   helloworld: inputs float [B, T, M] (train.dtype), targets int64 [B] (all 0)
//   lm:         inputs int64 [B, T] token ids, targets int64 [B, T] (inputs shifted by one)
//   image:      inputs float32 [B, C, H, W] normalised, targets int64 [B] class ids
struct Batch {
  at::Tensor inputs;
  at::Tensor targets;
  int64_t size() const { return inputs.defined() ? inputs.size(0) : 0; }
};

// Bad or truncated data files: the message names the file and what is wrong. moe-train turns it
// into exit status 2.
class DataError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class BatchSource {
 public:
  virtual ~BatchSource() = default;

  // The next training batch of `batch_size` samples (the global batch: every rank reads the
  // same stream and takes its slice). Epochs roll over on their own, reshuffled per epoch.
  virtual Batch next_train(int64_t batch_size) = 0;

  // Held-out batch `index` (0..eval_batch_count-1), always the same samples for the same index.
  virtual Batch eval_batch(int64_t index, int64_t batch_size) = 0;
  // How many held-out batches of `batch_size` exist (the last may be partial); -1 if unlimited.
  virtual int64_t eval_batch_count(int64_t batch_size) const = 0;

  // Training samples per epoch; 0 for an endless generated stream.
  virtual int64_t train_samples() const = 0;
  // The training stream's position (JSON, for the checkpoint) and a jump back to one.
  virtual nlohmann::json position() const = 0;
  virtual void seek(const nlohmann::json& position) = 0;

  // One line for the log: what was loaded ("Fashion-MNIST-format IDX: 60000 train, 10000 test").
  virtual std::string describe() const = 0;
};

// Wraps `inner` so that next_train(batch_size) batches are produced ahead on a worker thread (at
// most `depth` waiting), overlapping loading with compute. The wrapper gives exactly the inner
// source's batch sequence; position() is the position after the last batch the caller took (not
// where the worker is), seek() stops the worker, drops the queued batches, seeks `inner` and
// restarts. next_train with another batch size throws std::logic_error; an exception thrown by
// `inner` in the worker is rethrown by next_train (after the batches queued before it). The
// destructor stops the worker, also mid-stream.
//
// Contract for `inner`: eval_batch, eval_batch_count, train_samples and describe are forwarded on
// the caller's thread while the worker runs next_train and position, so they must only read state
// that next_train does not change (every source here serves eval batches from immutable data).
std::unique_ptr<BatchSource> prefetch(std::unique_ptr<BatchSource> inner, int64_t batch_size,
                                      int depth = 2);

// What a source may need beyond the config (moe-train run passes its run directory and log).
struct SourceOptions {
  // A folder that may hold the run's own tokenizer.json (a run started with --init-from a Hugging
  // Face folder keeps it in its run directory): a decoder's "text" and "jsonl" data are encoded
  // with it when data.tokenizer is "".
  std::string run_tokenizer_dir;
  // Token cache builds report their progress here (may be empty).
  CacheProgressFn progress;
};

// The source for config.data (and model kind / shapes), seeded with config.seed.
// DataError for unreadable, malformed or truncated files. Not prefetched (see prefetch()).
// `device` is where the run computes: synthetic helloworld inputs are drawn there (see
// helloworld_batches); every other source makes host tensors.
std::unique_ptr<BatchSource> make_batch_source(const protocol::RunConfig& config,
                                               const at::Device& device = at::kCPU,
                                               const SourceOptions& options = {});

// The tokenizer "text" and "jsonl" data are encoded with: data.tokenizer, else for a decoder the
// run's own (options.run_tokenizer_dir/tokenizer.json when it exists), else "" (bytes).
std::string resolved_tokenizer(const protocol::RunConfig& config, const SourceOptions& options);

}  // namespace moe::data
