// What a What-if view routes: one MoE layer of a safetensors file (a capture of a run, or any file
// with replay's names), the config `moe-train replay --serve` gets for it, and the setting the
// tokens were captured under. Reading it touches files: call loadWhatIfSource on a worker.
#pragma once

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

#include "base/whatif/routing_setting.h"
#include "base/whatif/routing_tensors.h"

namespace moe::ui {

struct WhatIfSource {
  QString tensors;  // the safetensors file
  QString prefix;   // of its layer's parameter names
  RoutingLayerShape layer;
  int64_t tokens = 0;
  // The file has no `input`: the view routes kSyntheticTokens standard-normal tokens, written with
  // the layer's tensors to a file of its own (writeWithSyntheticInput).
  bool synthetic_input = false;
  QString server_tensors;  // what replay reads: `tensors`, or that file
  nlohmann::json config;   // what replay's --config file holds (replayConfig)
  RoutingSetting captured;
  QString config_file;  // the run's config.json the setting came from; empty: none
  QString config_note;  // where the captured setting comes from, for the view's header
};

// The config.json of the run a file lies in: in its folder or up to two above (a capture is
// <run>/captures/step-S/layer-L.safetensors); empty when there is none.
QString findRunConfig(const QString& tensors);

// The layer prefixes of a file, sorted; empty with *error when it holds no MoE layer.
QStringList routingLayerPrefixes(const QString& tensors, QString* error);

// Reads the file's header, checks the layer under `prefix` and its `input`, and takes the captured
// setting from the run's config.json when it describes this layer (else the engine's defaults,
// and the note says why). A file without `input` gets synthetic tokens, written to
// `synthetic_file`.
std::optional<WhatIfSource> loadWhatIfSource(const QString& tensors, const QString& prefix,
                                             QString* error, const QString& synthetic_file = {});

}  // namespace moe::ui
