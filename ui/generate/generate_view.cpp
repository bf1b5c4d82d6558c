#include "generate/generate_view.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

#include "generate/generate_form.h"
#include "generate/generated_load_bars.h"
#include "generate/phase_share_bar.h"
#include "generate/routing_strip.h"
#include "generate/sparkline.h"
#include "generate/token_text_view.h"

namespace moe::ui {

namespace {

constexpr int kRedrawMs = 100;

// A figure: its value large, what it is small under it.
QLabel* addFigure(QGridLayout* grid, int column, const QString& caption) {
  auto* value = new QLabel(QStringLiteral("–"));
  QFont big = value->font();
  big.setPointSizeF(big.pointSizeF() * 1.5);
  big.setBold(true);
  value->setFont(big);
  auto* label = new QLabel(caption);
  label->setStyleSheet(QStringLiteral("color: #666"));
  grid->addWidget(value, 0, column);
  grid->addWidget(label, 1, column);
  return value;
}

QLabel* caption(const QString& text) {
  auto* label = new QLabel(text);
  label->setStyleSheet(QStringLiteral("color: #666"));
  return label;
}

}  // namespace

GenerateView::GenerateView(QWidget* parent)
    : QWidget(parent), process_(new GenerateProcess(this)), redraw_(new QTimer(this)) {
  form_ = new GenerateForm;
  auto* form_scroll = new QScrollArea;
  form_scroll->setWidget(form_);
  form_scroll->setWidgetResizable(true);
  form_scroll->setFrameShape(QFrame::NoFrame);
  form_scroll->setMinimumWidth(300);

  auto* right = new QWidget;
  auto* right_layout = new QVBoxLayout(right);
  right_layout->setContentsMargins(6, 6, 6, 6);
  auto* header = new QHBoxLayout;
  status_ = new QLabel(tr("Choose a model, type a prompt and press Generate."));
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layer_combo_ = new QComboBox;
  layer_combo_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  layer_combo_->setToolTip(tr("The MoE layer whose top expert colours the generated tokens"));
  header->addWidget(status_, 1);
  header->addWidget(new QLabel(tr("Colour by")));
  header->addWidget(layer_combo_);
  right_layout->addLayout(header);

  text_ = new TokenTextView(&session_);
  strip_ = new RoutingStrip(&session_);
  load_ = new GeneratedLoadBars;
  auto* bottom = new QSplitter(Qt::Horizontal);
  bottom->addWidget(buildFigures());
  bottom->addWidget(load_);
  bottom->setStretchFactor(0, 2);
  bottom->setStretchFactor(1, 3);
  auto* stack = new QSplitter(Qt::Vertical);
  auto* text_and_strip = new QWidget;
  auto* text_layout = new QVBoxLayout(text_and_strip);
  text_layout->setContentsMargins(0, 0, 0, 0);
  text_layout->addWidget(text_, 1);
  text_layout->addWidget(caption(tr("Top expert of each generated token, per MoE layer")));
  text_layout->addWidget(strip_);
  stack->addWidget(text_and_strip);
  stack->addWidget(bottom);
  stack->setStretchFactor(0, 3);
  stack->setStretchFactor(1, 2);
  right_layout->addWidget(stack, 1);

  auto* split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(form_scroll);
  split->addWidget(right);
  split->setStretchFactor(0, 0);
  split->setStretchFactor(1, 1);
  split->setSizes({330, 1000});
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(split);

  redraw_->setSingleShot(true);
  redraw_->setInterval(kRedrawMs);
  connect(redraw_, &QTimer::timeout, this, &GenerateView::redrawFigures);
  connect(form_, &GenerateForm::generateRequested, this, &GenerateView::generate);
  connect(form_, &GenerateForm::stopRequested, this, &GenerateView::stop);
  connect(process_, &GenerateProcess::linesRead, this, &GenerateView::showLines);
  connect(process_, &GenerateProcess::finished, this, &GenerateView::onFinished);
  connect(layer_combo_, &QComboBox::currentIndexChanged, this, [this] {
    if (layer_combo_->currentIndex() >= 0) setColourLayer(layer_combo_->currentData().toInt());
  });
  redrawFigures();
}

QWidget* GenerateView::buildFigures() {
  auto* panel = new QWidget;
  auto* layout = new QVBoxLayout(panel);
  layout->setContentsMargins(4, 4, 4, 4);
  auto* grid = new QGridLayout;
  grid->setHorizontalSpacing(18);
  grid->setVerticalSpacing(0);
  decode_speed_ = addFigure(grid, 0, tr("decode tokens/s"));
  ttft_ = addFigure(grid, 1, tr("first token"));
  prefill_speed_ = addFigure(grid, 2, tr("prefill tokens/s"));
  token_count_ = addFigure(grid, 3, tr("tokens"));
  layout->addLayout(grid);
  layout->addSpacing(6);
  layout->addWidget(caption(tr("tokens/s of each decode step")));
  sparkline_ = new Sparkline;
  layout->addWidget(sparkline_);
  layout->addSpacing(6);
  layout->addWidget(caption(tr("a decode step's time by phase (mean)")));
  phases_ = new PhaseShareBar;
  layout->addWidget(phases_);
  layout->addStretch(1);
  return panel;
}

bool GenerateView::generate() {
  if (process_->isRunning()) return false;
  QString error;
  const auto request = form_->request(&error);
  if (!request) {
    setStatus(tr("Cannot generate: %1").arg(error), true);
    return false;
  }
  clear();
  if (!process_->start(program_, *request)) return false;  // finished() said why
  form_->setRunning(true);
  setStatus(
      tr("Generating %n prompt(s) with %1…", nullptr, request->promptCount()).arg(request->model));
  return true;
}

void GenerateView::stop() {
  process_->stop();
}

void GenerateView::clear() {
  session_.clear();
  text_->rebuild();
  strip_->refresh();
  fillLayerCombo();
  redrawFigures();
}

void GenerateView::showLines(const std::vector<GenerateLine>& lines) {
  const GenerateSession::Changes changes = session_.add(lines);
  if (changes.started) fillLayerCombo();  // rebuilds the text when the colour layer changes
  if (changes.started || changes.prompts) {
    text_->rebuild();
  } else if (!changes.tokens.empty()) {
    text_->appendTokens(changes.tokens);
  }
  if (changes.any()) {
    strip_->refresh();
    if (!redraw_->isActive()) redraw_->start();
  }
  if (process_->isRunning() && !changes.tokens.empty()) {
    setStatus(tr("Generating… %n token(s)", nullptr, static_cast<int>(session_.generatedCount())));
  }
}

// The layers of the new run; the chosen one stays when the model has it, else the first.
void GenerateView::fillLayerCombo() {
  const int keep = colour_layer_;
  const QSignalBlocker block(layer_combo_);
  layer_combo_->clear();
  for (const GenerateMoeLayer& layer : session_.moeLayers()) {
    layer_combo_->addItem(
        tr("layer %1 (%2 experts, top-%3)").arg(layer.layer).arg(layer.experts).arg(layer.top_k),
        layer.layer);
  }
  int index = layer_combo_->findData(keep);
  if (index < 0 && layer_combo_->count() > 0) index = 0;
  layer_combo_->setCurrentIndex(index);
  setColourLayer(index < 0 ? -1 : layer_combo_->itemData(index).toInt());
}

void GenerateView::setColourLayer(int layer) {
  const int index = layer_combo_->findData(layer);
  if (index >= 0 && index != layer_combo_->currentIndex()) {
    return layer_combo_->setCurrentIndex(index);  // comes back here through the combo
  }
  if (layer == colour_layer_) return;
  colour_layer_ = layer;
  text_->setColourLayer(layer);
  strip_->setColourLayer(layer);
  load_->showLayer(session_, layer);
}

void GenerateView::redrawFigures() {
  const double decode = session_.decodeTokensPerS();
  const double ttft = session_.ttftMs();
  decode_speed_->setText(decode > 0 ? QString::number(decode, 'f', decode < 100 ? 1 : 0)
                                    : QStringLiteral("–"));
  ttft_->setText(ttft > 0 ? tr("%1 ms").arg(ttft, 0, 'f', 0) : QStringLiteral("–"));
  const auto& end = session_.end();
  prefill_speed_->setText(end && end->prefill_tokens_per_s > 0
                              ? QString::number(end->prefill_tokens_per_s, 'f', 0)
                              : QStringLiteral("–"));
  const auto& start = session_.start();
  const qint64 planned =
      start ? static_cast<qint64>(start->max_new_tokens) * std::max(1, start->prompts) : 0;
  token_count_->setText(planned > 0 ? tr("%1 / %2").arg(session_.generatedCount()).arg(planned)
                                    : QString::number(session_.generatedCount()));

  std::vector<double> speeds;
  speeds.reserve(session_.steps().size());
  for (const DecodeStepEvent& step : session_.steps()) speeds.push_back(step.tokens_per_s);
  sparkline_->setValues(std::move(speeds));
  auto phases = session_.phaseTotals();
  const double steps = static_cast<double>(std::max<size_t>(1, session_.steps().size()));
  for (auto& phase : phases) phase.second /= steps;
  phases_->setPhases(std::move(phases));
  load_->showLayer(session_, colour_layer_);
}

void GenerateView::onFinished(GenerateProcess::Outcome outcome, const QString& message) {
  form_->setRunning(false);
  redrawFigures();
  const QString bad = session_.badLines() > 0
                          ? tr(" (%n unreadable telemetry line(s) skipped; the last: %1)", nullptr,
                               session_.badLines())
                                .arg(session_.lastBadLine())
                          : QString();
  const int tokens = static_cast<int>(session_.generatedCount());
  switch (outcome) {
    case GenerateProcess::Outcome::Finished:
      setStatus(tr("Done: %n token(s)", nullptr, tokens) +
                tr(" for %n prompt(s).", nullptr, static_cast<int>(session_.prompts().size())) +
                bad);
      break;
    case GenerateProcess::Outcome::Stopped:
      setStatus(tr("Stopped after %n token(s).", nullptr, tokens) + bad);
      break;
    case GenerateProcess::Outcome::Failed:
      setStatus(message + bad, true);
      break;
  }
  emit finished(outcome, message);
}

void GenerateView::setStatus(const QString& text, bool error) {
  status_->setStyleSheet(error ? QStringLiteral("color: #b91c1c") : QString());
  status_->setText(text);
}

QString GenerateView::statusText() const {
  return status_->text();
}

QString GenerateView::figuresText() const {
  return tr("decode %1 tokens/s · first token %2 · prefill %3 tokens/s · tokens %4")
      .arg(decode_speed_->text(), ttft_->text(), prefill_speed_->text(), token_count_->text());
}

}  // namespace moe::ui
