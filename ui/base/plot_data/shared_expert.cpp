#include "base/plot_data/shared_expert.h"

#include <QCoreApplication>

#include <cmath>

namespace moe::ui {

std::optional<SharedExpert> sharedExpertOf(const nlohmann::json& config) {
  const auto moe = config.find("moe");
  if (moe == config.end() || !moe->is_object()) return std::nullopt;
  const auto hidden = moe->find("shared_hidden");
  if (hidden == moe->end() || !hidden->is_number_integer() || hidden->get<int64_t>() <= 0)
    return std::nullopt;
  const auto gate = moe->find("shared_gate");
  return SharedExpert{hidden->get<int64_t>(),
                      gate != moe->end() && gate->is_boolean() && gate->get<bool>()};
}

QString sharedExpertText(const SharedExpert& shared, double tokens_per_step) {
  const auto tr = [](const char* text) {
    return QCoreApplication::translate("SharedExpert", text);
  };
  const QString gate = shared.gated ? tr("gated by sigmoid(x · w)") : tr("ungated");
  QString text = tr("Shared expert (width %1, %2): every token").arg(shared.hidden).arg(gate);
  if (std::isfinite(tokens_per_step) && tokens_per_step > 0)
    text += tr(", %1 tokens/step").arg(tokens_per_step, 0, 'f', 0);
  return text + tr(" — not routed, not in the bars");
}

}  // namespace moe::ui
