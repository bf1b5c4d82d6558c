// The sweep form and its spec: counts, the bench arguments, the engine's validation in the form
// (bad input refused, naming key and value), the estimate, and the JSON lines the view reads.
#include <QLabel>
#include <QLineEdit>
#include <QRadioButton>
#include <QtTest>

#include "base/profiler/bench_result.h"
#include "base/profiler/sweep_spec.h"
#include "profiler/sweep_form.h"

namespace moe::ui {

class TestSweepSpec : public QObject {
  Q_OBJECT

 private:
  static SweepSpec with(std::initializer_list<std::pair<const char*, QStringList>> values,
                        bool paired = false) {
    SweepSpec s = SweepSpec::defaults();
    for (const auto& [key, list] : values) {
      for (SweepKey& k : s.keys) {
        if (k.key == QLatin1String(key)) k.values = list;
      }
    }
    s.paired = paired;
    return s;
  }

 private slots:
  void countsGridAndPaired() {
    QCOMPARE(sweepConfigCount(SweepSpec::defaults()), qint64(1));
    const auto grid = with({{"moe.experts", {"4", "8", "16"}}, {"moe.top_k", {"1", "2"}}});
    QCOMPARE(sweepConfigCount(grid), qint64(6));
    QVERIFY(sweepProblems(grid).isEmpty());
    auto paired =
        with({{"moe.experts", {"4", "8", "16"}}, {"moe.hidden", {"64", "128", "256"}}}, true);
    QCOMPARE(sweepConfigCount(paired), qint64(3));
    QVERIFY(sweepProblems(paired).isEmpty());
    paired.keys[1].values = {"1", "2"};  // top_k: two values against three
    QCOMPARE(sweepConfigCount(paired), qint64(0));
    const QStringList problems = sweepProblems(paired);
    QCOMPARE(problems.size(), 1);
    QVERIFY2(problems[0].contains(QLatin1String("Top-k has 2")), qPrintable(problems[0]));
  }

  void argumentsSetSingleValuesAndSweepTheRest() {
    auto s = with({{"moe.experts", {"4", "8"}}, {"train.batch_size", {"64", "128"}}}, true);
    s.iters = 3;
    s.min_time = 0.25;
    s.naive = false;
    const QStringList args = benchArguments(s);
    QCOMPARE(args.mid(0, 4), (QStringList{"bench", "--jsonl", "--set", "model.seq_len=1"}));
    QVERIFY(args.contains(QLatin1String("moe.top_k=2")));
    QCOMPARE(args[args.indexOf(QLatin1String("moe.top_k=2")) - 1], QLatin1String("--set"));
    const auto sweep = args.indexOf(QLatin1String("moe.experts=4,8"));
    QVERIFY(sweep > 0);
    QCOMPARE(args[sweep - 1], QLatin1String("--sweep"));
    QVERIFY(args.contains(QLatin1String("train.batch_size=64,128")));
    QVERIFY(args.contains(QLatin1String("--pair")));
    QVERIFY(args.contains(QLatin1String("--no-naive")));
    QCOMPARE(args[args.indexOf(QLatin1String("--min-time")) + 1], QLatin1String("0.25"));
    QCOMPARE(args[args.indexOf(QLatin1String("--iters")) + 1], QLatin1String("3"));
  }

  // The engine's rules, also those between keys, refuse a sweep before it runs.
  void badInputIsRefusedByTheForm() {
    SweepForm form;
    QVERIFY(form.isValid());
    form.valuesEdit(QStringLiteral("moe.experts"))->setText(QStringLiteral("2, 8"));
    form.valuesEdit(QStringLiteral("moe.top_k"))->setText(QStringLiteral("4"));
    QVERIFY(!form.isValid());
    QVERIFY2(form.problems().join('\n').contains(QLatin1String("Experts = 2")),
             qPrintable(form.problems().join('\n')));
    QVERIFY(form.problems().join('\n').contains(QLatin1String("/moe/top_k")));
    QVERIFY(form.problemsLabel()->isVisibleTo(&form));
    form.valuesEdit(QStringLiteral("moe.top_k"))->setText(QStringLiteral("2"));
    QVERIFY(form.isValid());

    form.valuesEdit(QStringLiteral("moe.hidden"))->setText(QStringLiteral("64, lots"));
    QVERIFY(!form.isValid());
    QVERIFY2(form.problems().join('\n').contains(QLatin1String("lots")),
             qPrintable(form.problems().join('\n')));
    form.valuesEdit(QStringLiteral("moe.hidden"))->setText(QStringLiteral("64,,128"));
    QVERIFY(form.problems().join('\n').contains(QLatin1String("empty value")));
    form.valuesEdit(QStringLiteral("moe.hidden"))->setText(QString());
    QVERIFY(form.problems().join('\n').contains(QLatin1String("at least one value")));
    form.valuesEdit(QStringLiteral("moe.hidden"))->setText(QStringLiteral("64"));
    form.valuesEdit(QStringLiteral("train.dtype"))->setText(QStringLiteral("float32, int8"));
    QVERIFY(form.problems().join('\n').contains(QLatin1String("/train/dtype")));
    form.valuesEdit(QStringLiteral("train.dtype"))->setText(QStringLiteral("float32"));
    form.valuesEdit(QStringLiteral("moe.capacity_factor"))->setText(QStringLiteral("1e9"));
    QVERIFY(form.problems().join('\n').contains(QLatin1String("/moe/capacity_factor")));
    form.valuesEdit(QStringLiteral("moe.capacity_factor"))->setText(QStringLiteral("1"));
    QVERIFY(form.isValid());

    // A grid beyond the limit is refused with its size: 2 x 10 x 10 x 11 configs.
    const QString ten = QStringLiteral("1,2,3,4,5,6,7,8,9,10");
    form.valuesEdit(QStringLiteral("moe.hidden"))->setText(ten);
    form.valuesEdit(QStringLiteral("model.dim"))->setText(ten);
    form.valuesEdit(QStringLiteral("train.batch_size"))->setText(ten + QStringLiteral(",11"));
    QVERIFY(!form.isValid());
    QVERIFY2(form.problems()
                 .join(QLatin1Char('\n'))
                 .contains(QLatin1String("2200 configs: at most 1000")),
             qPrintable(form.problems().join(QLatin1Char('\n'))));
  }

  void estimateGrowsWithConfigsAndLearnsTheOverhead() {
    SweepForm form;
    form.valuesEdit(QStringLiteral("moe.experts"))->setText(QStringLiteral("4, 8"));
    const double two = form.estimateSeconds();
    QVERIFY(two > 0);
    form.valuesEdit(QStringLiteral("moe.experts"))->setText(QStringLiteral("4, 8, 16, 32"));
    QCOMPARE(form.estimateSeconds(), 2 * two);
    QVERIFY(form.estimateLabel()->text().contains(QLatin1String("4 configs")));
    // Past configs took 6 s each at min time 1 s: four measurements, then 2 s of the rest.
    const auto spec = form.spec();
    QCOMPARE(sweepOverheadSeconds(spec, {5.0, 7.0}), 2.0);
    form.setMeasuredOverhead(2.0);
    QCOMPARE(form.estimateSeconds(), 4 * (4 * 1.0 + 2.0));
    QVERIFY(form.estimateLabel()->text().contains(QLatin1String("past sweeps")));
  }

  void specRoundTripsThroughJson() {
    auto s = with({{"moe.experts", {"4", "8"}}, {"train.dtype", {"float32", "bfloat16"}}}, true);
    s.iters = 7;
    s.min_time = 0.5;
    s.naive = false;
    const SweepSpec back = sweepSpecFromJson(sweepSpecToJson(s));
    QCOMPARE(back.find("moe.experts")->values, s.find("moe.experts")->values);
    QCOMPARE(back.find("train.dtype")->values, s.find("train.dtype")->values);
    QCOMPARE(back.paired, true);
    QCOMPARE(back.iters, 7);
    QCOMPARE(back.min_time, 0.5);
    QCOMPARE(back.naive, false);
    SweepForm form;
    form.setSpec(back);
    QCOMPARE(form.valuesEdit("moe.experts")->text(), QStringLiteral("4, 8"));
    QVERIFY(form.pairedButton()->isChecked());
  }

  void readsTheEnginesLines() {
    auto start = parseBenchLine(R"({"type":"bench_start","configs":3,"mode":"grid"})");
    QCOMPARE(start.kind, BenchLine::Kind::Start);
    QCOMPARE(start.configs, 3);
    auto config = parseBenchLine(
        R"({"type":"bench_config","index":1,"of":3,"config":{"moe.experts":8,"train.dtype":"bfloat16"},)"
        R"("tokens":64,"train_tokens_per_s":1234.5,"phases_ms":{"gate":0.5},"seconds":1.5})");
    QCOMPARE(config.kind, BenchLine::Kind::Config);
    QCOMPARE(config.result.index, 1);
    QCOMPARE(config.result.tokens, qint64(64));
    QCOMPARE(config.result.train_tokens_per_s, 1234.5);
    QCOMPARE(config.result.phases_ms.value("gate"), 0.5);
    QCOMPARE(configLabel(config.result.config),
             QStringLiteral("moe.experts=8 train.dtype=bfloat16"));
    QCOMPARE(shortConfigLabel(config.result.config), QStringLiteral("E=8 bfloat16"));
    QCOMPARE(parseBenchLine("{\"type\":\"bench_end\",\"configs\":3}").kind, BenchLine::Kind::End);
    const auto bad = parseBenchLine("bench [1/3] {...}");
    QCOMPARE(bad.kind, BenchLine::Kind::Bad);
    QVERIFY(bad.error.contains(QLatin1String("not a JSON object")));
    QCOMPARE(parseBenchLine(R"({"type":"bench_config","index":0})").kind, BenchLine::Kind::Bad);
    QCOMPARE(parseBenchLine(R"({"type":"step"})").kind, BenchLine::Kind::Bad);
  }
};

}  // namespace moe::ui

QTEST_MAIN(moe::ui::TestSweepSpec)
#include "test_sweep_spec.moc"
