"""The decoder families against their reference implementation (docs/MODELS.md, "Checked against
the reference"): tiny random models made and saved by `transformers`, then `moe-train forward` on
the saved folder, whose logits and router logits must equal the reference's forward pass; a greedy
generation of 32 tokens (`moe-train generate`, KV cache; one prompt at a time and a batch of
prompts of different lengths) equal to the reference's; one
training step's loss (with the family's aux loss) and every gradient (`forward --backward`); and
the round trip import-hf -> run --init-from -> export-hf, loaded back by the reference.

usage: hf_parity.py MOE_TRAIN WORKDIR [FAMILY ...]
"""
import contextlib
import copy
import json
import math
import os
import re
import shutil
import subprocess
import sys

import torch
import transformers
from safetensors.torch import load_file

RTOL_FLOAT32 = 1e-4
# Gradients sum over every token: float32 rounding grows with them.
RTOL_GRAD = 1e-3

# Each case: family, config class, model class, keyword arguments. Expert counts that are not a
# power of two, k = 1 and k > 2, shared experts on and off, dense layers between MoE layers.
COMMON = dict(vocab_size=97, hidden_size=48, num_hidden_layers=3, num_attention_heads=4,
              num_key_value_heads=2, intermediate_size=40, max_position_embeddings=256)
DEEPSEEK = dict(num_key_value_heads=4, moe_intermediate_size=20, kv_lora_rank=16, q_lora_rank=24,
                qk_rope_head_dim=8, qk_nope_head_dim=12, v_head_dim=10)
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
    # DeepSeek: multi-head latent attention (every head expands the one latent, so key/value heads
    # equal the heads), dense first layers, shared experts, group-limited routing.
    ("deepseek_v2", "DeepseekV2Config", "DeepseekV2ForCausalLM",
     dict(DEEPSEEK, n_routed_experts=6, num_experts_per_tok=3, n_group=3, topk_group=2,
          topk_method="group_limited_greedy", routed_scaling_factor=1.5, q_lora_rank=None,
          n_shared_experts=2, first_k_dense_replace=1)),
    ("deepseek_v2", "DeepseekV2Config", "DeepseekV2ForCausalLM",
     dict(DEEPSEEK, n_routed_experts=5, num_experts_per_tok=1, topk_method="greedy",
          n_shared_experts=0, first_k_dense_replace=0)),
    ("deepseek_v3", "DeepseekV3Config", "DeepseekV3ForCausalLM",
     dict(DEEPSEEK, n_routed_experts=12, num_experts_per_tok=3, n_group=4, topk_group=2,
          n_shared_experts=1, first_k_dense_replace=1, routed_scaling_factor=2.5)),
    ("deepseek_v3", "DeepseekV3Config", "DeepseekV3ForCausalLM",
     dict(DEEPSEEK, n_routed_experts=6, num_experts_per_tok=1, n_group=1, topk_group=1,
          n_shared_experts=0, first_k_dense_replace=0, norm_topk_prob=False,
          rope_interleave=False, tie_word_embeddings=True)),
    # GPT-OSS: biases on q, k, v, o, the router and the experts; sinks; sliding windows in every
    # other layer (4 of the 11 positions); YaRN; a clamp small enough to cut.
    ("gpt_oss", "GptOssConfig", "GptOssForCausalLM",
     dict(num_local_experts=5, num_experts_per_tok=2, head_dim=12, intermediate_size=24,
          sliding_window=4, swiglu_limit=0.05)),
    ("gpt_oss", "GptOssConfig", "GptOssForCausalLM",
     dict(num_local_experts=6, num_experts_per_tok=3, head_dim=16, num_key_value_heads=4,
          intermediate_size=20, sliding_window=6, layer_types=["full_attention"] * 3,
          rope_parameters={"rope_type": "default", "rope_theta": 1e4})),
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
    with torch.no_grad():  # biases start at zero (DeepSeek-V3's selection bias too): give the
        # forward pass and the tensor mapping some to carry
        for name, tensor in list(model.named_buffers()) + list(model.named_parameters()):
            if name.endswith("bias") and not tensor.any():
                tensor.copy_(torch.randn(tensor.shape) * 0.05)
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
    if not check_greedy(moe_train, family, index, seed, model, folder, config.vocab_size):
        failures.append("greedy generation")
    if seed == 1:
        return check_training_step(moe_train, family, index, model, folder, tokens_file,
                                   tokens) and not failures
    return check_float64(moe_train, family, index, model, folder, tokens_file,
                         tokens) and not failures


RTOL_FLOAT64 = 1e-10
GREEDY_TOKENS = 32


def check_greedy(moe_train, family, index, seed, model, folder, vocab):
    """`moe-train generate --greedy` (KV cache) against the reference's generate(do_sample=False):
    prompts of 5 and 9 tokens one at a time, and three prompts of 5, 9 and 3 tokens decoded two
    at a time (--batch-size 2, the third taking the first free slot) against the reference's batch
    of the three, left-padded: the same 32 tokens each."""
    generator = torch.Generator().manual_seed(seed + 2000)
    prompts = [torch.randint(0, vocab, (n,), generator=generator).tolist() for n in (5, 9, 3)]
    model.generation_config.eos_token_id = None  # the full 32 tokens, as --ignore-eos
    model.generation_config.pad_token_id = 0
    singles = [reference_greedy(model, [p])[0] for p in prompts[:2]]
    ok = compare_greedy("one at a time", prompts[:2], ours_greedy(moe_train, folder, prompts[:2], 1),
                        singles)
    ok = compare_greedy("batch of 2 slots", prompts, ours_greedy(moe_train, folder, prompts, 2),
                        reference_greedy(model, prompts)) and ok
    print(f"{'ok' if ok else 'FAIL'} {family} case {index} seed {seed}: greedy generation of "
          f"{GREEDY_TOKENS} tokens after prompts of {[len(p) for p in prompts]}, one at a time and "
          f"batched", flush=True)
    return ok


def ours_greedy(moe_train, folder, prompts, batch_size):
    prompts_file = os.path.join(folder, "prompts.json")
    with open(prompts_file, "w") as f:
        json.dump(prompts, f)
    out_file = os.path.join(folder, "generate.json")
    run([moe_train, "generate", "--model", folder, "--prompt-tokens", prompts_file, "--greedy",
         "--ignore-eos", "--max-new-tokens", str(GREEDY_TOKENS), "--batch-size", str(batch_size),
         "--json", out_file])
    with open(out_file) as f:
        return json.load(f)["tokens"]


def reference_greedy(model, prompts):
    """The reference's greedy continuation of a batch, left-padded as its generate expects: each
    prompt's ids followed by its new tokens, padding removed."""
    longest = max(len(p) for p in prompts)
    ids = torch.tensor([[0] * (longest - len(p)) + p for p in prompts])
    mask = torch.tensor([[0] * (longest - len(p)) + [1] * len(p) for p in prompts])
    with torch.no_grad():
        out = model.generate(ids, attention_mask=mask, do_sample=False,
                             max_new_tokens=GREEDY_TOKENS)
    return [p + out[i, longest:].tolist() for i, p in enumerate(prompts)]


def compare_greedy(what, prompts, ours, refs):
    ok = True
    for prompt, mine, ref in zip(prompts, ours, refs):
        differs = next((i for i, (a, b) in enumerate(zip(mine, ref)) if a != b), None)
        if differs is not None or len(mine) != len(ref):
            ok = False
            print(f"    greedy ({what}): prompt of {len(prompt)} differs from the reference at "
                  f"position {differs} (ours {mine[len(prompt):]}, reference {ref[len(prompt):]})",
                  flush=True)
    return ok


@contextlib.contextmanager
def float64_throughout():
    """The reference computes RMSNorm, the rotary tables and the router's softmax in float32 even
    for a float64 model (its casts to float32 are deliberate for bfloat16 training). To hold our
    float64 path to 1e-10, those casts keep float64 while this is active: the reference's own
    math, in the precision the comparison needs."""
    tensor_to, tensor_float, tensor_type = torch.Tensor.to, torch.Tensor.float, torch.Tensor.type
    functional_softmax, torch_softmax = torch.nn.functional.softmax, torch.softmax
    tensor_softmax = torch.Tensor.softmax

    def widened(dtype):
        return torch.float64 if dtype is torch.float32 else dtype

    def to(self, *args, **kwargs):
        if self.dtype == torch.float64:
            args = tuple(widened(a) if isinstance(a, torch.dtype) else a for a in args)
            if "dtype" in kwargs:
                kwargs["dtype"] = widened(kwargs["dtype"])
        return tensor_to(self, *args, **kwargs)

    def as_float(self, *args, **kwargs):
        return self if self.dtype == torch.float64 else tensor_float(self, *args, **kwargs)

    def as_type(self, *args, **kwargs):
        if self.dtype == torch.float64 and args and args[0] is torch.float32:
            return self
        return tensor_type(self, *args, **kwargs)

    def softmax_of(original):
        def softmax(x, *args, **kwargs):
            if x.dtype == torch.float64 and kwargs.get("dtype") is torch.float32:
                kwargs["dtype"] = torch.float64
            return original(x, *args, **kwargs)
        return softmax

    torch.Tensor.to, torch.Tensor.float, torch.Tensor.type = to, as_float, as_type
    torch.nn.functional.softmax = softmax_of(functional_softmax)
    torch.softmax = softmax_of(torch_softmax)
    torch.Tensor.softmax = softmax_of(tensor_softmax)
    try:
        yield
    finally:
        torch.Tensor.to, torch.Tensor.float, torch.Tensor.type = tensor_to, tensor_float, tensor_type
        torch.nn.functional.softmax, torch.softmax = functional_softmax, torch_softmax
        torch.Tensor.softmax = tensor_softmax


def yarn_float64(inv_freq, dim, rope):
    """transformers' _compute_yarn_parameters frequencies, in float64 (its own are float32)."""
    def correction(rotations):
        return (dim * math.log(rope["original_max_position_embeddings"] /
                               (rotations * 2 * math.pi))) / (2 * math.log(rope["rope_theta"]))
    low, high = correction(rope.get("beta_fast") or 32), correction(rope.get("beta_slow") or 1)
    if rope.get("truncate", True):
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, dim - 1)
    if low == high:
        high += 0.001
    ramp = ((torch.arange(dim // 2, dtype=torch.float64) - low) / (high - low)).clamp(0, 1)
    extrapolation = 1 - ramp
    return inv_freq / rope["factor"] * (1 - extrapolation) + inv_freq * extrapolation


def check_float64(moe_train, family, index, model, folder, tokens_file, tokens):
    """forward in float64 (routing in float64 too) against the float64 reference."""
    out_file = os.path.join(folder, "forward64.safetensors")
    run([moe_train, "forward", "--model", folder, "--tokens", tokens_file, "--out", out_file,
         "--dtype", "float64", "--set", "moe.fp32_gate=false"])
    ours = load_file(out_file)
    ref64 = copy.deepcopy(model).double()
    for module in ref64.modules():
        if hasattr(module, "config"):  # the grouped GEMM kernel has no float64: the eager loop
            module.config._experts_implementation = "eager"
    for module in ref64.modules():  # the rotary frequencies, as float64 as ours
        if hasattr(module, "inv_freq") and hasattr(module, "config"):
            dim = module.inv_freq.numel() * 2
            rope = module.config.rope_parameters
            theta = rope["rope_theta"]
            freq = 1.0 / (theta ** (torch.arange(0, dim, 2, dtype=torch.float64) / dim))
            if rope.get("rope_type") == "yarn":
                freq = yarn_float64(freq, dim, rope)
            module.inv_freq = freq
            module.original_inv_freq = freq.clone()
    with torch.no_grad(), float64_throughout():
        ref = ref64(tokens, output_router_logits=True)
    err = relative_error(ours["logits"], ref.logits)
    router = [relative_error(v, t) for (_, v), t in zip(
        sorted((int(k.split(".")[1]), v) for k, v in ours.items() if k.startswith("router_")),
        ref.router_logits)]
    worst = max([err] + router)
    ok = ours["logits"].dtype == torch.float64 and worst <= RTOL_FLOAT64
    print(f"{'ok' if ok else 'FAIL'} {family} case {index} float64: logits relative error "
          f"{err:.2g}, router logits {max(router, default=0.0):.2g}", flush=True)
    return ok


EXPERT_TENSOR = re.compile(r"(.*\.experts)\.(\d+)\.(w1|w2|w3|gate_proj|up_proj|down_proj)\.weight$")


def to_reference_layout(grads):
    """Our gradients by checkpoint names (one tensor per expert) in the reference model's own
    parameter layout: transformers 5 fuses each layer's experts into gate_up_proj and down_proj."""
    out, experts = {}, {}
    for name, g in grads.items():
        name = name.replace(".block_sparse_moe.", ".mlp.")
        m = EXPERT_TENSOR.match(name)
        if not m:
            out[name] = g
            continue
        part = {"w1": "gate", "gate_proj": "gate", "w3": "up", "up_proj": "up"}.get(m[3], "down")
        experts.setdefault(m[1], {}).setdefault(part, {})[int(m[2])] = g
    for prefix, parts in experts.items():
        n = len(parts["gate"])
        out[prefix + ".gate_up_proj"] = torch.stack(
            [torch.cat([parts["gate"][e], parts["up"][e]], 0) for e in range(n)])
        out[prefix + ".down_proj"] = torch.stack([parts["down"][e] for e in range(n)])
    return out


def check_training_step(moe_train, family, index, model, folder, tokens_file, tokens):
    """One training step's loss (next-token cross-entropy plus the family's aux loss) and every
    parameter's gradient against the reference's loss.backward()."""
    out_file = os.path.join(folder, "backward.safetensors")
    run([moe_train, "forward", "--backward", "--model", folder, "--tokens", tokens_file, "--out",
         out_file])
    ours = load_file(out_file)
    model.zero_grad()
    ref = model(tokens, labels=tokens, output_router_logits=True)
    ref.loss.backward()
    failures = []
    ref_loss = float(ref.loss.detach())
    loss_err = abs(float(ours["loss"][0]) - ref_loss) / abs(ref_loss)
    if loss_err > RTOL_FLOAT32:
        failures.append(f"loss {float(ours['loss'][0]):.6g}, reference {ref_loss:.6g}")
    # Our gradients go through export's names, which also lay out DeepSeek's buffer and its
    # shared MLP of width 0: neither is a parameter with a gradient.
    buffers = {n for n, _ in model.named_buffers()}
    grads = to_reference_layout({k[len("grad."):]: v for k, v in ours.items()
                                 if k.startswith("grad.") and v.numel() > 0
                                 and k[len("grad."):] not in buffers})
    # (DeepSeek without shared experts still has a shared MLP of width 0: nothing to compare)
    ref_grads = {n: p.grad for n, p in model.named_parameters()
                 if p.grad is not None and p.numel() > 0}
    missing = sorted(set(ref_grads) - set(grads))
    extra = sorted(set(grads) - set(ref_grads))
    if missing or extra:
        failures.append(f"gradients missing {missing[:4]}, unexpected {extra[:4]}")
    worst, worst_name = 0.0, ""
    for name in sorted(set(ref_grads) & set(grads)):
        if grads[name].shape != ref_grads[name].shape:
            failures.append(f"{name}: shape {list(grads[name].shape)}, reference "
                            f"{list(ref_grads[name].shape)}")
            continue
        scale = float(ref_grads[name].abs().max())
        if scale == 0.0:  # an expert no token chose
            err = float(grads[name].abs().max())
        else:
            err = relative_error(grads[name], ref_grads[name])
        if err > worst:
            worst, worst_name = err, name
    if worst > RTOL_GRAD:
        failures.append(f"gradient of {worst_name}: relative error {worst:.3g} > {RTOL_GRAD}")
    status = "FAIL" if failures else "ok"
    print(f"{status} {family} case {index} training step: loss relative error {loss_err:.2g}, "
          f"{len(ref_grads)} gradients, worst {worst:.2g} ({worst_name})", flush=True)
    for f in failures:
        print(f"    {f}", flush=True)
    return not failures


def check_round_trip(moe_train, workdir, family, folder):
    """import-hf -> run --init-from (3 steps) -> export-hf -> the reference loads the export and
    computes our forward's logits on the run's checkpoint; the weights must have moved."""
    base = os.path.join(workdir, f"{family}-roundtrip")
    os.makedirs(base, exist_ok=True)
    config = os.path.join(base, "imported.json")
    run([moe_train, "import-hf", folder, "--config-out", config])
    run_dir = os.path.join(base, "run")
    run([moe_train, "run", "--config", config, "--init-from", folder, "--run-dir", run_dir,
         "--set", "train.steps=3", "--set", "train.checkpoint_every=3", "--set",
         "model.seq_len=16", "--set", "train.batch_size=4", "--set", "train.lr=0.01"])
    exported = os.path.join(base, "exported")
    run([moe_train, "export-hf", run_dir, exported])
    reference = transformers.AutoModelForCausalLM.from_pretrained(exported).eval()
    original = transformers.AutoModelForCausalLM.from_pretrained(folder).eval()
    tokens_file = os.path.join(folder, "tokens.json")
    with open(tokens_file) as f:
        tokens = torch.tensor(json.load(f))
    out_file = os.path.join(base, "forward.safetensors")
    run([moe_train, "forward", "--model", run_dir, "--tokens", tokens_file, "--out", out_file])
    ours = load_file(out_file)["logits"]
    with torch.no_grad():
        ref = reference(tokens).logits
        before = original(tokens).logits
    err = relative_error(ours, ref)
    moved = relative_error(before, ref)
    ok = err <= RTOL_FLOAT32 and moved > 1e-3
    print(f"{'ok' if ok else 'FAIL'} {family} round trip import -> 3 steps -> export: logits "
          f"relative error {err:.2g} (weights moved by {moved:.2g})", flush=True)
    return ok


def check_refusals(moe_train, workdir, folder, changes):
    """What the engine cannot honour is refused by name, exit status 2, never ignored."""
    with open(os.path.join(folder, "config.json")) as f:
        good = json.load(f)
    cases = [(key, {**good, **change}) for key, change in changes]
    ok = True
    for key, config in cases:
        bad = os.path.join(workdir, f"refused-{good['model_type']}-{key}")
        shutil.copytree(folder, bad)
        with open(os.path.join(bad, "config.json"), "w") as f:
            json.dump(config, f)
        proc = subprocess.run([moe_train, "import-hf", bad, "--config-out",
                               os.path.join(bad, "out.json")], capture_output=True, text=True)
        named = f'"{key}"' in proc.stderr or key in proc.stderr
        good_refusal = proc.returncode == 2 and named
        ok &= good_refusal
        print(f"{'ok' if good_refusal else 'FAIL'} refused {key}: exit {proc.returncode}: "
              f"{proc.stderr.strip()}", flush=True)
    return ok


def main():
    moe_train, workdir = sys.argv[1], sys.argv[2]
    families = set(sys.argv[3:])
    shutil.rmtree(workdir, ignore_errors=True)  # a run directory is never reused
    os.makedirs(workdir)
    ok = True
    round_trips = {}
    for index, (family, config_name, model_name, kwargs) in enumerate(CASES):
        if families and family not in families:
            continue
        for seed in (1, 2):
            ok &= check_case(moe_train, workdir, index, family, config_name, model_name, kwargs,
                             seed)
        round_trips.setdefault(family, os.path.join(workdir, f"{family}-{index}-seed1"))
    for family, folder in round_trips.items():
        ok &= check_round_trip(moe_train, workdir, family, folder)
    if "qwen2_moe" in round_trips:
        ok &= check_refusals(moe_train, workdir, round_trips["qwen2_moe"], [
            ("model_type", {"model_type": "llama"}),
            ("rope_parameters.rope_type", {"rope_parameters": {"rope_theta": 1e4,
                                                               "rope_type": "dynamic"}}),
            ("use_sliding_window", {"use_sliding_window": True}),
            ("frobnicate", {"frobnicate": 3})])
    if "deepseek_v2" in round_trips:
        ok &= check_refusals(moe_train, workdir, round_trips["deepseek_v2"], [
            ("norm_topk_prob", {"norm_topk_prob": True}),  # transformers' V2 never renormalises
            ("num_key_value_heads", {"num_key_value_heads": 2}),
            ("topk_method", {"topk_method": "noaux_tc"})])
    if "deepseek_v3" in round_trips:
        ok &= check_refusals(moe_train, workdir, round_trips["deepseek_v3"], [
            ("attention_bias", {"attention_bias": True}),
            ("scoring_func", {"scoring_func": "softmax"})])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
