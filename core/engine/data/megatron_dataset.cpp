#include "data/megatron_dataset.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "data/gz_file.h"
#include "data/mapped_file.h"

namespace moe::data {
namespace {

constexpr char kMagic[9] = {'M', 'M', 'I', 'D', 'I', 'D', 'X', '\0', '\0'};
constexpr int64_t kHeader = 9 + 8 + 1 + 8 + 8;

struct Dtype {
  const char* name;
  int bytes;
  bool is_signed;
};

// Megatron's DType codes; floats are refused.
const Dtype* dtype_of(int code) {
  static const Dtype uint8{"uint8", 1, false}, int8{"int8", 1, true}, int16{"int16", 2, true},
      int32{"int32", 4, true}, int64{"int64", 8, true}, uint16{"uint16", 2, false};
  switch (code) {
    case 1:
      return &uint8;
    case 2:
      return &int8;
    case 3:
      return &int16;
    case 4:
      return &int32;
    case 5:
      return &int64;
    case 8:
      return &uint16;
    default:
      return nullptr;
  }
}

template <class T>
T read_at(const uint8_t* base, int64_t offset) {
  T v;
  std::memcpy(&v, base + offset, sizeof v);
  return v;
}

// The token at `p`, as int64.
int64_t token_at(const uint8_t* p, const Dtype& d) {
  switch (d.bytes) {
    case 1:
      return d.is_signed ? int64_t{read_at<int8_t>(p, 0)} : int64_t{read_at<uint8_t>(p, 0)};
    case 2:
      return d.is_signed ? int64_t{read_at<int16_t>(p, 0)} : int64_t{read_at<uint16_t>(p, 0)};
    case 4:
      return read_at<int32_t>(p, 0);
    default:
      return read_at<int64_t>(p, 0);
  }
}

class MegatronDataset : public TokenStream {
 public:
  MegatronDataset(const std::string& prefix, MegatronSummary* summary)
      : idx_(prefix + ".idx"), bin_(prefix + ".bin") {
    read_index();
    check_tokens(summary);
  }

  int64_t size() const override { return starts_.back(); }

  void copy(int64_t offset, int64_t n, int64_t* out) const override {
    // The sequence holding `offset`, then on through the next ones.
    auto s = static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end(), offset) -
                                 starts_.begin() - 1);
    while (n > 0) {
      const int64_t within = offset - starts_[s];
      const int64_t take = std::min(n, starts_[s + 1] - offset);
      const uint8_t* p = bin_.data() + pointers_[s] + within * dtype_->bytes;
      for (int64_t i = 0; i < take; ++i) out[i] = token_at(p + i * dtype_->bytes, *dtype_);
      out += take;
      offset += take;
      n -= take;
      ++s;
    }
  }

 private:
  void read_index() {
    const std::string& idx = idx_.path();
    const uint8_t* p = idx_.data();
    if (idx_.size() < kHeader || std::memcmp(p, kMagic, sizeof kMagic) != 0) {
      fail_file(idx, "not a Megatron index (no \"MMIDIDX\" header)");
    }
    const auto version = read_at<uint64_t>(p, 9);
    if (version != 1) fail_file(idx, "index version " + std::to_string(version) + ", expected 1");
    const int code = p[17];
    dtype_ = dtype_of(code);
    if (dtype_ == nullptr) {
      fail_file(idx, "dtype code " + std::to_string(code) +
                         " is not an integer type (token ids are uint8, int8, int16, int32, "
                         "int64 or uint16)");
    }
    const auto sequences = read_at<uint64_t>(p, 18);
    const auto doc_index = read_at<uint64_t>(p, 26);
    const uint64_t body = static_cast<uint64_t>(idx_.size() - kHeader);
    const uint64_t expected = sequences * 12 + doc_index * 8;
    if (sequences > body || doc_index > body ||
        (body != expected && body != expected + sequences)) {
      fail_file(idx, std::to_string(idx_.size()) + " bytes disagree with " +
                         std::to_string(sequences) + " sequences and " + std::to_string(doc_index) +
                         " document-index entries (truncated?)");
    }
    const int64_t S = static_cast<int64_t>(sequences);
    starts_.assign(static_cast<size_t>(S) + 1, 0);
    pointers_.resize(static_cast<size_t>(S));
    for (int64_t s = 0; s < S; ++s) {
      const auto length = read_at<int32_t>(p, kHeader + s * 4);
      const auto pointer = read_at<int64_t>(p, kHeader + S * 4 + s * 8);
      if (length < 0 || pointer < 0 || pointer + int64_t{length} * dtype_->bytes > bin_.size()) {
        fail_file(bin_.path(), "sequence " + std::to_string(s) + " (" + std::to_string(length) +
                                   " tokens at byte " + std::to_string(pointer) +
                                   ") lies outside the file's " + std::to_string(bin_.size()) +
                                   " bytes");
      }
      pointers_[s] = pointer;
      starts_[s + 1] = starts_[s] + length;
    }
    int64_t previous = 0;
    for (uint64_t d = 0; d < doc_index; ++d) {
      const auto entry = read_at<int64_t>(p, kHeader + S * 12 + static_cast<int64_t>(d) * 8);
      if (entry < previous || entry > S || (d == 0 && entry != 0) ||
          (d + 1 == doc_index && entry != S)) {
        fail_file(idx, "document index entry " + std::to_string(d) + " is " +
                           std::to_string(entry) + ": the entries must rise from 0 to the " +
                           std::to_string(S) + " sequences");
      }
      previous = entry;
    }
    documents_ = doc_index > 0 ? static_cast<int64_t>(doc_index) - 1 : 0;
  }

  // Negative ids are refused here; the largest id is the caller's to check against model.vocab.
  void check_tokens(MegatronSummary* summary) const {
    int64_t max_id = -1;
    for (size_t s = 0; s + 1 < starts_.size(); ++s) {
      const uint8_t* p = bin_.data() + pointers_[s];
      for (int64_t i = 0; i < starts_[s + 1] - starts_[s]; ++i) {
        const int64_t id = token_at(p + i * dtype_->bytes, *dtype_);
        if (id < 0) {
          fail_file(bin_.path(), "sequence " + std::to_string(s) + " holds token id " +
                                     std::to_string(id) + " (ids are >= 0)");
        }
        max_id = std::max(max_id, id);
      }
    }
    summary->sequences = static_cast<int64_t>(pointers_.size());
    summary->documents = documents_;
    summary->tokens = starts_.back();
    summary->max_id = max_id;
    summary->dtype = dtype_->name;
  }

  MappedFile idx_, bin_;
  const Dtype* dtype_ = nullptr;
  std::vector<int64_t> starts_;    // token offset of each sequence in the stream, then the total
  std::vector<int64_t> pointers_;  // byte offset of each sequence in the .bin file
  int64_t documents_ = 0;
};

}  // namespace

std::shared_ptr<const TokenStream> open_megatron(const std::string& prefix,
                                                 MegatronSummary* summary) {
  return std::make_shared<MegatronDataset>(prefix, summary);
}

}  // namespace moe::data
