// The planner's cost model (core/plan) for Qt code: its headers name a field `slots`
// (StepCounts::slots), which Qt defines as a macro, so Qt files include them through here.
#pragma once

#pragma push_macro("slots")
#undef slots
#include "plan/config_estimates.h"
#include "plan/hardware_profile.h"
#include "plan/layout_search.h"
#include "plan/plan_json.h"
#include "plan/step_counts.h"
#include "plan/step_time.h"
#pragma pop_macro("slots")
