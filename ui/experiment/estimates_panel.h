// EstimatesPanel: the live figures of config_estimates.h beside the form (parameters, total and
// active per token, FLOPs per step, capacity per expert, memory, the KV cache per token; per rank
// and the all-to-all with several ranks), in human units, redrawn whenever the document changes.
// Below them the planner's prediction for the config's own layout on the app's hardware profile
// (PlannerProfileChoice, picked in the panel): step time and tokens/s, and memory per rank
// against the device's, red when it does not fit.
#pragma once

#include <QHash>
#include <QPointer>
#include <QWidget>

#include "plan/config_estimates.h"

class QLabel;
class QPushButton;

namespace moe::ui {

class ExperimentDocument;
class PlannerProfileChoice;
class PlannerProfileCombo;
class ScalingView;

class EstimatesPanel : public QWidget {
  Q_OBJECT

 public:
  explicit EstimatesPanel(ExperimentDocument* document, QWidget* parent = nullptr);

  // The text shown for a row ("parameters", "experts", "dense", "active", "moe_layers", "tokens",
  // "flops", "capacity", "weights", "activations", "kv_cache" (lm and decoder only); with more
  // than one rank also "ranks", "rank_parameters", "rank_memory", "all_to_all"; with a profile
  // "step" and "memory_per_rank"), for tests.
  QString valueText(const QString& row) const;
  // Whether a row is shown (the rank rows only with more than one rank).
  bool isRowVisible(const QString& row) const;
  // The tooltip of a row's value (the step's phase breakdown), for tests.
  QString valueToolTip(const QString& row) const;

  PlannerProfileChoice* profileChoice() const { return choice_; }
  PlannerProfileCombo* profileCombo() const { return combo_; }
  QPushButton* scalingButton() const { return scaling_; }
  // Why the chosen profile could not be loaded; empty when it was (for tests).
  QString profileError() const;

  // Opens the Scaling view of the document's config in a window of its own (or raises the open
  // one); it follows the document while open. The "Scaling…" button and the menu call this.
  ScalingView* showScaling();

 private:
  void addRow(const QString& key, const QString& label, const QString& tooltip);
  void addRankRows();
  void addPlannerRows();
  void showPrediction(const protocol::RunConfig& config);
  void showProfileError(const QString& error);
  void refresh();
  void showRank(const protocol::RunConfig& config, const plan::ConfigEstimates& estimates);
  QString placementText(const plan::RankEstimate& rank) const;
  void set(const QString& row, const QString& text, const QString& detail = {});

  ExperimentDocument* document_;
  QHash<QString, QLabel*> values_;
  PlannerProfileChoice* choice_;
  PlannerProfileCombo* combo_;
  QPushButton* scaling_;
  QLabel* profile_error_;
  QPointer<QWidget> scaling_window_;
};

}  // namespace moe::ui
