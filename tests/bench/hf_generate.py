"""Greedy generation at batch 1 in moe-train (`generate`, KV cache) against transformers'
`generate` on the same CPU and threads, for each family's tiny-but-not-toy model of
hf_train_step.py (docs/BENCHMARKS.md, "Generation against transformers").

usage: hf_generate.py MOE_TRAIN WORKDIR [--threads 2] [--prompt 64] [--new 64]
Both sides generate --new tokens after the same prompt of --prompt random ids, with no
end-of-sequence token; decode tokens/s counts the tokens after the first (prefill excluded), each
side by its own clock: moe-train's --json figures, transformers' timed around generate() minus a
max_new_tokens=1 call (its prefill and first token). The ratio is ours / transformers'.
"""
import argparse
import json
import os
import statistics
import subprocess
import time

import torch
import transformers

from hf_train_step import COMMON, FAMILIES


def reference_decode_tokens_per_s(model, prompt, new, repeats):
    ids = torch.tensor([prompt])
    mask = torch.ones_like(ids)
    model.generation_config.eos_token_id = None

    def timed(n):
        start = time.perf_counter()
        with torch.no_grad():
            out = model.generate(ids, attention_mask=mask, do_sample=False, max_new_tokens=n)
        return time.perf_counter() - start, out[0, len(prompt):].tolist()

    timed(new)  # warm-up
    rates, tokens = [], None
    for _ in range(repeats):
        first, _ = timed(1)
        whole, tokens = timed(new)
        rates.append((new - 1) / (whole - first))
    return statistics.median(rates), tokens


def ours_decode_tokens_per_s(moe_train, folder, prompt, new, threads, repeats):
    prompts = os.path.join(folder, "bench-prompt.json")
    with open(prompts, "w") as f:
        json.dump([prompt], f)
    out = os.path.join(folder, "bench-generate.json")
    rates, tokens = [], None
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    for _ in range(repeats):
        subprocess.run([moe_train, "generate", "--model", folder, "--prompt-tokens", prompts,
                        "--greedy", "--ignore-eos", "--max-new-tokens", str(new), "--json", out],
                       check=True, capture_output=True, env=env)
        with open(out) as f:
            result = json.load(f)
        rates.append(result["decode_tokens_per_s"])
        tokens = result["tokens"][0][len(prompt):]
    return statistics.median(rates), tokens


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("moe_train")
    parser.add_argument("workdir")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--prompt", type=int, default=64)
    parser.add_argument("--new", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    os.makedirs(args.workdir, exist_ok=True)
    print("| family | experts, top-k | moe-train decode tok/s | transformers decode tok/s "
          "| moe-train / transformers | same tokens |")
    print("|---|---|---|---|---|---|")
    for family, config_name, model_name, kwargs in FAMILIES:
        torch.manual_seed(0)
        config = getattr(transformers, config_name)(**{**COMMON, **kwargs})
        model = getattr(transformers, model_name)(config).eval()
        folder = os.path.join(args.workdir, family)
        model.save_pretrained(folder)
        prompt = torch.randint(0, config.vocab_size, (args.prompt,)).tolist()
        ours, our_tokens = ours_decode_tokens_per_s(args.moe_train, folder, prompt, args.new,
                                                    args.threads, args.repeats)
        ref, ref_tokens = reference_decode_tokens_per_s(model, prompt, args.new, args.repeats)
        experts = getattr(config, "num_local_experts", None) or config.num_experts
        print(f"| {family} | {experts}, {config.num_experts_per_tok} | {ours:.1f} | {ref:.1f} "
              f"| {ours / ref:.2f} | {our_tokens == ref_tokens} |", flush=True)


if __name__ == "__main__":
    main()
