#include "data/token_cache.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "data/batch_source.h"

namespace moe::data {
namespace {

using json = nlohmann::json;

constexpr char kMagic[8] = {'M', 'O', 'E', 'T', 'O', 'K', 'C', '1'};
constexpr int64_t kPrefix = 16;  // magic + header length

[[noreturn]] void fail_cache(const std::string& path, const std::string& what) {
  throw DataError("token cache '" + path + "': " + what +
                  " (delete it and the next run builds it again)");
}

[[noreturn]] void fail_write(const std::string& path, const std::string& what) {
  throw DataError("token cache '" + path + "': " + what);
}

int64_t round_up8(int64_t n) {
  return (n + 7) / 8 * 8;
}

// Where the document ends start and where the file ends, for a header's counts.
int64_t ends_offset(const TokenCacheInfo& info) {
  return round_up8(kTokenCachePayload + info.tokens * info.token_bytes);
}
int64_t file_size(const TokenCacheInfo& info) {
  return ends_offset(info) + info.documents * 8;
}

json to_json(const TokenCacheInfo& i) {
  return {{"source", i.source},
          {"source_fingerprint", i.source_fingerprint},
          {"tokenizer", i.tokenizer},
          {"tokenizer_fingerprint", i.tokenizer_fingerprint},
          {"dtype", i.token_bytes == 2 ? "uint16" : "uint32"},
          {"tokens", i.tokens},
          {"documents", i.documents},
          {"eos", i.eos},
          {"max_id", i.max_id}};
}

TokenCacheInfo from_json(const json& j, const std::string& path) {
  const auto field = [&](const char* key, json::value_t type) -> const json& {
    const auto it = j.find(key);
    const bool number = type == json::value_t::number_integer;
    if (it == j.end() || (number ? !it->is_number_integer() : it->type() != type)) {
      fail_cache(path, std::string("header has no valid \"") + key + "\"");
    }
    return *it;
  };
  const auto text = [&](const char* key) {
    return field(key, json::value_t::string).get<std::string>();
  };
  const auto number = [&](const char* key) {
    return field(key, json::value_t::number_integer).get<int64_t>();
  };
  TokenCacheInfo i;
  i.source = text("source");
  i.source_fingerprint = text("source_fingerprint");
  i.tokenizer = text("tokenizer");
  i.tokenizer_fingerprint = text("tokenizer_fingerprint");
  const std::string dtype = text("dtype");
  if (dtype != "uint16" && dtype != "uint32") fail_cache(path, "unknown dtype \"" + dtype + "\"");
  i.token_bytes = dtype == "uint16" ? 2 : 4;
  i.tokens = number("tokens");
  i.documents = number("documents");
  i.eos = number("eos");
  i.max_id = number("max_id");
  if (i.tokens < 0 || i.documents < 0 || i.documents > i.tokens) {
    fail_cache(path, "header counts are impossible (" + std::to_string(i.tokens) + " tokens, " +
                         std::to_string(i.documents) + " documents)");
  }
  return i;
}

// The header of `bytes` (the file's first bytes), or nothing when the magic is not this version's.
std::optional<TokenCacheInfo> parse_header(const uint8_t* bytes, int64_t size,
                                           const std::string& path) {
  if (size < kPrefix || std::memcmp(bytes, kMagic, sizeof kMagic - 1) != 0) return std::nullopt;
  if (bytes[7] != static_cast<uint8_t>(kMagic[7])) return std::nullopt;  // another version
  uint64_t length = 0;
  std::memcpy(&length, bytes + 8, 8);
  if (length > static_cast<uint64_t>(kTokenCachePayload - kPrefix) ||
      static_cast<int64_t>(length) > size - kPrefix) {
    fail_cache(path, "truncated or damaged header (" + std::to_string(size) + " bytes)");
  }
  const std::string text(reinterpret_cast<const char*>(bytes + kPrefix), length);
  const json j = json::parse(text, nullptr, false);
  if (!j.is_object()) fail_cache(path, "header is not a JSON object");
  return from_json(j, path);
}

}  // namespace

std::optional<TokenCacheInfo> read_token_cache_info(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::vector<uint8_t> head(static_cast<size_t>(kTokenCachePayload));
  in.read(reinterpret_cast<char*>(head.data()), static_cast<std::streamsize>(head.size()));
  return parse_header(head.data(), static_cast<int64_t>(in.gcount()), path);
}

TokenCache::TokenCache(const std::string& path) : file_(path) {
  const std::optional<TokenCacheInfo> info = parse_header(file_.data(), file_.size(), path);
  if (!info) fail_cache(path, "not a token cache of this version (wrong magic)");
  info_ = *info;
  if (file_.size() != file_size(info_)) {
    fail_cache(path, std::to_string(file_.size()) + " bytes where its header says " +
                         std::to_string(file_size(info_)) + " (truncated or damaged)");
  }
  tokens_ = file_.data() + kTokenCachePayload;
  ends_ = file_.data() + ends_offset(info_);
  int64_t previous = 0;
  for (int64_t d = 0; d < info_.documents; ++d) {
    const int64_t end = document_end(d);
    if (end <= previous || end > info_.tokens) {
      fail_cache(path, "document " + std::to_string(d) + " ends at token " + std::to_string(end) +
                           ", not after the previous end " + std::to_string(previous) +
                           " and within the " + std::to_string(info_.tokens) + " tokens");
    }
    previous = end;
  }
  if (previous != info_.tokens) {
    fail_cache(path, "documents end at token " + std::to_string(previous) + " of " +
                         std::to_string(info_.tokens));
  }
}

int64_t TokenCache::document_end(int64_t i) const {
  uint64_t end = 0;
  std::memcpy(&end, ends_ + i * 8, 8);
  return static_cast<int64_t>(end);
}

void TokenCache::copy(int64_t offset, int64_t n, int64_t* out) const {
  if (info_.token_bytes == 2) {
    const auto* t = reinterpret_cast<const uint16_t*>(tokens_) + offset;
    for (int64_t i = 0; i < n; ++i) out[i] = t[i];
  } else {
    const auto* t = reinterpret_cast<const uint32_t*>(tokens_) + offset;
    for (int64_t i = 0; i < n; ++i) out[i] = t[i];
  }
}

TokenCacheWriter::TokenCacheWriter(std::string path, int token_bytes)
    : path_(std::move(path)),
      temp_(path_ + ".tmp-" + std::to_string(::getpid())),
      token_bytes_(token_bytes) {
  fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0)
    fail_write(path_, std::string("cannot create ") + temp_ + ": " + std::strerror(errno));
  const std::vector<uint8_t> header_space(static_cast<size_t>(kTokenCachePayload), 0);
  write(header_space.data(), header_space.size());
}

TokenCacheWriter::~TokenCacheWriter() {
  if (fd_ >= 0) {
    ::close(fd_);
    std::remove(temp_.c_str());
  }
}

void TokenCacheWriter::write(const void* data, size_t bytes) {
  const auto* p = static_cast<const uint8_t*>(data);
  while (bytes > 0) {
    const ssize_t n = ::write(fd_, p, bytes);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      fail_write(path_, std::string("cannot write ") + temp_ + ": " + std::strerror(errno));
    p += n;
    bytes -= static_cast<size_t>(n);
  }
}

void TokenCacheWriter::add_document(const std::vector<uint32_t>& ids) {
  for (const uint32_t id : ids) {
    max_id_ = std::max<int64_t>(max_id_, id);
    if (token_bytes_ == 2) {
      const auto v = static_cast<uint16_t>(id);
      buffer_.insert(buffer_.end(), reinterpret_cast<const uint8_t*>(&v),
                     reinterpret_cast<const uint8_t*>(&v) + 2);
    } else {
      buffer_.insert(buffer_.end(), reinterpret_cast<const uint8_t*>(&id),
                     reinterpret_cast<const uint8_t*>(&id) + 4);
    }
  }
  tokens_ += static_cast<int64_t>(ids.size());
  ends_.push_back(static_cast<uint64_t>(tokens_));
  if (buffer_.size() >= (1u << 20)) {
    write(buffer_.data(), buffer_.size());
    buffer_.clear();
  }
}

void TokenCacheWriter::finish(TokenCacheInfo info) {
  info.token_bytes = token_bytes_;
  info.tokens = tokens_;
  info.documents = static_cast<int64_t>(ends_.size());
  info.max_id = max_id_;
  buffer_.resize(buffer_.size() + static_cast<size_t>(ends_offset(info) - kTokenCachePayload -
                                                      tokens_ * token_bytes_),
                 0);
  write(buffer_.data(), buffer_.size());
  buffer_.clear();
  write(ends_.data(), ends_.size() * 8);
  const std::string header = to_json(info).dump();
  if (static_cast<int64_t>(header.size()) > kTokenCachePayload - kPrefix) {
    fail_write(path_, "header of " + std::to_string(header.size()) +
                          " bytes does not fit (paths "
                          "too long)");
  }
  std::vector<uint8_t> head(static_cast<size_t>(kTokenCachePayload), ' ');
  std::memcpy(head.data(), kMagic, sizeof kMagic);
  const uint64_t length = header.size();
  std::memcpy(head.data() + 8, &length, 8);
  std::memcpy(head.data() + kPrefix, header.data(), header.size());
  if (::pwrite(fd_, head.data(), head.size(), 0) != static_cast<ssize_t>(head.size()) ||
      ::fsync(fd_) != 0) {
    fail_write(path_, std::string("cannot write ") + temp_ + ": " + std::strerror(errno));
  }
  const int closed = ::close(fd_);
  fd_ = -1;
  if (closed != 0 || std::rename(temp_.c_str(), path_.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(temp_.c_str());
    fail_write(path_, "cannot move " + temp_ + " into place: " + why);
  }
}

}  // namespace moe::data
