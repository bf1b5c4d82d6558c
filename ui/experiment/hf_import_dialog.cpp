#include "experiment/hf_import_dialog.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "base/experiment/experiment_document.h"
#include "base/experiment/hf_import.h"

namespace moe::ui {

HfImportDialog::HfImportDialog(ExperimentDocument* document, const QString& program,
                               QWidget* parent)
    : QDialog(parent), document_(document), import_(new HfImport(program, this)) {
  setWindowTitle(tr("Import Hugging Face Model"));
  headline_ = new QLabel(this);
  headline_->setWordWrap(true);
  QFont bold = headline_->font();
  bold.setBold(true);
  headline_->setFont(bold);
  details_ = new QLabel(this);
  details_->setWordWrap(true);
  details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  close_ = buttons->button(QDialogButtonBox::Close);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(headline_);
  layout->addWidget(details_, 1);
  layout->addWidget(buttons);
  setMinimumWidth(560);
  connect(import_, &HfImport::finished, this, &HfImportDialog::showResult);
}

bool HfImportDialog::start(const QString& model_dir) {
  if (!import_->start(model_dir)) return false;
  headline_->setText(tr("Reading %1…").arg(QDir::toNativeSeparators(model_dir)));
  details_->setText(
      tr("moe-train import-hf checks that the config maps and that every tensor loads."));
  return true;
}

void HfImportDialog::showResult(const HfImportResult& result) {
  const QString folder = QDir::toNativeSeparators(result.model_dir);
  if (!result.ok) {
    headline_->setText(tr("Cannot import %1").arg(folder));
    const QString why =
        result.exit_code == 2
            ? tr("moe-train refused the folder (exit status 2): the engine cannot honour what "
                 "it names.")
            : tr("moe-train import-hf failed (exit status %1).").arg(result.exit_code);
    details_->setText(result.summary + QStringLiteral("\n\n") + why);
    adjustSize();  // the wrapped text's height, not the waiting line's
    emit imported(false);
    return;
  }
  document_->resetImported(result.config, result.model_dir);
  headline_->setText(result.summary);
  details_->setText(
      tr("Opened in the experiment editor as “%1”, not saved yet.\n\nRuns of it start from this "
         "folder's weights: Run Experiment fine-tunes the model (moe-train run --init-from %2). "
         "Change the training keys freely; the model's shape must stay the folder's.")
          .arg(document_->displayName(), folder));
  adjustSize();
  emit imported(true);
}

}  // namespace moe::ui
