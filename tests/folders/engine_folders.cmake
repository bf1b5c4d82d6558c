# core/engine/'s folders (docs/ARCHITECTURE.md, "core/engine/ folders"): process-wide settings and
# files at the bottom, the trainer at the top.
set(folders runtime io dist trace data moe model train replay)
set(allowed_runtime "")
set(allowed_io "")
set(allowed_dist runtime)
set(allowed_trace dist)
set(allowed_data "")
set(allowed_moe runtime dist trace)
set(allowed_model data moe)
set(allowed_train io runtime dist trace data moe model)
set(allowed_replay io runtime moe train)
