#include "widgets/shared_expert_note.h"

#include <limits>

#include "base/plot_data/shared_expert.h"
#include "base/telemetry/run_series.h"

namespace moe::ui {

SharedExpertNote::SharedExpertNote(QWidget* parent) : QLabel(parent) {
  setObjectName(QStringLiteral("sharedExpertNote"));
  setWordWrap(true);
  // A band of its own colour, so it reads as something beside the routed experts, not one of them.
  setStyleSheet(QStringLiteral(
      "QLabel#sharedExpertNote { background: #ecfdf5; border-left: 4px solid #059669;"
      " padding: 4px 8px; color: #064e3b; }"));
  setToolTip(
      tr("A shared expert (moe.shared_hidden) is an MLP every token goes through, added to "
         "the routed experts' output: the router never chooses it, so it has no count, no "
         "capacity and no bias."));
  setVisible(false);
}

void SharedExpertNote::updateFrom(const RunSeries& series) {
  const uint64_t version = series.version();
  if (&series == source_ && version == source_version_) return;
  source_ = &series;
  source_version_ = version;
  const std::optional<SharedExpert> shared = sharedExpertOf(series.info().config);
  setVisible(shared.has_value());
  if (!shared) return;
  const StepColumns last = series.steps(StepRange::lastRows(1));
  const double tokens =
      last.tokens.empty() ? std::numeric_limits<double>::quiet_NaN() : last.tokens.back();
  setText(sharedExpertText(*shared, tokens));
}

}  // namespace moe::ui
