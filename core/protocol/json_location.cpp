#include "protocol/json_location.h"

#include <vector>

#include <nlohmann/json.hpp>

#include "protocol/config_error.h"

namespace moe::protocol::detail {
namespace {

using json = nlohmann::json;

// Follows the parser's position as a stack of object keys and array indices; keeps nothing else.
class PathSax : public nlohmann::json_sax<json> {
 public:
  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override {
    frames_.push_back({false, 0, ""});
    return true;
  }
  bool key(string_t& key) override {
    frames_.back().key = key;
    return true;
  }
  bool end_object() override {
    frames_.pop_back();
    return value();
  }
  bool start_array(std::size_t) override {
    frames_.push_back({true, 0, ""});
    return true;
  }
  bool end_array() override {
    frames_.pop_back();
    return value();
  }
  bool parse_error(std::size_t byte, const std::string& token,
                   const nlohmann::detail::exception&) override {
    for (const Frame& f : frames_) {
      stop_.pointer += "/" + (f.array ? std::to_string(f.index) : escape_pointer_token(f.key));
    }
    stop_.token = token;
    stop_.byte = byte;
    return false;
  }

  const ParseStop& stop() const { return stop_; }

 private:
  struct Frame {
    bool array;
    std::size_t index;  // arrays: the element being read
    std::string key;    // objects: the key of the value being read
  };

  bool value() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
    return true;
  }

  std::vector<Frame> frames_;
  ParseStop stop_;
};

}  // namespace

ParseStop where_parsing_stops(const std::string& text) {
  PathSax sax;
  json::sax_parse(text, &sax, json::input_format_t::json, /*strict=*/true);
  return sax.stop();
}

}  // namespace moe::protocol::detail
