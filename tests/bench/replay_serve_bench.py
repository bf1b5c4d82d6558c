#!/usr/bin/env python3
"""What a routing what-if costs: `moe-train replay` started once per setting (one-shot) against one
request to a running `moe-train replay --serve` (docs/BENCHMARKS.md, "Routing what-ifs: replay
--serve"). The tensors are a real capture: a one-step helloworld run with E experts, N tokens,
model dim M and hidden H writes captures/step-1/layer-0.safetensors.

  tests/bench/replay_serve_bench.py build/release/app/train/moe-train /tmp/replay-bench
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def capture(moe_train, work, experts, tokens, dim, hidden):
    run_dir = os.path.join(work, "run")
    tensors = os.path.join(run_dir, "captures", "step-1", "layer-0.safetensors")
    if os.path.exists(tensors):
        return run_dir, tensors
    seq_len = 128
    config = {
        "name": "replay-bench",
        "model": {"kind": "helloworld", "dim": dim, "seq_len": seq_len},
        "moe": {"experts": experts, "top_k": 2, "hidden": hidden},
        "train": {"steps": 1, "batch_size": tokens // seq_len},
        "telemetry": {"capture_every": 1, "capture_max_mb": 4096},
    }
    path = os.path.join(work, "config.json")
    with open(path, "w") as f:
        json.dump(config, f)
    subprocess.run([moe_train, "run", "--config", path, "--run-dir", run_dir], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return run_dir, tensors


def one_shot(moe_train, config, tensors, out):
    start = time.perf_counter()
    subprocess.run([moe_train, "replay", "--config", config, "--tensors", tensors, "--out", out],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def serve(moe_train, config, tensors, requests):
    start = time.perf_counter()
    p = subprocess.Popen([moe_train, "replay", "--serve", "--config", config, "--tensors", tensors],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    ready = json.loads(p.stdout.readline())
    startup = time.perf_counter() - start
    round_trips, compute = [], []
    for i in range(requests):
        request = {"id": i, "moe": {"capacity_factor": [0.5, 1.0, 1.25, 2.0, 0.0][i % 5],
                                    "top_k": 1 + i % 2}}
        start = time.perf_counter()
        p.stdin.write(json.dumps(request) + "\n")
        p.stdin.flush()
        answer = json.loads(p.stdout.readline())
        round_trips.append(time.perf_counter() - start)
        compute.append(answer["ms"] / 1000)
    p.stdin.close()
    p.wait()
    return ready, startup, round_trips, compute


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("moe_train")
    parser.add_argument("work", help="directory for the capture run and outputs (reused)")
    parser.add_argument("--experts", type=int, default=64)
    parser.add_argument("--tokens", type=int, default=4096)
    parser.add_argument("--dim", type=int, default=512)
    parser.add_argument("--hidden", type=int, default=1024)
    parser.add_argument("--repeats", type=int, default=5, help="one-shot replays")
    parser.add_argument("--requests", type=int, default=50, help="serve requests")
    a = parser.parse_args()
    os.makedirs(a.work, exist_ok=True)
    run_dir, tensors = capture(a.moe_train, a.work, a.experts, a.tokens, a.dim, a.hidden)
    config = os.path.join(run_dir, "config.json")
    out = os.path.join(a.work, "out.safetensors")
    shots = [one_shot(a.moe_train, config, tensors, out) for _ in range(a.repeats)]
    ready, startup, trips, compute = serve(a.moe_train, config, tensors, a.requests)
    ms = lambda s: f"{1000 * s:.1f} ms"
    print(f"tensors: {tensors} ({os.path.getsize(tensors) / 2**20:.0f} MiB), {json.dumps(ready)}")
    print(f"one-shot replay, whole process (median of {a.repeats}): {ms(statistics.median(shots))}"
          f"  [min {ms(min(shots))}, max {ms(max(shots))}]")
    print(f"serve startup to the ready line: {ms(startup)}")
    print(f"serve request round trip (median of {a.requests}): {ms(statistics.median(trips))}"
          f"  [min {ms(min(trips))}, max {ms(max(trips))}]; routing itself (ms field): "
          f"{ms(statistics.median(compute))}")
    print(f"one-shot / serve round trip: {statistics.median(shots) / statistics.median(trips):.0f}x")


if __name__ == "__main__":
    sys.exit(main())
