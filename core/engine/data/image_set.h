#pragma once
// Decoded image data sets and the BatchSource that serves them (idx and cifar10 share it).
#include <torch/torch.h>

#include <cstdint>
#include <memory>
#include <string>

#include "data/batch_source.h"

namespace moe::data {

// Images decoded once into one tensor; batches are index_select'ed out of it.
struct ImageSet {
  at::Tensor images;  // uint8 [N, C, H, W]
  at::Tensor labels;  // int64 [N]
  int64_t size() const { return images.defined() ? images.size(0) : 0; }
};

// The last `fraction` of `set` (rounded down) as a held-out set; the rest stays in `set`.
ImageSet split_off_tail(ImageSet* set, double fraction);

// Per-channel mean and standard deviation of the pixels scaled to [0, 1], exact (from byte
// histograms, so the same on every platform). Float64 [C] each.
struct ChannelStats {
  at::Tensor mean, std;
};
ChannelStats channel_stats(const at::Tensor& images);

// Serves `train` in a seeded permutation per epoch and `held_out` in file order; inputs are
// float32, normalised with the training set's ChannelStats. `what` starts describe()
// ("IDX '/data/fashion'"). Batches are always full: the last batch of an epoch continues into the
// next epoch's permutation. Position: {"epoch": e, "index": i}, the next sample's place in epoch
// e's permutation.
std::unique_ptr<BatchSource> make_image_source(ImageSet train, ImageSet held_out, uint64_t seed,
                                               std::string what);

}  // namespace moe::data
