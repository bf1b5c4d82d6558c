// EstimatesPanel: the live figures of config_estimates.h beside the form (parameters, FLOPs per
// step, capacity per expert, memory), in human units, redrawn whenever the document changes.
#pragma once

#include <QHash>
#include <QWidget>

class QLabel;

namespace moe::ui {

class ExperimentDocument;

class EstimatesPanel : public QWidget {
  Q_OBJECT

 public:
  explicit EstimatesPanel(ExperimentDocument* document, QWidget* parent = nullptr);

  // The text shown for a row ("parameters", "experts", "dense", "moe_layers", "tokens", "flops",
  // "capacity", "weights", "activations"), for tests.
  QString valueText(const QString& row) const;

 private:
  void addRow(const QString& key, const QString& label, const QString& tooltip);
  void refresh();
  void set(const QString& row, const QString& text, const QString& detail = {});

  ExperimentDocument* document_;
  QHash<QString, QLabel*> values_;
};

}  // namespace moe::ui
