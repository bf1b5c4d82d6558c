# The ui/ folders' order (docs/ARCHITECTURE.md, "ui/ folders"): first moe_ui_base's (ui/base, Qt Core),
# which include only each other, then the widgets library's, which may include the base half of
# what they could include before the split, and their own base half.
set(folders base/telemetry base/storage base/plot_data base/run base/remote base/targets
  base/planner base/rules base/experiment base/runs base/analyze base/report base/whatif
  base/profiler base/generate draw widgets targets planner experiment dashboard runs report whatif
  profiler analyze generate window)
set(allowed_base/telemetry "")
set(allowed_base/storage "")
set(allowed_base/plot_data base/storage base/telemetry)
set(allowed_base/run base/storage base/telemetry)
set(allowed_base/remote base/run base/storage base/telemetry)
set(allowed_base/targets base/plot_data base/remote base/storage)
set(allowed_base/planner base/plot_data base/storage)
set(allowed_base/rules base/planner base/telemetry)
set(allowed_base/experiment base/planner base/storage)
set(allowed_base/runs base/experiment base/plot_data base/remote base/rules base/run base/storage
  base/telemetry)
set(allowed_base/analyze base/storage)
set(allowed_base/report base/analyze base/experiment base/plot_data base/remote base/rules
  base/run base/runs base/storage base/telemetry)
set(allowed_base/whatif base/experiment base/plot_data base/run base/storage base/telemetry)
set(allowed_base/profiler base/experiment base/plot_data base/run base/storage base/telemetry)
set(allowed_base/generate base/run base/storage)
set(allowed_draw base/plot_data base/report base/telemetry)
set(allowed_widgets draw base/plot_data base/storage base/telemetry)
set(allowed_targets widgets base/plot_data base/remote base/storage base/targets)
set(allowed_planner widgets base/planner base/plot_data base/storage)
set(allowed_experiment planner base/experiment base/planner base/storage)
set(allowed_dashboard widgets planner base/planner base/plot_data base/rules base/run base/storage
  base/telemetry)
set(allowed_runs widgets experiment dashboard base/experiment base/plot_data base/remote base/rules
  base/run base/runs base/storage base/telemetry)
set(allowed_report draw base/experiment base/plot_data base/remote
  base/report base/rules base/run base/runs base/storage base/telemetry)
set(allowed_whatif widgets experiment base/experiment base/plot_data base/run base/storage
  base/telemetry base/whatif)
set(allowed_profiler widgets experiment base/experiment base/plot_data base/profiler base/run
  base/storage base/telemetry)
set(allowed_analyze widgets draw base/analyze base/plot_data base/report base/storage
  base/telemetry)
set(allowed_generate widgets draw base/generate base/storage)
set(allowed_window analyze generate widgets planner experiment targets dashboard runs report whatif
  profiler base/experiment base/planner base/plot_data base/profiler base/remote base/report
  base/rules base/run base/runs base/storage base/targets base/telemetry base/whatif base/analyze
  base/generate)
