"""A training step of each family's tiny-but-not-toy model in moe-train against the same model's
training step in transformers, on this CPU with the same threads, batch and optimizer
(docs/BENCHMARKS.md, "The Hugging Face families: a training step against transformers").

usage: hf_train_step.py MOE_TRAIN WORKDIR [--threads 2] [--steps 6]
Both sides run in this one invocation, one after the other per family; the ratio is
transformers' median step time divided by moe-train's. The GEMM floor is the step's matrix-product
FLOPs (step_flops: every projection, the active experts, the router and the head, forward and
backward, plus causal attention's scores) divided by the best float32 GEMM rate measured in the
same invocation with the same threads: no step that does this math in float32 here is faster.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import time

import torch
import transformers

COMMON = dict(vocab_size=4096, hidden_size=512, num_hidden_layers=4, num_attention_heads=8,
              num_key_value_heads=4, max_position_embeddings=1024)
FAMILIES = [
    ("mixtral", "MixtralConfig", "MixtralForCausalLM",
     dict(num_local_experts=8, num_experts_per_tok=2, intermediate_size=1024)),
    ("qwen2_moe", "Qwen2MoeConfig", "Qwen2MoeForCausalLM",
     dict(num_experts=16, num_experts_per_tok=4, moe_intermediate_size=512,
          shared_expert_intermediate_size=1024, intermediate_size=1024, norm_topk_prob=False)),
    ("qwen3_moe", "Qwen3MoeConfig", "Qwen3MoeForCausalLM",
     dict(num_experts=32, num_experts_per_tok=4, moe_intermediate_size=256, head_dim=64,
          intermediate_size=1024, norm_topk_prob=True)),
    ("olmoe", "OlmoeConfig", "OlmoeForCausalLM",
     dict(num_experts=64, num_experts_per_tok=8, intermediate_size=256, norm_topk_prob=False,
          eos_token_id=4095, pad_token_id=1)),
]


def active_matmul_parameters(config):
    """The matrix weights one token goes through: attention, router, its k experts, the shared
    expert, and the head (the embedding is a lookup)."""
    dim, layers, heads = config.hidden_size, config.num_hidden_layers, config.num_attention_heads
    head_dim = getattr(config, "head_dim", None) or dim // heads
    kv = config.num_key_value_heads
    experts = getattr(config, "num_local_experts", None) or config.num_experts
    hidden = getattr(config, "moe_intermediate_size", None) or config.intermediate_size
    shared = getattr(config, "shared_expert_intermediate_size", 0) or 0
    per_layer = (2 * dim * heads * head_dim + 2 * dim * kv * head_dim  # q, o; k, v
                 + dim * experts + config.num_experts_per_tok * 3 * dim * hidden
                 + (3 * dim * shared + dim if shared else 0))
    return layers * per_layer + dim * config.vocab_size


def step_flops(config, batch, seq):
    """Matrix-product FLOPs of one training step (forward 2, backward 4 per multiply-add)."""
    dim, layers, heads = config.hidden_size, config.num_hidden_layers, config.num_attention_heads
    head_dim = getattr(config, "head_dim", None) or dim // heads
    matmuls = 6 * batch * seq * active_matmul_parameters(config)
    attention = 6 * layers * batch * seq * seq * heads * head_dim  # causal: half of 12 T^2 d
    return matmuls + attention


def best_gemm_flops_per_s(dim):
    """The best float32 rate of [1024, dim] x [dim, n] products, n in 1024..4096."""
    best = 0.0
    for n in (1024, 2048, 4096):
        a, b = torch.randn(1024, dim), torch.randn(dim, n)
        for _ in range(3):
            torch.mm(a, b)
        start = time.perf_counter()
        for _ in range(10):
            torch.mm(a, b)
        best = max(best, 10 * 2 * 1024 * dim * n / (time.perf_counter() - start))
    return best


def reference_step_ms(model, tokens, steps):
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    model.train()
    times = []
    for i in range(steps + 2):
        start = time.perf_counter()
        loss = model(tokens, labels=tokens, output_router_logits=True).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        if i >= 2:  # warm-up steps left out, as moe-train's first two
            times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def ours_step_ms(moe_train, folder, workdir, batch, seq, threads, steps):
    config = os.path.join(workdir, "imported.json")
    subprocess.run([moe_train, "import-hf", folder, "--config-out", config], check=True,
                   capture_output=True)
    run_dir = os.path.join(workdir, "run")
    shutil.rmtree(run_dir, ignore_errors=True)
    subprocess.run([moe_train, "run", "--config", config, "--init-from", folder, "--run-dir",
                    run_dir, "--set", f"train.steps={steps + 2}", "--set",
                    f"train.batch_size={batch}", "--set", f"model.seq_len={seq}", "--set",
                    f"train.threads={threads}", "--set", "train.lr=0.0001", "--set",
                    "telemetry.expert_load=false"], check=True, capture_output=True)
    with open(os.path.join(run_dir, "metrics.jsonl")) as f:
        steps_ms = [e["step_ms"] for e in map(json.loads, f) if e.get("type") == "step"]
    return statistics.median(steps_ms[2:])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("moe_train")
    parser.add_argument("workdir")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--steps", type=int, default=6)
    parser.add_argument("--batch", type=int, default=4)
    parser.add_argument("--seq", type=int, default=256)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    os.makedirs(args.workdir, exist_ok=True)
    rate = best_gemm_flops_per_s(COMMON["hidden_size"])
    print(f"best float32 GEMM here: {rate / 1e9:.0f} GFLOP/s")
    print(f"| family | experts, top-k | parameters | moe-train ms/step | transformers ms/step "
          f"| transformers / moe-train | GEMM floor ms | floor / moe-train |")
    print("|---|---|---|---|---|---|---|---|")
    for family, config_name, model_name, kwargs in FAMILIES:
        torch.manual_seed(0)
        config = getattr(transformers, config_name)(**{**COMMON, **kwargs})
        model = getattr(transformers, model_name)(config)
        folder = os.path.join(args.workdir, family)
        model.save_pretrained(folder)
        tokens = torch.randint(0, config.vocab_size, (args.batch, args.seq))
        ours = ours_step_ms(args.moe_train, folder, folder, args.batch, args.seq, args.threads,
                            args.steps)
        ref = reference_step_ms(model, tokens, args.steps)
        experts = getattr(config, "num_local_experts", None) or config.num_experts
        params = sum(p.numel() for p in model.parameters())
        floor = step_flops(config, args.batch, args.seq) / rate * 1e3
        print(f"| {family} | {experts}, {config.num_experts_per_tok} | {params / 1e6:.1f} M "
              f"| {ours:.0f} | {ref:.0f} | {ref / ours:.2f} | {floor:.0f} | {floor / ours:.2f} |",
              flush=True)


if __name__ == "__main__":
    main()
