#include "experiment/experiment_editor.h"

#include <QDir>
#include <QGroupBox>
#include <QLabel>
#include <QListView>
#include <QMenu>
#include <QSplitter>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include "base/experiment/experiment_document.h"
#include "experiment/config_form.h"
#include "experiment/estimates_panel.h"
#include "experiment/experiment_file_actions.h"
#include "experiment/json_editor.h"
#include "experiment/problem_list_model.h"

namespace moe::ui {
namespace {

const QColor kProblemColor(0xc6, 0x28, 0x28);
const QColor kReadyColor(0x2e, 0x7d, 0x32);

QToolButton* menuButton(QMenu* menu, QWidget* parent) {
  auto* button = new QToolButton(parent);
  button->setText(menu->title());
  button->setMenu(menu);
  button->setPopupMode(QToolButton::InstantPopup);
  button->setToolButtonStyle(Qt::ToolButtonTextOnly);
  return button;
}

QGroupBox* titled(const QString& title, QWidget* content, QWidget* parent) {
  auto* box = new QGroupBox(title, parent);
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(8, 6, 8, 8);
  layout->addWidget(content);
  return box;
}

}  // namespace

ExperimentEditor::ExperimentEditor(QWidget* parent) : QWidget(parent) {
  document_ = new ExperimentDocument(this);
  actions_ = new ExperimentFileActions(document_, this);
  form_ = new ConfigForm(document_, this);

  splitter_ = new QSplitter(Qt::Horizontal, this);
  splitter_->addWidget(form_);
  splitter_->addWidget(createSidePane());
  splitter_->setStretchFactor(0, 2);
  splitter_->setStretchFactor(1, 1);
  // The form gets most of the width: two columns of groups fit from about 800 pixels.
  splitter_->setSizes({640, 360});
  splitter_->setChildrenCollapsible(false);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(createToolBar());
  // An imported model's runs start from its weights: said where the config is edited.
  init_note_ = new QLabel(this);
  init_note_->setObjectName(QStringLiteral("initFromNote"));
  init_note_->setWordWrap(true);
  init_note_->setStyleSheet(
      QStringLiteral("QLabel#initFromNote { background: #eff6ff; border-left: 4px solid #2563eb;"
                     " padding: 4px 8px; color: #1e3a8a; }"));
  init_note_->setVisible(false);
  layout->addWidget(init_note_);
  layout->addWidget(splitter_, 1);

  connect(document_, &ExperimentDocument::contentChanged, this, &ExperimentEditor::showStatus);
  connect(document_, &ExperimentDocument::modifiedChanged, this, &ExperimentEditor::showStatus);
  connect(document_, &ExperimentDocument::fileChanged, this, &ExperimentEditor::showStatus);
  showStatus();
}

QToolBar* ExperimentEditor::createToolBar() {
  auto* bar = new QToolBar(tr("Experiment"), this);
  bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  bar->addAction(actions_->newAction());
  bar->addWidget(menuButton(actions_->presetMenu(), bar));
  bar->addSeparator();
  bar->addAction(actions_->openAction());
  bar->addWidget(menuButton(actions_->recentMenu(), bar));
  bar->addAction(actions_->saveAction());
  bar->addAction(actions_->saveAsAction());
  bar->addSeparator();
  title_ = new QLabel(bar);
  title_->setContentsMargins(8, 0, 8, 0);
  QFont font = title_->font();
  font.setBold(true);
  title_->setFont(font);
  bar->addWidget(title_);
  auto* spacer = new QWidget(bar);
  spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
  bar->addWidget(spacer);
  verdict_ = new QLabel(bar);
  verdict_->setContentsMargins(8, 0, 8, 0);
  bar->addWidget(verdict_);
  return bar;
}

QWidget* ExperimentEditor::createSidePane() {
  estimates_ = new EstimatesPanel(document_, this);
  json_ = new JsonEditor(document_, this);
  problems_ = new ProblemListModel(document_, this);
  problem_view_ = new QListView(this);
  problem_view_->setModel(problems_);
  problem_view_->setWordWrap(true);
  problem_view_->setUniformItemSizes(false);
  problem_view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  problem_view_->setIconSize(QSize(16, 16));
  problem_view_->setSpacing(1);
  connect(problem_view_, &QListView::activated, this, &ExperimentEditor::activateProblem);
  connect(problem_view_, &QListView::clicked, this, &ExperimentEditor::activateProblem);

  // An empty list reads as "nothing loaded"; say plainly that there is nothing to fix.
  no_problems_ = new QLabel(tr("No problems: the experiment is ready to run."), this);
  no_problems_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  no_problems_->setContentsMargins(2, 2, 2, 2);
  auto* problems = new QWidget(this);
  auto* problems_layout = new QVBoxLayout(problems);
  problems_layout->setContentsMargins(0, 0, 0, 0);
  problems_layout->addWidget(no_problems_);
  problems_layout->addWidget(problem_view_, 1);
  auto* problems_box = titled(tr("Problems"), problems, this);
  auto* vertical = new QSplitter(Qt::Vertical, this);
  vertical->addWidget(titled(tr("JSON"), json_, this));
  vertical->addWidget(problems_box);
  vertical->setStretchFactor(0, 4);
  vertical->setStretchFactor(1, 1);
  vertical->setChildrenCollapsible(false);

  auto* pane = new QWidget(this);
  auto* layout = new QVBoxLayout(pane);
  layout->setContentsMargins(0, 8, 8, 8);
  layout->setSpacing(8);
  layout->addWidget(titled(tr("Estimates"), estimates_, pane));
  layout->addWidget(vertical, 1);
  return pane;
}

void ExperimentEditor::showStatus() {
  title_->setText(document_->displayName() + (document_->isModified() ? " •" : ""));
  title_->setToolTip(document_->filePath());
  const QString init_from = document_->initFrom();
  init_note_->setVisible(!init_from.isEmpty());
  init_note_->setText(
      tr("Runs start from the weights of %1 (moe-train run --init-from): Run "
         "Experiment fine-tunes the imported model. Keep the model's shape; change the "
         "training keys as you like.")
          .arg(QDir::toNativeSeparators(init_from)));
  const int count = problems_->rowCount();
  QString verdict;
  QColor colour = kReadyColor;
  if (document_->isValid()) {
    verdict = tr("✓ Ready to run");
  } else {
    verdict = document_->hasSyntaxError() ? tr("JSON syntax error")
              : count == 1                ? tr("1 problem")
                                          : tr("%1 problems").arg(count);
    colour = kProblemColor;
  }
  // Rich text: a tool bar re-polishes its widgets, which can reset a palette set on a label.
  verdict_->setText(
      QString("<b style='color:%1'>%2</b>").arg(colour.name(), verdict.toHtmlEscaped()));
  no_problems_->setVisible(count == 0);
  problem_view_->setVisible(count > 0);
}

void ExperimentEditor::activateProblem(const QModelIndex& index) {
  if (!index.isValid()) return;
  if (index.data(ProblemListModel::kSyntaxErrorRole).toBool()) {
    json_->goToSyntaxError();
  } else {
    form_->focusPointer(index.data(ProblemListModel::kPointerRole).toString());
  }
}

}  // namespace moe::ui
