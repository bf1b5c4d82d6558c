#include "planner/scaling_table.h"

#include <QStringList>

#include <map>
#include <set>
#include <string>

#include "base/planner/plan_model.h"
#include "base/storage/csv_text.h"
#include "base/storage/whole_file.h"

namespace moe::ui {
namespace {

// plan::layout_json's scalar fields, in the order `moe-train plan` prints them.
const char* const kFields[] = {"nodes",
                               "nproc_per_node",
                               "r",
                               "step_ms",
                               "tokens_per_s",
                               "memory_bytes_per_rank",
                               "a2a_bytes_per_step",
                               "allreduce_bytes_per_step",
                               "fits"};

QString csvValue(const nlohmann::json& value) {
  if (value.is_boolean())
    return value.get<bool>() ? QStringLiteral("true") : QStringLiteral("false");
  if (value.is_number_integer()) return QString::number(value.get<int64_t>());
  if (value.is_number()) return csvNumber(value.get<double>());
  if (value.is_string()) return csvField(QString::fromStdString(value.get<std::string>()));
  return {};
}

bool sameLayout(const plan::Layout& a, const plan::Layout& b) {
  return a.nodes == b.nodes && a.nproc_per_node == b.nproc_per_node && a.r == b.r &&
         a.overlap == b.overlap;
}

}  // namespace

std::vector<ScalingPoint> scalingPoints(const std::vector<plan::LayoutPrediction>& table) {
  std::map<int64_t, std::vector<plan::LayoutPrediction>> by_world;
  for (const plan::LayoutPrediction& layout : table)
    by_world[layout.layout.world()].push_back(layout);
  std::vector<ScalingPoint> points;
  for (auto& [world, layouts] : by_world) {
    const auto best = plan::best_of(layouts);
    if (!best) continue;
    points.push_back({world, *best, std::move(layouts)});
  }
  return points;
}

QString scalingCsv(const std::vector<plan::LayoutPrediction>& table) {
  std::set<std::string> phases;
  for (const plan::LayoutPrediction& layout : table)
    for (const auto& [name, ms] : layout.prediction.phases_ms) phases.insert(name);
  QStringList header{QStringLiteral("world")};
  for (const char* field : kFields) {
    header << QString::fromLatin1(field);
    if (QLatin1String(field) == QLatin1String("r")) header << QStringLiteral("best");
  }
  for (const std::string& phase : phases)
    header << QStringLiteral("phase_%1_ms").arg(QString::fromStdString(phase));
  QString out = header.join(QLatin1Char(',')) + QLatin1Char('\n');

  for (const ScalingPoint& point : scalingPoints(table)) {
    for (const plan::LayoutPrediction& layout : point.layouts) {
      const nlohmann::json json = plan::layout_json(layout);
      QStringList row{QString::number(point.world)};
      for (const char* field : kFields) {
        row << (json.contains(field) ? csvValue(json[field]) : QString());
        if (QLatin1String(field) == QLatin1String("r"))
          row << (sameLayout(layout.layout, point.best.layout) ? QStringLiteral("true")
                                                               : QStringLiteral("false"));
      }
      const nlohmann::json phases_ms = json.value("phases_ms", nlohmann::json::object());
      for (const std::string& phase : phases)
        row << (phases_ms.contains(phase) ? csvValue(phases_ms[phase]) : QString());
      out += row.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
  }
  return out;
}

bool writeScalingCsv(const std::vector<plan::LayoutPrediction>& table, const QString& path,
                     QString* error) {
  QString why;
  if (saveWhole(path, scalingCsv(table).toUtf8(), &why)) return true;
  if (error) *error = QStringLiteral("Cannot write %1: %2").arg(path, why);
  return false;
}

}  // namespace moe::ui
