#!/usr/bin/env python3
"""Two hosts joined by a shaped link (docs/BENCHMARKS.md, "Two hosts on shaped links").

Two test hosts on this machine (tests/e2e/hosts/test_hosts.sh: network namespaces on a bridge),
host 1's link shaped to each --rates figure (tc tbf, both ways). On each link:

  1. the link is measured by one rank per host (`moe-train launch --nnodes 2 ... -- bench
     --calibrate-link`) and folded into a profile of this machine (`bench --calibrate --config C
     --inter-node LINK`);
  2. one config trains over the two hosts, one rank each, for r = 0 and r = 1 and for
     a2a_overlap_degree 1, 2 and 4 at r = 1: the median step time after the warm-up and each
     rank's median a2a and all-reduce share of its step (rank 0's `ranks` events);
  3. `moe-train plan --nodes 2 --nproc-per-node 1` predicts each of those steps on the profile,
     and picks an r.

Every figure of one link comes from one call, back to back. Each rank gets one thread
(train.threads 1): the two hosts share this machine's two cores, one each, and the calibration
measures the GEMMs with the thread a rank has.

usage (root): multi_host_steps.py MOE_TRAIN WORK_DIR [--rates 1gbit,10gbit] [--steps 24]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TEST_HOSTS = os.path.join(HERE, "..", "e2e", "hosts", "test_hosts.sh")
HOSTS = "moe-bench-link"
PORT = 29500
WARMUP = 4

CONFIG = {
    "name": "two-hosts",
    "model": {"kind": "lm", "dim": 256, "layers": 4, "heads": 4, "seq_len": 128},
    "moe": {"experts": 8, "top_k": 2, "hidden": 1024, "every": 2},
    "train": {"steps": 24, "batch_size": 16, "dtype": "float32", "lr": 1e-4, "threads": 1},
    "parallel": {"nodes": 2, "nproc": 1, "adaptive_r": 1, "timeout_s": 300},
    "telemetry": {"phases": True},
}


def hosts(*args):
    return subprocess.run([TEST_HOSTS, *args], check=True, capture_output=True,
                          text=True).stdout.strip()


def on_both_hosts(moe_train, rank_command, what):
    """`moe-train launch` on host 0 and host 1 at once; rank_command runs as their one rank."""
    master = hosts("addr", HOSTS, "0")
    procs = []
    for node in (0, 1):
        launch = [moe_train, "launch", "--nnodes", "2", "--node-rank", str(node),
                  "--nproc-per-node", "1", "--master-addr", master, "--master-port", str(PORT),
                  "--"] + rank_command
        procs.append(subprocess.Popen([TEST_HOSTS, "run", HOSTS, str(node)] + launch,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                      text=True))
    errors = [p.communicate()[1] for p in procs]
    for node, p in enumerate(procs):
        if p.returncode != 0:
            sys.exit(f"{what}: host {node} exited {p.returncode}:\n{errors[node][-3000:]}")


def write_config(work, name, r, overlap, steps):
    cfg = json.loads(json.dumps(CONFIG))
    cfg["train"]["steps"] = steps
    cfg["parallel"].update({"adaptive_r": r, "a2a_overlap_degree": overlap})
    path = os.path.join(work, name + ".json")
    with open(path, "w") as f:
        json.dump(cfg, f)
    return path


def measure(moe_train, config, run_dir):
    on_both_hosts(moe_train, ["run", "--config", config, "--run-dir", run_dir], run_dir)
    steps, shares = [], {}
    with open(os.path.join(run_dir, "metrics.jsonl")) as f:
        for line in f:
            e = json.loads(line)
            if e.get("type") == "step" and e["step"] > WARMUP:
                steps.append(e["step_ms"])
            if e.get("type") == "ranks" and e["step"] > WARMUP:
                for q in e["ranks"]:
                    s = shares.setdefault(q["rank"], ([], []))
                    s[0].append(q["a2a_ms"] / q["step_ms"])
                    s[1].append(q["allreduce_ms"] / q["step_ms"])
    per_rank = {q: (statistics.median(a), statistics.median(b)) for q, (a, b) in shares.items()}
    return statistics.median(steps), per_rank


def predict(moe_train, config, profile, work):
    out = os.path.join(work, "plan.json")
    subprocess.run([moe_train, "plan", "--config", config, "--profile", profile, "--nodes", "2",
                    "--nproc-per-node", "1", "--json", out], check=True,
                   stdout=subprocess.DEVNULL)
    with open(out) as f:
        plan = json.load(f)
    return {l["r"]: l["step_ms"] for l in plan["layouts"]}, plan["best"]["r"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("moe_train")
    parser.add_argument("work")
    parser.add_argument("--rates", default="1gbit,10gbit")
    parser.add_argument("--steps", type=int, default=24)
    a = parser.parse_args()
    moe_train = os.path.abspath(a.moe_train)
    work = os.path.abspath(a.work)
    os.makedirs(work, exist_ok=True)
    print(f"config: {json.dumps({k: CONFIG[k] for k in ('model', 'moe', 'train')})}")
    print(f"median step over steps {WARMUP + 1}..{a.steps}; error = predicted / measured - 1\n")
    hosts("up", HOSTS, "2")
    try:
        for rate in a.rates.split(","):
            hosts("shape", HOSTS, "1", "rate", rate)
            link = os.path.join(work, f"link-{rate}.json")
            on_both_hosts(moe_train, ["bench", "--calibrate-link", "--json", link], "link")
            with open(link) as f:
                l = json.load(f)
            print(f"## {rate}: {l['name']}: all-to-all {l['all_to_all_latency_s'] * 1e3:.2f} ms"
                  f" + {l['all_to_all_bandwidth'] / 1e9:.3f} GB/s, all-reduce "
                  f"{l['all_reduce_latency_s'] * 1e3:.2f} ms + "
                  f"{l['all_reduce_bandwidth'] / 1e9:.3f} GB/s")
            profile = os.path.join(work, f"profile-{rate}.json")
            base = write_config(work, f"{rate}-calibrate", 1, 1, a.steps)
            subprocess.run([moe_train, "bench", "--calibrate", "--config", base, "--nproc", "2",
                            "--inter-node", link, "--json", profile], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            print("| r | a2a_overlap_degree | step ms | a2a share (rank 0, 1) | all-reduce share "
                  "(rank 0, 1) | predicted ms | error |")
            print("|---|---|---|---|---|---|---|")
            measured_by_r, best = {}, None
            for r, overlap in ((0, 1), (1, 1), (1, 2), (1, 4)):
                name = f"{rate}-r{r}-d{overlap}"
                config = write_config(work, name, r, overlap, a.steps)
                step_ms, shares = measure(moe_train, config, os.path.join(work, name))
                predicted, chosen = predict(moe_train, config, profile, work)
                if overlap == 1:
                    measured_by_r[r], best = step_ms, chosen
                a2a = ", ".join(f"{s[0]:.0%}" for _, s in sorted(shares.items()))
                ar = ", ".join(f"{s[1]:.0%}" for _, s in sorted(shares.items()))
                p = predicted[r]
                print(f"| {r} | {overlap} | {step_ms:.1f} | {a2a} | {ar} | {p:.1f} | "
                      f"{p / step_ms - 1:+.0%} |", flush=True)
            fastest = min(measured_by_r, key=measured_by_r.get)
            print(f"\nplanner's r: {best}; measured fastest r: {fastest}\n", flush=True)
    finally:
        hosts("down", HOSTS)


if __name__ == "__main__":
    main()
