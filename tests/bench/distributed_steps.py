#!/usr/bin/env python3
"""Step time and its all-to-all / all-reduce shares of one config on 1, 2 and 4 ranks.

Runs `moe-train launch --nproc-per-node W -- run` (plain `run` for W = 1) on the same config and
global batch, reads rank 0's telemetry, and prints, per W: the median step time over the steps
after the warm-up, each rank's median a2a and all-reduce wait as a share of its step, the tokens/s,
and the r that "auto" chose with the time of every r it tried. All runs of one call are measured
in the same session, one after the other (docs/BENCHMARKS.md quotes ratios from one call).

usage: distributed_steps.py MOE_TRAIN [--ranks 1,2,4] [--steps 40] [--set key=value ...]
"""
import argparse
import json
import statistics
import subprocess
import sys
import tempfile

BASE = {
    "name": "dist-bench",
    "model": {"kind": "helloworld", "dim": 256, "seq_len": 64},
    "moe": {"experts": 8, "top_k": 2, "hidden": 512, "capacity_factor": 1.25},
    "train": {"steps": 40, "batch_size": 16, "dtype": "float32", "lr": 0.001, "threads": 0},
    "parallel": {"adaptive_r": 1},
    "data": {"kind": "synthetic"},
}


def set_key(config, assignment):
    key, value = assignment.split("=", 1)
    *path, last = key.split(".")
    node = config
    for part in path:
        node = node.setdefault(part, {})
    try:
        node[last] = json.loads(value)
    except json.JSONDecodeError:
        node[last] = value


def run(moe_train, config, ranks, workdir):
    config = json.loads(json.dumps(config))
    config["parallel"]["nproc"] = ranks
    if ranks == 1:
        config["parallel"].pop("adaptive_r", None)
    path = f"{workdir}/c{ranks}.json"
    with open(path, "w") as f:
        json.dump(config, f)
    args = ["run", "--config", path, "--run-dir", f"{workdir}/run{ranks}"]
    if ranks > 1:
        args = ["launch", "--nproc-per-node", str(ranks), "--"] + args
    out = subprocess.run([moe_train] + args, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{ranks} ranks failed ({out.returncode}):\n{out.stderr}")
    return [json.loads(line) for line in out.stdout.splitlines()]


def summary(events, warmup):
    steps = [e for e in events if e["type"] == "step" and e["step"] > warmup]
    ranks = [e for e in events if e["type"] == "ranks" and e["step"] > warmup]
    step_ms = statistics.median(e["step_ms"] for e in steps)
    tokens_s = statistics.median(e["tokens_per_s"] for e in steps)
    waits = {}
    for e in ranks:
        for r in e["ranks"]:
            w = waits.setdefault(r["rank"], {"a2a": [], "allreduce": []})
            w["a2a"].append(r["a2a_ms"] / r["step_ms"])
            w["allreduce"].append(r["allreduce_ms"] / r["step_ms"])
    shares = {q: (statistics.median(w["a2a"]), statistics.median(w["allreduce"]))
              for q, w in sorted(waits.items())}
    decisions = [e for e in events if e["type"] == "adaptive_r"]
    return step_ms, tokens_s, shares, decisions


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("moe_train")
    parser.add_argument("--ranks", default="1,2,4")
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--set", action="append", default=[])
    a = parser.parse_args()
    config = json.loads(json.dumps(BASE))
    config["train"]["steps"] = a.steps
    for assignment in a.set:
        set_key(config, assignment)
    warmup = min(10, a.steps // 4)
    print(f"config: {json.dumps({k: config[k] for k in ('model', 'moe', 'train', 'parallel')})}")
    print(f"median over steps {warmup + 1}..{a.steps}\n")
    print("ranks  step ms  tokens/s  per rank: a2a share / all-reduce share")
    with tempfile.TemporaryDirectory() as workdir:
        for ranks in (int(w) for w in a.ranks.split(",")):
            step_ms, tokens_s, shares, decisions = summary(run(a.moe_train, config, ranks, workdir),
                                                           warmup)
            per_rank = "  ".join(f"r{q} {s[0]:.0%}/{s[1]:.0%}" for q, s in shares.items())
            print(f"{ranks:5d}  {step_ms:7.1f}  {tokens_s:8.0f}  {per_rank or '-'}")
            for d in decisions:
                tried = ", ".join(f"r={r}: {ms:.1f} ms" for r, ms in d["tried"].items())
                print(f"       auto at step {d['step']}: r = {d['r']} ({tried})")


if __name__ == "__main__":
    main()
