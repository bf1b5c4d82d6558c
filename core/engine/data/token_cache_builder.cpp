#include "data/token_cache_builder.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/file.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <exception>
#include <filesystem>
#include <thread>
#include <vector>

#include "data/batch_source.h"
#include "data/corpus_reader.h"
#include "data/fingerprint.h"
#include "data/gz_file.h"
#include "data/text_source.h"

namespace moe::data {
namespace fs = std::filesystem;

namespace {

constexpr int64_t kBatchBytes = 4 << 20;  // input per batch: a progress line every second or so

fs::path normal_data_path(const std::string& path) {
  fs::path p = fs::absolute(path).lexically_normal();
  if (p.filename().empty()) p = p.parent_path();  // "corpus/" names the folder "corpus"
  return p;
}

[[noreturn]] void fail_unwritable(const fs::path& where, const std::string& why) {
  throw DataError("cannot write the token cache in '" + where.string() + "': " + why +
                  " (set data.cache_dir to a writable folder)");
}

// An exclusive lock on `file` for the life of the object: one process of a machine builds.
class FileLock {
 public:
  explicit FileLock(const fs::path& file) {
    fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) fail_unwritable(file.parent_path(), std::strerror(errno));
    while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
    }
  }
  ~FileLock() { ::close(fd_); }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_ = -1;
};

// The cores this process may run on (taskset, a container's cpuset), not all the machine has.
int usable_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

// The ids of `records`' documents, parsed and encoded on `threads` threads, in record order.
std::vector<std::vector<uint32_t>> encode_all(const std::vector<CorpusRecord>& records,
                                              const CorpusReader& reader,
                                              const DocumentEncoder& encoder, int threads) {
  std::vector<std::vector<uint32_t>> ids(records.size());
  if (records.empty()) return ids;
  std::atomic<size_t> next{0};
  std::exception_ptr error;
  std::atomic<bool> failed{false};
  const auto work = [&] {
    try {
      for (size_t i = next++; i < records.size() && !failed; i = next++) {
        ids[i] = encoder.encode(reader.document(records[i]));
      }
    } catch (...) {
      if (!failed.exchange(true)) error = std::current_exception();
    }
  };
  std::vector<std::thread> helpers;
  const size_t extra = std::min<size_t>(records.size(), static_cast<size_t>(threads)) - 1;
  for (size_t t = 0; t < extra; ++t) helpers.emplace_back(work);
  work();
  for (auto& h : helpers) h.join();
  if (error) std::rethrow_exception(error);
  return ids;
}

// Temporary files of this cache that a killed build left (`<cache>.tmp-<pid>`): under the lock no
// other process is writing one.
void remove_stale_temporaries(const std::string& cache) {
  const std::string prefix = fs::path(cache).filename().string() + ".tmp-";
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(fs::path(cache).parent_path(), ec)) {
    if (entry.path().filename().string().rfind(prefix, 0) == 0) fs::remove(entry.path(), ec);
  }
}

// The corpus files: data_files(path); in a folder of JSON Lines only those named *.jsonl (a
// folder of shards often holds a README or a dataset card beside them).
std::vector<std::string> corpus_files(const TokenCacheRequest& request) {
  std::vector<std::string> files = data_files(request.path);
  std::error_code ec;
  if (request.text_field.empty() || !fs::is_directory(request.path, ec)) return files;
  std::erase_if(files, [](const std::string& f) { return fs::path(f).extension() != ".jsonl"; });
  if (files.empty()) fail_file(request.path, "no *.jsonl file in this folder");
  return files;
}

bool matches(const TokenCacheInfo& info, const std::string& source, const std::string& tokenizer) {
  return info.source_fingerprint == source && info.tokenizer_fingerprint == tokenizer;
}

// Writes the cache; what it did, for the last progress line.
CacheProgress build(const TokenCacheRequest& request, const DocumentEncoder& encoder,
                    const std::vector<std::string>& files, const std::string& cache,
                    TokenCacheInfo info, const CacheProgressFn& progress) {
  const auto start = std::chrono::steady_clock::now();
  const int threads = request.threads > 0 ? request.threads : usable_cores();
  CorpusReader reader(files, request.text_field);
  TokenCacheWriter writer(cache, request.vocab <= 65536 ? 2 : 4);
  CacheProgress p;
  p.cache = cache;
  p.bytes_total = reader.total_bytes();
  std::vector<CorpusRecord> records;
  while (reader.next_batch(&records, kBatchBytes)) {
    for (const auto& ids : encode_all(records, reader, encoder, threads)) {
      for (const uint32_t id : ids) {
        if (id >= request.vocab) {
          throw DataError("data file '" + request.path + "': document " +
                          std::to_string(p.documents) + " has token id " + std::to_string(id) +
                          " under " + encoder.name() + ", but model.vocab is " +
                          std::to_string(request.vocab) +
                          " (set model.vocab to the tokenizer's size)");
        }
      }
      writer.add_document(ids);
      ++p.documents;
    }
    p.tokens = writer.tokens();
    p.bytes_done = reader.bytes_read();
    p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (progress) progress(p);
  }
  writer.finish(std::move(info));
  p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return p;
}

}  // namespace

std::string token_cache_path(const TokenCacheRequest& request, const DocumentEncoder& encoder) {
  const fs::path data = normal_data_path(request.path);
  const std::string name = data.filename().string();
  const fs::path folder =
      request.cache_dir.empty()
          ? data.parent_path() / (name + ".moe-tokens")
          : fs::path(request.cache_dir) /
                (name + "-" + Fingerprint().add(data.string()).hex().substr(0, 8) + ".moe-tokens");
  const std::string form = request.text_field.empty() ? "text" : "jsonl:" + request.text_field;
  const std::string key = Fingerprint().add_field(encoder.fingerprint()).add_field(form).hex();
  return (folder / (key + ".tokens")).string();
}

std::shared_ptr<const TokenCache> open_token_cache(const TokenCacheRequest& request,
                                                   const DocumentEncoder& encoder,
                                                   const CacheProgressFn& progress) {
  const std::vector<std::string> files = corpus_files(request);
  const std::string cache = token_cache_path(request, encoder);
  TokenCacheInfo info;
  info.source = request.path;
  info.source_fingerprint = source_fingerprint(files);
  info.tokenizer = encoder.name();
  info.tokenizer_fingerprint = fs::path(cache).stem().string();
  info.eos = encoder.eos();
  const auto current = [&] {
    const auto found = read_token_cache_info(cache);
    return found && matches(*found, info.source_fingerprint, info.tokenizer_fingerprint);
  };
  bool reused = current();
  CacheProgress last;
  last.cache = cache;
  if (!reused) {
    const fs::path folder = fs::path(cache).parent_path();
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec) fail_unwritable(folder, ec.message());
    FileLock lock(cache + ".lock");
    reused = current();  // another process may have built it while this one waited
    if (!reused) {
      remove_stale_temporaries(cache);
      last = build(request, encoder, files, cache, info, progress);
    }
  }
  auto mapped = std::make_shared<const TokenCache>(cache);
  if (mapped->info().max_id >= request.vocab) {
    throw DataError("data file '" + request.path + "': its token cache '" + cache +
                    "' holds token id " + std::to_string(mapped->info().max_id) + " under " +
                    encoder.name() + ", but model.vocab is " + std::to_string(request.vocab) +
                    " (set model.vocab to the tokenizer's size)");
  }
  if (progress) {
    last.documents = mapped->info().documents;
    last.tokens = mapped->info().tokens;
    last.done = true;
    last.reused = reused;
    progress(last);
  }
  return mapped;
}

}  // namespace moe::data
