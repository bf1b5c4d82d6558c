// One finished config of a `moe-train bench --jsonl` sweep, and the reading of its JSON lines
// (docs/PROTOCOL.md, "moe-train bench"). The line's object is kept whole (`json`) so the store
// and the CSV carry every figure the engine wrote, also those the view does not show.
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>

namespace moe::ui {

struct BenchResult {
  QJsonObject json;    // the engine's object for this config
  int index = 0;       // 0-based, in the sweep's order
  QJsonObject config;  // the swept keys and their values
  qint64 tokens = 0, capacity = 0;
  double train_tokens_per_s = 0, forward_tokens_per_s = 0, train_tflops = 0;
  double efficiency = 0, routing_share = 0, train_ms = 0, ceiling_train_ms = 0;
  double naive_train_tokens_per_s = 0, naive_speedup = 0;  // 0: no baseline measured
  double seconds = 0;                                      // wall time of this config
  QMap<QString, double> phases_ms;
  QString threads;

  static BenchResult fromJson(const QJsonObject& json);
};

// "moe.experts=8 moe.top_k=2" (the engine's table label), "default" when nothing is swept.
QString configLabel(const QJsonObject& config);
// "E=8 k=2": the same, short, for the charts' axes.
QString shortConfigLabel(const QJsonObject& config);

struct BenchLine {
  enum class Kind { Start, Config, End, Bad };
  Kind kind = Kind::Bad;
  int configs = 0;     // Start, End: the sweep's number of configs
  BenchResult result;  // Config
  QString error;       // Bad: what is wrong with the line
};

// Reads one stdout line of `moe-train bench --jsonl`.
BenchLine parseBenchLine(const QByteArray& line);

}  // namespace moe::ui
