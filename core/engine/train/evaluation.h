#pragma once
// Evaluation on held-out data (train.eval_every / eval_batches): the task loss averaged over
// samples, and accuracy for classifiers. Runs in eval mode (no gate noise) without gradients.
#include <optional>

#include "data/batch_source.h"
#include "dist/process_group.h"
#include "model/model.h"

namespace moe::train {

struct EvalResult {
  double loss = 0;
  std::optional<double> accuracy;
  int64_t samples = 0;
};

// Up to `max_batches` held-out batches of `batch_size`; nullopt when the source has none. Across
// ranks every rank runs its slice of each batch and the sums are taken over the group.
std::optional<EvalResult> evaluate(model::ModelImpl& model, data::BatchSource& source,
                                   int64_t batch_size, int64_t max_batches,
                                   dist::ProcessGroup& group);

}  // namespace moe::train
