// The planner's cost model (core/plan) in one include for the app's planner views: profiles,
// counts, predicted step time, the layout search and the JSON fields.
#pragma once

#include "plan/config_estimates.h"
#include "plan/hardware_profile.h"
#include "plan/layout_search.h"
#include "plan/plan_json.h"
#include "plan/step_counts.h"
#include "plan/step_time.h"
