// The figures of the two routings side by side: capacity, dropped share, l_aux, cv, max/mean,
// load and router entropy and dead experts (docs/ROUTING.md, "Load metrics"), a row for the
// captured setting, one for the what-if setting and one for the change, green where the what-if
// setting balances better and red where it balances worse.
#pragma once

#include <QTableWidget>

#include <optional>

#include "base/whatif/replay_answer.h"

namespace moe::ui {

class RoutingMetricsTable : public QTableWidget {
  Q_OBJECT

 public:
  enum Row { kCaptured, kWhatIf, kDelta };
  enum Column {
    kCapacity,
    kDropped,
    kAuxLoss,
    kCv,
    kMaxOverMean,
    kLoadEntropy,
    kRouterEntropy,
    kDeadExperts,
    kColumns
  };

  explicit RoutingMetricsTable(QWidget* parent = nullptr);

  void showRoutings(const std::optional<ReplayAnswer>& captured,
                    const std::optional<ReplayAnswer>& what_if);
  QString text(Row row, Column column) const;

 private:
  void setCell(int row, int column, const QString& text, const QColor& color = {});
};

// A figure of `a` by column (dropped as a fraction), for the table and its tests.
double metricValue(const ReplayAnswer& a, RoutingMetricsTable::Column column);

}  // namespace moe::ui
