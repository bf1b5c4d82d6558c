// The warnings the dashboard raised over a whole run, replayed: the dashboard checks the newest
// rows of each layer (routing_collapse.h) and of the ranks (slow_rank.h) as the run goes; this
// applies the same rules after every logged step and keeps each warning's episode: when it was
// first raised, the step its streak began, and when it cleared (or that it still stands at the
// end). Plain C++, no Qt.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/telemetry/series_columns.h"

namespace moe::ui {

struct WarningEpisode {
  std::string subject;                  // "layer 1: collapse", "rank 3"
  int64_t since_step = 0;               // the first step of the streak that raised it
  int64_t raised_step = 0;              // the logged step at which it was raised
  std::optional<int64_t> cleared_step;  // the logged step at which it was gone; none: still up
  std::string message;                  // the dashboard's text when it was raised
};

// Each layer's columns, whole (RunSeries::layer(l)).
std::vector<WarningEpisode> routingWarningHistory(const std::vector<LayerColumns>& layers);
std::vector<WarningEpisode> slowRankHistory(const RankColumns& ranks);

}  // namespace moe::ui
