// PlannerProfileCombo: picks the app's planner profile (PlannerProfileChoice): the shipped device
// profiles by name and description, this machine's measured profile when there is one, the
// current choice when it is another file or a NAME+NETWORK pair, and "Measured profile…" to pick
// a file. The list is read on a worker; until then the combo shows the current choice alone.
#pragma once

#include <QComboBox>
#include <QList>

#include "base/planner/planner_profile_choice.h"

namespace moe::ui {

class PlannerProfileCombo : public QComboBox {
  Q_OBJECT

 public:
  explicit PlannerProfileCombo(PlannerProfileChoice* choice, QWidget* parent = nullptr);

  // Whether the shipped list has arrived (for tests).
  bool isFilled() const { return filled_; }

 signals:
  void filledIn();

 private:
  void fill(const QList<PlannerProfileOption>& options);
  void showChoice(const QString& choice);
  void pick(int index);
  int insertCustom(const QString& choice);

  PlannerProfileChoice* choice_;
  QList<PlannerProfileOption> options_;
  bool filled_ = false;
};

}  // namespace moe::ui
