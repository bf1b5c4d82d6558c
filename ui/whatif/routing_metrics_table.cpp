#include "whatif/routing_metrics_table.h"

#include <QHeaderView>

#include <cmath>

namespace moe::ui {

namespace {

struct ColumnInfo {
  const char* title;
  int better;  // +1: higher balances better, -1: lower does, 0: neither
  bool count;  // an integer figure
};

const ColumnInfo kInfo[RoutingMetricsTable::kColumns] = {
    {QT_TRANSLATE_NOOP("RoutingMetricsTable", "capacity"), 0, true},
    {QT_TRANSLATE_NOOP("RoutingMetricsTable", "dropped"), -1, false},
    {QT_TRANSLATE_NOOP("RoutingMetricsTable", "l_aux"), -1, false},
    {QT_TRANSLATE_NOOP("RoutingMetricsTable", "cv"), -1, false},
    {QT_TRANSLATE_NOOP("RoutingMetricsTable", "max / mean"), -1, false},
    {QT_TRANSLATE_NOOP("RoutingMetricsTable", "load entropy"), 1, false},
    {QT_TRANSLATE_NOOP("RoutingMetricsTable", "router entropy"), 0, false},
    {QT_TRANSLATE_NOOP("RoutingMetricsTable", "dead experts"), -1, true},
};

const QColor kBetter(0, 130, 90);
const QColor kWorse(200, 70, 0);

QString format(RoutingMetricsTable::Column column, double v, bool sign) {
  if (!std::isfinite(v)) return QStringLiteral("–");
  const QString plus = sign && v > 0 ? QStringLiteral("+") : QString();
  if (column == RoutingMetricsTable::kDropped)
    return plus + QString::number(v * 100, 'f', 2) + " %";
  if (kInfo[column].count) return plus + QString::number(static_cast<qint64>(std::llround(v)));
  return plus + QString::number(v, 'f', 4);
}

}  // namespace

double metricValue(const ReplayAnswer& a, RoutingMetricsTable::Column column) {
  switch (column) {
    case RoutingMetricsTable::kCapacity:
      return static_cast<double>(a.capacity);
    case RoutingMetricsTable::kDropped:
      return a.dropped_frac;
    case RoutingMetricsTable::kAuxLoss:
      return a.l_aux;
    case RoutingMetricsTable::kCv:
      return a.cv;
    case RoutingMetricsTable::kMaxOverMean:
      return a.max_over_mean;
    case RoutingMetricsTable::kLoadEntropy:
      return a.load_entropy;
    case RoutingMetricsTable::kRouterEntropy:
      return a.router_entropy;
    case RoutingMetricsTable::kDeadExperts:
      return static_cast<double>(a.dead_experts);
    case RoutingMetricsTable::kColumns:
      break;
  }
  return 0;
}

RoutingMetricsTable::RoutingMetricsTable(QWidget* parent) : QTableWidget(3, kColumns, parent) {
  QStringList columns;
  for (const ColumnInfo& c : kInfo) columns << tr(c.title);
  setHorizontalHeaderLabels(columns);
  setVerticalHeaderLabels({tr("captured"), tr("what-if"), tr("change")});
  setEditTriggers(QAbstractItemView::NoEditTriggers);
  setSelectionMode(QAbstractItemView::NoSelection);
  setFocusPolicy(Qt::NoFocus);
  horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  // Exactly its three rows high.
  const int height = horizontalHeader()->sizeHint().height() +
                     3 * verticalHeader()->defaultSectionSize() + 2 * frameWidth();
  setFixedHeight(height);
  showRoutings(std::nullopt, std::nullopt);
}

QString RoutingMetricsTable::text(Row row, Column column) const {
  const QTableWidgetItem* cell = item(row, column);
  return cell ? cell->text() : QString();
}

void RoutingMetricsTable::setCell(int row, int column, const QString& text, const QColor& color) {
  auto* cell = new QTableWidgetItem(text);
  cell->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  if (color.isValid()) cell->setForeground(color);
  setItem(row, column, cell);
}

void RoutingMetricsTable::showRoutings(const std::optional<ReplayAnswer>& captured,
                                       const std::optional<ReplayAnswer>& what_if) {
  for (int c = 0; c < kColumns; ++c) {
    const auto column = static_cast<Column>(c);
    const double a = captured ? metricValue(*captured, column) : NAN;
    const double b = what_if ? metricValue(*what_if, column) : NAN;
    setCell(kCaptured, c, captured ? format(column, a, false) : QStringLiteral("…"));
    setCell(kWhatIf, c, what_if ? format(column, b, false) : QStringLiteral("…"));
    const double change = b - a;
    QColor color;
    if (std::isfinite(change) && change != 0 && kInfo[c].better != 0)
      color = (change > 0) == (kInfo[c].better > 0) ? kBetter : kWorse;
    setCell(kDelta, c, captured && what_if ? format(column, change, true) : QString(), color);
  }
}

}  // namespace moe::ui
