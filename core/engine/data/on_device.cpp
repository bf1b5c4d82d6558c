#include "data/on_device.h"

namespace moe::data {

namespace {

class OnDevice : public BatchSource {
 public:
  OnDevice(std::unique_ptr<BatchSource> inner, const at::Device& device)
      : inner_(std::move(inner)), device_(device) {}

  Batch next_train(int64_t batch_size) override { return moved(inner_->next_train(batch_size)); }
  Batch eval_batch(int64_t index, int64_t batch_size) override {
    return moved(inner_->eval_batch(index, batch_size));
  }
  int64_t eval_batch_count(int64_t batch_size) const override {
    return inner_->eval_batch_count(batch_size);
  }
  int64_t train_samples() const override { return inner_->train_samples(); }
  nlohmann::json position() const override { return inner_->position(); }
  void seek(const nlohmann::json& position) override { inner_->seek(position); }
  std::string describe() const override { return inner_->describe(); }

 private:
  Batch moved(Batch b) const {
    b.inputs = b.inputs.to(device_);
    if (b.targets.defined()) b.targets = b.targets.to(device_);
    return b;
  }

  std::unique_ptr<BatchSource> inner_;
  at::Device device_;
};

}  // namespace

std::unique_ptr<BatchSource> on_device(std::unique_ptr<BatchSource> inner,
                                       const at::Device& device) {
  if (device.is_cpu()) return inner;
  return std::make_unique<OnDevice>(std::move(inner), device);
}

}  // namespace moe::data
