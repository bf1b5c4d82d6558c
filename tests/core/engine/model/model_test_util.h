#pragma once
// Small configs, batches and checks shared by the model tests.
#include <torch/torch.h>

#include <string>
#include <vector>

#include "data/batch_source.h"
#include "model/model.h"
#include "protocol/run_config.h"

namespace moe::test {

// A model small enough to run in milliseconds: dim 16, 2 layers, 4 experts of hidden 24, top 2.
inline protocol::RunConfig small_config(const std::string& kind,
                                        const std::string& dtype = "float32") {
  protocol::RunConfig c;
  c.model.kind = protocol::enum_from_name<protocol::ModelKind>(kind).value();
  c.model.dim = 16;
  c.model.layers = 2;
  c.model.heads = 2;
  c.model.seq_len = 8;
  c.moe.experts = 4;
  c.moe.top_k = 2;
  c.moe.hidden = 24;
  c.moe.cosine_proj_dim = 8;
  c.train.dtype = protocol::enum_from_name<protocol::Dtype>(dtype).value();
  c.data.kind = kind == "lm"      ? protocol::DataKind::Text
                : kind == "image" ? protocol::DataKind::Idx
                                  : protocol::DataKind::Synthetic;
  return c;
}

// A batch of `b` samples shaped for config.model.kind (data/batch_source.h).
inline data::Batch make_batch(const protocol::RunConfig& c, int64_t b, uint64_t seed = 3) {
  torch::manual_seed(seed);
  data::Batch batch;
  const auto& kind = c.model.kind;
  if (kind == protocol::ModelKind::HelloWorld) {
    batch.inputs = torch::randn({b, c.model.seq_len, c.model.dim});
    batch.targets = torch::zeros({b}, torch::kLong);
  } else if (kind == protocol::ModelKind::Lm) {
    auto seq = torch::randint(0, c.model.vocab, {b, c.model.seq_len + 1}, torch::kLong);
    batch.inputs = seq.slice(1, 0, -1).contiguous();
    batch.targets = seq.slice(1, 1).contiguous();
  } else {
    const bool cifar = c.data.kind == moe::protocol::DataKind::Cifar10;
    batch.inputs = torch::randn({b, cifar ? 3 : 1, cifar ? 32 : 28, cifar ? 32 : 28});
    batch.targets = torch::randint(0, 10, {b}, torch::kLong);
  }
  return batch;
}

// Names of the parameters whose gradient is missing or zero everywhere.
inline std::vector<std::string> params_without_grad(model::ModelImpl& m) {
  std::vector<std::string> missing;
  for (const auto& p : m.named_parameters()) {
    const auto& g = p.value().grad();
    if (!g.defined() || g.abs().sum().item<double>() == 0) missing.push_back(p.key());
  }
  return missing;
}

inline std::vector<std::string> param_names(model::ModelImpl& m) {
  std::vector<std::string> names;
  for (const auto& p : m.named_parameters()) names.push_back(p.key());
  return names;
}

inline std::vector<int64_t> param_shape(model::ModelImpl& m, const std::string& name) {
  auto params = m.named_parameters();
  const auto* p = params.find(name);
  return p ? p->sizes().vec() : std::vector<int64_t>{-1};
}

// Experts' parameters of one MoE layer with both biases (shapes as in docs/ROUTING.md, "Parameter
// names").
inline int64_t expert_params(const protocol::RunConfig& c) {
  const int64_t e = c.moe.experts, h = c.moe.hidden, m = c.model.dim;
  return e * (2 * h * m + h + m);
}

// Plain SGD on one fixed batch; returns the task loss before and after.
inline std::pair<double, double> sgd_on_one_batch(model::ModelImpl& m, const data::Batch& batch,
                                                  double lr, int steps) {
  torch::optim::SGD opt(m.parameters(), torch::optim::SGDOptions(lr));
  double first = 0, last = 0;
  for (int i = 0; i <= steps; ++i) {
    opt.zero_grad();
    auto out = m.forward(batch);
    (i == 0 ? first : last) = out.task_loss.item<double>();
    if (i == steps) break;
    (out.task_loss + 0.01 * out.aux_loss).backward();
    opt.step();
  }
  return {first, last};
}

}  // namespace moe::test
