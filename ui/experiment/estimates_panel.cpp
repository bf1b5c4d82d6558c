#include "experiment/estimates_panel.h"

#include <QFormLayout>
#include <QLabel>

#include "experiment/config_estimates.h"
#include "experiment/experiment_document.h"
#include "experiment/human_units.h"

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
         tr("Expert weights and biases of all MoE layers (batched_fc1/fc2)."));
  addRow("dense", tr("  dense"),
         tr("Everything else: gates, embeddings, attention, dense FFNs, norms, head."));
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
  addRankRows();
  connect(document_, &ExperimentDocument::contentChanged, this, &EstimatesPanel::refresh);
  refresh();
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
  if (!canEstimate(c)) {
    for (QLabel* label : values_) label->setText("—");
    return;  // the rank rows keep their visibility: a typo should not make the panel jump
  }
  const ConfigEstimates e = estimate(c);
  const double total = e.parameters.total();
  set("parameters", q(formatCount(total)));
  set("experts", q(formatCount(e.parameters.experts)), percent(e.parameters.experts, total));
  set("dense", q(formatCount(e.parameters.dense)), percent(e.parameters.dense, total));
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
  showRank(c, e);
}

QString EstimatesPanel::valueText(const QString& row) const {
  QLabel* label = values_.value(row);
  return label ? label->text() : QString();
}

bool EstimatesPanel::isRowVisible(const QString& row) const {
  QLabel* label = values_.value(row);
  return label && static_cast<QFormLayout*>(layout())->isRowVisible(label);
}

}  // namespace moe::ui
