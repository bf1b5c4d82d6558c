#pragma once
// TensorBoard event files (telemetry.tensorboard): TFRecord files of Event messages
// (tensorboard_event.proto) that `tensorboard --logdir <run-dir>/tensorboard` reads.
#include <cstdint>
#include <memory>
#include <string>

#include "tensorboard/tensorboard_scalars.h"
#include "tensorboard/tfrecord_writer.h"

namespace moe::tensorboard {

// "events.out.tfevents.<unix seconds>.<host>": the name TensorBoard looks for ("tfevents" in it).
std::string tensorboard_file_name(int64_t unix_seconds, const std::string& host);

class TensorBoardWriter {
 public:
  // Creates `dir` when missing and a new events file in it (named as above; ".2", ".3"... added
  // when a file of that name exists, e.g. a resume within the same second), whose first record
  // is an Event with file_version "brain.Event:2". std::runtime_error naming the path when it
  // cannot.
  TensorBoardWriter(const std::string& dir, const std::string& host);

  // One Event of `scalars.step` with one simple_value per tag, at `wall_time` (seconds since the
  // Unix epoch). Buffered until flush(). std::runtime_error when the file cannot be written.
  void write(const TensorBoardScalars& scalars, double wall_time);
  void flush();

  const std::string& path() const { return file_->path(); }

 private:
  std::unique_ptr<TfRecordWriter> file_;
};

// Seconds since the Unix epoch, for Event.wall_time.
double unix_seconds_now();

}  // namespace moe::tensorboard
