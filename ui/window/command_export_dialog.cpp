#include "window/command_export_dialog.h"

#include <algorithm>

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QGridLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "base/remote/slurm_script.h"
#include "base/report/command_exports.h"
#include "base/storage/whole_file.h"

namespace moe::ui {

namespace {

QString kindKey(ExportedCommand::Kind kind) {
  switch (kind) {
    case ExportedCommand::Kind::Run:
      return QStringLiteral("run");
    case ExportedCommand::Kind::Launch:
      return QStringLiteral("launch");
    case ExportedCommand::Kind::Torchrun:
      return QStringLiteral("torchrun");
    case ExportedCommand::Kind::Srun:
      return QStringLiteral("srun");
    case ExportedCommand::Kind::SbatchScript:
      return QStringLiteral("sbatch");
  }
  return {};
}

// A read-only monospace box: a command wraps in two lines' height; the script keeps its lines
// (a shell script's line breaks matter) and is as tall as it is, within bounds.
QPlainTextEdit* commandBox(const ExportedCommand& command, QWidget* parent) {
  const bool script = command.kind == ExportedCommand::Kind::SbatchScript;
  auto* box = new QPlainTextEdit(command.text, parent);
  box->setObjectName(QStringLiteral("command_") + kindKey(command.kind));
  box->setReadOnly(true);
  box->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  box->setLineWrapMode(script ? QPlainTextEdit::NoWrap : QPlainTextEdit::WidgetWidth);
  const int lines = script ? std::clamp(static_cast<int>(command.text.count('\n')) + 1, 8, 24) : 2;
  const int line_height = box->fontMetrics().lineSpacing();
  const int frame = 2 * (box->frameWidth() + static_cast<int>(box->document()->documentMargin()));
  box->setFixedHeight(lines * line_height + frame + 2);
  return box;
}

QWidget* heading(const ExportedCommand& command, QWidget* parent) {
  auto* label =
      new QLabel(QStringLiteral("<b>%1</b>&nbsp;&nbsp;<span style='color:#6b7280'>%2</span>")
                     .arg(command.title.toHtmlEscaped(), command.note.toHtmlEscaped()),
                 parent);
  label->setWordWrap(true);
  return label;
}

}  // namespace

CommandExportDialog::CommandExportDialog(const QString& config_file,
                                         const protocol::RunConfig& config,
                                         const Target& slurm_target, QWidget* parent,
                                         const QString& init_from)
    : QDialog(parent),
      script_file_name_(slurmJobName(QString::fromStdString(config.name)) +
                        QStringLiteral(".sbatch")) {
  setWindowTitle(tr("Export Command Lines"));
  auto* grid = new QGridLayout;
  grid->setHorizontalSpacing(8);
  grid->setColumnStretch(0, 1);
  int row = 0;
  for (const ExportedCommand& command :
       exportedCommands(config_file, config, slurm_target, init_from)) {
    const bool is_script = command.kind == ExportedCommand::Kind::SbatchScript;
    if (row > 0) grid->addItem(new QSpacerItem(0, 10), row++, 0);
    grid->addWidget(heading(command, this), row++, 0, 1, 2);
    QPlainTextEdit* box = commandBox(command, this);
    grid->addWidget(box, row, 0);
    auto* buttons = new QVBoxLayout;
    auto* copy = new QPushButton(tr("Copy"), this);
    copy->setObjectName(QStringLiteral("copy_") + kindKey(command.kind));
    connect(copy, &QPushButton::clicked, this,
            [box] { QApplication::clipboard()->setText(box->toPlainText()); });
    buttons->addWidget(copy);
    if (is_script) {
      script_box_ = box;
      auto* save = new QPushButton(tr("Save sbatch script…"), this);
      save->setObjectName(QStringLiteral("save_sbatch"));
      connect(save, &QPushButton::clicked, this, &CommandExportDialog::chooseScriptFile);
      buttons->addWidget(save);
    }
    buttons->addStretch();
    grid->addLayout(buttons, row++, 1);
  }
  auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(grid);
  layout->addWidget(close);
  resize(880, sizeHint().height());
}

QString CommandExportDialog::script() const {
  return script_box_ ? script_box_->toPlainText() : QString();
}

bool CommandExportDialog::saveScript(const QString& path, QString* error) const {
  QString why;
  if (!saveWhole(path, script().toUtf8(), &why)) {
    *error = tr("cannot write %1: %2").arg(path, why);
    return false;
  }
  QFile::setPermissions(path, QFile::permissions(path) | QFile::ExeOwner);
  return true;
}

void CommandExportDialog::chooseScriptFile() {
  const QString path =
      QFileDialog::getSaveFileName(this, tr("Save sbatch script"), script_file_name_,
                                   tr("Batch scripts (*.sbatch *.sh);;All files (*)"));
  if (path.isEmpty()) return;
  QString error;
  if (!saveScript(path, &error)) QMessageBox::warning(this, tr("Save sbatch script"), error);
}

}  // namespace moe::ui
