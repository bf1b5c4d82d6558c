// csvField and csvNumber: RFC 4180 quoting (a lone carriage return included, which the Profiler's
// own copy once let through unquoted) and numbers that read back as the same double.
#include <QtTest>

#include <cmath>
#include <limits>

#include "base/storage/csv_text.h"

using moe::ui::csvField;
using moe::ui::csvNumber;

class TestCsvText : public QObject {
  Q_OBJECT

 private slots:
  void plainFieldsStayAsTheyAre() {
    QCOMPARE(csvField(QStringLiteral("loss")), QStringLiteral("loss"));
    QCOMPARE(csvField(QString()), QString());
  }

  void separatorsQuotesAndLineBreaksAreQuoted() {
    QCOMPARE(csvField(QStringLiteral("a,b")), QStringLiteral("\"a,b\""));
    QCOMPARE(csvField(QStringLiteral("say \"hi\"")), QStringLiteral("\"say \"\"hi\"\"\""));
    QCOMPARE(csvField(QStringLiteral("two\nlines")), QStringLiteral("\"two\nlines\""));
    QCOMPARE(csvField(QStringLiteral("carriage\rreturn")), QStringLiteral("\"carriage\rreturn\""));
  }

  void numbersReadBackExactly() {
    for (double v : {0.1, 1.0 / 3.0, 6.02214076e23, -2.5e-300, 0.0, 123456789.0}) {
      bool ok = false;
      QCOMPARE(csvNumber(v).toDouble(&ok), v);
      QVERIFY(ok);
    }
    QCOMPARE(csvNumber(0.1), QStringLiteral("0.1"));
  }

  void nanIsAnEmptyCell() {
    QCOMPARE(csvNumber(std::numeric_limits<double>::quiet_NaN()), QString());
  }
};

QTEST_GUILESS_MAIN(TestCsvText)
#include "test_csv_text.moc"
