#include "data/corpus_source.h"

#include <filesystem>

#include "data/document_encoder.h"
#include "data/megatron_dataset.h"
#include "data/window_source.h"

namespace moe::data {

std::unique_ptr<BatchSource> make_cached_corpus_source(const protocol::RunConfig& config,
                                                       const std::string& tokenizer,
                                                       const CacheProgressFn& progress) {
  const protocol::DataConfig& d = config.data;
  const std::unique_ptr<DocumentEncoder> encoder =
      tokenizer.empty() ? byte_encoder(d.eos_token) : tokenizer_encoder(tokenizer, d.eos_token);
  TokenCacheRequest request;
  request.path = d.path;
  request.text_field = d.kind == protocol::DataKind::Jsonl ? d.text_field : std::string();
  request.cache_dir = d.cache_dir;
  request.vocab = config.model.vocab;
  std::shared_ptr<const TokenCache> cache = open_token_cache(request, *encoder, progress);
  const std::string what = to_string(d.kind) + " '" + d.path + "' (" +
                           std::to_string(cache->info().documents) + " documents, " +
                           encoder->name() + ", EOS " + std::to_string(encoder->eos()) +
                           ", cache '" + cache->path() + "')";
  return make_window_source(std::move(cache), {d.path, what, "tokens", config.model.seq_len,
                                               d.val_fraction, static_cast<uint64_t>(config.seed)});
}

std::unique_ptr<BatchSource> make_megatron_source(const protocol::RunConfig& config) {
  const protocol::DataConfig& d = config.data;
  MegatronSummary summary;
  std::shared_ptr<const TokenStream> tokens = open_megatron(d.path, &summary);
  if (summary.max_id >= config.model.vocab) {
    throw DataError("data file '" + d.path + ".bin': holds token id " +
                    std::to_string(summary.max_id) + ", but model.vocab is " +
                    std::to_string(config.model.vocab) +
                    " (set model.vocab to the tokenizer's size)");
  }
  const std::string what = "megatron '" + d.path + "' (" + std::to_string(summary.documents) +
                           " documents, " + std::to_string(summary.sequences) + " sequences, " +
                           summary.dtype + ")";
  return make_window_source(std::move(tokens),
                            {d.path + ".bin", what, "tokens", config.model.seq_len, d.val_fraction,
                             static_cast<uint64_t>(config.seed)});
}

}  // namespace moe::data
