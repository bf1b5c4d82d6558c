// The comparison report (comparison_report.h).
#include "base/report/comparison_report.h"

#include <QObject>

#include <cmath>
#include <functional>

#include "base/plot_data/smoothing.h"
#include "base/report/report_chart.h"
#include "base/report/report_format.h"
#include "base/runs/config_diff.h"

namespace moe::ui {

namespace {

constexpr double kSmoothing = 0.9;

double lastFinite(const std::vector<double>& values) {
  for (auto it = values.rbegin(); it != values.rend(); ++it) {
    if (std::isfinite(*it)) return *it;
  }
  return NAN;
}

// One series per run, in the runs' palette colours.
void overlay(ReportDocument* doc, const std::vector<RunReport>& runs, const QString& y_label,
             const QString& caption,
             const std::function<ChartSeries(const RunReport&, const QString& name)>& series) {
  CurveChart chart(QObject::tr("step"), y_label);
  for (size_t i = 0; i < runs.size(); ++i) {
    ChartSeries s = series(runs[i], comparisonLabel(runs[i], i));
    s.colour = static_cast<int>(i);
    chart.add(std::move(s));
  }
  doc->chart(std::move(chart), kWideChart, caption);
}

double bestEvalLoss(const RunReport& r) {
  double best_eval = NAN;
  for (const auto& e : r.evals) {
    if (std::isfinite(e.loss) && (std::isnan(best_eval) || e.loss < best_eval)) best_eval = e.loss;
  }
  return best_eval;
}

// One row per run: how it ended and its headline figures.
void runsSection(ReportDocument* doc, const std::vector<RunReport>& runs,
                 const QStringList& names) {
  doc->heading(QObject::tr("Runs"), QStringLiteral("runs"));
  ReportTable table;
  table.header = QStringList{QObject::tr("Run"),           QObject::tr("Run id"),
                             QObject::tr("Status"),        QObject::tr("Steps"),
                             QObject::tr("Final loss"),    QObject::tr("Best eval loss"),
                             QObject::tr("Mean tokens/s"), QObject::tr("Run time")};
  table.numeric_columns = {3, 4, 5, 6};
  for (size_t i = 0; i < runs.size(); ++i) {
    const RunReport& r = runs[i];
    table.rows << QStringList{names[static_cast<int>(i)],
                              r.run_id,
                              r.status(),
                              QString::number(r.steps.step.empty() ? 0 : r.steps.step.back()),
                              reportNumber(lastFinite(r.steps.loss)),
                              reportNumber(bestEvalLoss(r)),
                              reportNumber(finiteMean(r.steps.tokens_per_s)),
                              durationText(r.runSeconds())};
  }
  doc->table(table);
}

// Training loss overlaid, and held-out loss when any run evaluated.
void lossSection(ReportDocument* doc, const std::vector<RunReport>& runs) {
  doc->heading(QObject::tr("Loss"), QStringLiteral("loss"));
  overlay(doc, runs, QObject::tr("loss"),
          QObject::tr("Each run's training loss, smoothed (debiased moving average, weight %1).")
              .arg(kSmoothing),
          [](const RunReport& r, const QString& name) {
            const QVector<double> smooth =
                smoothed(QVector<double>(r.steps.loss.begin(), r.steps.loss.end()), kSmoothing);
            return lineSeries(name, r.steps.step, std::vector<double>(smooth.begin(), smooth.end()),
                              0, 1.8);
          });
  bool any_eval = false;
  for (const RunReport& r : runs) any_eval = any_eval || !r.evals.empty();
  if (!any_eval) return;
  overlay(doc, runs, QObject::tr("eval loss"), QObject::tr("Each run's held-out loss."),
          [](const RunReport& r, const QString& name) {
            std::vector<double> steps, losses;
            for (const auto& e : r.evals) {
              steps.push_back(static_cast<double>(e.step));
              losses.push_back(e.loss);
            }
            return markerSeries(name, steps, losses, 0);
          });
}

void throughputSection(ReportDocument* doc, const std::vector<RunReport>& runs) {
  doc->heading(QObject::tr("Throughput"), QStringLiteral("throughput"));
  overlay(doc, runs, QObject::tr("tokens/s"), QObject::tr("Each run's tokens per second."),
          [](const RunReport& r, const QString& name) {
            return lineSeries(name, r.steps.step, r.steps.tokens_per_s, 0, 1.4);
          });
}

// The config keys whose values differ between the runs, one column per run.
void configDiffSection(ReportDocument* doc, const std::vector<RunReport>& runs,
                       const QStringList& names) {
  doc->heading(QObject::tr("Config differences"), QStringLiteral("config-diff"));
  std::vector<nlohmann::json> configs;
  for (const RunReport& r : runs) configs.push_back(r.config);
  const ConfigDiff diff = diffConfigs(configs);
  if (diff.differing == 0) {
    doc->paragraph(QObject::tr("The runs' configs are the same in all %1 keys.").arg(diff.total()));
    return;
  }
  doc->paragraph(QObject::tr("%1 of %2 keys differ; the others are the same in every run.")
                     .arg(diff.differing)
                     .arg(diff.total()));
  ReportTable keys;
  keys.header = QStringList{QObject::tr("Key")} + names;
  for (const ConfigDiffRow& row : diff.rows) {
    if (!row.differs) continue;
    QStringList cells{QString::fromStdString(row.key)};
    for (const QString& value : row.values) cells << value;
    keys.rows << cells;
  }
  doc->table(keys);
}

}  // namespace

bool loadRunReports(const QStringList& run_dirs, std::vector<RunReport>* out, QString* error) {
  out->clear();
  for (const QString& dir : run_dirs) {
    RunReport report;
    if (!loadRunReport(dir, &report, error)) return false;
    out->push_back(std::move(report));
  }
  return true;
}

QString comparisonLabel(const RunReport& run, size_t index) {
  return QStringLiteral("#%1 %2").arg(index + 1).arg(run.name.isEmpty() ? run.run_id : run.name);
}

ReportDocument comparisonDocument(const std::vector<RunReport>& runs) {
  ReportDocument doc;
  doc.title = QObject::tr("Comparison of %n run(s)", nullptr, static_cast<int>(runs.size()));
  QStringList names;
  for (size_t i = 0; i < runs.size(); ++i) names << comparisonLabel(runs[i], i);
  doc.subtitle = names.join(QStringLiteral(", "));

  runsSection(&doc, runs, names);
  lossSection(&doc, runs);
  throughputSection(&doc, runs);
  configDiffSection(&doc, runs, names);
  return doc;
}

}  // namespace moe::ui
