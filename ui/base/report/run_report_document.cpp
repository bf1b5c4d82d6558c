// A RunReport as report sections (run_report_document.h).
#include "base/report/run_report_document.h"

#include <QObject>

#include <QDateTime>
#include <QDir>

#include <algorithm>
#include <cmath>

#include "base/plot_data/smoothing.h"
#include "base/report/analysis_section.h"
#include "base/report/report_chart.h"
#include "base/report/report_format.h"
#include "base/report/run_report.h"
#include "base/report/run_report_summary.h"
#include "base/run/run_files.h"
#include "base/runs/config_diff.h"

namespace moe::ui {

namespace {

constexpr double kSmoothing = 0.9;  // the dashboard's default loss smoothing
constexpr int kMaxLogRows = 300;

QString text(const std::string& s) {
  return QString::fromStdString(s);
}

void lossSection(ReportDocument* doc, const RunReport& r) {
  doc->heading(QObject::tr("Loss"), QStringLiteral("loss"));
  CurveChart chart(QObject::tr("step"), QObject::tr("loss"));
  const QVector<double> raw(r.steps.loss.begin(), r.steps.loss.end());
  const QVector<double> smooth = smoothed(raw, kSmoothing);
  chart.add(lineSeries(QObject::tr("loss"), r.steps.step, r.steps.loss, 0, 1.0)).light = true;
  chart.add(lineSeries(QObject::tr("loss, smoothed"), r.steps.step,
                       std::vector<double>(smooth.begin(), smooth.end()), 0, 2.0));
  if (!r.evals.empty()) {
    std::vector<double> steps, losses;
    for (const auto& e : r.evals) {
      steps.push_back(static_cast<double>(e.step));
      losses.push_back(e.loss);
    }
    chart.add(markerSeries(QObject::tr("eval loss"), steps, losses, 3));
  }
  doc->chart(std::move(chart), kWideChart,
             QObject::tr("Training loss per logged step (raw, and smoothed by a debiased moving "
                         "average of weight %1), and the held-out loss of each evaluation.")
                 .arg(kSmoothing));
}

void throughputSection(ReportDocument* doc, const RunReport& r) {
  doc->heading(QObject::tr("Throughput"), QStringLiteral("throughput"));
  CurveChart chart(QObject::tr("step"), QObject::tr("tokens/s"), true, QObject::tr("ms per step"));
  chart.add(lineSeries(QObject::tr("tokens/s"), r.steps.step, r.steps.tokens_per_s, 2, 1.5));
  chart.add(lineSeries(QObject::tr("step time (ms, right)"), r.steps.step, r.steps.step_ms, 1, 1.0,
                       true));
  doc->chart(std::move(chart), kWideChart,
             QObject::tr("Tokens per second (left) and wall time per step (right) of each logged "
                         "step. Mean %1 tokens/s, median step %2 ms.")
                 .arg(reportNumber(finiteMean(r.steps.tokens_per_s)))
                 .arg(reportNumber(reportMedian(r.steps.step_ms))));
}

void balanceSection(ReportDocument* doc, const RunReport& r) {
  doc->heading(QObject::tr("Load balance"), QStringLiteral("balance"));
  if (r.layers.empty()) {
    doc->paragraph(QObject::tr("No expert_load events: telemetry.expert_load was off."));
    return;
  }
  const struct {
    const char* label;
    std::vector<double> LayerColumns::*column;
    const char* caption;
  } kMetrics[] = {
      {"load entropy", &LayerColumns::load_entropy,
       "Normalised entropy of the demand per expert: 1 is perfect balance, 0 all tokens to one "
       "expert."},
      {"max / mean load", &LayerColumns::max_over_mean,
       "The busiest expert's demand over the mean demand (1 is balanced)."},
      {"dropped share", &LayerColumns::dropped_frac,
       "Share of the routing choices dropped for lack of capacity."},
  };
  for (const auto& metric : kMetrics) {
    CurveChart chart(QObject::tr("step"), QObject::tr(metric.label), true);
    int colour = 0;
    for (const LayerColumns& layer : r.layers)
      chart.add(lineSeries(QObject::tr("layer %1").arg(layer.layer), layer.step,
                           layer.*metric.column, colour++, 1.4));
    doc->chart(std::move(chart), QSize(kWideChart.width(), 220), QObject::tr(metric.caption));
  }
  ReportTable table;
  table.header =
      QStringList{QObject::tr("Layer"),         QObject::tr("Experts"),     QObject::tr("Capacity"),
                  QObject::tr("Load entropy"),  QObject::tr("Max / mean"),  QObject::tr("CV"),
                  QObject::tr("Dropped share"), QObject::tr("Dead experts")};
  table.numeric_columns = {0, 1, 2, 3, 4, 5, 6, 7};
  for (const LayerColumns& layer : r.layers) {
    if (layer.size() == 0) continue;
    table.rows << QStringList{QString::number(layer.layer),
                              QString::number(layer.experts),
                              reportNumber(layer.capacity.back()),
                              reportNumber(layer.load_entropy.back()),
                              reportNumber(layer.max_over_mean.back()),
                              reportNumber(layer.cv.back()),
                              reportNumber(layer.dropped_frac.back()),
                              reportNumber(layer.dead_experts.back())};
  }
  doc->paragraph(QObject::tr("Each layer at the last logged step:"));
  doc->table(table);
}

void expertLoadSection(ReportDocument* doc, const RunReport& r) {
  doc->heading(QObject::tr("Expert load"), QStringLiteral("expert-load"));
  if (r.load.empty()) {
    doc->paragraph(QObject::tr("No expert_load events: telemetry.expert_load was off."));
    return;
  }
  for (const LoadMatrix& matrix : r.load) {
    doc->chart(LoadHeatmapChart{matrix}, kHeatmapChart,
               QObject::tr("Layer %1: tokens routed to each of its %2 experts over the steps "
                           "(consecutive steps averaged into %3 columns).")
                   .arg(matrix.layer)
                   .arg(matrix.experts)
                   .arg(matrix.bins));
  }
}

void phasesSection(ReportDocument* doc, const RunReport& r) {
  doc->heading(QObject::tr("Phase breakdown"), QStringLiteral("phases"));
  if (r.phases.size() == 0) {
    doc->paragraph(QObject::tr("No phases events: telemetry.phases was off."));
    return;
  }
  doc->chart(PhaseStackChart{r.phases}, kWideChart,
             QObject::tr("Where a step's time goes, per phase, averaged over groups of steps."));
  ReportTable table;
  table.header =
      QStringList{QObject::tr("Phase"), QObject::tr("Mean ms per step"), QObject::tr("Share")};
  table.numeric_columns = {1, 2};
  std::vector<double> means;
  double total = 0;
  for (const auto& column : r.phases.ms) {
    const double mean = finiteMean(column);
    means.push_back(mean);
    if (std::isfinite(mean)) total += mean;
  }
  for (size_t p = 0; p < r.phases.names.size(); ++p) {
    const double mean = means[p];
    table.rows << QStringList{text(r.phases.names[p]), reportNumber(mean),
                              std::isfinite(mean) && total > 0
                                  ? QStringLiteral("%1 %").arg(100 * mean / total, 0, 'f', 1)
                                  : QStringLiteral("\u2014")};
  }
  doc->table(table);
}

ReportTable episodeTable(const std::vector<WarningEpisode>& episodes) {
  ReportTable table;
  table.header =
      QStringList{QObject::tr("What"), QObject::tr("Raised at step"), QObject::tr("Since step"),
                  QObject::tr("Cleared at step"), QObject::tr("Warning")};
  table.numeric_columns = {1, 2, 3};
  for (const WarningEpisode& e : episodes) {
    table.rows << QStringList{
        text(e.subject), QString::number(e.raised_step), QString::number(e.since_step),
        e.cleared_step ? QString::number(*e.cleared_step) : QObject::tr("still raised at the end"),
        text(e.message)};
  }
  return table;
}

void warningsSection(ReportDocument* doc, const RunReport& r) {
  doc->heading(QObject::tr("Routing warnings"), QStringLiteral("warnings"));
  if (r.routing_warnings.empty()) {
    doc->paragraph(
        QObject::tr("The dashboard raised no routing warning during this run "
                    "(collapse, dead experts, imbalance; see docs/ROUTING.md)."));
    return;
  }
  doc->paragraph(
      QObject::tr("The warnings the dashboard raised as the run went, each from the "
                  "logged step it was raised at until it cleared."));
  doc->table(episodeTable(r.routing_warnings));
}

void ranksSection(ReportDocument* doc, const RunReport& r) {
  doc->heading(QObject::tr("Ranks"), QStringLiteral("ranks"));
  CurveChart steps(QObject::tr("step"), QObject::tr("ms per step"), true);
  int colour = 0;
  for (const RankSeries& rank : r.ranks.ranks) {
    QString name = QObject::tr("rank %1").arg(rank.rank);
    if (!rank.host.empty()) name += QStringLiteral(" (%1)").arg(text(rank.host));
    steps.add(lineSeries(name, r.ranks.step, rank.step_ms, colour++, 1.4));
  }
  doc->chart(std::move(steps), kWideChart, QObject::tr("Each rank's wall time per logged step."));
  doc->chart(RankWaitsChart{r.ranks}, kWideChart,
             QObject::tr("Per rank, the mean milliseconds of a step spent computing and waiting in "
                         "the all-to-alls and the gradient all-reduce."));
  ReportTable table;
  table.header = QStringList{QObject::tr("Rank"),          QObject::tr("Host"),
                             QObject::tr("Step ms"),       QObject::tr("Compute ms"),
                             QObject::tr("All-to-all ms"), QObject::tr("All-reduce ms"),
                             QObject::tr("Tokens"),        QObject::tr("Peak memory")};
  table.numeric_columns = {0, 2, 3, 4, 5, 6, 7};
  for (const RankSeries& rank : r.ranks.ranks) {
    double peak = NAN;
    for (double b : rank.peak_bytes) {
      if (std::isfinite(b)) peak = std::isnan(peak) ? b : std::max(peak, b);
    }
    table.rows << QStringList{QString::number(rank.rank),
                              text(rank.host),
                              reportNumber(finiteMean(rank.step_ms)),
                              reportNumber(finiteMean(rank.compute_ms)),
                              reportNumber(finiteMean(rank.a2a_ms)),
                              reportNumber(finiteMean(rank.allreduce_ms)),
                              reportNumber(finiteMean(rank.tokens)),
                              byteText(peak)};
  }
  doc->paragraph(QObject::tr("Means over the logged steps; peak memory is the largest."));
  doc->table(table);
  if (r.rank_warnings.empty()) {
    doc->paragraph(QObject::tr("No rank was persistently slower than the others."));
  } else {
    doc->paragraph(QObject::tr("Slow-rank warnings the dashboard raised:"));
    doc->table(episodeTable(r.rank_warnings));
  }
  if (!r.adaptive_r.empty()) {
    ReportTable decisions;
    decisions.header = QStringList{QObject::tr("From step"), QObject::tr("r"), QObject::tr("Why")};
    decisions.numeric_columns = {0, 1};
    for (const auto& d : r.adaptive_r)
      decisions.rows << QStringList{QString::number(d.step), QString::number(d.r), text(d.reason)};
    doc->paragraph(QObject::tr("parallel.adaptive_r decisions:"));
    doc->table(decisions);
  }
}

void logSection(ReportDocument* doc, const RunReport& r) {
  doc->heading(QObject::tr("Log warnings and errors"), QStringLiteral("log"));
  if (r.problem_logs.empty()) {
    doc->paragraph(QObject::tr("The run logged no warning and no error."));
    return;
  }
  ReportTable table;
  table.header = QStringList{QObject::tr("Time (s)"), QObject::tr("Level"), QObject::tr("Message")};
  table.numeric_columns = {0};
  const size_t n = r.problem_logs.size();
  const size_t first = n > kMaxLogRows ? n - kMaxLogRows : 0;
  if (first > 0)
    doc->paragraph(
        QObject::tr("The last %1 of %2 lines; stderr.log has them all.").arg(kMaxLogRows).arg(n));
  for (size_t i = first; i < n; ++i) {
    const auto& line = r.problem_logs[i];
    table.rows << QStringList{QString::number(line.t, 'f', 1), text(line.level), text(line.msg)};
  }
  doc->table(table);
}

void checkpointsSection(ReportDocument* doc, const RunReport& r) {
  doc->heading(QObject::tr("Checkpoints"), QStringLiteral("checkpoints"));
  if (r.checkpoints.empty()) {
    doc->paragraph(QObject::tr("No checkpoint was written."));
    return;
  }
  ReportTable table;
  table.header = QStringList{QObject::tr("Step"), QObject::tr("Path")};
  table.numeric_columns = {0};
  for (const auto& c : r.checkpoints)
    table.rows << QStringList{QString::number(c.step), text(c.path)};
  doc->table(table);
}

void configSection(ReportDocument* doc, const RunReport& r) {
  doc->heading(QObject::tr("Config"), QStringLiteral("config"));
  doc->paragraph(r.config_source == QLatin1String(run_layout::kConfig)
                     ? QObject::tr("The resolved RunConfig, from the run directory's config.json.")
                     : QObject::tr("The resolved RunConfig, from the run_start event (the run "
                                   "directory has no readable config.json)."));
  ReportTable table;
  table.header = QStringList{QObject::tr("Key"), QObject::tr("Value")};
  for (const auto& [key, value] : flattenConfig(r.config))
    table.rows << QStringList{text(key), configValueText(value)};
  doc->table(table);
}

void commandsSection(ReportDocument* doc, const RunReport& r) {
  doc->heading(QObject::tr("Command lines"), QStringLiteral("commands"));
  doc->paragraph(
      QObject::tr("The same config started by hand, from the run directory's "
                  "config.json (a new run; `moe-train run --resume DIR` continues this "
                  "one instead)."));
  if (r.config_source != QLatin1String(run_layout::kConfig))
    doc->warning(
        QObject::tr("This run directory has no config.json: save the config above as "
                    "config.json there first."));
  addCommandLines(doc, r.config, runFile(r.run_dir, run_layout::kConfig));
}

void traceSection(ReportDocument* doc, const RunReport& r) {
  doc->heading(QObject::tr("Trace"), QStringLiteral("trace"));
  if (!r.has_trace) {
    doc->paragraph(QObject::tr("No trace.json: telemetry.trace was off for this run."));
    return;
  }
  doc->link(QObject::tr("trace.json (%1)").arg(byteText(static_cast<double>(r.trace_bytes))),
            QLatin1String(run_layout::kTrace));
  doc->paragraph(
      QObject::tr("Chrome trace events of the run's phases, next to this report in the "
                  "run directory; open it in ui.perfetto.dev or chrome://tracing."));
}

}  // namespace

QStringList runReportSections(const RunReport& report) {
  QStringList ids{QStringLiteral("summary"),     QStringLiteral("loss"),
                  QStringLiteral("throughput"),  QStringLiteral("balance"),
                  QStringLiteral("expert-load"), QStringLiteral("phases"),
                  QStringLiteral("warnings")};
  if (report.multiRank()) ids << QStringLiteral("ranks");
  if (report.analysis || !report.analysis_error.isEmpty()) ids << QStringLiteral("analysis");
  ids << QStringLiteral("log") << QStringLiteral("checkpoints") << QStringLiteral("config")
      << QStringLiteral("commands") << QStringLiteral("trace");
  return ids;
}

ReportDocument runReportDocument(const RunReport& r) {
  ReportDocument doc;
  doc.title = r.name.isEmpty() ? r.run_id : r.name;
  doc.subtitle = QObject::tr("Run %1 \u2014 %2, %3 steps on %4")
                     .arg(r.run_id, r.status())
                     .arg(r.steps.step.empty() ? 0 : r.steps.step.back())
                     .arg(r.info.host.empty() ? QObject::tr("an unknown host") : text(r.info.host));
  summarySection(&doc, r);
  lossSection(&doc, r);
  throughputSection(&doc, r);
  balanceSection(&doc, r);
  expertLoadSection(&doc, r);
  phasesSection(&doc, r);
  warningsSection(&doc, r);
  if (r.multiRank()) ranksSection(&doc, r);
  if (r.analysis) {
    routingAnalysisSection(&doc, *r.analysis);
  } else if (!r.analysis_error.isEmpty()) {
    doc.heading(QObject::tr("Routing analysis"), QStringLiteral("analysis"));
    doc.warning(r.analysis_error);
  }
  logSection(&doc, r);
  checkpointsSection(&doc, r);
  configSection(&doc, r);
  commandsSection(&doc, r);
  traceSection(&doc, r);
  return doc;
}

}  // namespace moe::ui
