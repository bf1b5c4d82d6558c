"""The decoder families against their reference implementation (docs/MODELS.md, "Checked against
the reference"): tiny random models made and saved by `transformers`, then `moe-train forward` on
the saved folder, whose logits and router logits must equal the reference's forward pass.

usage: hf_parity.py MOE_TRAIN WORKDIR [FAMILY ...]
"""
import json
import os
import subprocess
import sys

import torch
import transformers
from safetensors.torch import load_file

RTOL_FLOAT32 = 1e-4

# Each case: family, config class, model class, keyword arguments. Expert counts that are not a
# power of two, k = 1 and k > 2, shared experts on and off, dense layers between MoE layers.
COMMON = dict(vocab_size=97, hidden_size=48, num_hidden_layers=3, num_attention_heads=4,
              num_key_value_heads=2, intermediate_size=40, max_position_embeddings=256)
CASES = [
    ("mixtral", "MixtralConfig", "MixtralForCausalLM",
     dict(num_local_experts=5, num_experts_per_tok=2)),
    ("mixtral", "MixtralConfig", "MixtralForCausalLM",
     dict(num_local_experts=3, num_experts_per_tok=1, tie_word_embeddings=True,
          num_key_value_heads=4, rope_theta=1e6)),
    ("qwen2_moe", "Qwen2MoeConfig", "Qwen2MoeForCausalLM",
     dict(num_experts=6, num_experts_per_tok=3, moe_intermediate_size=24,
          shared_expert_intermediate_size=36, norm_topk_prob=False)),
    ("qwen2_moe", "Qwen2MoeConfig", "Qwen2MoeForCausalLM",
     dict(num_experts=5, num_experts_per_tok=1, moe_intermediate_size=24,
          shared_expert_intermediate_size=36, norm_topk_prob=True, decoder_sparse_step=2,
          mlp_only_layers=[2])),
    ("qwen3_moe", "Qwen3MoeConfig", "Qwen3MoeForCausalLM",
     dict(num_experts=7, num_experts_per_tok=3, moe_intermediate_size=20, head_dim=16,
          norm_topk_prob=True)),
    ("qwen3_moe", "Qwen3MoeConfig", "Qwen3MoeForCausalLM",
     dict(num_experts=3, num_experts_per_tok=2, moe_intermediate_size=20, norm_topk_prob=False,
          mlp_only_layers=[0])),
    ("olmoe", "OlmoeConfig", "OlmoeForCausalLM",
     dict(num_experts=6, num_experts_per_tok=3, norm_topk_prob=False, eos_token_id=96,
          pad_token_id=1)),
    ("olmoe", "OlmoeConfig", "OlmoeForCausalLM",
     dict(num_experts=5, num_experts_per_tok=1, norm_topk_prob=True, eos_token_id=96,
          pad_token_id=1)),
]


def relative_error(ours, ref):
    return float((ours.double() - ref.double()).abs().max() / ref.double().abs().max())


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stderr}")
    return proc


def check_case(moe_train, workdir, index, family, config_name, model_name, kwargs, seed):
    torch.manual_seed(seed)
    config = getattr(transformers, config_name)(**{**COMMON, **kwargs})
    model = getattr(transformers, model_name)(config).eval()
    folder = os.path.join(workdir, f"{family}-{index}-seed{seed}")
    model.save_pretrained(folder)
    generator = torch.Generator().manual_seed(seed + 1000)
    tokens = torch.randint(0, config.vocab_size, (2, 11), generator=generator)
    tokens_file = os.path.join(folder, "tokens.json")
    with open(tokens_file, "w") as f:
        json.dump(tokens.tolist(), f)
    out_file = os.path.join(folder, "forward.safetensors")
    run([moe_train, "forward", "--model", folder, "--tokens", tokens_file, "--out", out_file])
    ours = load_file(out_file)
    with torch.no_grad():
        ref = model(tokens, output_router_logits=True)
    failures = []
    err = relative_error(ours["logits"], ref.logits)
    if err > RTOL_FLOAT32:
        failures.append(f"logits: relative error {err:.3g} > {RTOL_FLOAT32}")
    ours_router = sorted((int(k.split(".")[1]), v) for k, v in ours.items()
                         if k.startswith("router_logits."))
    ref_router = list(ref.router_logits or [])
    if len(ours_router) != len(ref_router):
        failures.append(f"{len(ours_router)} MoE layers' router logits, reference has "
                        f"{len(ref_router)}")
    for (layer, mine), theirs in zip(ours_router, ref_router):
        err = relative_error(mine, theirs)
        if err > RTOL_FLOAT32:
            failures.append(f"router logits of layer {layer}: relative error {err:.3g}")
    worst_router = max((relative_error(m, t) for (_, m), t in zip(ours_router, ref_router)),
                       default=0.0)
    status = "FAIL" if failures else "ok"
    print(f"{status} {family} case {index} seed {seed}: logits {list(ours['logits'].shape)} "
          f"relative error {relative_error(ours['logits'], ref.logits):.2g}, "
          f"{len(ours_router)} MoE layers' router logits {worst_router:.2g}", flush=True)
    for f in failures:
        print(f"    {f}", flush=True)
    return not failures


def main():
    moe_train, workdir = sys.argv[1], sys.argv[2]
    families = set(sys.argv[3:])
    os.makedirs(workdir, exist_ok=True)
    ok = True
    for index, (family, config_name, model_name, kwargs) in enumerate(CASES):
        if families and family not in families:
            continue
        for seed in (1, 2):
            ok &= check_case(moe_train, workdir, index, family, config_name, model_name, kwargs,
                             seed)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
