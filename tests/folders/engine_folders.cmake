# core/engine/'s folders (docs/ARCHITECTURE.md, "core/engine/ folders"): process-wide settings and
# files at the bottom, the trainer at the top.
set(folders runtime io dist trace data layer model infer hf train replay)
set(allowed_runtime "")
set(allowed_io "")
set(allowed_dist runtime)
set(allowed_trace dist)
set(allowed_data "")
set(allowed_layer runtime dist trace)
set(allowed_model trace data layer)
set(allowed_infer trace layer model)
set(allowed_hf io)
set(allowed_train io runtime dist trace data layer model)
set(allowed_replay io runtime layer train)
