// The Summary section of a run's report (run_report_summary.h).
#include "base/report/run_report_summary.h"

#include <QObject>

#include <QDateTime>
#include <QDir>

#include <algorithm>
#include <cmath>

#include "base/report/report_document.h"
#include "base/report/report_format.h"
#include "base/report/run_report.h"

namespace moe::ui {

double reportMedian(std::vector<double> values) {
  values.erase(
      std::remove_if(values.begin(), values.end(), [](double v) { return !std::isfinite(v); }),
      values.end());
  if (values.empty()) return NAN;
  auto mid = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), mid, values.end());
  return *mid;
}

namespace {

// The finite value at the end of a column, and the best one (lowest or highest) with its step.
struct Extremes {
  double last = NAN, best = NAN, best_step = NAN;
};

Extremes extremes(const std::vector<double>& steps, const std::vector<double>& values,
                  bool lowest) {
  Extremes e;
  for (size_t i = 0; i < values.size() && i < steps.size(); ++i) {
    const double v = values[i];
    if (!std::isfinite(v)) continue;
    e.last = v;
    if (std::isnan(e.best) || (lowest ? v < e.best : v > e.best)) {
      e.best = v;
      e.best_step = steps[i];
    }
  }
  return e;
}

QStringList metricRow(const QString& name, const Extremes& e) {
  return {name, reportNumber(e.last), reportNumber(e.best),
          std::isnan(e.best_step) ? QStringLiteral("\u2014") : QString::number(e.best_step)};
}

// "20250102-030405-name" -> its start, in local time; invalid when the id is not of that form.
QDateTime startFromRunId(const QString& run_id) {
  return QDateTime::fromString(run_id.left(15), QStringLiteral("yyyyMMdd-HHmmss"));
}

// How long the run took, noting when that is only its latest attempt.
QString runTimeText(const RunReport& r) {
  QString time = durationText(r.runSeconds());
  if (r.info.resumes > 0 && r.info.restarts > 0)
    time += QObject::tr(
                " (the latest of %1 attempts; every rank was restarted %2 time(s) after "
                "failures)")
                .arg(r.info.resumes + 1)
                .arg(r.info.restarts);
  else if (r.info.resumes > 0)
    time +=
        QObject::tr(" (the latest of %1 attempts; the run was resumed)").arg(r.info.resumes + 1);
  return time;
}

// "last step" or "last step of planned", the plan being the config's train.steps.
QString stepsText(const RunReport& r) {
  const double planned = r.config.contains("train") && r.config["train"].contains("steps") &&
                                 r.config["train"]["steps"].is_number()
                             ? r.config["train"]["steps"].get<double>()
                             : NAN;
  const double last_step = r.steps.step.empty() ? 0 : r.steps.step.back();
  return std::isnan(planned) ? QString::number(last_step)
                             : QObject::tr("%1 of %2").arg(last_step).arg(planned);
}

QString telemetryText(const RunReport& r) {
  QString telemetry = QObject::tr("%1 events, %2")
                          .arg(r.events)
                          .arg(byteText(static_cast<double>(r.metrics_bytes)));
  if (r.malformed_lines > 0)
    telemetry += QObject::tr("; %1 malformed line(s) skipped (%2)")
                     .arg(r.malformed_lines)
                     .arg(r.last_malformed);
  return telemetry;
}

// Which run this is, how it ended, when and for how long it ran.
QList<QStringList> runFacts(const RunReport& r) {
  QList<QStringList> facts;
  facts << QStringList{QObject::tr("Run"), r.run_id};
  if (!r.name.isEmpty()) facts << QStringList{QObject::tr("Name"), r.name};
  facts << QStringList{QObject::tr("Status"), r.status()};
  if (r.run_end && r.run_end->error)
    facts << QStringList{QObject::tr("Error"), QString::fromStdString(*r.run_end->error)};
  const QDateTime start = startFromRunId(r.run_id);
  if (start.isValid())
    facts << QStringList{QObject::tr("Started"),
                         start.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))};
  facts << QStringList{QObject::tr("Run time"), runTimeText(r)};
  facts << QStringList{QObject::tr("Steps"), stepsText(r)};
  return facts;
}

// Where and with what the run ran, and where its files are.
QList<QStringList> environmentFacts(const RunReport& r) {
  QList<QStringList> facts;
  facts << QStringList{QObject::tr("Host"), r.info.host.empty()
                                                ? QStringLiteral("\u2014")
                                                : QString::fromStdString(r.info.host)};
  facts << QStringList{QObject::tr("Device"), r.info.device.empty()
                                                  ? QStringLiteral("\u2014")
                                                  : QString::fromStdString(r.info.device)};
  facts << QStringList{QObject::tr("Processes"), QString::number(r.info.world_size)};
  facts << QStringList{QObject::tr("Engine"),
                       QObject::tr("moe-train %1, LibTorch %2")
                           .arg(QString::fromStdString(r.info.engine_version),
                                QString::fromStdString(r.info.torch_version))};
  if (r.info.expert_parameters && r.info.dense_parameters)
    facts << QStringList{QObject::tr("Parameters"), QObject::tr("%1 in experts, %2 dense")
                                                        .arg(*r.info.expert_parameters)
                                                        .arg(*r.info.dense_parameters)};
  facts << QStringList{QObject::tr("Run directory"), QDir::toNativeSeparators(r.run_dir)};
  facts << QStringList{QObject::tr("metrics.jsonl"), telemetryText(r)};
  return facts;
}

// Held-out loss (and accuracy, when the task measures it) as metric rows; none without evals.
QList<QStringList> evalMetricRows(const RunReport& r) {
  QList<QStringList> rows;
  if (r.evals.empty()) return rows;
  std::vector<double> steps, losses, accuracy;
  for (const auto& e : r.evals) {
    steps.push_back(static_cast<double>(e.step));
    losses.push_back(e.loss);
    accuracy.push_back(e.accuracy.value_or(NAN));
  }
  rows << metricRow(QObject::tr("eval loss"), extremes(steps, losses, true));
  if (std::any_of(accuracy.begin(), accuracy.end(), [](double a) { return std::isfinite(a); }))
    rows << metricRow(QObject::tr("eval accuracy"), extremes(steps, accuracy, false));
  return rows;
}

// Final and best value of each headline metric, with the step of the best.
ReportTable metricsTable(const RunReport& r) {
  ReportTable metrics;
  metrics.header = QStringList{QObject::tr("Metric"), QObject::tr("Final"), QObject::tr("Best"),
                               QObject::tr("Best at step")};
  metrics.numeric_columns = {1, 2, 3};
  const StepColumns& s = r.steps;
  metrics.rows << metricRow(QObject::tr("loss"), extremes(s.step, s.loss, true));
  metrics.rows << metricRow(QObject::tr("task loss"), extremes(s.step, s.task_loss, true));
  metrics.rows << metricRow(QObject::tr("aux loss"), extremes(s.step, s.aux_loss, true));
  metrics.rows << evalMetricRows(r);
  metrics.rows << metricRow(QObject::tr("tokens/s"), extremes(s.step, s.tokens_per_s, false));
  metrics.rows << QStringList{QObject::tr("step time, median (ms)"),
                              reportNumber(reportMedian(s.step_ms)), QStringLiteral("\u2014"),
                              QStringLiteral("\u2014")};
  metrics.rows << metricRow(QObject::tr("grad norm"), extremes(s.step, s.grad_norm, true));
  for (const LayerColumns& layer : r.layers) {
    metrics.rows << metricRow(QObject::tr("layer %1 load entropy").arg(layer.layer),
                              extremes(layer.step, layer.load_entropy, false));
    metrics.rows << metricRow(QObject::tr("layer %1 dropped share").arg(layer.layer),
                              extremes(layer.step, layer.dropped_frac, true));
  }
  return metrics;
}

}  // namespace

void summarySection(ReportDocument* doc, const RunReport& r) {
  doc->heading(QObject::tr("Summary"), QStringLiteral("summary"));
  doc->facts(runFacts(r) + environmentFacts(r));
  doc->table(metricsTable(r));
}

}  // namespace moe::ui
