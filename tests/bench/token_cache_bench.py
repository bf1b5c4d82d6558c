#!/usr/bin/env python3
"""How fast moe-train builds a token cache (docs/BENCHMARKS.md, "Token caches"): a Llama-3-style
byte-level BPE trained with the `tokenizers` package on the reference test's generated
multilingual text, a JSON Lines corpus of SIZE_MB of such documents (8 distinct lines each), then `moe-train run` with one
step, whose log line "token cache ... built: ... (X MB/s)" is the figure, at 1 and at 2 cores
(taskset); then the same for this machine's English text (licences and READMEs, a document per
paragraph). For comparison, `tokenizers`' encode_batch of the generated documents (its own
threads).

  tests/bench/token_cache_bench.py build/release/app/train/moe-train /tmp/token-cache-bench [SIZE_MB]
"""
import json
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "core", "tokenize"))
from tokenizers_reference import generated_corpus  # noqa: E402
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers  # noqa: E402


def measure(moe_train, work, corpus, tok_dir):
    """The cache build of `corpus` at 1 and 2 cores: moe-train's own "built" log line."""
    config = {"name": "token-cache-bench",
              "model": {"kind": "decoder", "dim": 32, "layers": 1, "heads": 2, "seq_len": 64,
                        "vocab": 8192},
              "moe": {"experts": 2, "top_k": 1, "hidden": 32, "expert_ffn": "glu"},
              "train": {"steps": 1, "batch_size": 2},
              "data": {"kind": "jsonl", "path": corpus, "tokenizer": tok_dir},
              "telemetry": {"expert_load": False, "phases": False}}
    config_path = os.path.join(work, "config.json")
    with open(config_path, "w") as f:
        json.dump(config, f)
    for cpus in ("0", "0,1"):
        shutil.rmtree(corpus + ".moe-tokens", ignore_errors=True)
        run_dir = os.path.join(work, "run")
        shutil.rmtree(run_dir, ignore_errors=True)
        start = time.perf_counter()
        p = subprocess.run(["taskset", "-c", cpus, moe_train, "run", "--config", config_path,
                            "--run-dir", run_dir], capture_output=True, text=True)
        wall = time.perf_counter() - start
        built = re.search(r"token cache .* built: .*", p.stderr)
        if p.returncode != 0 or not built:
            sys.exit(p.stderr[-2000:])
        print(f"{len(cpus.split(','))} core(s): {built.group(0)} (whole run {wall:.1f} s)")


def main():
    moe_train, work = sys.argv[1], sys.argv[2]
    size_mb = float(sys.argv[3]) if len(sys.argv) > 3 else 50
    os.makedirs(work, exist_ok=True)
    tok_dir = os.path.join(work, "tok")
    # Distinct lines (about 147 bytes each): no document repeats another.
    lines = generated_corpus(11, int(size_mb * 1e6 / 147) + 8)
    if not os.path.exists(os.path.join(tok_dir, "tokenizer.json")):
        tok = Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        tok.decoder = decoders.ByteLevel()
        tok.train_from_iterator(lines[:60000], trainers.BpeTrainer(
            vocab_size=8000, special_tokens=["<|end_of_text|>"], show_progress=False,
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
        os.makedirs(tok_dir, exist_ok=True)
        tok.save(os.path.join(tok_dir, "tokenizer.json"))
        with open(os.path.join(tok_dir, "tokenizer_config.json"), "w") as f:
            json.dump({"eos_token": "<|end_of_text|>"}, f)
    corpus = os.path.join(work, "corpus.jsonl")
    docs = []
    written = 0
    with open(corpus, "w", encoding="utf-8") as f:
        i = 0
        while written < size_mb * 1e6 and (i + 1) * 8 <= len(lines):  # 8 lines a document
            doc = "\n".join(lines[i * 8:(i + 1) * 8])
            line = json.dumps({"text": doc}, ensure_ascii=False) + "\n"
            f.write(line)
            docs.append(doc)
            written += len(line.encode("utf-8"))
            i += 1
    print(f"corpus: {corpus}, {written / 1e6:.1f} MB, {len(docs)} documents")
    measure(moe_train, work, corpus, tok_dir)
    # Real English: the licence texts and package READMEs every Debian machine has, a document
    # per paragraph (tests/bench/english_corpus.sh).
    english = os.path.join(work, "english.txt")
    subprocess.run(["bash", os.path.join(os.path.dirname(__file__), "english_corpus.sh"), english,
                    "100000000"], check=True, capture_output=True)
    with open(english, encoding="utf-8", errors="replace") as f:
        paragraphs = [p for p in re.split(r"\n\s*\n", f.read()) if p.strip()]
    english_jsonl = os.path.join(work, "english.jsonl")
    with open(english_jsonl, "w", encoding="utf-8") as f:
        for p in paragraphs:
            f.write(json.dumps({"text": p}, ensure_ascii=False) + "\n")
    size = os.path.getsize(english_jsonl)
    print(f"corpus: {english_jsonl}, {size / 1e6:.1f} MB, {len(paragraphs)} documents")
    measure(moe_train, work, english_jsonl, tok_dir)
    tok = Tokenizer.from_file(os.path.join(tok_dir, "tokenizer.json"))
    start = time.perf_counter()
    n = sum(len(e.ids) for e in tok.encode_batch(docs))
    seconds = time.perf_counter() - start
    print(f"tokenizers {len(docs)} documents encode_batch: {n} tokens in {seconds:.1f} s "
          f"({written / 1e6 / seconds:.2f} MB/s)")


if __name__ == "__main__":
    main()
