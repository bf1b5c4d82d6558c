// Config comparison: flattening to dotted keys, rows with every config's value, what counts as a
// difference, and the view's "Only differences" filter and count.
#include <QtTest>

#include <QCheckBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>

#include "base/runs/config_diff.h"
#include "runs/config_diff_view.h"

using moe::ui::ConfigDiffView;
using moe::ui::kAbsentValue;

namespace {

const nlohmann::json kBase = {
    {"name", "base"},
    {"moe", {{"top_k", 2}, {"experts", 8}, {"capacity_factor", 1.0}}},
    {"train", {{"lr", 0.001}, {"schedule", "cosine"}}},
    {"data", {{"shape", {1, 2, 3}}, {"extra", nlohmann::json::object()}}},
};

}  // namespace

class TestConfigDiff : public QObject {
  Q_OBJECT

 private slots:
  void flattensToDottedKeys() {
    const auto flat = moe::ui::flattenConfig(kBase);
    QCOMPARE(int(flat.size()), 8);
    QCOMPARE(flat.at("moe.top_k"), nlohmann::json(2));
    QCOMPARE(moe::ui::configValueText(flat.at("data.shape")), QString("[1,2,3]"));
    QCOMPARE(moe::ui::configValueText(flat.at("data.extra")), QString("{}"));
    QCOMPARE(moe::ui::configValueText(flat.at("train.schedule")), QString("cosine"));
    QVERIFY(moe::ui::flattenConfig(nlohmann::json::array()).empty());
  }

  void rowsShowEveryValueAndWhatDiffers() {
    nlohmann::json other = kBase;
    other["moe"]["top_k"] = 1;
    other["moe"]["capacity_factor"] = 1;  // 1 equals 1.0: no difference
    other["train"].erase("schedule");     // absent in one config: a difference
    other["data"]["shape"] = {1, 2, 4};   // arrays compare whole
    const auto diff = moe::ui::diffConfigs({kBase, other, kBase});
    QCOMPARE(diff.total(), 8);
    QCOMPARE(diff.differing, 3);
    std::map<std::string, moe::ui::ConfigDiffRow> rows;
    for (const auto& row : diff.rows) rows[row.key] = row;
    QVERIFY(rows.at("moe.top_k").differs);
    QCOMPARE(rows.at("moe.top_k").values, (std::vector<QString>{"2", "1", "2"}));
    QVERIFY(!rows.at("moe.capacity_factor").differs);
    QVERIFY(rows.at("train.schedule").differs);
    QCOMPARE(rows.at("train.schedule").values[1], kAbsentValue);
    QVERIFY(rows.at("data.shape").differs);
    QVERIFY(!rows.at("name").differs);
    QVERIFY(std::is_sorted(diff.rows.begin(), diff.rows.end(),
                           [](const auto& a, const auto& b) { return a.key < b.key; }));
  }

  void viewShowsOnlyDifferencesByDefault() {
    ConfigDiffView view;
    nlohmann::json other = kBase;
    other["moe"]["top_k"] = 4;
    other["train"]["lr"] = 0.01;
    view.setConfigs({"run-a", "run-b"}, {kBase, other});
    QVERIFY(view.onlyDifferences());
    QCOMPARE(view.countLabel()->text(), QString("2 of 8 settings differ"));
    QTableWidget* table = view.table();
    QCOMPARE(table->columnCount(), 3);
    QCOMPARE(table->horizontalHeaderItem(0)->text(), QString("Key"));
    QCOMPARE(table->horizontalHeaderItem(2)->text(), QString("run-b"));
    QCOMPARE(table->rowCount(), 2);
    QCOMPARE(table->item(0, 0)->text(), QString("moe.top_k"));
    QCOMPARE(table->item(0, 2)->text(), QString("4"));
    const QColor amber = table->item(0, 1)->background().color();
    QVERIFY(amber.red() > 200 && amber.blue() < amber.green());

    view.onlyDifferencesBox()->setChecked(false);
    QCOMPARE(table->rowCount(), 8);
    int highlighted = 0;
    for (int row = 0; row < table->rowCount(); ++row) {
      if (table->item(row, 0)->background().style() != Qt::NoBrush) ++highlighted;
    }
    QCOMPARE(highlighted, 2);

    view.setConfigs({"only"}, {kBase});
    QCOMPARE(view.countLabel()->text(), QString("0 of 8 settings differ"));
    view.setConfigs({}, {});
    QCOMPARE(table->rowCount(), 0);
  }
};

QTEST_MAIN(TestConfigDiff)
#include "test_config_diff.moc"
