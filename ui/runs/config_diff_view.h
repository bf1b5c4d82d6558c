// ConfigDiffView: several runs' configs side by side, one row per setting (dotted key), the
// settings that differ highlighted; "Only differences" (on by default) hides the rest.
#pragma once

#include <QStringList>
#include <QWidget>

#include <vector>

#include <nlohmann/json.hpp>

#include "base/runs/config_diff.h"

class QCheckBox;
class QLabel;
class QTableWidget;

namespace moe::ui {

class ConfigDiffView : public QWidget {
  Q_OBJECT

 public:
  explicit ConfigDiffView(QWidget* parent = nullptr);

  // One column per config, headed by its title (a run's name or id).
  void setConfigs(QStringList titles, std::vector<nlohmann::json> configs);

  const ConfigDiff& diff() const { return diff_; }
  bool onlyDifferences() const;
  void setOnlyDifferences(bool only);

  QTableWidget* table() const { return table_; }
  QLabel* countLabel() const { return count_; }
  QCheckBox* onlyDifferencesBox() const { return only_differences_; }

 private:
  void rebuild();

  QStringList titles_;
  ConfigDiff diff_;
  QTableWidget* table_;
  QCheckBox* only_differences_;
  QLabel* count_;
};

}  // namespace moe::ui
