// GenerateForm: the Generate tab's left side. The model (recent decoder runs, or a folder chosen
// with Browse), what it is or why it cannot generate, the prompts (text, or token ids when the
// model has no tokenizer.json), the sampling settings, and Generate / Stop.
#pragma once

#include <QWidget>

#include <optional>

#include "base/generate/generate_request.h"
#include "base/generate/model_folder.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace moe::ui {

class GenerateForm : public QWidget {
  Q_OBJECT

 public:
  explicit GenerateForm(QWidget* parent = nullptr);

  // Recent decoder runs for the model picker: (label, run directory), newest first; the folders
  // chosen with Browse before follow them. The chosen model stays chosen.
  void setRecentModels(const QList<QPair<QString, QString>>& models);
  // Chooses a model folder (added to the picker when new) and reads what it is.
  void setModel(const QString& path);
  QString model() const;
  const std::optional<ModelFolder>& modelFolder() const { return folder_; }

  void setPrompts(const QString& text);
  void setSampling(const SamplingSettings& sampling);
  SamplingSettings sampling() const;
  // The request the form describes; nullopt with `error` saying what to fix.
  std::optional<GenerateRequest> request(QString* error) const;

  // While a generation runs, Generate is off and Stop on.
  void setRunning(bool running);

  QComboBox* modelCombo() const { return model_; }
  QPlainTextEdit* promptEdit() const { return prompts_; }
  QPushButton* generateButton() const { return generate_; }
  QPushButton* stopButton() const { return stop_; }

 signals:
  void generateRequested();
  void stopRequested();
  void modelInspected(const moe::ui::ModelFolder& folder);

 private:
  QWidget* buildModelBox();
  QWidget* buildSamplingBox();
  void browse();
  void inspect();
  void showFolder(const ModelFolder& folder);
  void updateEnabled();

  QComboBox* model_;
  QLabel* model_note_;
  QLabel* prompts_label_;
  QPlainTextEdit* prompts_;
  QCheckBox* greedy_;
  QDoubleSpinBox* temperature_;
  QSpinBox* top_k_;
  QDoubleSpinBox* top_p_;
  QDoubleSpinBox* min_p_;
  QSpinBox* seed_;
  QSpinBox* max_new_tokens_;
  QLineEdit* stop_text_;
  QSpinBox* batch_size_;
  QPushButton* generate_;
  QPushButton* stop_;
  std::optional<ModelFolder> folder_;  // what the chosen model is, once read
  bool running_ = false;
  int inspecting_ = 0;  // reads in flight: only the newest one's answer counts
};

}  // namespace moe::ui
