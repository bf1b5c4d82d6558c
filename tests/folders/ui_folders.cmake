# The ui/ folders' order (docs/ARCHITECTURE.md, "ui/ folders").
set(folders telemetry storage widgets run remote targets planner rules experiment dashboard runs
  report whatif profiler window)
set(allowed_telemetry "")
set(allowed_storage "")
set(allowed_widgets telemetry storage)
set(allowed_run telemetry storage)
set(allowed_remote telemetry storage run)
set(allowed_targets storage widgets remote)
set(allowed_planner widgets storage)
set(allowed_rules telemetry planner)
set(allowed_experiment storage planner)
set(allowed_dashboard telemetry widgets storage run planner rules)
set(allowed_runs telemetry widgets storage experiment run remote rules dashboard)
set(allowed_report telemetry widgets storage experiment run remote rules dashboard runs)
set(allowed_whatif telemetry widgets storage experiment run)
set(allowed_profiler telemetry widgets storage experiment run)
set(allowed_window telemetry widgets storage planner rules experiment run remote targets dashboard
  runs report whatif profiler)
