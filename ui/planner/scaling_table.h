// The Scaling view's data: plan::scaling_table's layouts grouped by world size with the best of
// each (plan::best_of), and their CSV: one row per size and r with the fields of
// `moe-train plan --json` (plan::layout_json), the phases as phase_<name>_ms columns.
#pragma once

#include <QString>

#include <cstdint>
#include <vector>

#include "base/planner/plan_model.h"

namespace moe::ui {

struct ScalingPoint {
  int64_t world = 0;
  plan::LayoutPrediction best;
  std::vector<plan::LayoutPrediction> layouts;  // every r on this size
};

// In increasing world size; sizes without a layout do not appear.
std::vector<ScalingPoint> scalingPoints(const std::vector<plan::LayoutPrediction>& table);

// Header: world,nodes,nproc_per_node,r,best,step_ms,tokens_per_s,memory_bytes_per_rank,
// a2a_bytes_per_step,allreduce_bytes_per_step,fits, then phase_<name>_ms for every phase.
// Numbers read back as the same doubles; best and fits are true or false.
QString scalingCsv(const std::vector<plan::LayoutPrediction>& table);
// Written all or nothing (saveWhole). False with *error naming the file.
bool writeScalingCsv(const std::vector<plan::LayoutPrediction>& table, const QString& path,
                     QString* error);

}  // namespace moe::ui
