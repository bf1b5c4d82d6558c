#!/usr/bin/env python3
"""The planner against real runs on this machine (docs/BENCHMARKS.md, "Scaling planner: predicted
against measured"). For each config and each r it runs `moe-train run` (through `moe-train launch`
for several ranks), takes the median step_ms of the steps after the warm-up, asks `moe-train plan
--profile PROFILE --nproc-per-node N --json` for the same layout, and prints one Markdown row per
run with the error (predicted / measured - 1), then whether the model picked the measured-fastest r.

  tests/bench/plan_validation.py build/release/app/train/moe-train PROFILE.json WORK_DIR [--only NAME]

PROFILE.json: `moe-train bench --calibrate --json PROFILE.json`, made in the same session.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

STEPS = 24
WARMUP = 4  # steps left out of the median: allocation, thread start-up, first-touch pages


def config(name, model, moe, batch, dtype="float32"):
    return {
        "name": name,
        "model": model,
        "moe": moe,
        "train": {"steps": STEPS, "batch_size": batch, "dtype": dtype, "lr": 1e-4},
        "telemetry": {"expert_load": True, "phases": True},
    }


# (config, ranks, r values). Coarse: few large experts; fine-grained: many small ones.
CASES = [
    (config("hello-coarse", {"kind": "helloworld", "dim": 512, "seq_len": 128},
            {"experts": 8, "top_k": 2, "hidden": 2048}, 16), 1, [1]),
    (config("hello-fine", {"kind": "helloworld", "dim": 512, "seq_len": 128},
            {"experts": 64, "top_k": 4, "hidden": 256}, 16), 1, [1]),
    (config("lm-coarse", {"kind": "lm", "dim": 256, "layers": 4, "heads": 4, "seq_len": 128},
            {"experts": 8, "top_k": 2, "hidden": 1024, "every": 2}, 16), 1, [1]),
    (config("hello-coarse-2", {"kind": "helloworld", "dim": 512, "seq_len": 128},
            {"experts": 8, "top_k": 2, "hidden": 2048}, 16), 2, [0, 1]),
    (config("lm-fine-2", {"kind": "lm", "dim": 256, "layers": 4, "heads": 4, "seq_len": 128},
            {"experts": 32, "top_k": 4, "hidden": 256, "every": 2}, 16), 2, [0, 1]),
    (config("hello-fine-4", {"kind": "helloworld", "dim": 512, "seq_len": 128},
            {"experts": 64, "top_k": 4, "hidden": 256}, 16), 4, [0, 1]),
]


def measured_step_ms(moe_train, cfg, ranks, r, work):
    name = f"{cfg['name']}-r{r}"
    cfg = json.loads(json.dumps(cfg))
    cfg["parallel"] = {"nproc": ranks, "adaptive_r": r}
    path = os.path.join(work, name + ".json")
    with open(path, "w") as f:
        json.dump(cfg, f)
    run_dir = os.path.join(work, name)
    run = [moe_train, "run", "--config", path, "--run-dir", run_dir]
    if ranks > 1:
        run = [moe_train, "launch", "--nproc-per-node", str(ranks), "--"] + run[1:]
    subprocess.run(run, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    steps = []
    with open(os.path.join(run_dir, "metrics.jsonl")) as f:
        for line in f:
            e = json.loads(line)
            if e.get("type") == "step" and e["step"] > WARMUP:
                steps.append(e["step_ms"])
    return path, statistics.median(steps)


def predicted_step_ms(moe_train, path, profile, ranks, r, work):
    out = os.path.join(work, "plan.json")
    subprocess.run([moe_train, "plan", "--config", path, "--profile", profile,
                    "--nproc-per-node", str(ranks), "--json", out],
                   check=True, stdout=subprocess.DEVNULL)
    with open(out) as f:
        plan = json.load(f)
    layouts = {l["r"]: l["step_ms"] for l in plan["layouts"]}
    return layouts[r if r in layouts else 1], plan["best"]["r"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("moe_train")
    p.add_argument("profile")
    p.add_argument("work")
    p.add_argument("--only", default="")
    a = p.parse_args()
    os.makedirs(a.work, exist_ok=True)
    print("| config | ranks | r | measured ms | predicted ms | error |")
    print("|---|---|---|---|---|---|")
    picks, worst = [], 0.0
    for cfg, ranks, rs in CASES:
        if a.only and a.only != cfg["name"]:
            continue
        measured, best_r = {}, None
        for r in rs:
            path, ms = measured_step_ms(a.moe_train, cfg, ranks, r, a.work)
            predicted, best_r = predicted_step_ms(a.moe_train, path, a.profile, ranks, r, a.work)
            err = predicted / ms - 1
            worst = max(worst, abs(err))
            measured[r] = ms
            print(f"| {cfg['name']} | {ranks} | {r} | {ms:.1f} | {predicted:.1f} | {err:+.0%} |",
                  flush=True)
        if len(rs) > 1:
            fastest = min(measured, key=measured.get)
            picks.append((cfg["name"], fastest, best_r))
    print(f"\nlargest error: {worst:.0%}")
    for name, fastest, best in picks:
        print(f"{name}: measured fastest r={fastest}, planner's best r={best}"
              f" ({'same' if fastest == best else 'DIFFERENT'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
