#include "train/evaluation.h"

#include <algorithm>

#include "trace/trace_recorder.h"

namespace moe::train {

std::optional<EvalResult> evaluate(model::ModelImpl& model, data::BatchSource& source,
                                   int64_t batch_size, int64_t max_batches,
                                   dist::ProcessGroup& group) {
  trace::TraceSpan span("eval");
  int64_t count = source.eval_batch_count(batch_size);
  count = count < 0 ? max_batches : std::min(count, max_batches);
  if (count == 0) return std::nullopt;

  at::NoGradGuard no_grad;
  model.eval();
  // Sums stay on the device until the one read after the group's all-reduce.
  at::Tensor loss_sum, correct;
  int64_t samples = 0;
  const auto add = [](at::Tensor& sum, const at::Tensor& v) { sum = sum.defined() ? sum + v : v; };
  for (int64_t i = 0; i < count; ++i) {
    data::Batch batch = source.eval_batch(i, batch_size);
    model::ModelOutput out = model.forward(batch);
    const int64_t n = batch.size();
    add(loss_sum, out.task_loss.detach().to(at::kDouble) * static_cast<double>(n));
    samples += n;
    if (out.correct.defined()) add(correct, out.correct.to(at::kDouble));
  }
  model.train();
  const bool classifier = correct.defined();
  auto sums = at::stack({loss_sum, at::full({}, static_cast<double>(samples), loss_sum.options()),
                         classifier ? correct : at::zeros({}, loss_sum.options())});
  group.all_reduce_sum(sums);
  sums = sums.cpu();
  const double* v = sums.data_ptr<double>();
  samples = static_cast<int64_t>(v[1]);
  const double total_loss = v[0], total_correct = v[2];
  EvalResult result;
  result.samples = samples;
  result.loss = total_loss / static_cast<double>(std::max<int64_t>(samples, 1));
  if (classifier) result.accuracy = total_correct / static_cast<double>(samples);
  return result;
}

}  // namespace moe::train
