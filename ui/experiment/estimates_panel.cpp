#include "experiment/estimates_panel.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

#include <exception>
#include <stdexcept>

#include "base/experiment/experiment_document.h"
#include "base/experiment/human_units.h"
#include "base/planner/plan_model.h"
#include "base/planner/planner_format.h"
#include "base/planner/planner_profile_choice.h"
#include "planner/planner_profile_combo.h"
#include "planner/scaling_view.h"

namespace moe::ui {
using namespace moe::plan;  // the estimates' figures
namespace {

QString q(const std::string& s) {
  return QString::fromStdString(s);
}

QString percent(double part, double whole) {
  return whole > 0 ? QString::number(100.0 * part / whole, 'f', 0) + "%" : QString("—");
}

}  // namespace

EstimatesPanel::EstimatesPanel(ExperimentDocument* document, QWidget* parent)
    : QWidget(parent), document_(document) {
  auto* form = new QFormLayout(this);
  form->setContentsMargins(0, 0, 0, 0);
  form->setHorizontalSpacing(12);
  form->setVerticalSpacing(3);
  form->setLabelAlignment(Qt::AlignLeft);
  addRow("parameters", tr("Parameters"), tr("Every trainable parameter, as the engine counts it."));
  addRow("experts", tr("  in experts"),
         tr("Expert weights and biases of all MoE layers (fc1/fc2; glu: gate, up, down)."));
  addRow("dense", tr("  dense"),
         tr("Everything else: gates, embeddings, attention, dense FFNs, shared experts, norms, "
            "head."));
  addRow("active", tr("  active / token"),
         tr("Parameters one token goes through: every dense parameter (shared experts "
            "included) and k′ of the E routed experts in each MoE layer, as model cards count "
            "active parameters."));
  addRow("moe_layers", tr("MoE layers"), tr("Blocks whose FFN is an MoE layer."));
  addRow("tokens", tr("Tokens / step"), tr("batch_size × grad_accum × tokens per sample."));
  addRow("flops", tr("FLOPs / step"),
         tr("Forward + backward. Experts: 3·4·N·k′·M·H per MoE layer (Tutel); dense parts: "
            "6 × parameters × tokens for matmuls, plus attention scores and convolutions."));
  addRow("capacity", tr("Capacity / expert"),
         tr("Slots per expert in one MoE layer call of one process: "
            "k′·⌊f·⌈N/E⌉⌋ for f > 0; the max demand for f = 0; at most k′·⌊−f·⌈N/E⌉⌋ for "
            "f < 0."));
  addRow("weights", tr("Weights + optimizer"),
         tr("Weights and gradients in train.dtype, optimizer states (AdamW 2, SGD with momentum "
            "1), and float32 master weights for bfloat16. One copy of the whole model."));
  addRow("activations", tr("Activations ≈"),
         tr("Rough size of what one forward/backward pass of one process keeps for backward."));
  addRow("kv_cache", tr("KV cache / token"),
         tr("Keys and values one token keeps in the attention's cache over all layers, in "
            "train.dtype: 2 × kv_heads × head_dim per layer (lm: 2 × dim)."));
  addRankRows();
  addPlannerRows();
  connect(document_, &ExperimentDocument::contentChanged, this, &EstimatesPanel::refresh);
  refresh();
  choice_->load();
}

// The planner's rows: the profile (with the way to the Scaling view), then what it predicts for
// the config's own layout. The profile is read on a worker; the prediction is arithmetic.
void EstimatesPanel::addPlannerRows() {
  auto* form = static_cast<QFormLayout*>(layout());
  choice_ = new PlannerProfileChoice(this);
  combo_ = new PlannerProfileCombo(choice_, this);
  scaling_ = new QPushButton(tr("Scaling…"), this);
  scaling_->setToolTip(
      tr("Throughput, memory and the step's split for 1 to 1024 GPUs, with the "
         "best layout at each size"));
  auto* profile_row = new QWidget(this);
  auto* profile_layout = new QHBoxLayout(profile_row);
  profile_layout->setContentsMargins(0, 4, 0, 0);
  profile_layout->addWidget(combo_, 1);
  profile_layout->addWidget(scaling_);
  auto* name = new QLabel(tr("Profile"), this);
  name->setToolTip(combo_->toolTip());
  QPalette palette = name->palette();
  palette.setColor(QPalette::WindowText, palette.color(QPalette::PlaceholderText));
  name->setPalette(palette);
  form->addRow(name, profile_row);
  profile_error_ = new QLabel(this);
  profile_error_->setTextFormat(Qt::PlainText);  // it names a file the user picked
  profile_error_->setWordWrap(true);
  profile_error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  profile_error_->setStyleSheet(QStringLiteral("color: #c82828"));
  form->addRow(profile_error_);
  form->setRowVisible(profile_error_, false);
  addRow("step", tr("Predicted step"),
         tr("One optimizer step on the config's own layout (parallel.nodes × nproc, adaptive_r) "
            "and the chosen hardware profile, and the tokens per second it gives."));
  addRow("memory_per_rank", tr("Memory per rank"),
         tr("What one rank holds: states, activations, all-to-all buffers and the runtime's "
            "share, against the device's memory."));
  connect(scaling_, &QPushButton::clicked, this, &EstimatesPanel::showScaling);
  connect(choice_, &PlannerProfileChoice::loaded, this, [this] {
    showProfileError({});
    refresh();
  });
  connect(choice_, &PlannerProfileChoice::failed, this, [this](const QString& error) {
    showProfileError(error);
    refresh();
  });
}

void EstimatesPanel::showProfileError(const QString& error) {
  profile_error_->setText(error);
  static_cast<QFormLayout*>(layout())->setRowVisible(profile_error_, !error.isEmpty());
}

ScalingView* EstimatesPanel::showScaling() {
  if (auto* open = static_cast<ScalingView*>(scaling_window_.data())) {
    open->window()->raise();
    open->window()->activateWindow();
    return open;
  }
  auto* view = new ScalingView(this);
  view->setWindowFlag(Qt::Window);
  view->setAttribute(Qt::WA_DeleteOnClose);
  view->setWindowTitle(tr("Scaling — %1").arg(document_->displayName()));
  view->resize(900, 860);
  auto follow = [this, view] {
    view->setWindowTitle(tr("Scaling — %1").arg(document_->displayName()));
    if (can_estimate(document_->config())) view->setConfig(document_->config());
  };
  connect(document_, &ExperimentDocument::contentChanged, view, follow);
  follow();
  scaling_window_ = view;
  view->show();
  return view;
}

QString EstimatesPanel::profileError() const {
  return profile_error_->text();
}

void EstimatesPanel::showPrediction(const protocol::RunConfig& c) {
  QLabel* step = values_.value("step");
  const QString row_tip = static_cast<QFormLayout*>(layout())->labelForField(step)->toolTip();
  step->setToolTip(row_tip);
  const auto& profile = choice_->profile();
  if (!profile) {
    set("step", choice_->error().isEmpty() ? tr("loading the profile…") : tr("—"));
    set("memory_per_rank", tr("—"));
    return;
  }
  StepPrediction p;
  QString note;
  try {
    const Layout layout = config_layout(c);
    if (c.parallel.adaptive_r == protocol::kAdaptiveRAuto) {
      const auto best = best_of(layouts_for(c, layout.nodes, layout.nproc_per_node, *profile));
      if (!best) throw std::invalid_argument("no r suits this layout");
      p = best->prediction;
      note = tr("auto → r=%1").arg(best->layout.r);
    } else {
      p = predict(c, layout, *profile);
    }
  } catch (const std::exception& e) {
    set("step", tr("—"), QString::fromStdString(e.what()));
    set("memory_per_rank", tr("—"));
    return;
  }
  set("step",
      formatStepTime(p.step_ms) + QStringLiteral(" · ") + formatTokensPerSecond(p.tokens_per_s),
      note);
  // Rich text, escaped: a measured profile's name is the user's.
  step->setToolTip(QStringLiteral("<p>%1</p><p>%2</p>")
                       .arg(row_tip.toHtmlEscaped(),
                            tr("compute %1\nall-to-all %2\nall-reduce %3\n(on %4)")
                                .arg(formatStepTime(p.compute_ms), formatStepTime(p.a2a_ms),
                                     formatStepTime(p.allreduce_ms), q(profile->name))
                                .toHtmlEscaped()
                                .replace(QLatin1Char('\n'), QStringLiteral("<br>"))));
  const QString used = formatMemory(p.memory_bytes);
  const QString device = formatMemory(profile->device.memory_bytes);
  if (p.fits) {
    set("memory_per_rank", tr("%1 of %2").arg(used, device), q(profile->device.name));
  } else {
    values_.value("memory_per_rank")
        ->setText(QStringLiteral("<span style='color:#c82828'>%1</span>")
                      .arg(tr("does not fit on %1 (%2 of %3)")
                               .arg(q(profile->device.name), used, device)
                               .toHtmlEscaped()));
  }
}

// Shown with more than one rank (parallel.nodes x parallel.nproc).
void EstimatesPanel::addRankRows() {
  addRow("ranks", tr("Ranks"),
         tr("parallel.nodes × parallel.nproc processes, and where the experts live on them."));
  addRow("rank_parameters", tr("Parameters / rank"),
         tr("One rank's share of the experts (E/W experts, or 1/shards of one) plus every dense "
            "parameter, which each rank holds whole."));
  addRow("rank_memory", tr("Memory / rank ≈"),
         tr("The rank's weights, gradients, optimizer states and masters, plus its activations."));
  addRow("all_to_all", tr("All-to-all / step"),
         tr("Bytes one rank sends per optimizer step: per MoE layer and pass, 4·(W−1)/W·E·C·M·"
            "dtype bytes (dispatch and combine, forward and backward, at r = 1); none with "
            "adaptive_r = 0 or without expert parallelism."));
}

QString EstimatesPanel::placementText(const RankEstimate& r) const {
  if (r.placement.local_experts == r.placement.experts) return tr("experts replicated");
  if (r.placement.shards > 1) return tr("each expert in %1 shards").arg(r.placement.shards);
  return r.placement.local_experts == 1 ? tr("1 expert each")
                                        : tr("%1 experts each").arg(r.placement.local_experts);
}

void EstimatesPanel::showRank(const protocol::RunConfig& c, const ConfigEstimates& e) {
  const RankEstimate& r = e.rank;
  auto* form = static_cast<QFormLayout*>(layout());
  for (const char* row : {"ranks", "rank_parameters", "rank_memory", "all_to_all"})
    form->setRowVisible(values_.value(row), r.world > 1);
  if (r.world <= 1) return;
  set("ranks", QString::number(r.world),
      tr("%1 × %2, %3").arg(c.parallel.nodes).arg(c.parallel.nproc).arg(placementText(r)));
  set("rank_parameters", q(formatCount(r.parameters.total())),
      tr("experts %1").arg(q(formatCount(r.parameters.experts))));
  set("rank_memory", q(formatBytes(r.memory.states() + r.memory.activations)),
      tr("states %1").arg(q(formatBytes(r.memory.states()))));
  if (r.all_to_all_bytes > 0) {
    set("all_to_all", q(formatBytes(r.all_to_all_bytes)),
        r.all_to_all_assumes_r1 ? tr("sent per rank, at r = 1") : tr("sent per rank"));
  } else {
    set("all_to_all", tr("none"),
        c.parallel.expert_parallel ? tr("adaptive_r = 0") : tr("no expert parallelism"));
  }
}

void EstimatesPanel::addRow(const QString& key, const QString& label, const QString& tooltip) {
  auto* name = new QLabel(label, this);
  name->setToolTip(tooltip);
  QPalette palette = name->palette();
  palette.setColor(QPalette::WindowText, palette.color(QPalette::PlaceholderText));
  name->setPalette(palette);
  auto* value = new QLabel(this);
  value->setToolTip(tooltip);
  value->setTextInteractionFlags(Qt::TextSelectableByMouse);
  static_cast<QFormLayout*>(layout())->addRow(name, value);
  values_.insert(key, value);
}

void EstimatesPanel::set(const QString& row, const QString& text, const QString& detail) {
  QLabel* label = values_.value(row);
  if (detail.isEmpty()) {
    label->setText(text);
    return;
  }
  // Halfway between text and background: PlaceholderText carries its greyness in alpha, which
  // a rich-text colour name would drop.
  const QColor text_color = palette().color(QPalette::WindowText);
  const QColor window = palette().color(QPalette::Window);
  const QString grey =
      QColor((text_color.red() + window.red()) / 2, (text_color.green() + window.green()) / 2,
             (text_color.blue() + window.blue()) / 2)
          .name();
  label->setText(QString("%1&nbsp;&nbsp;<span style='color:%2'>%3</span>")
                     .arg(text.toHtmlEscaped(), grey, detail.toHtmlEscaped()));
}

void EstimatesPanel::refresh() {
  const protocol::RunConfig& c = document_->config();
  if (!can_estimate(c)) {
    for (QLabel* label : values_) label->setText("—");
    return;  // the rank rows keep their visibility: a typo should not make the panel jump
  }
  const ConfigEstimates e = estimate(c);
  const double total = e.parameters.total();
  set("parameters", q(formatCount(total)));
  set("experts", q(formatCount(e.parameters.experts)), percent(e.parameters.experts, total));
  set("dense", q(formatCount(e.parameters.dense)), percent(e.parameters.dense, total));
  set("active", q(formatCount(e.parameters.active)), percent(e.parameters.active, total));
  set("moe_layers", QString::number(e.moe_layers));
  set("tokens", q(formatCount(e.tokens_per_step)));
  set("flops", q(formatFlops(e.flops.total())),
      tr("experts %1").arg(percent(e.flops.experts, e.flops.total())));

  const CapacityEstimate& cap = e.capacity;
  const QString n = tr("N = %1 tokens").arg(q(formatCount(double(cap.tokens))));
  switch (cap.kind) {
    case CapacityEstimate::Kind::kFixed:
      set("capacity", tr("%1 slots").arg(cap.count), n);
      break;
    case CapacityEstimate::Kind::kDropless:
      set("capacity", tr("dropless (max demand)"), n);
      break;
    case CapacityEstimate::Kind::kBounded:
      set("capacity", tr("≤ %1 slots (max demand)").arg(cap.count), n);
      break;
  }
  set("weights", q(formatBytes(e.memory.states())),
      tr("weights %1").arg(q(formatBytes(e.memory.weights))));
  set("activations", q(formatBytes(e.memory.activations)),
      e.rank.world > 1 ? tr("per rank") : QString());
  // Only models with attention have a cache.
  static_cast<QFormLayout*>(layout())->setRowVisible(values_.value("kv_cache"),
                                                     e.kv_cache_bytes_per_token > 0);
  set("kv_cache", q(formatBytes(e.kv_cache_bytes_per_token)));
  showRank(c, e);
  showPrediction(c);
}

QString EstimatesPanel::valueText(const QString& row) const {
  QLabel* label = values_.value(row);
  return label ? label->text() : QString();
}

QString EstimatesPanel::valueToolTip(const QString& row) const {
  QLabel* label = values_.value(row);
  return label ? label->toolTip() : QString();
}

bool EstimatesPanel::isRowVisible(const QString& row) const {
  QLabel* label = values_.value(row);
  return label && static_cast<QFormLayout*>(layout())->isRowVisible(label);
}

}  // namespace moe::ui
