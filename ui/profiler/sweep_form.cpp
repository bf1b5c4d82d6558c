#include "profiler/sweep_form.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

#include "base/plot_data/readout_format.h"

namespace moe::ui {

namespace {

const char* const kKeyTips[] = {
    "moe.experts: number of experts E",
    "moe.top_k: experts per token k (at most E)",
    "moe.capacity_factor: slots per expert; 0 = dropless, < 0 = capped dropless",
    "moe.hidden: the experts' hidden size H",
    "model.dim: the model dimension M",
    "Tokens per layer step N (train.batch_size, with model.seq_len = 1)",
    "train.dtype: float32, float64, bfloat16 (float16 on CUDA only)",
    "train.threads: 0 = the fastest of one and every core for the GEMMs; N fixes the kernels' "
    "pool and the GEMMs' threads"};

}  // namespace

SweepForm::SweepForm(QWidget* parent) : QWidget(parent) {
  auto* form = new QFormLayout;
  form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
  const SweepSpec defaults = SweepSpec::defaults();
  for (int i = 0; i < defaults.keys.size(); ++i) {
    const SweepKey& k = defaults.keys[i];
    auto* edit = new QLineEdit(k.values.join(QStringLiteral(", ")), this);
    edit->setObjectName(k.key);
    edit->setToolTip(tr(kKeyTips[i]));
    edit->setPlaceholderText(tr("values, comma-separated"));
    connect(edit, &QLineEdit::textChanged, this, &SweepForm::update);
    form->addRow(k.label, edit);
    edits_ << edit;
  }

  grid_ = new QRadioButton(tr("Grid (every combination)"), this);
  paired_ = new QRadioButton(tr("Paired (i-th values together)"), this);
  grid_->setChecked(true);
  auto* mode = new QButtonGroup(this);
  mode->addButton(grid_);
  mode->addButton(paired_);
  connect(grid_, &QRadioButton::toggled, this, &SweepForm::update);
  auto* modes = new QHBoxLayout;
  modes->addWidget(grid_);
  modes->addWidget(paired_);
  modes->addStretch();
  form->addRow(tr("Sweep"), modes);

  iters_ = new QSpinBox(this);
  iters_->setRange(1, 1000);
  iters_->setValue(5);
  iters_->setToolTip(tr("Minimum timed iterations per measurement (--iters)"));
  min_time_ = new QDoubleSpinBox(this);
  min_time_->setRange(0, 600);
  min_time_->setDecimals(2);
  min_time_->setSingleStep(0.25);
  min_time_->setValue(1.0);
  min_time_->setSuffix(tr(" s"));
  min_time_->setToolTip(tr("Minimum seconds per measurement (--min-time)"));
  naive_ = new QCheckBox(tr("Naive baseline"), this);
  naive_->setChecked(true);
  naive_->setToolTip(tr("Also time GShard's dense formulation in plain LibTorch"));
  auto* timing = new QHBoxLayout;
  timing->addWidget(new QLabel(tr("Iterations"), this));
  timing->addWidget(iters_);
  timing->addSpacing(8);
  timing->addWidget(new QLabel(tr("Min time"), this));
  timing->addWidget(min_time_);
  timing->addSpacing(8);
  timing->addWidget(naive_);
  timing->addStretch();
  form->addRow(tr("Timing"), timing);
  connect(iters_, &QSpinBox::valueChanged, this, &SweepForm::update);
  connect(min_time_, &QDoubleSpinBox::valueChanged, this, &SweepForm::update);
  connect(naive_, &QCheckBox::toggled, this, &SweepForm::update);

  estimate_ = new QLabel(this);
  problems_label_ = new QLabel(this);
  problems_label_->setWordWrap(true);
  problems_label_->setTextFormat(Qt::PlainText);
  problems_label_->setStyleSheet(QStringLiteral("color: #b00020;"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(form);
  layout->addWidget(estimate_);
  layout->addWidget(problems_label_);
  update();
}

SweepSpec SweepForm::spec() const {
  SweepSpec s = SweepSpec::defaults();
  for (int i = 0; i < s.keys.size(); ++i) s.keys[i].values = splitValues(edits_[i]->text());
  s.paired = paired_->isChecked();
  s.iters = iters_->value();
  s.min_time = min_time_->value();
  s.naive = naive_->isChecked();
  return s;
}

void SweepForm::setSpec(const SweepSpec& spec) {
  for (int i = 0; i < edits_.size(); ++i) {
    const SweepKey* k = spec.find(edits_[i]->objectName());
    if (k) edits_[i]->setText(k->values.join(QStringLiteral(", ")));
  }
  (spec.paired ? paired_ : grid_)->setChecked(true);
  iters_->setValue(spec.iters);
  min_time_->setValue(spec.min_time);
  naive_->setChecked(spec.naive);
  update();
}

void SweepForm::setMeasuredOverhead(double seconds) {
  if (seconds < 0) return;
  overhead_s_ = seconds;
  measured_ = true;
  update();
}

double SweepForm::estimateSeconds() const {
  return estimateSweepSeconds(spec(), overhead_s_);
}

QLineEdit* SweepForm::valuesEdit(const QString& key) const {
  for (QLineEdit* e : edits_) {
    if (e->objectName() == key) return e;
  }
  return nullptr;
}

void SweepForm::update() {
  const SweepSpec s = spec();
  problems_ = sweepProblems(s);
  problems_label_->setText(problems_.join(QLatin1Char('\n')));
  problems_label_->setVisible(!problems_.isEmpty());
  if (problems_.isEmpty()) {
    const qint64 n = sweepConfigCount(s);
    estimate_->setText(
        tr("%1, about %2").arg(configsText(n), durationText(estimateSweepSeconds(s, overhead_s_))) +
        (measured_ ? tr(" (from the time past sweeps took per config)")
                   : tr(" (a first guess: no sweep measured yet)")));
  } else {
    estimate_->setText(tr("Not runnable yet:"));
  }
  // Which lines hold a problem: a red frame on the keys the messages name.
  for (int i = 0; i < edits_.size(); ++i) {
    const QString label = s.keys[i].label;
    const QString pointer = QLatin1Char('/') + QString(s.keys[i].key).replace('.', '/');
    bool bad = false;
    for (const QString& p : problems_) {
      bad = bad || p.startsWith(label + QLatin1Char(':')) || p.contains(pointer + QLatin1Char(':'));
    }
    edits_[i]->setStyleSheet(bad ? QStringLiteral("border: 1px solid #b00020;") : QString());
  }
  emit changed();
}

}  // namespace moe::ui
