// RunsTableModel + RunsFilterProxy: formatted cells, raw sort values, filtering by words and
// status, numeric sorting, live upserts.
#include <QtTest>

#include <QBrush>

#include "runs/runs_filter_proxy.h"
#include "runs/runs_table_model.h"

using moe::ui::RunRecord;
using moe::ui::RunsFilterProxy;
using moe::ui::RunsTableModel;
namespace run_status = moe::ui::run_status;

namespace {

RunRecord record(const QString& name, const QString& status, const QString& host,
                 std::optional<double> loss) {
  RunRecord r;
  r.name = name;
  r.id = "20250101-000000-" + name;
  r.status = status;
  r.host = host;
  r.run_dir = "/runs/" + name;
  r.loss_last = loss;
  r.steps_done = 3;
  r.total_steps = 6;
  r.config_hash = QString(64, QChar('a'));
  return r;
}

QStringList namesInOrder(const QAbstractItemModel& model) {
  QStringList names;
  for (int row = 0; row < model.rowCount(); ++row) {
    names << model.index(row, RunsTableModel::kName).data().toString();
  }
  return names;
}

}  // namespace

class TestRunsTable : public QObject {
  Q_OBJECT

 private slots:
  void cellsAreFormatted() {
    RunsTableModel model;
    RunRecord r = record("alpha", run_status::kFailed, "box", 1.234567);
    r.error = "loss is not finite";
    r.tokens_per_s_max = 12345;
    r.started_at = QDateTime(QDate(2025, 3, 4), QTime(5, 6));
    r.ended_at = r.started_at.addSecs(3 * 60 + 7);
    model.setRecords({r});
    QCOMPARE(model.columnCount(), int(RunsTableModel::kColumnCount));
    auto cell = [&](int column, int role = Qt::DisplayRole) {
      return model.index(0, column).data(role);
    };
    QCOMPARE(cell(RunsTableModel::kSteps).toString(), QString("3 / 6"));
    QCOMPARE(cell(RunsTableModel::kLossLast).toString(), QString("1.235"));
    QCOMPARE(cell(RunsTableModel::kLossLast, RunsTableModel::kSortRole).toDouble(), 1.234567);
    QCOMPARE(cell(RunsTableModel::kStarted).toString(), QString("2025-03-04 05:06"));
    QCOMPARE(cell(RunsTableModel::kDuration).toString(), QString("3m 07s"));
    QCOMPARE(cell(RunsTableModel::kDuration, RunsTableModel::kSortRole).toDouble(), 187.0);
    QCOMPARE(cell(RunsTableModel::kTokensPerSMax).toString(), QString("12.3 k"));
    QCOMPARE(cell(RunsTableModel::kConfigHash).toString(), QString(10, QChar('a')));
    QCOMPARE(cell(RunsTableModel::kConfigHash, Qt::ToolTipRole).toString(), r.config_hash);
    QCOMPARE(cell(RunsTableModel::kStatus, Qt::ToolTipRole).toString(), r.error);
    QVERIFY(cell(RunsTableModel::kStatus, Qt::ForegroundRole).value<QBrush>().color().red() > 150);
    QVERIFY(!cell(RunsTableModel::kLossMin, RunsTableModel::kSortRole).isValid());
    QVERIFY(cell(RunsTableModel::kLossMin).toString().isEmpty());
    QCOMPARE(model.headerData(RunsTableModel::kEvalLossBest, Qt::Horizontal).toString(),
             QString("Eval loss (best)"));
    QVERIFY(!model.anyAccuracy());
  }

  void upsertReplacesOrAppends() {
    RunsTableModel model;
    model.setRecords({record("alpha", run_status::kRunning, "box", 2.0)});
    RunRecord changed = record("alpha", run_status::kFinished, "box", 1.0);
    changed.accuracy_best = 0.5;
    QSignalSpy changes(&model, &QAbstractItemModel::dataChanged);
    model.upsert(changed);
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(changes.size(), 1);
    QCOMPARE(model.record(0).status, run_status::kFinished);
    QVERIFY(model.anyAccuracy());
    model.upsert(record("beta", run_status::kRunning, "box", 2.0));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.rowOf("/runs/beta"), 1);
    QVERIFY(model.removeRun("/runs/alpha"));
    QCOMPARE(model.rowCount(), 1);
  }

  void filtersByWordsAndStatus() {
    RunsTableModel model;
    model.setRecords({record("alpha", run_status::kFinished, "gpu-box", 10),
                      record("beta", run_status::kFailed, "gpu-box", 9),
                      record("gamma", run_status::kFinished, "laptop", 100)});
    RunsFilterProxy proxy;
    proxy.setSourceModel(&model);
    QCOMPARE(proxy.rowCount(), 3);
    proxy.setFilterText("ALPHA");
    QCOMPARE(namesInOrder(proxy), QStringList{"alpha"});
    proxy.setFilterText("  gpu   fin ");  // every word must match: host and status
    QCOMPARE(namesInOrder(proxy), QStringList{"alpha"});
    proxy.setFilterText("/runs/g");  // the directory
    QCOMPARE(namesInOrder(proxy), QStringList{"gamma"});
    proxy.setFilterText("");
    proxy.setStatusFilter(run_status::kFinished);
    QCOMPARE(proxy.rowCount(), 2);
    proxy.setFilterText("box");
    QCOMPARE(namesInOrder(proxy), QStringList{"alpha"});
    proxy.setStatusFilter("");
    QCOMPARE(proxy.rowCount(), 2);
  }

  void sortsNumerically() {
    RunsTableModel model;
    model.setRecords({record("ten", run_status::kFinished, "a", 10),
                      record("nine", run_status::kFinished, "a", 9),
                      record("unknown", run_status::kRunning, "a", std::nullopt),
                      record("hundred", run_status::kFinished, "a", 100)});
    RunsFilterProxy proxy;
    proxy.setSourceModel(&model);
    proxy.sort(RunsTableModel::kLossLast, Qt::AscendingOrder);
    // As text "10" < "100" < "9"; as numbers 9 < 10 < 100. Unknown first.
    QCOMPARE(namesInOrder(proxy), (QStringList{"unknown", "nine", "ten", "hundred"}));
    proxy.sort(RunsTableModel::kLossLast, Qt::DescendingOrder);
    QCOMPARE(namesInOrder(proxy), (QStringList{"hundred", "ten", "nine", "unknown"}));
    proxy.sort(RunsTableModel::kName, Qt::AscendingOrder);
    QCOMPARE(namesInOrder(proxy), (QStringList{"hundred", "nine", "ten", "unknown"}));

    // A live update keeps the sorted order.
    proxy.sort(RunsTableModel::kLossLast, Qt::AscendingOrder);
    model.upsert(record("nine", run_status::kFinished, "a", 1000));
    QCOMPARE(namesInOrder(proxy), (QStringList{"unknown", "ten", "hundred", "nine"}));
  }
};

QTEST_MAIN(TestRunsTable)
#include "test_runs_table.moc"
