// Run ▸ Analyze Routing…: `moe-train analyze` started from the app (AnalyzeJob) on a model folder
// or run and a corpus, with the token count, the capacity factors and whether to capture the
// layers' inputs for the What-if view; a progress bar with an ETA while it runs. When the report is
// read, analysisReady(path) opens it in an Analyze view.
#pragma once

#include <QDialog>

class QCheckBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QSpinBox;

namespace moe::ui {

class AnalyzeJob;
struct AnalyzeJobResult;
struct AnalyzeRequest;

class AnalyzeDialog : public QDialog {
  Q_OBJECT

 public:
  // `program`: the moe-train to run; `analyses_dir`: where reports of models that are no run go.
  AnalyzeDialog(const QString& program, QString analyses_dir, QWidget* parent = nullptr);

  void setModel(const QString& model);
  void setCorpus(const QString& corpus);
  void setTokens(int tokens);
  void setCapacityFactors(const QString& factors);
  void setCapture(bool capture);
  // Starts analyze with the form's values; false with the reason in the status line.
  bool start();

  AnalyzeJob* job() const { return job_; }
  QString statusText() const;
  int progressValue() const;

  // The request the form describes; false with *error naming the field that is wrong.
  bool request(AnalyzeRequest* out, QString* error) const;
  // The report file for `model`: <run>/analysis/analysis.json for a run (a folder with
  // checkpoints/), else <analyses_dir>/<folder name>.json.
  QString defaultOutput(const QString& model) const;

 signals:
  void analysisReady(const QString& report_path);

 protected:
  void reject() override;

 private:
  void chooseModel();
  void chooseCorpus();
  void finished(const AnalyzeJobResult& result);
  void setRunning(bool running);

  QString analyses_dir_;
  QLineEdit* model_;
  QLineEdit* corpus_;
  QSpinBox* tokens_;
  QLineEdit* factors_;
  QLineEdit* output_;
  QCheckBox* capture_;
  QProgressBar* progress_;
  QLabel* status_;
  QDialogButtonBox* buttons_;
  AnalyzeJob* job_;
};

}  // namespace moe::ui
