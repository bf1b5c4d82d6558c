#include "generate/generate_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

#include "base/storage/worker_task.h"

namespace moe::ui {

namespace {

constexpr int kBrowsedKept = 8;  // folders chosen with Browse that the picker remembers

QDoubleSpinBox* doubleBox(double lo, double hi, double step, double value, int decimals) {
  auto* box = new QDoubleSpinBox;
  box->setRange(lo, hi);
  box->setSingleStep(step);
  box->setDecimals(decimals);
  box->setValue(value);
  return box;
}

QSpinBox* intBox(int lo, int hi, int value) {
  auto* box = new QSpinBox;
  box->setRange(lo, hi);
  box->setValue(value);
  return box;
}

}  // namespace

GenerateForm::GenerateForm(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  layout->addWidget(buildModelBox());

  auto* prompts_box = new QGroupBox(tr("Prompts"), this);
  auto* prompts_layout = new QVBoxLayout(prompts_box);
  prompts_label_ = new QLabel(prompts_box);
  prompts_label_->setWordWrap(true);
  prompts_label_->setStyleSheet(QStringLiteral("color: #555"));
  prompts_ = new QPlainTextEdit(prompts_box);
  prompts_->setTabChangesFocus(true);
  prompts_layout->addWidget(prompts_label_);
  prompts_layout->addWidget(prompts_);
  layout->addWidget(prompts_box, 1);
  layout->addWidget(buildSamplingBox());

  auto* buttons = new QHBoxLayout;
  generate_ = new QPushButton(tr("▶  Generate"), this);
  generate_->setDefault(true);
  generate_->setStyleSheet(QStringLiteral(
      "QPushButton { background: #2563eb; color: white; font-weight: 600; padding: 5px 14px;"
      " border-radius: 4px; } QPushButton:disabled { background: #9ca3af; }"));
  stop_ = new QPushButton(tr("■  Stop"), this);
  stop_->setToolTip(tr("End the generation now; the text so far stays"));
  buttons->addWidget(generate_, 1);
  buttons->addWidget(stop_);
  layout->addLayout(buttons);
  connect(generate_, &QPushButton::clicked, this, &GenerateForm::generateRequested);
  connect(stop_, &QPushButton::clicked, this, &GenerateForm::stopRequested);
  connect(prompts_, &QPlainTextEdit::textChanged, this, &GenerateForm::updateEnabled);
  showFolder(ModelFolder());
}

QWidget* GenerateForm::buildModelBox() {
  auto* box = new QGroupBox(tr("Model"), this);
  auto* layout = new QVBoxLayout(box);
  auto* row = new QHBoxLayout;
  model_ = new QComboBox(box);
  model_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  model_->setMinimumContentsLength(18);
  model_->setToolTip(
      tr("A run's newest checkpoint, a checkpoint step folder or a Hugging Face "
         "model folder"));
  auto* browse = new QPushButton(tr("Browse…"), box);
  row->addWidget(model_, 1);
  row->addWidget(browse);
  layout->addLayout(row);
  model_note_ = new QLabel(box);
  model_note_->setWordWrap(true);
  model_note_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(model_note_);
  connect(browse, &QPushButton::clicked, this, &GenerateForm::browse);
  connect(model_, &QComboBox::currentIndexChanged, this, &GenerateForm::inspect);
  return box;
}

QWidget* GenerateForm::buildSamplingBox() {
  auto* box = new QGroupBox(tr("Sampling"), this);
  auto* form = new QFormLayout(box);
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  greedy_ = new QCheckBox(tr("greedy (always the likeliest token)"), box);
  temperature_ = doubleBox(0.01, 10, 0.1, 1.0, 2);
  top_k_ = intBox(0, 1 << 20, 0);
  top_k_->setSpecialValueText(tr("all"));
  top_p_ = doubleBox(0.01, 1, 0.05, 1.0, 2);
  min_p_ = doubleBox(0, 1, 0.01, 0, 3);
  min_p_->setSpecialValueText(tr("off"));
  seed_ = intBox(0, 2147483647, 0);
  max_new_tokens_ = intBox(1, 1 << 16, 64);
  stop_text_ = new QLineEdit(box);
  stop_text_->setPlaceholderText(tr("none"));
  stop_text_->setToolTip(tr("Stop once the text holds this string"));
  batch_size_ = intBox(1, 256, 1);
  batch_size_->setToolTip(tr("Prompts decoded together"));
  form->addRow(greedy_);
  form->addRow(tr("Temperature"), temperature_);
  form->addRow(tr("Top-k"), top_k_);
  form->addRow(tr("Top-p"), top_p_);
  form->addRow(tr("Min-p"), min_p_);
  form->addRow(tr("Seed"), seed_);
  form->addRow(tr("Max new tokens"), max_new_tokens_);
  form->addRow(tr("Stop at"), stop_text_);
  form->addRow(tr("Batch size"), batch_size_);
  connect(greedy_, &QCheckBox::toggled, this, &GenerateForm::updateEnabled);
  return box;
}

void GenerateForm::setRecentModels(const QList<QPair<QString, QString>>& models) {
  const QString current = model();
  const QSignalBlocker block(model_);
  model_->clear();
  for (const auto& [label, path] : models) model_->addItem(label, path);
  // Folders chosen with Browse in earlier sessions, after the runs.
  for (const QString& path : QSettings().value("generate/browsed").toStringList()) {
    if (model_->findData(path) < 0) model_->addItem(QFileInfo(path).fileName(), path);
  }
  const int found = model_->findData(current);
  if (!current.isEmpty() && found < 0)
    model_->insertItem(0, QFileInfo(current).fileName(), current);
  model_->setCurrentIndex(current.isEmpty() ? (model_->count() ? 0 : -1)
                                            : model_->findData(current));
  if (model() != current) inspect();
}

void GenerateForm::setModel(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  int index = model_->findData(absolute);
  if (index < 0) {
    model_->insertItem(0, QFileInfo(absolute).fileName(), absolute);
    model_->setItemData(0, absolute, Qt::ToolTipRole);
    index = 0;
  }
  if (index == model_->currentIndex()) return inspect();
  model_->setCurrentIndex(index);  // inspects
}

QString GenerateForm::model() const {
  return model_->currentData().toString();
}

void GenerateForm::browse() {
  QSettings settings;
  const QString dir = QFileDialog::getExistingDirectory(
      this, tr("Model to Generate With"), settings.value("generate/last_dir").toString());
  if (dir.isEmpty()) return;
  settings.setValue("generate/last_dir", QFileInfo(dir).path());
  QStringList browsed = settings.value("generate/browsed").toStringList();
  browsed.removeAll(QFileInfo(dir).absoluteFilePath());
  browsed.prepend(QFileInfo(dir).absoluteFilePath());
  settings.setValue("generate/browsed", browsed.mid(0, kBrowsedKept));
  setModel(dir);
}

// What the folder is, read off the GUI thread; only the newest read's answer is shown.
void GenerateForm::inspect() {
  folder_.reset();
  const QString path = model();
  const int serial = ++inspecting_;
  if (path.isEmpty()) return showFolder(inspectModelFolder(path));
  model_note_->setText(tr("Reading %1…").arg(path));
  updateEnabled();
  runOnWorker(
      this, [path] { return inspectModelFolder(path); },
      [this, serial](const ModelFolder& folder) {
        if (serial == inspecting_) showFolder(folder);
      });
}

void GenerateForm::showFolder(const ModelFolder& folder) {
  if (!model().isEmpty()) folder_ = folder;
  if (!folder.ok()) {
    model_note_->setStyleSheet(QStringLiteral("color: #b91c1c"));
    model_note_->setText(model().isEmpty() ? tr("Choose a run or a Hugging Face folder (Browse…).")
                                           : folder.error);
  } else {
    model_note_->setStyleSheet(QStringLiteral("color: #444"));
    model_note_->setText(
        folder.has_tokenizer
            ? folder.summary
            : tr("%1 · no tokenizer.json: prompts are token ids").arg(folder.summary));
  }
  const bool ids = folder.ok() && !folder.has_tokenizer;
  prompts_label_->setText(
      ids ? tr("Token ids, one prompt a line (spaces or commas between ids%1).")
                .arg(folder.vocab > 0 ? tr(", each below %1").arg(folder.vocab) : QString())
          : tr("One prompt, or several separated by a line of ---."));
  prompts_->setPlaceholderText(ids ? QStringLiteral("1 15 27 3\n42 7") : tr("Mixture of experts"));
  updateEnabled();
  emit modelInspected(folder);
}

void GenerateForm::setPrompts(const QString& text) {
  prompts_->setPlainText(text);
}

void GenerateForm::setSampling(const SamplingSettings& s) {
  greedy_->setChecked(s.greedy);
  temperature_->setValue(s.temperature);
  top_k_->setValue(s.top_k);
  top_p_->setValue(s.top_p);
  min_p_->setValue(s.min_p);
  seed_->setValue(static_cast<int>(s.seed));
  max_new_tokens_->setValue(s.max_new_tokens);
  stop_text_->setText(s.stop);
  batch_size_->setValue(s.batch_size);
}

SamplingSettings GenerateForm::sampling() const {
  SamplingSettings s;
  s.greedy = greedy_->isChecked();
  s.temperature = temperature_->value();
  s.top_k = top_k_->value();
  s.top_p = top_p_->value();
  s.min_p = min_p_->value();
  s.seed = static_cast<quint64>(seed_->value());
  s.max_new_tokens = max_new_tokens_->value();
  s.stop = stop_text_->text();
  s.batch_size = batch_size_->value();
  return s;
}

std::optional<GenerateRequest> GenerateForm::request(QString* error) const {
  if (!folder_ || !folder_->ok()) {
    *error = folder_ ? folder_->error : tr("the model is still being read");
    return std::nullopt;
  }
  GenerateRequest request;
  request.model = folder_->path;
  request.sampling = sampling();
  if (folder_->has_tokenizer) {
    request.prompts = splitPrompts(prompts_->toPlainText());
    if (request.prompts.isEmpty()) {
      *error = tr("type a prompt");
      return std::nullopt;
    }
  } else {
    auto ids = parsePromptIds(prompts_->toPlainText(), error);
    if (!ids) {
      *error = tr("this model has no tokenizer.json, so prompts are token ids: %1").arg(*error);
      return std::nullopt;
    }
    request.prompt_tokens = std::move(*ids);
  }
  return request;
}

void GenerateForm::setRunning(bool running) {
  running_ = running;
  updateEnabled();
}

void GenerateForm::updateEnabled() {
  const bool sampled = !greedy_->isChecked();
  for (QWidget* w : std::initializer_list<QWidget*>{temperature_, top_k_, top_p_, min_p_, seed_}) {
    w->setEnabled(sampled);
  }
  generate_->setEnabled(!running_ && folder_ && folder_->ok() &&
                        !prompts_->toPlainText().trimmed().isEmpty());
  stop_->setEnabled(running_);
}

}  // namespace moe::ui
