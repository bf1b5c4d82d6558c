# The ui/ folders' order (docs/ARCHITECTURE.md, "ui/ folders").
set(folders telemetry storage widgets launch planner experiment dashboard runs report whatif
  profiler window)
set(allowed_telemetry "")
set(allowed_storage "")
set(allowed_widgets storage)
set(allowed_launch telemetry storage)
set(allowed_planner widgets storage launch)
set(allowed_experiment storage planner)
set(allowed_dashboard telemetry widgets storage launch planner)
set(allowed_runs telemetry widgets storage experiment launch dashboard)
set(allowed_report telemetry widgets storage experiment launch dashboard runs)
set(allowed_whatif telemetry widgets storage experiment launch)
set(allowed_profiler telemetry widgets storage experiment launch)
set(allowed_window telemetry widgets storage planner experiment launch dashboard runs report whatif
  profiler)
