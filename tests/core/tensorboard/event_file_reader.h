#pragma once
// Reads TensorBoard event files back for the tests: the TFRecord framing checked record by record
// (length CRC, data CRC), each record parsed as an Event with the generated classes of
// core/tensorboard/tensorboard_event.proto.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tensorboard_event.pb.h"

namespace moe::test {

// The records' data. std::runtime_error naming the file, the byte offset and what is wrong (a
// truncated record, a length or data CRC that does not match).
std::vector<std::string> read_tfrecords(const std::string& path);

// Every record parsed as an Event (std::runtime_error for one that does not parse).
std::vector<tensorboard::Event> read_events(const std::string& path);

// tag -> step -> simple_value of the events' summaries (a later value for a step wins).
std::map<std::string, std::map<int64_t, float>> scalars_of(
    const std::vector<tensorboard::Event>& events);

// The events files in `dir` (names holding "tfevents"), sorted by name.
std::vector<std::string> event_files(const std::string& dir);

}  // namespace moe::test
