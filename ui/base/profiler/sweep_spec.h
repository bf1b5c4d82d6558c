// SweepSpec: what the Profiler's form asks `moe-train bench` to measure (docs/PROFILER.md): a
// list of values per key, every combination (grid) or the i-th values together (paired), and
// the timing options. Checked with the engine's own config validation before a run.
#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace moe::ui {

struct SweepKey {
  QString key;    // the config key, e.g. "moe.experts"
  QString label;  // what the form shows, e.g. "Experts"
  QString brief;  // the short name in chart labels, e.g. "E"
  QStringList values;
};

struct SweepSpec {
  QList<SweepKey> keys;  // every key of sweepKeyCatalog(), in its order
  bool paired = false;
  int iters = 5;
  double min_time = 1.0;
  bool naive = true;

  // The keys the form offers with one default value each. "tokens" is train.batch_size with
  // model.seq_len fixed at 1: the layer sees N = batch_size x seq_len tokens either way.
  static SweepSpec defaults();
  const SweepKey* find(const QString& key) const;
  // Keys with more than one value: what the sweep varies.
  QList<SweepKey> swept() const;
};

// The most configs one sweep may have: a larger grid takes hours, and is a typo more often.
inline constexpr int kMaxSweepConfigs = 1000;

// "1 config", "12 configs".
QString configsText(qint64 n);

// Splits "4, 8,16" into its values (spaces dropped, empty items kept so they are reported).
QStringList splitValues(const QString& text);

// The number of configs: the product of the lists' sizes (grid) or the length of the swept
// lists (paired); 0 when the lists do not fit together.
qint64 sweepConfigCount(const SweepSpec& spec);

// Every problem, each naming the key and value (e.g. "Top-k = 9 (with Experts = 8): must be
// between 1 and 8"); empty when the sweep can run. Every config is checked with
// protocol::check, so the form refuses what the engine would.
QStringList sweepProblems(const SweepSpec& spec);

// The arguments after the moe-train program: bench --jsonl --set ... --sweep ... [--pair] ...
QStringList benchArguments(const SweepSpec& spec);

// Seconds the sweep is expected to take. Each config times four measurements of at least
// min_time (two thread settings for the ceiling, the forward pass, the rounds); the rest per
// config (warm-up, setup, the naive baseline's extra time) is `overhead_s`, measured by past
// sweeps (sweepOverheadSeconds) or a guess of one second.
double estimateSweepSeconds(const SweepSpec& spec, double overhead_s = 1.0);
// The per-config overhead a finished sweep measured: its mean seconds per config less the
// four min_time measurements; negative when it cannot be told.
double sweepOverheadSeconds(const SweepSpec& spec, const QList<double>& config_seconds);

QJsonObject sweepSpecToJson(const SweepSpec& spec);
SweepSpec sweepSpecFromJson(const QJsonObject& json);

}  // namespace moe::ui
