// ConfigDiffView (config_diff_view.h).
#include "runs/config_diff_view.h"

#include <QBrush>
#include <QCheckBox>
#include <QColor>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace moe::ui {

namespace {

// Soft amber, with dark text so it reads under a dark theme too.
const QColor kDifferBackground(0xff, 0xe8, 0xb0);
const QColor kDifferText(0x20, 0x20, 0x20);

}  // namespace

ConfigDiffView::ConfigDiffView(QWidget* parent)
    : QWidget(parent),
      table_(new QTableWidget(this)),
      only_differences_(new QCheckBox(tr("Only differences"), this)),
      count_(new QLabel(this)) {
  only_differences_->setChecked(true);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->verticalHeader()->setVisible(false);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setWordWrap(false);

  auto* top = new QHBoxLayout;
  top->addWidget(only_differences_);
  top->addStretch(1);
  top->addWidget(count_);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(table_, 1);

  connect(only_differences_, &QCheckBox::toggled, this, &ConfigDiffView::rebuild);
  rebuild();
}

void ConfigDiffView::setConfigs(QStringList titles, std::vector<nlohmann::json> configs) {
  while (titles.size() < static_cast<qsizetype>(configs.size())) {
    titles << tr("Run %1").arg(titles.size() + 1);
  }
  titles_ = std::move(titles);
  diff_ = diffConfigs(configs);
  rebuild();
}

bool ConfigDiffView::onlyDifferences() const {
  return only_differences_->isChecked();
}

void ConfigDiffView::setOnlyDifferences(bool only) {
  only_differences_->setChecked(only);
}

void ConfigDiffView::rebuild() {
  const bool only = onlyDifferences();
  const int runs = diff_.rows.empty() ? 0 : static_cast<int>(diff_.rows.front().values.size());
  table_->clear();
  table_->setColumnCount(1 + runs);
  QStringList headers{tr("Key")};
  headers += titles_.mid(0, runs);
  table_->setHorizontalHeaderLabels(headers);
  table_->setRowCount(only ? diff_.differing : diff_.total());

  int row = 0;
  for (const ConfigDiffRow& d : diff_.rows) {
    if (only && !d.differs) continue;
    auto* key = new QTableWidgetItem(QString::fromStdString(d.key));
    table_->setItem(row, 0, key);
    for (int c = 0; c < runs; ++c) {
      auto* value = new QTableWidgetItem(d.values[c]);
      value->setToolTip(d.values[c]);
      table_->setItem(row, 1 + c, value);
    }
    if (d.differs) {
      for (int c = 0; c <= runs; ++c) {
        table_->item(row, c)->setBackground(kDifferBackground);
        table_->item(row, c)->setForeground(kDifferText);
      }
    }
    ++row;
  }
  table_->resizeColumnsToContents();

  if (diff_.total() == 0) {
    count_->setText(tr("No settings to compare"));
  } else {
    count_->setText(tr("%1 of %2 settings %3")
                        .arg(diff_.differing)
                        .arg(diff_.total())
                        .arg(diff_.differing == 1 ? tr("differs") : tr("differ")));
  }
}

}  // namespace moe::ui
