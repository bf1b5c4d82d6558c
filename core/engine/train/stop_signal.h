#pragma once
// SIGINT, SIGTERM and SIGHUP (the terminal or SSH session went away) ask the run to stop: the
// trainer finishes the step, writes a checkpoint and ends with run_end "cancelled". A second signal
// kills at once (the usual double Ctrl-C). SIGPIPE is ignored: when the GUI that reads stdout goes
// away, the run goes on and keeps writing metrics.jsonl.
namespace moe::train {

void install_stop_handlers();

// The signal that asked to stop (SIGINT, SIGTERM, SIGHUP), or 0.
int stop_requested();

}  // namespace moe::train
