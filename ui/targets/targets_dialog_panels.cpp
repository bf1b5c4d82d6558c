// TargetsDialog's panels: the list of targets with Add and Remove, and the editor (the form,
// Save, Revert, Test connection and the messages under them).
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QStackedWidget>
#include <QVBoxLayout>

#include "targets/target_form.h"
#include "targets/targets_dialog.h"

namespace moe::ui {

namespace {

QLabel* messageLabel(const QString& object_name) {
  auto* label = new QLabel;
  label->setObjectName(object_name);
  label->setWordWrap(true);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return label;
}

}  // namespace

QWidget* TargetsDialog::buildList() {
  list_ = new QListWidget;
  list_->setObjectName("targetList");
  list_->setMinimumWidth(200);
  connect(list_, &QListWidget::currentItemChanged, this, &TargetsDialog::onCurrentItemChanged);

  auto* add = new QPushButton(tr("Add"));
  add->setObjectName("addTarget");
  auto* menu = new QMenu(add);
  QAction* ssh = menu->addAction(tr("SSH host"), this, [this] { addDraft(Target::Kind::Ssh); });
  ssh->setObjectName("addSshTarget");
  QAction* slurm =
      menu->addAction(tr("Slurm cluster"), this, [this] { addDraft(Target::Kind::Slurm); });
  slurm->setObjectName("addSlurmTarget");
  add->setMenu(menu);
  remove_ = new QPushButton(tr("Remove"));
  remove_->setObjectName("removeTarget");
  connect(remove_, &QPushButton::clicked, this, &TargetsDialog::removeSelected);

  auto* row = new QHBoxLayout;
  row->addWidget(add);
  row->addWidget(remove_);
  auto* panel = new QWidget;
  auto* layout = new QVBoxLayout(panel);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(list_, 1);
  layout->addLayout(row);
  return panel;
}

QWidget* TargetsDialog::buildEditor() {
  auto* local_note =
      new QLabel(tr("This machine. Runs started here are local processes of "
                    "moe-train; there is nothing to set."));
  local_note->setObjectName("localNote");
  local_note->setWordWrap(true);
  local_note->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  form_ = new TargetForm;
  connect(form_, &TargetForm::edited, this, [this] {
    status_->clear();
    updateButtons();
  });
  auto* scroll = new QScrollArea;
  scroll->setWidget(form_);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  pages_ = new QStackedWidget;
  pages_->addWidget(local_note);
  pages_->addWidget(scroll);

  test_button_ = new QPushButton(tr("Test connection"));
  test_button_->setObjectName("testConnection");
  test_button_->setToolTip(
      tr("Reaches the target as the form says (unsaved edits included) and "
         "reports moe-train's version, cores, GPUs and free disk there."));
  connect(test_button_, &QPushButton::clicked, this, &TargetsDialog::testConnection);
  revert_ = new QPushButton(tr("Revert"));
  revert_->setObjectName("revertTarget");
  connect(revert_, &QPushButton::clicked, this, [this] {
    form_->setTarget(original_);
    updateButtons();
  });
  save_ = new QPushButton(tr("Save"));
  save_->setObjectName("saveTarget");
  save_->setDefault(true);
  connect(save_, &QPushButton::clicked, this, &TargetsDialog::save);
  status_ = messageLabel("targetStatus");
  test_result_ = messageLabel("connectionResult");

  auto* row = new QHBoxLayout;
  row->addWidget(test_button_);
  row->addWidget(status_, 1);
  row->addWidget(revert_);
  row->addWidget(save_);
  auto* panel = new QWidget;
  auto* layout = new QVBoxLayout(panel);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(pages_, 1);
  layout->addLayout(row);
  layout->addWidget(test_result_);
  return panel;
}

}  // namespace moe::ui
