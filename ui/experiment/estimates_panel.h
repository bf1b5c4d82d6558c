// EstimatesPanel: the live figures of config_estimates.h beside the form (parameters, FLOPs per
// step, capacity per expert, memory; per rank and the all-to-all with several ranks), in human
// units, redrawn whenever the document changes.
#pragma once

#include <QHash>
#include <QWidget>

#include "plan/config_estimates.h"

class QLabel;

namespace moe::ui {

class ExperimentDocument;

class EstimatesPanel : public QWidget {
  Q_OBJECT

 public:
  explicit EstimatesPanel(ExperimentDocument* document, QWidget* parent = nullptr);

  // The text shown for a row ("parameters", "experts", "dense", "moe_layers", "tokens", "flops",
  // "capacity", "weights", "activations"; with more than one rank also "ranks",
  // "rank_parameters", "rank_memory", "all_to_all"), for tests.
  QString valueText(const QString& row) const;
  // Whether a row is shown (the rank rows only with more than one rank).
  bool isRowVisible(const QString& row) const;

 private:
  void addRow(const QString& key, const QString& label, const QString& tooltip);
  void addRankRows();
  void refresh();
  void showRank(const protocol::RunConfig& config, const plan::ConfigEstimates& estimates);
  QString placementText(const plan::RankEstimate& rank) const;
  void set(const QString& row, const QString& text, const QString& detail = {});

  ExperimentDocument* document_;
  QHash<QString, QLabel*> values_;
};

}  // namespace moe::ui
