"""Tokenized corpora for the decoder (docs/MODELS.md, "Data for these models"): a tokenizer trained
with the `tokenizers` package, a JSON Lines corpus and a folder of text files with a hostile mix
(CJK, emoji, empty and blank documents, control characters); `moe-train run` builds each token
cache, whose ids must equal `Tokenizer.encode(document).ids + [EOS]` document by document, reuses
it on the next run and rebuilds it when the corpus changes; a short decoder run on the cache must
train (its loss falls); the same ids written as a Megatron indexed data set by megatron-core's
IndexedDatasetBuilder train as data.kind "megatron"; a run started with --init-from a Hugging Face
folder encodes with that folder's tokenizer; two ranks build one cache between them; bad input
exits with status 2 naming key and file.

usage: token_corpus.py MOE_TRAIN WORKDIR
"""
import glob
import json
import os
import shutil
import struct
import subprocess
import sys
import warnings

import numpy as np
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers

EOS = "<|endoftext|>"
HOSTILE = [
    "",
    "   ",
    "\n\n",
    "東京は日本の首都です。北京是中国的首都。서울은 한국의 수도입니다.",
    "family: 👨‍👩‍👧‍👦 flags: 🇯🇵🇫🇷 keycap: 1️⃣ skin: 👍🏽 — done",
    "tabs\tand\r\nCRLF\x00nul\x07bell",
    "The end of text marker <|endoftext|> inside a document.",
    "مرحبا بالعالم שלום עולם",
    "e\u0301 combining, ﬁ ligature, ｆｕｌｌｗｉｄｔｈ",
]


def prose(seed, n):
    """n documents of repetitive English-like text: a pattern a tiny decoder learns quickly."""
    rng = np.random.default_rng(seed)
    words = ("the expert router sends each token to two of eight experts and the gate "
             "weights their outputs so the layer learns which expert fits").split()
    docs = []
    for _ in range(n):
        start = int(rng.integers(0, len(words)))
        length = int(rng.integers(20, 80))
        docs.append(" ".join(words[(start + i) % len(words)] for i in range(length)) + ".")
    return docs


def train_tokenizer(folder, texts):
    """A GPT-2-style byte-level BPE with <|endoftext|> as its EOS, saved as a model folder."""
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.post_processor = processors.ByteLevel(trim_offsets=False)
    trainer = trainers.BpeTrainer(vocab_size=600, special_tokens=[EOS],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(texts, trainer)
    os.makedirs(folder, exist_ok=True)
    tok.save(os.path.join(folder, "tokenizer.json"))
    with open(os.path.join(folder, "tokenizer_config.json"), "w") as f:
        json.dump({"eos_token": EOS, "tokenizer_class": "PreTrainedTokenizerFast"}, f)
    return Tokenizer.from_file(os.path.join(folder, "tokenizer.json"))


def decoder_config(name, data, steps, vocab):
    return {
        "schema": 1, "name": name, "seed": 3,
        "model": {"kind": "decoder", "family": "mixtral", "dim": 64, "layers": 2, "heads": 4,
                  "kv_heads": 2, "seq_len": 32, "vocab": vocab, "tie_embeddings": False},
        "moe": {"experts": 4, "top_k": 2, "hidden": 96, "activation": "silu",
                "expert_ffn": "glu", "fc1_bias": False, "fc2_bias": False,
                "capacity_factor": 0.0, "router": "top_k_softmax",
                "aux_loss": "hf_load_balancing"},
        "train": {"steps": steps, "batch_size": 8, "lr": 0.01, "threads": 2,
                  "checkpoint_every": steps},
        "data": dict({"val_fraction": 0.05}, **data),
        "telemetry": {"expert_load": False, "phases": False},
    }


class Runner:
    def __init__(self, moe_train, work):
        self.moe_train, self.work = moe_train, work

    def run(self, config, *extra, expect=0):
        path = os.path.join(self.work, config["name"] + ".json")
        with open(path, "w") as f:
            json.dump(config, f)
        run_dir = os.path.join(self.work, "runs", config["name"])
        shutil.rmtree(run_dir, ignore_errors=True)
        p = subprocess.run([self.moe_train, "run", "--config", path, "--run-dir", run_dir, *extra],
                           capture_output=True, text=True, timeout=300)
        if p.returncode != expect:
            sys.exit(f"FAIL: {config['name']}: exit {p.returncode}, expected {expect}\n"
                     f"{p.stderr[-3000:]}")
        return run_dir, p


def events(run_dir, kind):
    with open(os.path.join(run_dir, "metrics.jsonl")) as f:
        return [e for e in map(json.loads, f) if e.get("type") == kind]


def logs(run_dir):
    return "\n".join(e["msg"] for e in events(run_dir, "log"))


def read_cache(path):
    """The cache's header, tokens and document ends, read by the documented layout."""
    with open(path, "rb") as f:
        raw = f.read()
    assert raw[:8] == b"MOETOKC1", raw[:8]
    (length,) = struct.unpack_from("<Q", raw, 8)
    header = json.loads(raw[16:16 + length])
    dtype = np.uint16 if header["dtype"] == "uint16" else np.uint32
    tokens = np.frombuffer(raw, dtype=dtype, count=header["tokens"], offset=4096)
    ends_at = (4096 + tokens.nbytes + 7) // 8 * 8
    ends = np.frombuffer(raw, dtype=np.uint64, count=header["documents"], offset=ends_at)
    return header, tokens, ends


def check_cache(cache_folder, documents, tok, eos):
    caches = glob.glob(os.path.join(cache_folder, "*.tokens"))
    if len(caches) != 1:
        sys.exit(f"FAIL: expected one cache in {cache_folder}, found {caches}")
    header, tokens, ends = read_cache(caches[0])
    if header["documents"] != len(documents) or header["eos"] != eos:
        sys.exit(f"FAIL: {caches[0]}: header {header}, expected {len(documents)} documents")
    start = 0
    for i, doc in enumerate(documents):
        want = tok.encode(doc).ids + [eos]
        got = tokens[start:int(ends[i])].tolist()
        if got != want:
            at = next((k for k, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
            sys.exit(f"FAIL: document {i} {doc[:40]!r}: first difference at {at}: "
                     f"ours {got[at:at + 8]}, tokenizers {want[at:at + 8]}")
        start = int(ends[i])
    return caches[0], header


def losses(run_dir):
    return [e["loss"] for e in events(run_dir, "step")]


def main():
    moe_train, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    r = Runner(moe_train, work)
    checks = 0

    documents = prose(1, 400)
    for i, h in enumerate(HOSTILE):  # spread the hostile ones through the corpus
        documents.insert(i * 37, h)
    tok = train_tokenizer(os.path.join(work, "tok"), documents)
    eos = tok.token_to_id(EOS)
    vocab = tok.get_vocab_size()

    # JSON Lines: build, compare, train.
    corpus = os.path.join(work, "corpus.jsonl")
    with open(corpus, "w", encoding="utf-8") as f:
        for i, d in enumerate(documents):
            f.write(json.dumps({"id": i, "body": d}, ensure_ascii=i % 2 == 0) + "\n")
            if i == 5:
                f.write("\n")  # a blank line is no document
    jsonl = {"kind": "jsonl", "path": corpus, "tokenizer": os.path.join(work, "tok"),
             "text_field": "body"}
    run_dir, _ = r.run(decoder_config("jsonl", jsonl, 30, vocab))
    cache, header = check_cache(corpus + ".moe-tokens", documents, tok, eos)
    checks += len(documents)
    built = logs(run_dir)
    if "built" not in built or header["dtype"] != "uint16":
        sys.exit(f"FAIL: no 'built' line or dtype {header['dtype']}:\n{built}")
    loss = losses(run_dir)
    first, last = sum(loss[:5]) / 5, sum(loss[-5:]) / 5
    if not last < 0.7 * first:
        sys.exit(f"FAIL: the loss did not fall: first steps {first:.3f}, last {last:.3f}")
    print(f"jsonl: {len(documents)} documents, {header['tokens']} tokens, ids equal tokenizers'; "
          f"loss {first:.3f} -> {last:.3f}")
    checks += 1

    # Reused while nothing changed; rebuilt when the corpus changes.
    inode = os.stat(cache).st_ino
    run_dir, _ = r.run(decoder_config("jsonl", jsonl, 2, vocab))
    if "reused" not in logs(run_dir) or os.stat(cache).st_ino != inode:
        sys.exit("FAIL: the second run did not reuse the cache:\n" + logs(run_dir))
    documents.append("one more document 🎉")
    with open(corpus, "a", encoding="utf-8") as f:
        f.write(json.dumps({"body": documents[-1]}) + "\n")
    run_dir, _ = r.run(decoder_config("jsonl", jsonl, 2, vocab))
    if "built" not in logs(run_dir):
        sys.exit("FAIL: an edited corpus did not rebuild its cache:\n" + logs(run_dir))
    check_cache(corpus + ".moe-tokens", documents, tok, eos)
    checks += 3
    print("jsonl cache: reused when unchanged, rebuilt after an edit")

    # A folder of text files: one document per file, in path order.
    folder = os.path.join(work, "texts")
    os.makedirs(folder)
    for i, d in enumerate(documents[:60]):
        with open(os.path.join(folder, f"{i:03d}.txt"), "w", encoding="utf-8", newline="") as f:
            f.write(d)
    text = {"kind": "text", "path": folder, "tokenizer": os.path.join(work, "tok", "tokenizer.json")}
    r.run(decoder_config("text", text, 2, vocab))
    check_cache(folder + ".moe-tokens", documents[:60], tok, eos)
    checks += 60
    print("text folder: 60 files, ids equal tokenizers'")

    # The same ids as a Megatron indexed data set, written by megatron-core.
    import torch
    with warnings.catch_warnings():  # megatron-core says Apex and Transformer Engine are missing
        warnings.simplefilter("ignore")
        from megatron.core.datasets.indexed_dataset import IndexedDatasetBuilder
    prefix = os.path.join(work, "megatron_text_document")
    builder = IndexedDatasetBuilder(prefix + ".bin", dtype=np.uint16)
    for d in documents:
        builder.add_document(torch.tensor(tok.encode(d).ids + [eos]), [len(tok.encode(d).ids) + 1])
    builder.finalize(prefix + ".idx")
    run_dir, _ = r.run(decoder_config("megatron", {"kind": "megatron", "path": prefix}, 30, vocab))
    described = logs(run_dir)
    want = f"megatron '{prefix}' ({len(documents)} documents, {len(documents)} sequences, uint16)"
    total = sum(len(tok.encode(d).ids) + 1 for d in documents)
    if want not in described or f"{total} tokens" not in described:
        sys.exit(f"FAIL: expected '{want}' and {total} tokens in:\n{described}")
    loss = losses(run_dir)
    if not sum(loss[-5:]) < 0.7 * sum(loss[:5]):
        sys.exit(f"FAIL: the Megatron run's loss did not fall: {loss[:5]} ... {loss[-5:]}")
    small = decoder_config("megatron-small", {"kind": "megatron", "path": prefix}, 2, 300)
    _, p = r.run(small, expect=2)
    if prefix + ".bin" not in p.stderr or "model.vocab" not in p.stderr:
        sys.exit("FAIL: ids >= model.vocab not refused by file:\n" + p.stderr)
    checks += 2
    print(f"megatron: megatron-core's {len(documents)} documents read and trained; "
          "ids >= model.vocab refused")

    # --init-from a Hugging Face folder: data.tokenizer "" takes the folder's tokenizer.
    hf = os.path.join(work, "hf")
    subprocess.run([moe_train, "export-hf", os.path.join(work, "runs", "jsonl"), hf], check=True,
                   capture_output=True, timeout=300)
    for name in ("tokenizer.json", "tokenizer_config.json"):
        shutil.copy(os.path.join(work, "tok", name), hf)
    shutil.rmtree(corpus + ".moe-tokens")
    own = decoder_config("init-from", dict(jsonl, tokenizer=""), 2, vocab)
    run_dir, _ = r.run(own, "--init-from", hf)
    if os.path.join(run_dir, "tokenizer.json") not in logs(run_dir):
        sys.exit("FAIL: --init-from did not encode with the folder's tokenizer:\n" + logs(run_dir))
    check_cache(corpus + ".moe-tokens", documents, tok, eos)
    checks += 1
    print("--init-from: the Hugging Face folder's tokenizer encodes the corpus")

    # Two ranks on a fresh cache: one builds it while the other waits on its lock, then maps it.
    shutil.rmtree(corpus + ".moe-tokens")
    two = decoder_config("two-ranks", jsonl, 2, vocab)
    two["parallel"] = {"nproc": 2}
    path = os.path.join(work, "two-ranks.json")
    with open(path, "w") as f:
        json.dump(two, f)
    run_dir = os.path.join(work, "runs", "two-ranks")
    p = subprocess.run([moe_train, "launch", "--nproc-per-node", "2", "--", "run", "--config", path,
                        "--run-dir", run_dir], capture_output=True, text=True, timeout=300)
    rank_logs = ""
    for log in glob.glob(os.path.join(run_dir, "stderr*.log")):
        with open(log) as f:
            rank_logs += f.read()
    if p.returncode != 0 or rank_logs.count(" built: ") != 1 or rank_logs.count(" reused (") != 1:
        sys.exit(f"FAIL: two ranks: exit {p.returncode}, expected one build and one reuse:\n"
                 f"{rank_logs}{p.stderr[-2000:]}")
    check_cache(corpus + ".moe-tokens", documents, tok, eos)
    checks += 1
    print("two ranks: one built the cache, the other waited and mapped it")

    # Bad input: exit status 2, naming the key or the file.
    bad = os.path.join(work, "bad.jsonl")
    with open(bad, "w") as f:
        f.write('{"body": "fine"}\n{"text": "no body"}\n')
    cases = [
        ("no-tokenizer", dict(jsonl, tokenizer=os.path.join(work, "missing")), "/data/tokenizer"),
        ("bad-line", dict(jsonl, path=bad), bad + "': line 2"),
        ("no-prefix", {"kind": "megatron", "path": os.path.join(work, "nothing")}, "/data/path"),
        ("eos-too-big", dict(jsonl, eos_token=vocab), "/data/eos_token"),
    ]
    for name, data, needle in cases:
        _, p = r.run(decoder_config(name, data, 1, vocab), expect=2)
        if needle not in p.stderr:
            sys.exit(f"FAIL: {name}: '{needle}' not in:\n{p.stderr}")
        checks += 1
    print(f"{len(cases)} kinds of bad input refused with exit status 2")
    print(f"{checks} passed, 0 failed")


if __name__ == "__main__":
    main()
