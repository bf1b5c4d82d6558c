"""Stop strings against the reference (docs/INFERENCE.md, "Stopping"): a tiny random Mixtral saved
by `transformers` with a tokenizer trained here by `tokenizers` (Metaspace BPE of the model's 97
ids), greedy generation from a text prompt. For stop strings cut from the unstopped continuation
(within a token, across tokens, at its very start), `moe-train generate --stop` ends where the
reference's `generate(stop_strings=..., tokenizer=...)` ends: the same ids, and our text is the
reference's decoded text up to the end of the stop string.

usage: hf_stop_strings.py MOE_TRAIN WORKDIR
"""
import json
import os
import shutil
import subprocess
import sys

import torch
import transformers
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

from hf_parity import COMMON

NEW_TOKENS = 24
PROMPT = "the quick brown fox"


def save_tokenizer(folder, vocab):
    tokenizer = Tokenizer(models.BPE(unk_token="<unk>"))
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace()
    tokenizer.decoder = decoders.Metaspace()
    corpus = ["the quick brown fox jumps over the lazy dog",
              "pack my box with five dozen liquor jugs",
              "how vexingly quick daft zebras jump"] * 20
    tokenizer.train_from_iterator(corpus, trainers.BpeTrainer(vocab_size=vocab,
                                                               special_tokens=["<unk>"]))
    path = os.path.join(folder, "tokenizer.json")
    tokenizer.save(path)
    return transformers.PreTrainedTokenizerFast(tokenizer_file=path, unk_token="<unk>")


def ours(moe_train, folder, stop):
    out = os.path.join(folder, "generate.json")
    cmd = [moe_train, "generate", "--model", folder, "--prompt", PROMPT, "--greedy",
           "--ignore-eos", "--max-new-tokens", str(NEW_TOKENS), "--json", out]
    if stop:
        cmd += ["--stop", stop]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stderr}")
    with open(out) as f:
        result = json.load(f)
    return result["tokens"][0], result["text"][0], result["finish"][0]


def reference(model, tokenizer, prompt_ids, stop):
    ids = torch.tensor([prompt_ids])
    with torch.no_grad():
        out = model.generate(ids, attention_mask=torch.ones_like(ids), do_sample=False,
                             max_new_tokens=NEW_TOKENS, stop_strings=[stop], tokenizer=tokenizer)
    return out[0].tolist()


def main():
    moe_train, workdir = sys.argv[1], sys.argv[2]
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    torch.manual_seed(3)
    config = transformers.MixtralConfig(**COMMON)
    model = transformers.MixtralForCausalLM(config).eval()
    model.generation_config.eos_token_id = None
    model.generation_config.pad_token_id = 0
    folder = os.path.join(workdir, "mixtral")
    model.save_pretrained(folder)
    tokenizer = save_tokenizer(folder, config.vocab_size)

    ids, text, _ = ours(moe_train, folder, None)
    prompt_ids = tokenizer(PROMPT)["input_ids"]
    ok = ids[:len(prompt_ids)] == prompt_ids
    if not ok:
        print(f"FAIL prompt ids: ours {ids[:len(prompt_ids)]}, tokenizers' {prompt_ids}")
    # Stop strings: the first characters of the continuation; two characters from its middle
    # (inside a token or across two); the last three.
    middle = len(text) // 2
    stops = [text[:2], text[middle:middle + 2], text[-3:]]
    for stop in stops:
        if not stop.strip():
            continue
        mine, mine_text, finish = ours(moe_train, folder, stop)
        theirs = reference(model, tokenizer, prompt_ids, stop)
        # Special tokens (a random model's <unk>) left out, as `tokenizers`' decode and ours do.
        their_text = tokenizer.decode(theirs[len(prompt_ids):], skip_special_tokens=True)
        end = their_text.find(stop)
        expected_text = their_text[:end + len(stop)] if end >= 0 else their_text
        same = mine == theirs and mine_text == expected_text
        ok &= same
        print(f"{'ok' if same else 'FAIL'} stop {stop!r}: {len(mine) - len(prompt_ids)} tokens "
              f"({finish}), reference {len(theirs) - len(prompt_ids)}; text {mine_text!r}"
              + ("" if same else f", reference's {their_text!r} ids {theirs} ours {mine}"),
              flush=True)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
