#include "train/optimizer.h"

#include <stdexcept>

namespace moe::train {

namespace {

bool reduced_precision(const at::Tensor& t) {
  return t.scalar_type() == at::kBFloat16 || t.scalar_type() == at::kHalf;
}

// The key of a state tensor: "<param name>.<buffer>".
std::string state_key(const std::string& param, const std::string& buffer) {
  return param + "." + buffer;
}

class Sgd : public Optimizer {
 public:
  Sgd(std::vector<NamedParameter> params, double momentum, double weight_decay)
      : Optimizer(std::move(params)), momentum_(momentum), weight_decay_(weight_decay) {}

 protected:
  // PyTorch's SGD: g += wd * w; buf = momentum * buf + g; w -= lr * buf.
  void update(Slot& slot, at::Tensor& w, const at::Tensor& grad, double lr) override {
    at::Tensor g = grad;
    if (weight_decay_ > 0 && w.dim() >= 2) g = g.add(w, weight_decay_);
    if (momentum_ > 0) {
      at::Tensor& buf = buffer(slot, "momentum_buffer", w);
      buf.mul_(momentum_).add_(g);
      g = buf;
    }
    w.add_(g, -lr);
  }

 private:
  double momentum_, weight_decay_;
};

class AdamW : public Optimizer {
 public:
  AdamW(std::vector<NamedParameter> params, double weight_decay)
      : Optimizer(std::move(params)), weight_decay_(weight_decay) {}

 protected:
  // Loshchilov & Hutter's decoupled weight decay, PyTorch's defaults (0.9, 0.999, 1e-8), by ATen's
  // fused kernel (torch.optim.AdamW(fused=True)): w *= 1 - lr * wd; m = lerp(m, g, 1 - beta1);
  // v = beta2 * v + (1 - beta2) * g * g; w -= lr / (1 - beta1^t) * m / (sqrt(v / (1 - beta2^t))
  // + eps), element by element in one pass over w, g, m and v, where the same update as separate
  // ATen ops read and wrote them about eight times (docs/BENCHMARKS.md, "AdamW in one pass"). The
  // kernel reads raw memory: every tensor contiguous (the buffers are, see buffer()).
  void update(Slot& slot, at::Tensor& w, const at::Tensor& grad, double lr) override {
    constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kEps = 1e-8;
    at::Tensor& m = buffer(slot, "exp_avg", w);
    at::Tensor& v = buffer(slot, "exp_avg_sq", w);
    const double weight_decay = w.dim() >= 2 ? weight_decay_ : 0.0;
    // The kernel reads the step from a float32 tensor: exact up to 2^24 steps.
    const at::Tensor step =
        at::full({}, static_cast<double>(steps_), w.options().dtype(at::kFloat));
    at::Tensor weights = w.contiguous();  // w itself, unless a parameter is a strided view
    at::_fused_adamw_({weights}, {grad.contiguous()}, {m}, {v}, {}, {step}, lr, kBeta1, kBeta2,
                      weight_decay, kEps, /*amsgrad=*/false, /*maximize=*/false);
    if (!weights.is_same(w)) w.copy_(weights);
  }

 private:
  double weight_decay_;
};

}  // namespace

Optimizer::Optimizer(std::vector<NamedParameter> params) {
  for (auto& p : params) {
    Slot slot{p.name, p.param, {}, {}};
    if (reduced_precision(p.param)) slot.master = p.param.detach().to(at::kFloat).clone();
    slots_.push_back(std::move(slot));
  }
}

at::Tensor& Optimizer::buffer(Slot& slot, const std::string& key, const at::Tensor& like) {
  auto it = slot.buffers.find(key);
  if (it == slot.buffers.end()) {
    it = slot.buffers.emplace(key, at::zeros(like.sizes(), like.options())).first;  // contiguous
  }
  return it->second;
}

void Optimizer::step(double lr) {
  at::NoGradGuard no_grad;
  ++steps_;
  for (Slot& slot : slots_) {
    const at::Tensor& grad = slot.param.grad();
    if (!grad.defined()) continue;  // unused this step (e.g. a dense FFN skipped): no update
    if (slot.master.defined()) {
      update(slot, slot.master, grad.to(at::kFloat), lr);
      slot.param.copy_(slot.master);
    } else {
      at::Tensor w = slot.param.detach();
      update(slot, w, grad, lr);
    }
  }
}

void Optimizer::zero_grad() {
  for (Slot& slot : slots_) {
    if (slot.param.grad().defined()) slot.param.mutable_grad() = at::Tensor();
  }
}

io::TensorMap Optimizer::state() const {
  io::TensorMap out;
  out["step"] = at::tensor(steps_, at::kLong);
  for (const Slot& slot : slots_) {
    if (slot.master.defined()) out[state_key(slot.name, "master")] = slot.master;
    for (const auto& [key, t] : slot.buffers) out[state_key(slot.name, key)] = t;
  }
  return out;
}

void Optimizer::load_state(const io::TensorMap& state) {
  auto step = state.find("step");
  if (step == state.end()) throw std::invalid_argument("optimizer state: no \"step\"");
  steps_ = step->second.item<int64_t>();
  size_t used = 1;
  for (Slot& slot : slots_) {
    slot.buffers.clear();
    const bool had_master = slot.master.defined();
    bool found_master = false;
    const std::string prefix = slot.name + ".";
    for (auto it = state.lower_bound(prefix); it != state.end(); ++it) {
      if (it->first.compare(0, prefix.size(), prefix) != 0) break;
      const std::string key = it->first.substr(prefix.size());
      if (key.find('.') != std::string::npos) continue;  // belongs to a longer param name
      if (!it->second.sizes().equals(slot.param.sizes())) {
        throw std::invalid_argument("optimizer state: \"" + it->first + "\" has shape " +
                                    c10::str(it->second.sizes()) + ", the parameter has " +
                                    c10::str(slot.param.sizes()));
      }
      at::Tensor value = it->second.to(had_master ? at::kFloat : slot.param.scalar_type());
      if (key == "master") {
        slot.master = value.clone();
        found_master = true;
      } else {
        slot.buffers[key] = value.clone(at::MemoryFormat::Contiguous);
      }
      ++used;
    }
    // The master holds the weights of a reduced-precision param: without it the next step would
    // write back the weights from before the checkpoint was loaded.
    if (had_master && !found_master) {
      throw std::invalid_argument("optimizer state: \"" + prefix + "master\" is missing");
    }
    if (slot.buffers.count("exp_avg") != slot.buffers.count("exp_avg_sq")) {
      throw std::invalid_argument("optimizer state: \"" + slot.name +
                                  "\" has only one of exp_avg and exp_avg_sq");
    }
  }
  if (used != state.size()) {
    throw std::invalid_argument("optimizer state: " + std::to_string(state.size() - used) +
                                " tensors do not belong to any parameter of this model");
  }
}

std::unique_ptr<Optimizer> make_optimizer(const protocol::TrainConfig& config,
                                          std::vector<NamedParameter> params) {
  switch (config.optimizer) {
    case protocol::Optimizer::Sgd:
      return std::make_unique<Sgd>(std::move(params), config.momentum, config.weight_decay);
    case protocol::Optimizer::AdamW:
      return std::make_unique<AdamW>(std::move(params), config.weight_decay);
  }
  throw std::invalid_argument("train.optimizer: unknown value");
}

}  // namespace moe::train
