#pragma once
// MNIST-format IDX files (MNIST, Fashion-MNIST), plain or gzipped.
#include <string>

#include "data/image_set.h"

namespace moe::data {

// One images file (magic 0x00000803, N x 28 x 28) and its labels file (magic 0x00000801, N labels
// 0..9). DataError naming the file for a wrong magic, size, count, label or a truncated file.
ImageSet read_idx_pair(const std::string& images_path, const std::string& labels_path);

// The data set in `path` (a directory, or one of its files): train-images-idx3-ubyte and
// train-labels-idx1-ubyte are required, t10k-* optional (each plain or .gz).
struct IdxData {
  std::string dir;
  ImageSet train, test;
  bool has_test = false;
};
IdxData load_idx(const std::string& path);

}  // namespace moe::data
