// AnalysisReport: the JSON `moe-train analyze` writes (docs/INFERENCE.md, "Routing analysis"), read
// and checked for the Analyze view and the run report. Reading touches a file: call it on a
// worker. Plain data apart from QString.
#pragma once

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <vector>

namespace moe::ui {

// One capacity factor's figures of a layer.
struct CapacityDrop {
  double factor = 0;
  int64_t dropped = 0;  // choices over an expert's capacity
  double dropped_share = 0;
};

struct TopToken {
  int64_t id = 0;
  int64_t count = 0;
  QString text;  // the decoded piece; empty when the model has no tokenizer
};

struct AnalyzedLayer {
  int64_t layer = 0;  // the decoder block's index
  int64_t experts = 0, top_k = 0, tokens = 0;
  std::vector<int64_t> load;  // [E] choices per expert
  double cv = 0, max_over_mean = 0;
  int64_t dead_experts = 0;
  std::vector<CapacityDrop> capacity;
  std::vector<int64_t> co_selection;              // [E * E]: tokens choosing both i and j
  std::vector<std::vector<TopToken>> top_tokens;  // per expert, most frequent first
  QString capture;  // the layer's file in the report's capture_dir; empty: none

  int64_t coSelected(int64_t i, int64_t j) const { return co_selection[i * experts + j]; }
  double loadShare(int64_t expert) const;  // of all the layer's choices
  // Load above kOverloaded times the mean (the view's and report's "overloaded").
  bool overloaded(int64_t expert) const;
};

// The view marks an expert overloaded above this multiple of the mean load.
inline constexpr double kOverloaded = 1.5;

struct AnalysisReport {
  QString path;  // the file read
  int64_t tokens = 0;
  QString model, data;  // as analyze named them
  int64_t batch_size = 0, seq_len = 0;
  QString capture_dir;  // --capture's directory; empty: none
  std::vector<AnalyzedLayer> layers;

  // The capture file of layers[index], absolute; empty when there is none.
  QString captureFile(size_t index) const;
};

// A token as the view and report show it: its text with whitespace made visible ("␣of", "↵"), or
// "#id" when the model has no tokenizer.
QString tokenLabel(const TopToken& token);

// Parses analyze's JSON. False with *error naming what is wrong and where ("layers[1].load: 3
// values, experts is 4"); `source` names the file in the messages.
bool parseAnalysisReport(const QByteArray& json, const QString& source, AnalysisReport* out,
                         QString* error);
// Reads and parses `path`; false with *error naming the file.
bool readAnalysisReport(const QString& path, AnalysisReport* out, QString* error);

// Where a run directory keeps its analysis when analyze's --out was not given:
// <run>/analysis/analysis.json.
QString runAnalysisPath(const QString& run_dir);

}  // namespace moe::ui
