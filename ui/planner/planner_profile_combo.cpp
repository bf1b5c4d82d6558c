#include "planner/planner_profile_combo.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QSignalBlocker>

#include "base/planner/planner_profile_choice.h"
#include "base/storage/worker_task.h"

namespace moe::ui {
namespace {

constexpr char kPickFile[] = "\x01pick";  // the "Measured profile…" entry's data

// Paths and descriptions come from files: escaped, as rich text, so that a "<" stays a "<".
QString richTip(const QString& text) {
  return QStringLiteral("<p>%1</p>").arg(text.toHtmlEscaped());
}

}  // namespace

PlannerProfileCombo::PlannerProfileCombo(PlannerProfileChoice* choice, QWidget* parent)
    : QComboBox(parent), choice_(choice) {
  setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  setMinimumContentsLength(14);
  setToolTip(
      tr("The hardware the predictions assume: a shipped profile, or one measured with "
         "moe-train bench --calibrate --json FILE"));
  fill({});
  runOnWorker(
      this, [] { return PlannerProfileChoice::availableProfiles(); },
      [this](const QList<PlannerProfileOption>& options) {
        filled_ = true;
        fill(options);
        emit filledIn();
      });
  connect(choice_, &PlannerProfileChoice::changed, this, &PlannerProfileCombo::showChoice);
  connect(this, &QComboBox::activated, this, &PlannerProfileCombo::pick);
}

void PlannerProfileCombo::fill(const QList<PlannerProfileOption>& options) {
  const QSignalBlocker blocker(this);
  options_ = options;
  clear();
  for (const PlannerProfileOption& option : options) {
    addItem(option.label, option.choice);
    setItemData(count() - 1, richTip(option.tooltip), Qt::ToolTipRole);
  }
  insertSeparator(count());
  addItem(tr("Measured profile…"), QString::fromLatin1(kPickFile));
  setItemData(count() - 1, tr("A profile written by moe-train bench --calibrate --json FILE"),
              Qt::ToolTipRole);
  showChoice(choice_->choice());
}

// A choice outside the list (another file, NAME+NETWORK) gets an entry of its own above the
// separator, so that the combo always says what the figures assume.
int PlannerProfileCombo::insertCustom(const QString& choice) {
  const QFileInfo file(choice);
  const bool is_file = choice.contains(QLatin1Char('/')) || choice.endsWith(QLatin1String(".json"));
  const int at = static_cast<int>(options_.size());
  insertItem(at, is_file ? tr("%1 (measured)").arg(file.fileName()) : choice, choice);
  setItemData(at, richTip(choice), Qt::ToolTipRole);
  return at;
}

void PlannerProfileCombo::showChoice(const QString& choice) {
  const QSignalBlocker blocker(this);
  int index = findData(choice);
  // Earlier custom entries go: only the current one is worth a line.
  for (int i = count() - 1; i >= static_cast<int>(options_.size()); --i) {
    const QString data = itemData(i).toString();
    if (i != index && !data.isEmpty() && data != QLatin1String(kPickFile)) removeItem(i);
  }
  index = findData(choice);
  if (index < 0) index = insertCustom(choice);
  setCurrentIndex(index);
}

void PlannerProfileCombo::pick(int index) {
  const QString data = itemData(index).toString();
  if (data != QLatin1String(kPickFile)) {
    if (data != choice_->choice()) choice_->setChoice(data);
    return;
  }
  const QString start = QFileInfo(PlannerProfileChoice::thisMachinePath()).absolutePath();
  const QString path =
      QFileDialog::getOpenFileName(this, tr("Measured hardware profile"), start,
                                   tr("Hardware profiles (*.json);;All files (*)"));
  if (path.isEmpty()) {
    showChoice(choice_->choice());  // back to what is in use
    return;
  }
  choice_->setChoice(path);
}

}  // namespace moe::ui
