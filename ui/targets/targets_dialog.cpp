#include "targets/targets_dialog.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QVBoxLayout>

#include "base/remote/connection_test.h"
#include "base/targets/target_store.h"
#include "targets/target_form.h"

namespace moe::ui {

namespace {

const QColor kProblemColor(0xc6, 0x28, 0x28);
const QColor kGoodColor(0x2e, 0x7d, 0x32);
constexpr int kNameRole = Qt::UserRole;  // the saved name; absent on the draft's item

QString kindLabel(Target::Kind kind) {
  switch (kind) {
    case Target::Kind::Local:
      return TargetsDialog::tr("this machine");
    case Target::Kind::Ssh:
      return TargetsDialog::tr("SSH host");
    case Target::Kind::Slurm:
      return TargetsDialog::tr("Slurm cluster");
  }
  return {};
}

void setTextColor(QLabel* label, const QColor& color) {
  QPalette palette = label->palette();
  palette.setColor(QPalette::WindowText, color);
  label->setPalette(palette);
}

}  // namespace

TargetsDialog::TargetsDialog(TargetStore* store, QWidget* parent)
    : QDialog(parent), store_(store), test_(new ConnectionTest(this)) {
  setWindowTitle(tr("Launch targets"));
  auto* split = new QHBoxLayout;
  split->addWidget(buildList());
  split->addWidget(buildEditor(), 1);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  connect(buttons, &QDialogButtonBox::rejected, this, &TargetsDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(split, 1);
  layout->addWidget(buttons);
  resize(1120, 660);

  connect(test_, &ConnectionTest::finished, this, &TargetsDialog::showReport);
  // Changes made elsewhere (save() refreshes the list itself).
  connect(store_, &TargetStore::changed, this, [this] {
    if (!saving_) refreshList(draft_ ? QString() : editing_);
  });
  refreshList(store_->currentName());
  showItem(list_->currentItem());
}

void TargetsDialog::refreshList(const QString& select_name) {
  refreshing_ = true;
  list_->clear();
  for (const Target& target : store_->targets()) {
    auto* item = new QListWidgetItem(
        QStringLiteral("%1  (%2)").arg(target.name, kindLabel(target.kind)), list_);
    item->setData(kNameRole, target.name);
    if (target.name == select_name && !draft_) list_->setCurrentItem(item);
  }
  if (draft_) {
    auto* item = new QListWidgetItem(tr("new %1 (unsaved)").arg(kindLabel(original_.kind)), list_);
    list_->setCurrentItem(item);
  }
  // The target in the form is gone (removed elsewhere): show "local".
  const bool gone = !list_->currentItem();
  if (gone) list_->setCurrentRow(0);
  refreshing_ = false;
  if (gone) showItem(list_->currentItem());
}

void TargetsDialog::onCurrentItemChanged(QListWidgetItem* current, QListWidgetItem* previous) {
  if (refreshing_ || !current) return;
  if (!mayDropEdits()) {
    const QSignalBlocker blocker(list_);
    list_->setCurrentItem(previous);
    return;
  }
  if (draft_ && current->data(kNameRole).isValid()) {
    draft_ = false;
    refreshList(current->data(kNameRole).toString());
    current = list_->currentItem();
  }
  showItem(current);
}

bool TargetsDialog::select(const QString& name) {
  for (int row = 0; row < list_->count(); ++row) {
    if (list_->item(row)->data(kNameRole).toString() != name) continue;
    list_->setCurrentRow(row);
    return list_->currentRow() == row;
  }
  return false;
}

void TargetsDialog::showItem(QListWidgetItem* item) {
  if (!item || !item->data(kNameRole).isValid()) return;  // the draft stays as it is
  const Target target = store_->find(item->data(kNameRole).toString()).value_or(Target::local());
  editing_ = target.name;
  pages_->setCurrentIndex(target.isRemote() ? 1 : 0);
  form_->setTarget(target);
  original_ = form_->target();  // as the form writes it, so an untouched form is not an edit
  status_->clear();
  updateButtons();
}

void TargetsDialog::addDraft(Target::Kind kind) {
  if (kind == Target::Kind::Local || !mayDropEdits()) return;
  Target target;
  target.kind = kind;
  target.runs_root = QStringLiteral("~/moe-runs");
  draft_ = true;
  editing_.clear();
  form_->setTarget(target);
  // A cluster is reached over SSH unless this machine has sbatch itself.
  if (kind == Target::Kind::Slurm) {
    form_->setSlurmLocal(!QStandardPaths::findExecutable(QStringLiteral("sbatch")).isEmpty());
  }
  original_ = form_->target();
  pages_->setCurrentIndex(1);
  refreshList({});
  status_->clear();
  updateButtons();
}

bool TargetsDialog::save() {
  if (pages_->currentIndex() != 1) return false;
  const Target target = form_->target();
  QStringList problems = form_->problems();
  if (problems.isEmpty()) {
    saving_ = true;
    problems = draft_ ? store_->add(target) : store_->replace(editing_, target);
    saving_ = false;
  }
  if (!problems.isEmpty()) {
    setStatus(tr("Not saved: %1").arg(problems.join(QStringLiteral("; "))), true);
    return false;
  }
  draft_ = false;
  editing_ = target.name;
  original_ = target;
  refreshList(target.name);
  setStatus(tr("Saved."), false);
  updateButtons();
  return true;
}

void TargetsDialog::removeSelected() {
  if (draft_) {
    draft_ = false;
    refreshList(store_->currentName());
    showItem(list_->currentItem());
    return;
  }
  const QString name = editing_;
  const auto answer = QMessageBox::question(
      this, tr("Remove target"),
      tr("Remove the target \"%1\"? Runs already started there keep running.").arg(name));
  if (answer != QMessageBox::Yes) return;
  saving_ = true;
  const QStringList problems = store_->remove(name);
  saving_ = false;
  if (!problems.isEmpty()) {
    setStatus(problems.join(u'\n'), true);
    return;
  }
  refreshList(QStringLiteral("local"));
  showItem(list_->currentItem());
}

void TargetsDialog::testConnection() {
  const QStringList problems = form_->problems();
  if (!problems.isEmpty()) {
    test_result_->setText(tr("Fix the problems above before testing the connection."));
    setTextColor(test_result_, kProblemColor);
    return;
  }
  const Target target = form_->target();
  tested_ = target.name;
  test_result_->setText(tr("Testing %1 …").arg(tested_));
  setTextColor(test_result_, palette().color(QPalette::WindowText));
  test_->start(target);
  updateButtons();
}

void TargetsDialog::showReport(const ConnectionReport& report) {
  test_result_->setText(QStringLiteral("%1:\n%2").arg(tested_, report.summary()));
  setTextColor(test_result_, report.ok() ? kGoodColor : kProblemColor);
  updateButtons();
}

void TargetsDialog::updateButtons() {
  const bool remote = pages_->currentIndex() == 1;
  const bool edited = hasUnsavedEdits();
  save_->setEnabled(remote && edited);
  revert_->setEnabled(remote && edited && !draft_);
  remove_->setEnabled(remote);
  test_button_->setEnabled(remote && !test_->isRunning());
}

void TargetsDialog::setStatus(const QString& text, bool problem) {
  status_->setText(text);
  setTextColor(status_, problem ? kProblemColor : kGoodColor);
}

bool TargetsDialog::hasUnsavedEdits() const {
  return pages_->currentIndex() == 1 && (draft_ || !(form_->target() == original_));
}

bool TargetsDialog::mayDropEdits() {
  if (!hasUnsavedEdits()) return true;
  const QString what = draft_ ? tr("the new target") : QStringLiteral("\"%1\"").arg(editing_);
  return QMessageBox::question(this, tr("Unsaved changes"),
                               tr("Drop the unsaved changes to %1?").arg(what)) == QMessageBox::Yes;
}

void TargetsDialog::reject() {
  if (mayDropEdits()) QDialog::reject();
}

}  // namespace moe::ui
