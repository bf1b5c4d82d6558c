#include "data/rank_slice.h"

#include <stdexcept>

namespace moe::data {

namespace {

class RankSlice : public BatchSource {
 public:
  RankSlice(std::unique_ptr<BatchSource> inner, int64_t rank, int64_t world)
      : inner_(std::move(inner)), rank_(rank), world_(world) {}

  Batch next_train(int64_t batch_size) override { return slice(inner_->next_train(batch_size)); }
  Batch eval_batch(int64_t index, int64_t batch_size) override {
    return slice(inner_->eval_batch(index, batch_size));
  }
  int64_t eval_batch_count(int64_t batch_size) const override {
    const int64_t count = inner_->eval_batch_count(batch_size);
    if (count < 0 || batch_size % world_ != 0) return count < 0 ? count : 0;
    // Only the held-out samples that fill whole batches: the total is known from the last one.
    return count == 0 || inner_->eval_batch(count - 1, batch_size).size() == batch_size ? count
                                                                                        : count - 1;
  }
  int64_t train_samples() const override { return inner_->train_samples(); }
  nlohmann::json position() const override { return inner_->position(); }
  void seek(const nlohmann::json& position) override { inner_->seek(position); }
  std::string describe() const override {
    return inner_->describe() + " (rank " + std::to_string(rank_) + " of " +
           std::to_string(world_) + " takes 1/" + std::to_string(world_) + " of each batch)";
  }

 private:
  Batch slice(Batch b) const {
    const int64_t rows = b.size();
    if (rows % world_ != 0) {
      throw std::logic_error("a batch of " + std::to_string(rows) + " rows does not split over " +
                             std::to_string(world_) + " ranks");
    }
    const int64_t part = rows / world_;
    b.inputs = b.inputs.narrow(0, rank_ * part, part).contiguous();
    if (b.targets.defined()) b.targets = b.targets.narrow(0, rank_ * part, part).contiguous();
    return b;
  }

  std::unique_ptr<BatchSource> inner_;
  int64_t rank_, world_;
};

}  // namespace

std::unique_ptr<BatchSource> rank_slice(std::unique_ptr<BatchSource> inner, int64_t rank,
                                        int64_t world) {
  if (world <= 1) return inner;
  return std::make_unique<RankSlice>(std::move(inner), rank, world);
}

}  // namespace moe::data
