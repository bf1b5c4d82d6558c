#include "tensorboard/tensorboard_writer.h"

#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include "tensorboard_event.pb.h"

namespace moe::tensorboard {

std::string tensorboard_file_name(int64_t unix_seconds, const std::string& host) {
  std::string safe_host = host.empty() ? "unknown" : host;
  for (char& c : safe_host) {
    if (c == '/') c = '_';
  }
  return "events.out.tfevents." + std::to_string(unix_seconds) + "." + safe_host;
}

double unix_seconds_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

TensorBoardWriter::TensorBoardWriter(const std::string& dir, const std::string& host) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error(dir + ": cannot create: " + ec.message());
  const double now = unix_seconds_now();
  const std::string base = dir + "/" + tensorboard_file_name(static_cast<int64_t>(now), host);
  std::string path = base;
  for (int n = 2; std::filesystem::exists(path); ++n) path = base + "." + std::to_string(n);
  file_ = std::make_unique<TfRecordWriter>(path);

  tensorboard::Event version;
  version.set_wall_time(now);
  version.set_file_version("brain.Event:2");
  file_->append(version.SerializeAsString());
  file_->flush();
}

void TensorBoardWriter::write(const TensorBoardScalars& scalars, double wall_time) {
  tensorboard::Event event;
  event.set_wall_time(wall_time);
  event.set_step(scalars.step);
  tensorboard::Summary* summary = event.mutable_summary();
  for (const auto& [tag, value] : scalars.values) {
    tensorboard::Summary::Value* v = summary->add_value();
    v->set_tag(tag);
    v->set_simple_value(value);
  }
  file_->append(event.SerializeAsString());
}

void TensorBoardWriter::flush() {
  file_->flush();
}

}  // namespace moe::tensorboard
