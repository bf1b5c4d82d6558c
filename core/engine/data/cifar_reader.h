#pragma once
// CIFAR-10 binary version: records of 1 label byte + 3072 pixel bytes (R, G, B planes of 32x32).
#include <string>

#include "data/image_set.h"

namespace moe::data {

// One batch file. DataError naming the file when its size is not a whole number of records or a
// label is not 0..9.
ImageSet read_cifar10_file(const std::string& path);

// The data set in `path` (a directory, or one of its files): data_batch_1.bin required,
// data_batch_2..5.bin used when present, test_batch.bin optional (the held-out set).
struct CifarData {
  std::string dir;
  ImageSet train, test;
  int64_t train_files = 0;
  bool has_test = false;
};
CifarData load_cifar10(const std::string& path);

}  // namespace moe::data
