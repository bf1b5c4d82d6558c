// One AdamW step over the parameters of the mixtral-like model of tests/bench/hf_train_step.py
// (width 512, 4 layers, 8 heads with 4 key/value heads, 8 GLU experts of 1024, vocabulary 4096:
// 57.7 M parameters), the engine's optimizer (train/optimizer.h) against the update it replaced
// (one ATen op after another per tensor, below), round by round in one process.
//   optimizer_bench [--threads 2] [--rounds 10] [--weight-decay 0] [--dtype float|bfloat16]
// Prints the median ms per step of each, the median of the per-round ratios, and the largest
// difference between the two sets of parameters after all rounds (the same gradients each step).
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "train/optimizer.h"

namespace {

struct Options {
  int threads = 2, rounds = 10;
  double weight_decay = 0.0;
  at::ScalarType dtype = at::kFloat;
};

// The shapes of the engine's parameters for the model (names do not matter here).
std::vector<std::vector<int64_t>> mixtral_shapes() {
  constexpr int64_t kVocab = 4096, kDim = 512, kKv = 256, kExperts = 8, kHidden = 1024;
  std::vector<std::vector<int64_t>> shapes = {{kVocab, kDim}};
  for (int layer = 0; layer < 4; ++layer) {
    for (auto s : std::vector<std::vector<int64_t>>{{kDim},
                                                    {kDim, kDim},
                                                    {kKv, kDim},
                                                    {kKv, kDim},
                                                    {kDim, kDim},
                                                    {kDim},
                                                    {kExperts, kDim},
                                                    {kExperts, kHidden, kDim},
                                                    {kExperts, kHidden, kDim},
                                                    {kExperts, kHidden, kDim}}) {
      shapes.push_back(s);
    }
  }
  shapes.push_back({kDim});
  shapes.push_back({kVocab, kDim});
  return shapes;
}

// The update before the fused kernel: PyTorch's AdamW as separate ATen ops on each tensor, with
// a float32 master copy for reduced-precision parameters.
struct PerOpAdamW {
  struct Slot {
    at::Tensor param, master, m, v;
  };
  std::vector<Slot> slots;
  double weight_decay;
  int64_t steps = 0;

  PerOpAdamW(const std::vector<at::Tensor>& params, double wd) : weight_decay(wd) {
    for (const auto& p : params) {
      at::Tensor w = p.scalar_type() == at::kFloat ? at::Tensor() : p.to(at::kFloat);
      const at::Tensor& like = w.defined() ? w : p;
      slots.push_back({p, w, at::zeros_like(like), at::zeros_like(like)});
    }
  }

  void step(double lr) {
    at::NoGradGuard no_grad;
    const double t = static_cast<double>(++steps);
    for (Slot& s : slots) {
      at::Tensor w = s.master.defined() ? s.master : s.param.detach();
      at::Tensor grad = s.param.grad().to(at::kFloat);
      if (weight_decay > 0 && w.dim() >= 2) w.mul_(1.0 - lr * weight_decay);
      s.m.lerp_(grad, 0.1);
      s.v.mul_(0.999).addcmul_(grad, grad, 0.001);
      const double bias1 = 1.0 - std::pow(0.9, t), bias2_sqrt = std::sqrt(1.0 - std::pow(0.999, t));
      w.addcdiv_(s.m, (s.v.sqrt() / bias2_sqrt).add_(1e-8), -lr / bias1);
      if (s.master.defined()) s.param.detach().copy_(s.master);
    }
  }
};

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--threads")
      o.threads = std::stoi(value);
    else if (key == "--rounds")
      o.rounds = std::stoi(value);
    else if (key == "--weight-decay")
      o.weight_decay = std::stod(value);
    else if (key == "--dtype")
      o.dtype = value == "bfloat16" ? at::kBFloat16 : at::kFloat;
    else
      throw std::invalid_argument("unknown option " + key);
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse(argc, argv);
  at::set_num_threads(opt.threads);
  torch::manual_seed(0);
  std::vector<at::Tensor> ours, theirs;
  std::vector<moe::train::NamedParameter> named;
  int64_t numel = 0;
  for (const auto& shape : mixtral_shapes()) {
    at::Tensor init = torch::randn(shape).to(opt.dtype);
    at::Tensor grad = torch::randn(shape).to(opt.dtype);
    ours.push_back(init.clone().requires_grad_(true));
    theirs.push_back(init.clone().requires_grad_(true));
    ours.back().mutable_grad() = grad;
    theirs.back().mutable_grad() = grad.clone();
    named.push_back({c10::str("p", named.size()), ours.back()});
    numel += init.numel();
  }
  moe::protocol::TrainConfig config;
  config.optimizer = moe::protocol::Optimizer::AdamW;
  config.weight_decay = opt.weight_decay;
  auto engine = moe::train::make_optimizer(config, named);
  PerOpAdamW per_op(theirs, opt.weight_decay);
  constexpr double kLr = 1e-4;
  engine->step(kLr);  // warm-up: buffers allocated, pages touched
  per_op.step(kLr);

  std::vector<double> new_ms, old_ms, ratios;
  for (int r = 0; r < opt.rounds; ++r) {
    auto start = std::chrono::steady_clock::now();
    per_op.step(kLr);
    old_ms.push_back(ms_since(start));
    start = std::chrono::steady_clock::now();
    engine->step(kLr);
    new_ms.push_back(ms_since(start));
    ratios.push_back(old_ms.back() / new_ms.back());
  }
  double max_diff = 0;
  for (size_t i = 0; i < ours.size(); ++i) {
    max_diff =
        std::max(max_diff, (ours[i].detach().to(at::kFloat) - theirs[i].detach().to(at::kFloat))
                               .abs()
                               .max()
                               .item<double>());
  }
  std::printf("%zu tensors, %.1f M %s parameters, %d threads, weight decay %g, %d rounds\n",
              ours.size(), numel / 1e6, c10::toString(opt.dtype), opt.threads, opt.weight_decay,
              opt.rounds);
  std::printf("per-op AdamW (before): %.1f ms/step\n", median(old_ms));
  std::printf("engine AdamW (now):    %.1f ms/step\n", median(new_ms));
  std::printf("before / now: %.2f (median of per-round ratios)\n", median(ratios));
  std::printf("largest parameter difference after %d steps: %.3g\n", opt.rounds + 1, max_diff);
  return 0;
}
