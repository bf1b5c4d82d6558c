#include "event_file_reader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "tensorboard/crc32c.h"

namespace moe::test {

namespace {

template <class Int>
Int little_endian(const std::string& bytes, size_t at) {
  uint64_t value = 0;
  for (size_t i = 0; i < sizeof(Int); ++i) {
    value |= static_cast<uint64_t>(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
  }
  return static_cast<Int>(value);
}

}  // namespace

std::vector<std::string> read_tfrecords(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open");
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> records;
  size_t at = 0;
  const auto fail = [&](const std::string& what) {
    throw std::runtime_error(path + ": record at byte " + std::to_string(at) + ": " + what);
  };
  while (at < bytes.size()) {
    if (bytes.size() - at < 12) fail("truncated header");
    const auto length = little_endian<uint64_t>(bytes, at);
    if (tensorboard::unmask_crc32c(little_endian<uint32_t>(bytes, at + 8)) !=
        tensorboard::crc32c(bytes.data() + at, 8)) {
      fail("length CRC does not match");
    }
    if (bytes.size() - at - 12 < length + 4) fail("truncated data");
    std::string data = bytes.substr(at + 12, length);
    if (tensorboard::unmask_crc32c(little_endian<uint32_t>(bytes, at + 12 + length)) !=
        tensorboard::crc32c(data)) {
      fail("data CRC does not match");
    }
    records.push_back(std::move(data));
    at += 12 + length + 4;
  }
  return records;
}

std::vector<tensorboard::Event> read_events(const std::string& path) {
  std::vector<tensorboard::Event> events;
  for (const std::string& record : read_tfrecords(path)) {
    tensorboard::Event e;
    if (!e.ParseFromString(record)) {
      throw std::runtime_error(path + ": record " + std::to_string(events.size()) +
                               " is not an Event");
    }
    events.push_back(std::move(e));
  }
  return events;
}

std::map<std::string, std::map<int64_t, float>> scalars_of(
    const std::vector<tensorboard::Event>& events) {
  std::map<std::string, std::map<int64_t, float>> scalars;
  for (const auto& e : events) {
    if (!e.has_summary()) continue;
    for (const auto& v : e.summary().value()) {
      if (v.has_simple_value()) scalars[v.tag()][e.step()] = v.simple_value();
    }
  }
  return scalars;
}

std::vector<std::string> event_files(const std::string& dir) {
  std::vector<std::string> files;
  if (!std::filesystem::is_directory(dir)) return files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().filename().string().find("tfevents") != std::string::npos) {
      files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace moe::test
