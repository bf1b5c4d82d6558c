// make_batch_source: picks the source for config.data and config.model.
#include "data/batch_source.h"

#include <filesystem>
#include <stdexcept>
#include <utility>

#include "data/cifar_reader.h"
#include "data/corpus_source.h"
#include "data/idx_reader.h"
#include "data/synthetic_source.h"
#include "data/text_source.h"

namespace moe::data {
namespace {

at::ScalarType input_dtype(protocol::Dtype dtype) {
  if (dtype == protocol::Dtype::Float64) return at::kDouble;
  if (dtype == protocol::Dtype::BFloat16) return at::kBFloat16;
  return at::kFloat;  // float32, and float16 (which the trainer rejects on the CPU anyway)
}

std::unique_ptr<BatchSource> make_synthetic(const protocol::RunConfig& c,
                                            const at::Device& device) {
  const auto seed = static_cast<uint64_t>(c.seed);
  const protocol::ModelConfig& m = c.model;
  switch (m.kind) {
    case protocol::ModelKind::HelloWorld:
      return make_generated_source(
          seed, helloworld_batches(m.seq_len, m.dim, input_dtype(c.train.dtype), device),
          "synthetic helloworld: randn[B, " + std::to_string(m.seq_len) + ", " +
              std::to_string(m.dim) + "] " + to_string(c.train.dtype) + ", target 0" +
              (device.is_cuda() ? ", drawn on " + device.str() : std::string()));
    case protocol::ModelKind::Lm:
    case protocol::ModelKind::Decoder:
      return make_generated_source(seed, markov_batches(m.vocab, m.seq_len, seed),
                                   "synthetic " + to_string(m.kind) +
                                       ": sparse Markov chain over " + std::to_string(m.vocab) +
                                       " tokens, sequences of " + std::to_string(m.seq_len));
    case protocol::ModelKind::Image:
      return make_generated_source(seed, quadrant_image_batches(),
                                   "synthetic image: 1x28x28 noise, label = top-left quadrant "
                                   "brightness (10 classes)");
  }
  throw std::invalid_argument("synthetic data: unknown model.kind");
}

// The held-out set: the data set's own test files, else the last val_fraction of the training set.
ImageSet held_out(ImageSet* train, ImageSet test, bool has_test, double val_fraction,
                  std::string* what) {
  if (has_test) return test;
  *what += " (held out: last " + std::to_string(val_fraction) + " of train)";
  return split_off_tail(train, val_fraction);
}

}  // namespace

std::string resolved_tokenizer(const protocol::RunConfig& config, const SourceOptions& options) {
  if (!config.data.tokenizer.empty()) return config.data.tokenizer;
  if (config.model.kind != protocol::ModelKind::Decoder || options.run_tokenizer_dir.empty()) {
    return "";
  }
  const auto own = std::filesystem::path(options.run_tokenizer_dir) / "tokenizer.json";
  std::error_code ec;
  return std::filesystem::is_regular_file(own, ec) ? own.string() : "";
}

std::unique_ptr<BatchSource> make_batch_source(const protocol::RunConfig& config,
                                               const at::Device& device,
                                               const SourceOptions& options) {
  const protocol::DataConfig& d = config.data;
  const auto seed = static_cast<uint64_t>(config.seed);
  switch (d.kind) {
    case protocol::DataKind::Synthetic:
      return make_synthetic(config, device);
    case protocol::DataKind::Text:
    case protocol::DataKind::Jsonl: {
      const std::string tokenizer = resolved_tokenizer(config, options);
      if (d.kind == protocol::DataKind::Text && tokenizer.empty()) {
        return make_text_source(d.path, config.model.seq_len, d.val_fraction, seed);
      }
      return make_cached_corpus_source(config, tokenizer, options.progress);
    }
    case protocol::DataKind::Megatron:
      return make_megatron_source(config);
    case protocol::DataKind::Idx: {
      IdxData data = load_idx(d.path);
      std::string what = "IDX '" + data.dir + "'";
      ImageSet test =
          held_out(&data.train, std::move(data.test), data.has_test, d.val_fraction, &what);
      return make_image_source(std::move(data.train), std::move(test), seed, what);
    }
    case protocol::DataKind::Cifar10: {
      CifarData data = load_cifar10(d.path);
      std::string what =
          "CIFAR-10 '" + data.dir + "' (" + std::to_string(data.train_files) + " train files)";
      ImageSet test =
          held_out(&data.train, std::move(data.test), data.has_test, d.val_fraction, &what);
      return make_image_source(std::move(data.train), std::move(test), seed, what);
    }
  }
  throw std::invalid_argument("unknown data.kind");
}

}  // namespace moe::data
