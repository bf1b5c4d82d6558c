// HfImportDialog: File ▸ Import Hugging Face Model…'s window. It runs HfImport on a folder (the
// GUI thread never waits for it), says what import-hf read (family, layers, experts, parameters)
// or, on a refusal (exit status 2), moe-train's message naming the key or file; on success the
// config opens in the experiment editor, unsaved and named after the folder, and runs of it start
// from the folder's weights (--init-from), which the dialog says too.
#pragma once

#include <QDialog>
#include <QString>

class QLabel;
class QPushButton;

namespace moe::ui {

class ExperimentDocument;
class HfImport;
struct HfImportResult;

class HfImportDialog : public QDialog {
  Q_OBJECT

 public:
  // `program`: the moe-train that reads the folder; the result goes into `document`.
  HfImportDialog(ExperimentDocument* document, const QString& program, QWidget* parent = nullptr);

  // Starts reading `model_dir`; false while an import is running already.
  bool start(const QString& model_dir);

  QLabel* headline() const { return headline_; }
  QLabel* details() const { return details_; }

 signals:
  // The import ended; `ok`: the document now holds the model's config.
  void imported(bool ok);

 private:
  void showResult(const HfImportResult& result);

  ExperimentDocument* document_;
  HfImport* import_;
  QLabel* headline_;
  QLabel* details_;
  QPushButton* close_;
};

}  // namespace moe::ui
