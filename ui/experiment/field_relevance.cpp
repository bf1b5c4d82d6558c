#include "experiment/field_relevance.h"

namespace moe::ui {

std::string unusedReason(const std::string& pointer, const protocol::RunConfig& c) {
  const std::string& kind = c.model.kind;
  if (pointer == "/model/heads" || pointer == "/model/vocab" ||
      pointer == "/model/tie_embeddings") {
    if (kind != "lm") return "used by model.kind \"lm\" only";
  } else if (pointer == "/model/seq_len") {
    if (kind == "image") return "image models make their tokens from image patches";
  } else if (pointer == "/model/layers" || pointer == "/moe/every") {
    if (kind == "helloworld") return "helloworld is a single MoE layer";
  } else if (pointer == "/moe/cosine_proj_dim" || pointer == "/moe/cosine_init_t") {
    if (c.moe.gate != "cosine") return "used by the cosine gate only";
  } else if (pointer == "/moe/bias_balancing/rate") {
    if (!c.moe.bias_balancing.enabled) return "used when bias balancing is enabled";
  } else if (pointer == "/train/momentum") {
    if (c.train.optimizer != "sgd") return "used by the sgd optimizer only";
  } else if (pointer == "/train/amp") {
    if (c.train.dtype != "float32") return "applies to float32 models only";
  } else if (pointer == "/train/eval_batches") {
    if (c.train.eval_every == 0) return "used when train.eval_every > 0";
  } else if (pointer == "/train/keep_checkpoints") {
    if (c.train.checkpoint_every == 0) return "used when train.checkpoint_every > 0";
  } else if (pointer == "/data/path") {
    if (c.data.kind == "synthetic") return "synthetic data is generated, not read";
  } else if (pointer == "/parallel/backend" || pointer == "/parallel/expert_parallel" ||
             pointer == "/parallel/adaptive_r" || pointer == "/parallel/a2a_overlap_degree") {
    if (c.parallel.nproc <= 1) return "used with more than one process";
  }
  return "";
}

}  // namespace moe::ui
