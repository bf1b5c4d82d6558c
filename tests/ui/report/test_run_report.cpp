// Reports and exports of real runs: moe-train trains a tiny model into a run directory whose name
// is hostile markup (and the run logs a line of markup, quotes and commas), and a 2-process run;
// the report of each has every section, is well-formed XML with nothing loaded from elsewhere and
// no unescaped user string; the PDF renders (pdftoppm) to pages with ink and its text holds the
// name as written; the CSV files read back to the telemetry of metrics.jsonl; the comparison
// report names both runs and their config differences; `moe-studio --export-*` runs as a process
// without a display and exits 0, or 2 for bad input.
#include <QtTest>

#include <QAction>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QRegularExpression>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QXmlStreamReader>

#include <cmath>
#include <variant>

#include "base/report/comparison_report.h"
#include "base/report/config_export.h"
#include "base/report/metrics_csv.h"
#include "base/report/run_report.h"
#include "base/report/run_report_document.h"
#include "protocol/telemetry_reader.h"
#include "report/report_export.h"
#include "report/report_html.h"
#include "report_test_support.h"
#include "window/main_window.h"
#include "window/main_window_reports.h"

using namespace moe::ui;
namespace protocol = moe::protocol;

namespace {

constexpr int kRunTimeoutMs = 300000;  // two shared cores: be patient
constexpr int kExportTimeoutMs = 120000;

// A run directory's name (so no '/') that is markup if left unescaped.
const QString kHostileName = QStringLiteral("<script>alert(1)<script>&\"' x");
const QString kHostileEscaped =
    QStringLiteral("&lt;script&gt;alert(1)&lt;script&gt;&amp;&quot;&#39; x");
// A log line with markup, quotes, a comma and a line break.
const std::string kHostileLog = "<img src=x onerror=alert(2)> said \"hi\", twice\nand again";

const QByteArray kTinyConfig =
    R"({"name":"report-test","model":{"kind":"lm","dim":32,"layers":2,"heads":2,"seq_len":16},)"
    R"("moe":{"experts":4,"hidden":32},"train":{"steps":30,"batch_size":8,"threads":1,)"
    R"("eval_every":10,"checkpoint_every":15},"telemetry":{"trace":true}})";

const QByteArray kTwoRankConfig =
    R"({"name":"report-ranks","model":{"kind":"helloworld","dim":32,"seq_len":16},)"
    R"("moe":{"experts":4,"top_k":2,"hidden":32},)"
    R"("train":{"steps":24,"batch_size":8,"threads":1},"parallel":{"nproc":2}})";

std::vector<protocol::TelemetryEvent> readEvents(const QString& run_dir) {
  QFile file(QDir(run_dir).filePath("metrics.jsonl"));
  if (!file.open(QIODevice::ReadOnly)) return {};
  const QByteArray bytes = file.readAll();
  protocol::TelemetryReader reader;
  auto events = reader.feed(std::string_view(bytes.constData(), size_t(bytes.size())));
  for (auto& e : reader.finish()) events.push_back(std::move(e));
  return events;
}

template <typename E>
std::vector<E> eventsOf(const std::vector<protocol::TelemetryEvent>& events) {
  std::vector<E> out;
  for (const auto& e : events) {
    if (const auto* typed = std::get_if<E>(&e)) out.push_back(*typed);
  }
  return out;
}

// A CSV cell against the value it stands for: empty is NaN, else the same double.
bool sameNumber(const QString& cell, double value) {
  if (cell.isEmpty()) return std::isnan(value);
  bool ok = false;
  const double read = cell.toDouble(&ok);
  return ok && read == value;
}

QString readText(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

// Every problem of `html` as XML and as a self-contained page; empty when there is none. *ids:
// every id attribute.
QString xmlProblems(const QString& html, QStringList* ids, int* svgs) {
  QXmlStreamReader xml(html);
  *svgs = 0;
  while (!xml.atEnd()) {
    xml.readNext();
    if (!xml.isStartElement()) continue;
    if (xml.name() == QLatin1String("script")) return "a <script> element";
    if (xml.name() == QLatin1String("svg")) ++*svgs;
    for (const QXmlStreamAttribute& a : xml.attributes()) {
      const QString name = a.qualifiedName().toString(), value = a.value().toString().trimmed();
      if (name == "id") *ids << value;
      if (name.startsWith("on")) return "an event handler attribute " + name;
      if (name == "src" || name == "href" || name == "xlink:href") {
        const QString lower = value.toLower();
        if (lower.startsWith("http:") || lower.startsWith("https:") || lower.startsWith("//") ||
            lower.startsWith("javascript:"))
          return QStringLiteral("an external reference %1=\"%2\"").arg(name, value);
      }
    }
  }
  if (xml.hasError())
    return QStringLiteral("not well-formed at line %1: %2")
        .arg(xml.lineNumber())
        .arg(xml.errorString());
  return {};
}

}  // namespace

class TestRunReport : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;
  QString run_dir_, ranks_dir_;

  QString path(const QString& name) const { return dir_.filePath(name); }

  bool train(const QStringList& arguments) {
    const auto result = moe::test::runProgram(MOE_TRAIN_BIN, arguments, kRunTimeoutMs);
    if (result.exit_code != 0) qWarning().noquote() << result.output;
    return result.exit_code == 0;
  }

  RunReport load(const QString& run_dir) {
    RunReport report;
    QString error;
    if (!loadRunReport(run_dir, &report, &error)) qWarning().noquote() << error;
    return report;
  }

  moe::test::ProcessResult studio(const QStringList& arguments,
                                  const char* program = MOE_STUDIO_BIN) {
    // No display at all: the export must not need one.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove("DISPLAY");
    env.remove("WAYLAND_DISPLAY");
    env.remove("QT_QPA_PLATFORM");
    return moe::test::runProgram(program, arguments, kExportTimeoutMs, env);
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    // The window's run store and settings live in the test's own directory.
    qputenv("XDG_DATA_HOME", path("home/data").toUtf8());
    qputenv("XDG_CONFIG_HOME", path("home/config").toUtf8());
    QFile config(path("tiny.json"));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write(kTinyConfig);
    config.close();
    run_dir_ = path(kHostileName);
    QVERIFY(train({"run", "--config", path("tiny.json"), "--run-dir", run_dir_}));
    // The run's own log has no markup in it: add a line that does, as the engine writes lines.
    protocol::LogEvent log;
    log.t = 99;
    log.level = "warn";
    log.msg = kHostileLog;
    QFile metrics(QDir(run_dir_).filePath("metrics.jsonl"));
    QVERIFY(metrics.open(QIODevice::Append));
    metrics.write(QByteArray::fromStdString(protocol::event_line(protocol::to_json(log)) + "\n"));
    metrics.close();

    QFile ranks_config(path("ranks.json"));
    QVERIFY(ranks_config.open(QIODevice::WriteOnly));
    ranks_config.write(kTwoRankConfig);
    ranks_config.close();
    ranks_dir_ = path("two-ranks");
    QVERIFY(train({"launch", "--nproc-per-node", "2", "--", "run", "--config", path("ranks.json"),
                   "--run-dir", ranks_dir_}));
  }

  void readsTheRunDirectory() {
    const RunReport r = load(run_dir_);
    QCOMPARE(r.run_id, kHostileName);
    QCOMPARE(r.name, QStringLiteral("report-test"));
    QCOMPARE(r.status(), QStringLiteral("completed"));
    QCOMPARE(r.steps.size(), size_t{30});
    QCOMPARE(r.layers.size(), size_t{2});
    QCOMPARE(r.load.size(), size_t{2});
    QCOMPARE(r.load[0].experts, size_t{4});
    QCOMPARE(r.evals.size(), size_t{3});
    QVERIFY(!r.checkpoints.empty());
    QVERIFY(r.has_trace);
    QCOMPARE(r.config_source, QStringLiteral("config.json"));
    QCOMPARE(r.config["train"]["steps"].get<int>(), 30);
    QCOMPARE(r.problem_logs.back().msg, kHostileLog);
    QVERIFY(!r.multiRank());
    QVERIFY(r.runSeconds() > 0);
  }

  void htmlHasEverySectionAndIsSelfContained() {
    const RunReport r = load(run_dir_);
    const QString out = path("report.html");
    QString error;
    QVERIFY2(writeRunReport(r, out, &error), qPrintable(error));
    const QString html = readText(out);
    QVERIFY(html.startsWith("<!DOCTYPE html>"));

    QStringList ids;
    int svgs = 0;
    const QString problems = xmlProblems(html, &ids, &svgs);
    QVERIFY2(problems.isEmpty(), qPrintable(problems));
    const QStringList sections = runReportSections(r);
    QVERIFY(!sections.contains("ranks"));
    for (const QString& id : sections) QVERIFY2(ids.contains(id), qPrintable(id + " missing"));
    // Loss, throughput, three balance plots, a heatmap per layer, phases.
    QCOMPARE(svgs, 1 + 1 + 3 + 2 + 1);
    QVERIFY(!html.contains("<script", Qt::CaseInsensitive));
    QVERIFY(html.contains("href=\"trace.json\""));
    QVERIFY(html.contains("ui.perfetto.dev"));
    // The equivalent command lines name the run's config.
    QVERIFY(html.contains("moe-train run --config"));
    QVERIFY(html.contains("torchrun"));
    QVERIFY(html.contains("srun"));
    QVERIFY(html.contains("<td>train.steps</td><td>30</td>"));
  }

  void noUserStringIsLeftUnescaped() {
    const QString out = path("hostile.html");
    QString error;
    QVERIFY2(writeRunReport(load(run_dir_), out, &error), qPrintable(error));
    const QString html = readText(out);
    QVERIFY(!html.contains("<script>alert(1)"));
    QVERIFY(!html.contains("<img src=x"));
    QVERIFY(html.contains(kHostileEscaped));  // title, summary, run directory
    QVERIFY(html.contains("<title>" + kHostileEscaped + "</title>") ||
            html.contains("<title>report-test</title>"));
    QVERIFY(html.contains("&lt;img src=x onerror=alert(2)&gt; said &quot;hi&quot;, twice"));
    QCOMPARE(htmlEscaped(kHostileName), kHostileEscaped);
  }

  // The PDF's pages (pdftotext's text, pages apart at form feeds): a heading shares its page with
  // its section's start, and a table going on over a page repeats its header there.
  static void checkPageBreaks(QString text) {
    text.replace(QChar(0xFB01), QLatin1String("fi"));  // the "fi" ligature of the PDF's font
    QList<QStringList> pages;
    for (const QString& page : text.split('\f')) pages << page.split('\n');
    const auto pageOf = [&pages](const QString& line) {
      for (qsizetype p = 0; p < pages.size(); ++p)
        if (pages[p].contains(line)) return p;
      return qsizetype(-1);
    };
    const qsizetype config = pageOf("Config"), trace = pageOf("Trace");
    QVERIFY(config >= 0 && trace >= 0);
    QVERIFY2(pages[config].contains("data.kind"), "the Config heading without its table");
    QVERIFY2(!pages[trace].filter(QRegularExpression("^trace\\.json")).isEmpty(),
             "the Trace heading without its link");
    int config_pages = 0;
    for (const QStringList& lines : pages) {
      if (lines.filter(QRegularExpression("^train\\.[a-z_]+$")).isEmpty()) continue;
      ++config_pages;
      QVERIFY2(lines.contains("Key") && lines.contains("Value"), "a table part without header");
    }
    QVERIFY(config_pages >= 1);
  }

  void pdfRendersToPagesWithInk() {
    const QString out = path("report.pdf");
    QString error;
    QVERIFY2(writeRunReport(load(run_dir_), out, &error), qPrintable(error));
    const QString prefix = path("page");
    const auto render = moe::test::runProgram("pdftoppm", {"-r", "60", "-png", out, prefix}, 60000);
    QVERIFY2(render.exit_code == 0, qPrintable(render.output));
    const QStringList pages = QDir(dir_.path()).entryList({"page-*.png"}, QDir::Files, QDir::Name);
    QVERIFY2(pages.size() >= 3, qPrintable(QString::number(pages.size())));
    for (const QString& page : pages) {
      const QImage image(path(page));
      QVERIFY(!image.isNull());
      QVERIFY2(moe::test::inkedPixels(image) > 2000, qPrintable(page + " is blank"));
    }
    // The text layer holds what the run wrote, neither lost nor escaped twice.
    const auto text = moe::test::runProgram("pdftotext", {out, "-"}, 60000);
    QCOMPARE(text.exit_code, 0);
    QVERIFY(text.output.contains(kHostileName));
    QVERIFY(text.output.contains("Routing warnings"));
    QVERIFY(text.output.contains("Expert load"));
    checkPageBreaks(text.output);
    if (QTest::currentTestFailed()) return;
    const QString shots = qEnvironmentVariable("MOE_SCREENSHOT_DIR");
    if (!shots.isEmpty()) {
      const auto first = moe::test::runProgram(
          "pdftoppm",
          {"-r", "110", "-png", "-f", "1", "-l", "1", "-singlefile", out, shots + "/report"},
          60000);
      QCOMPARE(first.exit_code, 0);
    }
  }

  void csvRoundTripsToTheTelemetry() {
    const QString out = path("csv");
    QString error;
    QVERIFY2(exportMetricsCsv(run_dir_, out, &error), qPrintable(error));
    const auto events = readEvents(run_dir_);
    bool ok = false;

    const auto steps = eventsOf<protocol::StepEvent>(events);
    const auto step_rows = moe::test::readCsvFile(QDir(out).filePath("step.csv"), &ok);
    QVERIFY(ok);
    QCOMPARE(step_rows.first().mid(0, 4), (QStringList{"t", "step", "loss", "task_loss"}));
    QCOMPARE(step_rows.size(), qsizetype(steps.size()) + 1);
    for (size_t i = 0; i < steps.size(); ++i) {
      const QStringList& row = step_rows[qsizetype(i) + 1];
      const auto& e = steps[i];
      QVERIFY(sameNumber(row[0], e.t));
      QCOMPARE(row[1].toLongLong(), e.step);
      QVERIFY(sameNumber(row[2], e.loss));
      QVERIFY(sameNumber(row[3], e.task_loss));
      QVERIFY(sameNumber(row[6], e.lr));
      QCOMPARE(row[8].toLongLong(), e.tokens);
      QVERIFY(sameNumber(row[10], e.step_ms));
    }

    const auto loads = eventsOf<protocol::ExpertLoadEvent>(events);
    const auto load_rows = moe::test::readCsvFile(QDir(out).filePath("expert_load.csv"), &ok);
    QVERIFY(ok);
    QCOMPARE(load_rows.size(), qsizetype(loads.size()) + 1);
    const QStringList& header = load_rows.first();
    const qsizetype counts = header.indexOf("counts_0"), kept = header.indexOf("kept_0"),
                    importance = header.indexOf("importance_0");
    const qsizetype bias = header.indexOf("bias_0");
    QVERIFY(counts > 0 && kept == counts + 4 && importance == kept + 4 && bias == importance + 4);
    QCOMPARE(header.size(), bias + 4);
    for (size_t i = 0; i < loads.size(); ++i) {
      const QStringList& row = load_rows[qsizetype(i) + 1];
      const auto& e = loads[i];
      QCOMPARE(row[2].toLongLong(), e.layer);
      QVERIFY(sameNumber(row[header.indexOf("load_entropy")], e.load_entropy));
      for (size_t x = 0; x < 4; ++x) {
        QCOMPARE(row[counts + qsizetype(x)].toLongLong(), e.counts[x]);
        QCOMPARE(row[kept + qsizetype(x)].toLongLong(), e.kept[x]);
        QVERIFY(sameNumber(row[importance + qsizetype(x)], e.importance[x]));
        if (e.bias) {
          QVERIFY(sameNumber(row[bias + qsizetype(x)], (*e.bias)[x]));
        } else {
          QVERIFY(row[bias + qsizetype(x)].isEmpty());  // no bias balancing: empty cells
        }
      }
    }

    const auto phases = eventsOf<protocol::PhasesEvent>(events);
    const auto phase_rows = moe::test::readCsvFile(QDir(out).filePath("phases.csv"), &ok);
    QVERIFY(ok);
    QCOMPARE(phase_rows.size(), qsizetype(phases.size()) + 1);
    for (size_t i = 0; i < phases.size(); ++i) {
      for (const auto& [name, ms] : phases[i].ms) {
        const qsizetype column = phase_rows.first().indexOf(QString::fromStdString(name));
        QVERIFY(column >= 2);
        QVERIFY(sameNumber(phase_rows[qsizetype(i) + 1][column], ms));
      }
    }

    const auto evals = eventsOf<protocol::EvalEvent>(events);
    const auto eval_rows = moe::test::readCsvFile(QDir(out).filePath("eval.csv"), &ok);
    QVERIFY(ok);
    QCOMPARE(eval_rows.size(), qsizetype(evals.size()) + 1);
    for (size_t i = 0; i < evals.size(); ++i)
      QVERIFY(sameNumber(eval_rows[qsizetype(i) + 1][2], evals[i].loss));

    // Texts: quotes, commas and line breaks come back as they were.
    const auto logs = eventsOf<protocol::LogEvent>(events);
    const auto log_rows = moe::test::readCsvFile(QDir(out).filePath("log.csv"), &ok);
    QVERIFY(ok);
    QCOMPARE(log_rows.size(), qsizetype(logs.size()) + 1);
    QCOMPARE(log_rows.last()[2], QString::fromStdString(kHostileLog));
    QCOMPARE(log_rows.last()[1], QStringLiteral("warn"));

    const auto checkpoints = eventsOf<protocol::CheckpointEvent>(events);
    const auto checkpoint_rows = moe::test::readCsvFile(QDir(out).filePath("checkpoint.csv"), &ok);
    QVERIFY(ok);
    QCOMPARE(checkpoint_rows.size(), qsizetype(checkpoints.size()) + 1);
    QCOMPARE(checkpoint_rows.last()[2], QString::fromStdString(checkpoints.back().path));
    const auto start_rows = moe::test::readCsvFile(QDir(out).filePath("run_start.csv"), &ok);
    QVERIFY(ok);
    QCOMPARE(start_rows[1][1], kHostileName);
    const auto end_rows = moe::test::readCsvFile(QDir(out).filePath("run_end.csv"), &ok);
    QVERIFY(ok);
    QCOMPARE(end_rows[1][1], QStringLiteral("completed"));
    QCOMPARE(end_rows[1][2], QStringLiteral("30"));
  }

  void ranksCsvHasARowPerRankAndStep() {
    const QString out = path("ranks-csv");
    QString error;
    QVERIFY2(exportMetricsCsv(ranks_dir_, out, &error), qPrintable(error));
    const auto events = eventsOf<protocol::RanksEvent>(readEvents(ranks_dir_));
    QVERIFY(!events.empty());
    bool ok = false;
    const auto rows = moe::test::readCsvFile(QDir(out).filePath("ranks.csv"), &ok);
    QVERIFY(ok);
    QCOMPARE(rows.size(), qsizetype(events.size()) * 2 + 1);
    qsizetype row = 1;
    for (const auto& e : events) {
      for (const auto& r : e.ranks) {
        QCOMPARE(rows[row][1].toLongLong(), e.step);
        QCOMPARE(rows[row][2].toLongLong(), r.rank);
        QVERIFY(sameNumber(rows[row][4], r.step_ms));
        QCOMPARE(rows[row][9].toLongLong(), r.peak_bytes);
        ++row;
      }
    }
  }

  void twoRankReportHasTheRanksSection() {
    const RunReport r = load(ranks_dir_);
    QVERIFY(r.multiRank());
    QCOMPARE(r.ranks.ranks.size(), size_t{2});
    QVERIFY(runReportSections(r).contains("ranks"));
    const QString out = path("ranks.html");
    QString error;
    QVERIFY2(writeRunReport(r, out, &error), qPrintable(error));
    const QString html = readText(out);
    QStringList ids;
    int svgs = 0;
    const QString problems = xmlProblems(html, &ids, &svgs);
    QVERIFY2(problems.isEmpty(), qPrintable(problems));
    QVERIFY(ids.contains("ranks"));
    QVERIFY(html.contains("All-to-all ms"));
    QVERIFY(html.contains("all-reduce wait"));  // the waits chart's legend, inside its SVG
    QVERIFY(html.contains("moe-train launch --nproc-per-node 2"));
    QVERIFY(!html.contains("href=\"trace.json\""));  // no trace for this run
  }

  void comparisonNamesBothRunsAndTheirDifferences() {
    std::vector<RunReport> runs;
    QString error;
    QVERIFY2(loadRunReports({run_dir_, ranks_dir_}, &runs, &error), qPrintable(error));
    const QString out = path("compare.html");
    QVERIFY2(writeComparisonReport(runs, out, &error), qPrintable(error));
    const QString html = readText(out);
    QStringList ids;
    int svgs = 0;
    const QString problems = xmlProblems(html, &ids, &svgs);
    QVERIFY2(problems.isEmpty(), qPrintable(problems));
    for (const char* id : {"runs", "loss", "throughput", "config-diff"}) QVERIFY(ids.contains(id));
    QVERIFY(html.contains("#1 report-test"));
    QVERIFY(html.contains("#2 report-ranks"));
    QVERIFY(html.contains(kHostileEscaped));
    QVERIFY(!html.contains("<script>alert(1)"));
    QVERIFY(html.contains("<td>model.kind</td><td>lm</td><td>helloworld</td>"));
    QVERIFY(html.contains("<td>parallel.nproc</td><td>1</td><td>2</td>"));
    QVERIFY(svgs >= 3);
    // Its PDF too.
    QVERIFY2(writeComparisonReport(runs, path("compare.pdf"), &error), qPrintable(error));
    const auto text = moe::test::runProgram("pdftotext", {path("compare.pdf"), "-"}, 60000);
    QVERIFY(text.output.contains("#2 report-ranks"));
  }

  void configExportHasTheCommandLines() {
    const QString out = path("config-export.json");
    QString error;
    QVERIFY2(exportRunConfig(run_dir_, out, &error), qPrintable(error));
    const QByteArray bytes = [&] {
      QFile file(out);
      return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }();
    const auto json = nlohmann::json::parse(bytes.toStdString());
    QCOMPARE(json["config"]["model"]["kind"].get<std::string>(), std::string("lm"));
    QCOMPARE(QString::fromStdString(json["run_id"].get<std::string>()), kHostileName);
    QStringList titles, commands;
    for (const auto& c : json["commands"]) {
      titles << QString::fromStdString(c["title"].get<std::string>());
      commands << QString::fromStdString(c["command"].get<std::string>());
    }
    QCOMPARE(titles, (QStringList{"moe-train", "moe-train launch", "torchrun", "srun"}));
    // The path is quoted for a shell: the hostile directory name never runs as code.
    QVERIFY(commands[0].startsWith("moe-train run --config '"));
  }

  void windowExportsTheCurrentTab() {
    MainWindow window;
    auto* actions = window.findChild<ReportActions*>();
    QVERIFY(actions);
    QCOMPARE(actions->exportReportAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_E));
    QVERIFY(!actions->exportReportAction()->isEnabled());  // the editor's tab: no run
    QVERIFY(window.openRunDirectory(run_dir_));
    QCOMPARE(actions->currentRunDirs(), QStringList{run_dir_});
    QVERIFY(actions->exportReportAction()->isEnabled());
    QVERIFY(actions->exportCsvAction()->isEnabled());
    QSignalSpy done(actions, &ReportActions::exported);

    actions->exportReportTo(path("window.pdf"));
    QVERIFY(!actions->exportReportAction()->isEnabled());  // one export at a time
    QVERIFY(done.wait(120000));
    QCOMPARE(done.last().at(1).toString(), QString());
    QVERIFY(QFileInfo(path("window.pdf")).size() > 10000);
    actions->exportCsvTo(path("window-csv"));
    QVERIFY(done.wait(60000));
    QCOMPARE(done.last().at(1).toString(), QString());
    QVERIFY(QFileInfo::exists(path("window-csv/expert_load.csv")));
    actions->exportConfigTo(path("window-config.json"));
    QVERIFY(done.wait(60000));
    QCOMPARE(done.last().at(1).toString(), QString());
    QVERIFY(readText(path("window-config.json")).contains("\"torchrun\""));

    // A comparison tab: its report of both runs; CSV and config are a single run's.
    window.compareRuns({run_dir_, ranks_dir_});
    QCOMPARE(actions->currentRunDirs(), (QStringList{run_dir_, ranks_dir_}));
    QVERIFY(actions->exportReportAction()->isEnabled());
    QVERIFY(!actions->exportCsvAction()->isEnabled());
    actions->exportReportTo(path("window-compare.html"));
    QVERIFY(done.wait(120000));
    QCOMPARE(done.last().at(1).toString(), QString());
    const QString html = readText(path("window-compare.html"));
    QVERIFY(html.contains("#1 report-test") && html.contains("#2 report-ranks"));
  }

  // The dashboard's rules after every logged step: a layer that collapses for a while and
  // recovers, and a rank that is slower for a while, each give one episode with its steps. (The
  // collapse starts after 20 logged steps: earlier, the rule for short runs warns sooner.)
  void warningsRaisedDuringTheRunAreListed() {
    const QString dir = path("warned");
    QVERIFY(QDir().mkpath(dir));
    std::string lines;
    const auto add = [&](const auto& event) {
      lines += protocol::event_line(protocol::to_json(event)) + "\n";
    };
    protocol::RunStartEvent start;
    start.run_id = "warned";
    start.world_size = 2;
    add(start);
    for (int64_t step = 1; step <= 60; ++step) {
      protocol::StepEvent s;
      s.t = 0.1 * double(step);
      s.step = step;
      s.loss = 1;
      add(s);
      protocol::ExpertLoadEvent load;
      load.t = s.t;
      load.step = step;
      load.counts = {10, 10, 10, 10};
      load.kept = load.counts;
      load.importance = {0.25, 0.25, 0.25, 0.25};
      load.capacity = 16;
      load.max_over_mean = 1;
      load.load_entropy = step >= 25 && step <= 50 ? 0.2 : 0.95;  // collapsed at steps 25..50
      add(load);
      protocol::RanksEvent ranks;
      ranks.t = s.t;
      ranks.step = step;
      ranks.ranks = {{0, "a", 100, 80, 10, 10, 64, 1 << 20},
                     {1, "b", step <= 30 ? 150.0 : 100.0, 80, 10, 10, 64, 1 << 20}};
      add(ranks);
    }
    protocol::RunEndEvent end;
    end.t = 7;
    end.steps = 60;
    add(end);
    QFile file(QDir(dir).filePath("metrics.jsonl"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray::fromStdString(lines));
    file.close();

    const RunReport r = load(dir);
    QCOMPARE(r.routing_warnings.size(), size_t{1});
    const WarningEpisode& collapse = r.routing_warnings[0];
    QCOMPARE(QString::fromStdString(collapse.subject), QStringLiteral("layer 0: collapse"));
    QCOMPARE(collapse.since_step, int64_t{25});
    QCOMPARE(collapse.raised_step, int64_t{44});  // 20 logged steps in a row
    QVERIFY(collapse.cleared_step);
    QCOMPARE(*collapse.cleared_step, int64_t{51});
    QCOMPARE(r.rank_warnings.size(), size_t{1});
    const WarningEpisode& slow = r.rank_warnings[0];
    QCOMPARE(QString::fromStdString(slow.subject), QStringLiteral("rank 1 (b)"));
    QCOMPARE(slow.raised_step, int64_t{5});  // the first window of 5 rows
    QVERIFY(slow.cleared_step);
    QCOMPARE(*slow.cleared_step, int64_t{35});  // 15 of the last 20 rows slow: below 80 %

    QString error;
    QVERIFY2(writeRunReport(r, path("warned.html"), &error), qPrintable(error));
    const QString html = readText(path("warned.html"));
    QVERIFY(
        html.contains("<td>layer 0: collapse</td><td class=\"num\">44</td><td "
                      "class=\"num\">25</td><td class=\"num\">51</td>"));
    QVERIFY(html.contains("<td>rank 1 (b)</td><td class=\"num\">5</td>"));
  }

  void exportCommandRunsWithoutADisplay() {
    auto result = studio({"--export-report", run_dir_, path("cli.html")});
    QVERIFY2(result.exit_code == 0, qPrintable(result.output));
    QVERIFY(readText(path("cli.html")).startsWith("<!DOCTYPE html>"));
    result = studio({"--export-report", run_dir_, path("cli.PDF")});
    QVERIFY2(result.exit_code == 0, qPrintable(result.output));
    QVERIFY(QFileInfo(path("cli.PDF")).size() > 10000);
    result = studio({"--export-comparison", path("cli-compare.html"), run_dir_, ranks_dir_});
    QVERIFY2(result.exit_code == 0, qPrintable(result.output));
    result = studio({"--export-csv", run_dir_, path("cli-csv")});
    QVERIFY2(result.exit_code == 0, qPrintable(result.output));
    for (const QString& name : metricsCsvFiles())
      QVERIFY2(QFileInfo::exists(QDir(path("cli-csv")).filePath(name)), qPrintable(name));
    result = studio({"--export-config", run_dir_, path("cli-config.json")});
    QVERIFY2(result.exit_code == 0, qPrintable(result.output));
  }

  // moe-report: the same commands from a program built without Widgets.
  void moeReportExportsWhatMoeStudioDoes() {
    auto result = studio({"--export-report", run_dir_, path("mr.html")}, MOE_REPORT_BIN);
    QVERIFY2(result.exit_code == 0, qPrintable(result.output));
    QVERIFY(result.output.contains("moe-report: wrote"));
    const QString html = readText(path("mr.html"));
    QStringList ids;
    int svgs = 0;
    const QString problems = xmlProblems(html, &ids, &svgs);
    QVERIFY2(problems.isEmpty(), qPrintable(problems));
    QCOMPARE(svgs, 1 + 1 + 3 + 2 + 1);
    result = studio({"--export-report", run_dir_, path("mr.pdf")}, MOE_REPORT_BIN);
    QVERIFY2(result.exit_code == 0, qPrintable(result.output));
    QVERIFY(QFileInfo(path("mr.pdf")).size() > 10000);
    result = studio({"--export-comparison", path("mr-compare.html"), run_dir_, ranks_dir_},
                    MOE_REPORT_BIN);
    QVERIFY2(result.exit_code == 0, qPrintable(result.output));
    result = studio({"--export-csv", run_dir_, path("mr-csv")}, MOE_REPORT_BIN);
    QVERIFY2(result.exit_code == 0, qPrintable(result.output));
    for (const QString& name : metricsCsvFiles())
      QVERIFY2(QFileInfo::exists(QDir(path("mr-csv")).filePath(name)), qPrintable(name));

    result = studio({"--export-report", run_dir_}, MOE_REPORT_BIN);
    QCOMPARE(result.exit_code, 2);
    QVERIFY2(result.output.contains("usage: moe-report --export-report"),
             qPrintable(result.output));
    result = studio({"--report", run_dir_}, MOE_REPORT_BIN);
    QCOMPARE(result.exit_code, 2);
    QVERIFY2(result.output.contains("usage: moe-report"), qPrintable(result.output));
  }

  void exportCommandRejectsBadInput() {
    QDir().mkpath(path("empty"));
    QDir().mkpath(path("malformed"));
    QFile malformed(QDir(path("malformed")).filePath("metrics.jsonl"));
    QVERIFY(malformed.open(QIODevice::WriteOnly));
    malformed.write("this is not telemetry\n{\"v\":1,\"type\":\"step\"}\n");
    malformed.close();
    QDir().mkpath(path("no-start"));
    QFile no_start(QDir(path("no-start")).filePath("metrics.jsonl"));
    QVERIFY(no_start.open(QIODevice::WriteOnly));
    no_start.write(R"({"v":1,"type":"log","t":0,"level":"info","msg":"hello"})"
                   "\n");
    no_start.close();

    const struct {
      QStringList arguments;
      const char* says;
    } cases[] = {
        {{"--export-report", path("missing"), path("x.html")}, "no such directory"},
        {{"--export-report", path("empty"), path("x.html")}, "no metrics.jsonl"},
        {{"--export-report", path("malformed"), path("x.html")}, "no telemetry event in 2 line"},
        {{"--export-report", path("no-start"), path("x.html")}, "no run_start event"},
        {{"--export-report", run_dir_, path("x.txt")}, "a report is .html or .pdf"},
        {{"--export-report", run_dir_}, "usage: moe-studio --export-report"},
        {{"--export-comparison", path("x.html"), run_dir_, path("empty")}, "no metrics.jsonl"},
        {{"--export-csv", path("malformed"), path("csv-out")}, "no telemetry event"},
        {{"--export-config", path("missing"), path("x.json")}, "no such directory"},
    };
    for (const auto& c : cases) {
      const auto result = studio(c.arguments);
      QVERIFY2(result.exit_code == 2,
               qPrintable(c.arguments.join(' ') + " -> " + QString::number(result.exit_code) +
                          "\n" + result.output));
      QVERIFY2(result.output.contains("moe-studio: ") && result.output.contains(c.says),
               qPrintable(result.output));
    }
    QVERIFY(!QFileInfo::exists(path("x.html")));
  }
};

QTEST_MAIN(TestRunReport)
#include "test_run_report.moc"
