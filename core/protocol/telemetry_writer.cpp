#include "protocol/telemetry_writer.h"

namespace moe::protocol {

std::string event_line(const nlohmann::json& event) {
  constexpr auto kReplace = nlohmann::json::error_handler_t::replace;
  if (!event.is_object()) return event.dump(-1, ' ', false, kReplace);
  // nlohmann::json keeps keys sorted; build the ordered form only for the line's layout.
  nlohmann::ordered_json line = nlohmann::ordered_json::object();
  for (const char* key : {"v", "type", "t"}) {
    auto it = event.find(key);
    if (it != event.end()) line[key] = *it;
  }
  for (const auto& item : event.items()) {
    if (item.key() != "v" && item.key() != "type" && item.key() != "t") {
      line[item.key()] = item.value();
    }
  }
  return line.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

TelemetryWriter::TelemetryWriter(std::ostream* out, const std::string& metrics_path,
                                 Clock::time_point start)
    : out_(out), start_(start) {
  if (!metrics_path.empty()) file_ = AppendFile(metrics_path);
}

void TelemetryWriter::write(const nlohmann::json& event) {
  std::string line = event_line(event);
  line += '\n';
  std::lock_guard<std::mutex> lock(mutex_);
  if (out_) {
    out_->write(line.data(), static_cast<std::streamsize>(line.size()));
    out_->flush();
  }
  if (file_.is_open()) file_.append(line);
  if (listener_) listener_(event);
}

void TelemetryWriter::set_listener(std::function<void(const nlohmann::json&)> listener) {
  std::lock_guard<std::mutex> lock(mutex_);
  listener_ = std::move(listener);
}

double TelemetryWriter::seconds_since_start() const {
  return std::chrono::duration<double>(Clock::now() - start_).count();
}

bool TelemetryWriter::file_ok() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return file_.error().empty();
}

std::string TelemetryWriter::file_error() {
  std::lock_guard<std::mutex> lock(mutex_);
  file_.check_in_place();
  return file_.error();
}

void TelemetryWriter::sync_file() {
  std::lock_guard<std::mutex> lock(mutex_);
  file_.sync();
}

void TelemetryWriter::close_file() {
  std::lock_guard<std::mutex> lock(mutex_);
  file_.close();
}

}  // namespace moe::protocol
