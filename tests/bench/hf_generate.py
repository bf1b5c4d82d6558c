"""Greedy generation in moe-train (`generate`, KV cache) against transformers' `generate` on the
same CPU and threads, at batch 1, 8 and 32, for each family's tiny-but-not-toy model of
hf_train_step.py (docs/BENCHMARKS.md, "Generation against transformers").

usage: hf_generate.py MOE_TRAIN WORKDIR [--threads 2] [--prompt 64] [--new 64] [--batches 1,8,32]
        [--families mixtral,...]
At batch B both sides generate --new tokens after the same B prompts of --prompt random ids
(equal lengths: the reference needs no padding), with no end-of-sequence token. Decode tokens/s
counts the tokens after each sequence's first (prefill excluded), each side by its own clock:
moe-train's --json figures (--batch-size B), transformers' timed around generate() minus a
max_new_tokens=1 call (its prefill and first token). Prefill tokens/s: moe-train's --json figure
(each prompt prefilled alone into its slot); transformers' B x prompt tokens over that
max_new_tokens=1 call. The ratios are ours / transformers'.

The bandwidth bound at batch 1: the float32 bytes of the matrix weights a token reads (attention,
router, its k experts, the shared expert, the head) over this machine's read bandwidth, measured
in the same run as the sum of a 512 MiB float32 tensor on the same threads (best of 5); the share
is moe-train's decode tokens/s over that bound.
"""
import argparse
import json
import os
import statistics
import subprocess
import time

import torch
import transformers

from hf_train_step import COMMON, FAMILIES, active_matmul_parameters


def reference_tokens_per_s(model, prompts, new, repeats):
    """(decode tokens/s, prefill tokens/s, generated ids per prompt) of the reference."""
    ids = torch.tensor(prompts)
    mask = torch.ones_like(ids)
    model.generation_config.eos_token_id = None
    model.generation_config.pad_token_id = 0

    def timed(n):
        start = time.perf_counter()
        with torch.no_grad():
            out = model.generate(ids, attention_mask=mask, do_sample=False, max_new_tokens=n)
        return time.perf_counter() - start, out[:, ids.size(1):].tolist()

    timed(new)  # warm-up
    decode, prefill, tokens = [], [], None
    for _ in range(repeats):
        first, _ = timed(1)
        whole, tokens = timed(new)
        decode.append(len(prompts) * (new - 1) / (whole - first))
        prefill.append(ids.numel() / first)
    return statistics.median(decode), statistics.median(prefill), tokens


def read_bandwidth(threads):
    """Bytes/s a reduction reads from memory on `threads` threads (best of 5)."""
    torch.set_num_threads(threads)
    data = torch.ones(128 * 1024 * 1024)
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        data.sum()
        best = min(best, time.perf_counter() - start)
    return data.numel() * 4 / best


def ours_tokens_per_s(moe_train, folder, prompts, new, threads, repeats):
    """(decode tokens/s, prefill tokens/s, generated ids per prompt) of moe-train generate."""
    prompts_file = os.path.join(folder, "bench-prompts.json")
    with open(prompts_file, "w") as f:
        json.dump(prompts, f)
    out = os.path.join(folder, "bench-generate.json")
    decode, prefill, tokens = [], [], None
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    for _ in range(repeats):
        subprocess.run([moe_train, "generate", "--model", folder, "--prompt-tokens", prompts_file,
                        "--greedy", "--ignore-eos", "--max-new-tokens", str(new), "--batch-size",
                        str(len(prompts)), "--json", out],
                       check=True, capture_output=True, env=env)
        with open(out) as f:
            result = json.load(f)
        decode.append(result["decode_tokens_per_s"])
        prefill.append(result["prefill_tokens_per_s"])
        tokens = [row[len(p):] for row, p in zip(result["tokens"], prompts)]
    return statistics.median(decode), statistics.median(prefill), tokens


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("moe_train")
    parser.add_argument("workdir")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--prompt", type=int, default=64)
    parser.add_argument("--new", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--batches", default="1,8,32")
    parser.add_argument("--families", default="")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    os.makedirs(args.workdir, exist_ok=True)
    wanted = [f for f in args.families.split(",") if f]
    bandwidth = read_bandwidth(args.threads)
    print(f"read bandwidth: {bandwidth / 1e9:.1f} GB/s (sum of 512 MiB, {args.threads} threads)")
    print("| family | experts, top-k | batch | moe-train decode tok/s | transformers decode tok/s "
          "| decode ratio | moe-train prefill tok/s | transformers prefill tok/s | prefill ratio "
          "| same tokens | batch-1 bound tok/s | share of bound |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for family, config_name, model_name, kwargs in FAMILIES:
        if wanted and family not in wanted:
            continue
        torch.manual_seed(0)
        config = getattr(transformers, config_name)(**{**COMMON, **kwargs})
        model = getattr(transformers, model_name)(config).eval()
        folder = os.path.join(args.workdir, family)
        model.save_pretrained(folder)
        experts = getattr(config, "num_local_experts", None) or config.num_experts
        bound = bandwidth / (4 * active_matmul_parameters(config))
        for batch in (int(b) for b in args.batches.split(",")):
            prompts = torch.randint(0, config.vocab_size, (batch, args.prompt)).tolist()
            ours = ours_tokens_per_s(args.moe_train, folder, prompts, args.new, args.threads,
                                     args.repeats)
            ref = reference_tokens_per_s(model, prompts, args.new, args.repeats)
            print(f"| {family} | {experts}, {config.num_experts_per_tok} | {batch} "
                  f"| {ours[0]:.1f} | {ref[0]:.1f} | {ours[0] / ref[0]:.2f} "
                  f"| {ours[1]:.0f} | {ref[1]:.0f} | {ours[1] / ref[1]:.2f} "
                  f"| {ours[2] == ref[2]} "
                  + (f"| {bound:.0f} | {ours[0] / bound:.2f} |" if batch == 1 else "| | |"),
                  flush=True)


if __name__ == "__main__":
    main()
