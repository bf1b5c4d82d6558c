#include "train/evaluation.h"

#include <algorithm>

#include "telemetry/trace_recorder.h"

namespace moe::train {

std::optional<EvalResult> evaluate(model::ModelImpl& model, data::BatchSource& source,
                                   int64_t batch_size, int64_t max_batches,
                                   dist::ProcessGroup& group) {
  TraceSpan span("eval");
  int64_t count = source.eval_batch_count(batch_size);
  count = count < 0 ? max_batches : std::min(count, max_batches);
  if (count == 0) return std::nullopt;

  at::NoGradGuard no_grad;
  model.eval();
  double loss_sum = 0;
  int64_t samples = 0, correct = 0;
  bool classifier = false;
  for (int64_t i = 0; i < count; ++i) {
    data::Batch batch = source.eval_batch(i, batch_size);
    model::ModelOutput out = model.forward(batch);
    const int64_t n = batch.size();
    loss_sum += out.task_loss.item<double>() * static_cast<double>(n);
    samples += n;
    if (out.correct >= 0) {
      classifier = true;
      correct += out.correct;
    }
  }
  model.train();
  auto sums = at::tensor({loss_sum, static_cast<double>(samples), static_cast<double>(correct)},
                         at::kDouble);
  group.all_reduce_sum(sums);
  loss_sum = sums[0].item<double>();
  samples = static_cast<int64_t>(sums[1].item<double>());
  correct = static_cast<int64_t>(sums[2].item<double>());
  EvalResult result;
  result.samples = samples;
  result.loss = loss_sum / static_cast<double>(std::max<int64_t>(samples, 1));
  if (classifier) result.accuracy = static_cast<double>(correct) / static_cast<double>(samples);
  return result;
}

}  // namespace moe::train
