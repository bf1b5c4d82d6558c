#pragma once
// The telemetry of a run that reached step 2 of 4, one second a step (so its ETA is two seconds),
// with run_id "fake": what the /bin/sh stand-ins for moe-train print in the launch and header
// tests.
namespace moe::test {

inline constexpr char kTwoOfFourStepsTelemetry[] =
    R"({"v":1,"type":"run_start","t":0,"run_id":"fake","config":{"train":{"steps":4}},"world_size":1})"
    "\n"
    R"({"v":1,"type":"step","t":1,"step":1,"loss":2,"task_loss":2,"aux_loss":1,"z_loss":0,"lr":0.1,"grad_norm":1,"tokens":8,"tokens_per_s":8,"step_ms":1000})"
    "\n"
    R"({"v":1,"type":"step","t":2,"step":2,"loss":1,"task_loss":1,"aux_loss":1,"z_loss":0,"lr":0.1,"grad_norm":1,"tokens":8,"tokens_per_s":8,"step_ms":1000})"
    "\n";

}  // namespace moe::test
