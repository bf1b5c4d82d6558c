#pragma once
// A 64-bit FNV-1a hash, fed piece by piece: the fingerprints a token cache records of its source
// and tokenizer. Not cryptographic: it tells an edited file from the one a cache was built from.
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace moe::data {

class Fingerprint {
 public:
  Fingerprint& add(std::string_view bytes) {
    for (unsigned char c : bytes) hash_ = (hash_ ^ c) * 0x100000001b3ull;
    return *this;
  }
  // A number, as 8 bytes (so "1" + "23" and "12" + "3" differ).
  Fingerprint& add_number(uint64_t v) {
    for (int i = 0; i < 8; ++i) add(std::string_view(reinterpret_cast<const char*>(&v) + i, 1));
    return *this;
  }
  // A string with its length in front, for the same reason.
  Fingerprint& add_field(std::string_view s) { return add_number(s.size()).add(s); }
  uint64_t value() const { return hash_; }
  std::string hex() const {
    char out[17];
    std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(hash_));
    return out;
  }

 private:
  uint64_t hash_ = 0xcbf29ce484222325ull;
};

}  // namespace moe::data
