# The core/ folders' order (docs/ARCHITECTURE.md, "core/ folders"): the Torch-free protocol/ and
# plan/ at the bottom, the trainer at the top.
set(folders protocol plan io runtime dist telemetry data moe model train)
set(allowed_protocol "")
set(allowed_plan protocol)
set(allowed_io "")
set(allowed_runtime "")
set(allowed_dist runtime)
set(allowed_telemetry protocol dist)
set(allowed_data protocol)
set(allowed_moe protocol runtime dist telemetry)
set(allowed_model protocol data moe)
set(allowed_train protocol io runtime dist telemetry data moe model)
