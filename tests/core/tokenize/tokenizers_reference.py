#!/usr/bin/env python3
"""moe-train tokenize against the `tokenizers` package, on tokenizers this script builds itself.

It trains, with `tokenizers` (no download), a GPT-2-style byte-level BPE, a Llama-3-style
Split-regex + ByteLevel BPE with special tokens and a BOS template, and a Mixtral-style Metaspace
BPE with byte fallback (<0xNN> tokens), each with a few thousand merges on a generated corpus,
derives variants of them (Qwen2 and DeepSeek pre-tokenizers, other normalizers, split behaviors,
Metaspace prepend schemes, added-token flags), saves each as <dir>/tokenizer.json, and checks
that `moe-train tokenize` gives the ids `Tokenizer.encode` gives on a hostile corpus (and for
files with invalid UTF-8, the ids of the text Python's decode(errors="replace") makes), and that
--decode gives `Tokenizer.decode`'s text. Any mismatch fails with the first differing position.

usage: tokenizers_reference.py --moe-train PATH [--work DIR] [--jobs N]
"""
import argparse
import concurrent.futures
import copy
import json
import os
import random
import subprocess
import sys
import tempfile

from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, normalizers
from tokenizers import pre_tokenizers, processors, trainers

LLAMA3_PATTERN = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|"
                  r" ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
QWEN2_PATTERN = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}|"
                 r" ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
DEEPSEEK_PATTERNS = [
    r"\p{N}{1,3}",
    r"[一-龥\u3040-ゟ゠-ヿ]+",
    r"[!\"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+|"
    r" ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
]

WORDS = {
    "en": "the of and to in is you that it he was for on are as with his they I at be this have "
          "from or one had by word but not what all were we when your can said there use an each "
          "which she do how their if will up other about out many then them these so some her "
          "would make like him into time has look two more write go see number no way could "
          "people my than first water been call who oil its now find long down day did get come "
          "made may part Hello World GPT Tokenizer MoE Mixtral Qwen DeepSeek OLMoE".split(),
    "contractions": "I'm you're he's she's it's we've they'll I'd don't DON'T Can't WON'T "
                    "I'M You'RE y'all 'tis o'clock".split(),
    "fr": "été élève français garçon naïve œuvre Noël déjà où façade".split(),
    "de": "Straße Größe Übung Äpfel müssen schön Fußball".split(),
    "ru": "привет мир язык модель токен обучение Москва".split(),
    "el": "γειά σου κόσμε ΟΔΥΣΣΕΥΣ λόγος".split(),
    "ar": "مرحبا بالعالم اللغة العربية نموذج".split(),
    "he": "שלום עולם שפה מודל".split(),
    "zh": "你好 世界 中文 文本 模型 训练 专家 混合".split(),
    "ja": "こんにちは 世界 日本語 テキスト カタカナ ひらがな 東京".split(),
    "ko": "안녕하세요 세계 한국어 텍스트".split(),
    "hi": "नमस्ते दुनिया हिन्दी भाषा".split(),
    "th": "สวัสดี ชาวโลก ภาษาไทย".split(),
    "emoji": "👍 👍🏽 😀 🎉 ❤️ 🚀 👨‍👩‍👧‍👦 🇫🇷 🇯🇵 🏳️‍🌈".split(),
    "code": "def return self __init__ x=1; {} [] () -> => != == <= >= && || ** // /* */ # @ $ % ^ & "
            "printf(\"%d\\n\", i); std::vector<int> 0x1F 3.14159 1e-9".split(),
}

# Texts that a tokenizer gets wrong when it is almost right.
HOSTILE = [
    "Hello world",
    "",
    " ",
    "   leading spaces and trailing   ",
    "tabs\tand\ttabs\t\tdouble\n\nnewlines\r\nCRLF\r\n\r\n  \n \t\n end",
    "I'm, you're, he's, they've, I'd, we'll, DON'T, I'M, She'S, 'tis, O'NEIL's, can'T",
    "'ſ 'K 'S 'ﬆ long s, kelvin and the ligature under (?i)",
    "1234567890 3.14159 1,000,000 00042 ١٢٣٤ ٤٥٦ ½ ² ³ Ⅻ ⅷ 𝟙𝟚𝟛 ０１２３",
    "日本語のテキスト、中文文本。한국어 텍스트！カタカナとひらがな混じり文",
    "👍🏽 👨‍👩‍👧‍👦 🇫🇷🇯🇵🇺🇸 ❤️ 🏳️‍🌈 🧑🏿‍🚀 #️⃣ a👍b",
    "e\u0301 n\u0303 a\u0308\u0304 A\u030a Å Å ﬁ ﬂ ﬃ Ω Ω Ⅸ ｆｕｌｌｗｉｄｔｈ ㍻ ℌ",
    "مرحبا بالعالم، هذا نص عربي. שלום עולם, זה טקסט בעברית! mixed עם English و عربي",
    "nbsp\u00a0here em\u2003space ideo\u3000space mongol\u180esep ls\u2028ps\u2029nel\u0085zw\u200bj\u200dnj\u200c end",
    "def f(x):\n    return x**2  # comment\n\n\tif x != 0 and y >= 1:\n\t\tprint(f\"{x!r}\")\n",
    "a" * 300 + " " + "ab" * 150 + " " + "🙂" * 40,
    "HeLLo WoRLD ThIs Is MiXeD CaSe; ÉCOLE école ΣΊΣΥΦΟΣ İstanbul",
    "trailing newline\n",
    "\n\n\nstarts with newlines",
    "   ",
    "<|begin_of_text|>Hi<|eot_id|>there <|end_of_text|> <|eot_id <|begin_of_text|",
    "<s>Hello</s> <s> spaced </s><unk>x",
    "Say <tool>  run  </tool> and <tool>x, cat category cat. concat cat",
    "lstrip test    <tool>    rstrip test <tool>",
    "NORMALIZED Hello There hello there HELLO THERE",
    "Hyphen-ated words, commas,and.dots... 12-34-5678 ---",
    "\u2581already\u2581has\u2581metaspace ▁▁ ▁",
    "<0x41> <0xZZ> <0x0A>",
    "\x00\x01\x1f\x7f control \x0b\x0c chars",
]

INVALID_UTF8 = [
    b"abc\xff\xfe def",
    b"\xc3\x28 broken two-byte \xe2\x82 truncated three \xf0\x9f\x98 truncated four",
    b"surrogate \xed\xa0\x80 overlong \xc0\xaf \xe0\x80\xaf too big \xf4\x90\x80\x80 \xf5",
    b"\x80\x80\x80 lone continuations \xbf mixed \xe6\x97\xa5\xe6\x9c end\xe6",
    b"<|eot_id|>\xff<s>\xfe\xfd</s>",
]


def generated_corpus(seed, lines):
    rng = random.Random(seed)
    groups = list(WORDS.values())
    separators = [" ", " ", " ", " ", "  ", "\t", "\n", ", ", ". ", "! ", "? ", " - ", ": "]
    out = []
    for _ in range(lines):
        group = rng.choice(groups)
        words = []
        for _ in range(rng.randint(3, 25)):
            if rng.random() < 0.2:
                group = rng.choice(groups)
            word = rng.choice(group)
            if rng.random() < 0.05:
                word = str(rng.randint(0, 10 ** rng.randint(1, 7)))
            if rng.random() < 0.05:
                word = word.upper()
            words.append(word)
            words.append(rng.choice(separators))
        out.append("".join(words))
    return out


def train_byte_level(corpus, vocab_size, special_tokens):
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=special_tokens,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  show_progress=False)
    tok.train_from_iterator(corpus, trainer)
    return json.loads(tok.to_str())


def train_metaspace(corpus, vocab_size):
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.Metaspace(prepend_scheme="always", split=True)
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, limit_alphabet=150, show_progress=False)
    tok.train_from_iterator(corpus, trainer)
    return json.loads(tok.to_str())


def added(content, special, **flags):
    token = {"content": content, "single_word": False, "lstrip": False, "rstrip": False,
             "normalized": not special, "special": special}
    token.update(flags)
    return token


def with_added_ids(spec):
    """The ids `tokenizers` gives the added tokens (the model's, else the next ones)."""
    for token in spec["added_tokens"]:
        token.setdefault("id", 0)  # a placeholder: the reference assigns the id, as we do
    tok = Tokenizer.from_str(json.dumps(spec))
    for token in spec["added_tokens"]:
        token["id"] = tok.token_to_id(token["content"])
    return spec


def bos_template(bos, bos_id):
    return {"type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": bos, "type_id": 0}},
                       {"Sequence": {"id": "A", "type_id": 0}}],
            "pair": [{"SpecialToken": {"id": bos, "type_id": 0}},
                     {"Sequence": {"id": "A", "type_id": 0}},
                     {"SpecialToken": {"id": bos, "type_id": 1}},
                     {"Sequence": {"id": "B", "type_id": 1}}],
            "special_tokens": {bos: {"id": bos, "ids": [bos_id], "tokens": [bos]}}}


def byte_level_pre(add_prefix_space=False, use_regex=True):
    return {"type": "ByteLevel", "add_prefix_space": add_prefix_space, "trim_offsets": True,
            "use_regex": use_regex}


def split(pattern, behavior="Isolated", invert=False, literal=False):
    return {"type": "Split", "pattern": {"String" if literal else "Regex": pattern},
            "behavior": behavior, "invert": invert}


def build_tokenizers(corpus):
    """name -> tokenizer.json content (dict)."""
    specs = {}
    gpt2 = train_byte_level(corpus, 3000, ["<|endoftext|>"])
    gpt2["post_processor"] = {"type": "ByteLevel", "add_prefix_space": True,
                              "trim_offsets": False, "use_regex": True}
    specs["gpt2"] = gpt2

    gpt2_prefix = copy.deepcopy(gpt2)
    gpt2_prefix["pre_tokenizer"] = byte_level_pre(add_prefix_space=True)
    specs["gpt2_prefix_space"] = gpt2_prefix

    # Llama-3: the GPT-4 pattern, ByteLevel without its own regex, ignore_merges, a BOS template,
    # merges in the [a, b] form.
    llama3 = train_byte_level(corpus, 4000, [])
    llama3["model"]["ignore_merges"] = True
    llama3["model"]["merges"] = [m.split(" ", 1) if isinstance(m, str) else m
                                 for m in llama3["model"]["merges"]]
    llama3["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [
        split(LLAMA3_PATTERN), byte_level_pre(use_regex=False)]}
    size = len(llama3["model"]["vocab"])
    llama3["added_tokens"] = [
        added("<|begin_of_text|>", True), added("<|end_of_text|>", True),
        added("<|eot_id|>", True), added("<|start_header_id|>", True),
        added("<tool>", False, lstrip=True, rstrip=True, normalized=False),
        added("</tool>", False, normalized=False),
        added(" cat", False, single_word=True)]
    llama3 = with_added_ids(llama3)
    llama3["post_processor"] = {"type": "Sequence", "processors": [
        {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": False, "use_regex": True},
        bos_template("<|begin_of_text|>", size)]}
    specs["llama3"] = llama3

    qwen2 = copy.deepcopy(llama3)
    qwen2["normalizer"] = {"type": "NFC"}
    qwen2["model"]["ignore_merges"] = False
    qwen2["pre_tokenizer"]["pretokenizers"][0] = split(QWEN2_PATTERN)
    qwen2["post_processor"] = None
    specs["qwen2"] = qwen2

    deepseek = copy.deepcopy(llama3)
    deepseek["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [
        split(p) for p in DEEPSEEK_PATTERNS] + [byte_level_pre(use_regex=False)]}
    specs["deepseek"] = deepseek

    # Every normalizer and split behavior the library has, on the GPT-2 model.
    kitchen = copy.deepcopy(gpt2)
    kitchen["normalizer"] = {"type": "Sequence", "normalizers": [
        {"type": "NFKC"},
        {"type": "Replace", "pattern": {"Regex": r"\s{2,}"}, "content": " "},
        {"type": "Lowercase"},
        {"type": "Strip", "strip_left": True, "strip_right": True}]}
    kitchen["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [
        {"type": "Digits", "individual_digits": True},
        split("-", "MergedWithPrevious", literal=True),
        split(r"[,.]", "MergedWithNext"),
        split(r"[!?]+", "Contiguous"),
        split(r"\p{Han}+", "Removed", invert=True),
        byte_level_pre(add_prefix_space=True)]}
    kitchen["added_tokens"].append(added("HELLO THERE", False))
    kitchen = with_added_ids(kitchen)
    specs["kitchen_sink"] = kitchen

    nfd = copy.deepcopy(gpt2)
    nfd["normalizer"] = {"type": "Sequence", "normalizers": [
        {"type": "NFD"}, {"type": "StripAccents"}, {"type": "NFKD"}]}
    nfd["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [
        {"type": "WhitespaceSplit"}, {"type": "Digits", "individual_digits": False},
        split(r"\w+", "Removed", invert=True), byte_level_pre(use_regex=False)]}
    specs["nfd_strip_accents"] = nfd

    # Mixtral: the <0xNN> byte tokens in the model's vocabulary, the normalizer form of
    # Metaspace, the decoder chain of Llama-2 and Mixtral, a BOS template.
    trained = train_metaspace(corpus, 3200)
    vocab = {"<unk>": 0, "<s>": 1, "</s>": 2}
    for b in range(256):
        vocab["<0x%02X>" % b] = len(vocab)
    for token, _ in sorted(trained["model"]["vocab"].items(), key=lambda kv: kv[1]):
        vocab.setdefault(token, len(vocab))
    mixtral = {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [dict(added(t, True), id=i) for i, t in enumerate(["<unk>", "<s>", "</s>"])],
        "normalizer": {"type": "Sequence", "normalizers": [
            {"type": "Prepend", "prepend": "\u2581"},
            {"type": "Replace", "pattern": {"String": " "}, "content": "\u2581"}]},
        "pre_tokenizer": None,
        "post_processor": bos_template("<s>", 1),
        "decoder": {"type": "Sequence", "decoders": [
            {"type": "Replace", "pattern": {"String": "\u2581"}, "content": " "},
            {"type": "ByteFallback"}, {"type": "Fuse"},
            {"type": "Strip", "content": " ", "start": 1, "stop": 0}]},
        "model": {"type": "BPE", "dropout": None, "unk_token": "<unk>",
                  "continuing_subword_prefix": None, "end_of_word_suffix": None,
                  "fuse_unk": True, "byte_fallback": True, "ignore_merges": False,
                  "vocab": vocab, "merges": trained["model"]["merges"]},
    }
    specs["mixtral"] = mixtral

    for name, scheme, split_words in [("metaspace_first", "first", True),
                                      ("metaspace_always_nosplit", "always", False),
                                      ("metaspace_never", "never", True)]:
        spec = copy.deepcopy(mixtral)
        spec["normalizer"] = None
        spec["pre_tokenizer"] = {"type": "Metaspace", "replacement": "\u2581",
                                 "prepend_scheme": scheme, "split": split_words}
        spec["decoder"] = {"type": "Sequence", "decoders": [
            {"type": "ByteFallback"},
            {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": scheme,
             "split": split_words}]}
        specs[name] = spec

    unk = copy.deepcopy(mixtral)
    unk["model"]["byte_fallback"] = False
    unk["added_tokens"].append(added("<tool>", False, lstrip=True, normalized=True))
    unk = with_added_ids(unk)
    specs["mixtral_unk_no_fallback"] = unk
    return specs


# Texts whose start matters (Metaspace's "first", a leading added token or space) stay documents
# of their own; the others are joined four to a document (each moe-train start loads LibTorch).
ALONE = ("", " ", "   ", "Hello world", "\n\n\nstarts with newlines", "<|begin_of_text|>",
         "<s>Hello", "\u2581already", "   leading")


def documents():
    """(name, bytes, reference text) for every document the tokenizers are checked on."""
    alone = [t for t in HOSTILE if any(t == a or (a and t.startswith(a)) for a in ALONE)]
    rest = [t for t in HOSTILE if t not in alone]
    docs = [("hostile %r" % text[:24], text.encode("utf-8"), text) for text in alone]
    separators = ["\n", " ", "\t", "\r\n"]
    for g in range(0, len(rest), 4):
        text = separators[g // 4 % 4].join(rest[g:g + 4])
        docs.append(("hostile group %d" % (g // 4), text.encode("utf-8"), text))
    docs.append(("hostile_joined", "\n".join(HOSTILE).encode("utf-8"), "\n".join(HOSTILE)))
    for i, raw in enumerate(INVALID_UTF8):
        docs.append(("invalid_utf8[%d]" % i, raw, raw.decode("utf-8", errors="replace")))
    generated = "\n".join(generated_corpus(7, 200))
    docs.append(("generated", generated.encode("utf-8"), generated))
    return docs


NO_SPECIAL_DOCS = ("hostile_joined", "invalid_utf8[4]")
DECODE_DOCS = ("hostile_joined", "generated", "invalid_utf8[1]", "invalid_utf8[4]")


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


class CommandFailed(Exception):
    pass


def run(cmd):
    result = subprocess.run(cmd, capture_output=True)
    if result.returncode != 0:
        raise CommandFailed("%s exited with %d: %s" % (" ".join(cmd), result.returncode,
                                                      result.stderr.decode(errors="replace")))
    return json.loads(result.stdout.decode("utf-8"))


def check_encode(moe_train, folder, tok, doc_path, name, text, add_special):
    cmd = [moe_train, "tokenize", "--model", folder, "--file", doc_path]
    if not add_special:
        cmd.append("--no-special-tokens")
    try:
        ours = run(cmd)
    except CommandFailed as e:
        return str(e), None
    expected = tok.encode(text, add_special_tokens=add_special).ids
    if ours == expected:
        return None, ours
    i = first_difference(ours, expected)
    tokens = lambda ids: [tok.id_to_token(t) for t in ids[max(0, i - 3):i + 4]]
    return ("%s, %s%s: ids differ at position %d of %d/%d\n  moe-train: %s %s\n  tokenizers: %s %s"
            % (os.path.basename(folder), name, "" if add_special else " (no special tokens)", i,
               len(ours), len(expected), ours[max(0, i - 3):i + 4], tokens(ours),
               expected[max(0, i - 3):i + 4], tokens(expected))), ours


def check_decode(moe_train, folder, tok, ids, name, keep_special):
    cmd = [moe_train, "tokenize", "--model", folder, "--decode", "--text", json.dumps(ids)]
    if keep_special:
        cmd.append("--keep-special-tokens")
    try:
        ours = run(cmd)
    except CommandFailed as e:
        return str(e)
    expected = tok.decode(ids, skip_special_tokens=not keep_special)
    if ours == expected:
        return None
    i = first_difference(ours, expected)
    return ("%s, decode of %s%s: text differs at character %d\n  moe-train:  %r\n  tokenizers: %r"
            % (os.path.basename(folder), name, " (special tokens kept)" if keep_special else "",
               i, ours[max(0, i - 20):i + 20], expected[max(0, i - 20):i + 20]))


def check_bad_input(moe_train, work, any_folder):
    """Bad input exits with status 2 and a message naming the file; returns the failures."""
    broken = os.path.join(work, "broken")
    os.makedirs(broken, exist_ok=True)
    spec = json.load(open(os.path.join(any_folder, "tokenizer.json"), encoding="utf-8"))
    spec["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [
        {"type": "ByteLevel"}, {"type": "BertPreTokenizer"}]}
    unsupported = os.path.join(work, "unsupported")
    os.makedirs(unsupported, exist_ok=True)
    with open(os.path.join(unsupported, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(spec, f)
    with open(os.path.join(broken, "tokenizer.json"), "w") as f:
        f.write("{not json")
    cases = [
        (["--model", os.path.join(work, "missing"), "--text", "x"], "missing: not a folder"),
        (["--model", work, "--text", "x"], "tokenizer.json: no such file"),
        (["--model", broken, "--text", "x"], "broken/tokenizer.json: not valid JSON"),
        (["--model", unsupported, "--text", "x"],
         "pre_tokenizer.pretokenizers[1].type: \"BertPreTokenizer\" is not supported"),
        (["--model", any_folder, "--decode", "--text", "[1, -2]"], "element 1 (-2)"),
        (["--model", any_folder, "--decode", "--text", "[4000000000]"], "not in the vocabulary"),
        (["--model", any_folder, "--file", os.path.join(work, "missing.txt")], "cannot be read"),
    ]
    failures = []
    for args, message in cases:
        result = subprocess.run([moe_train, "tokenize"] + args, capture_output=True)
        stderr = result.stderr.decode(errors="replace")
        if result.returncode != 2 or message not in stderr:
            failures.append("bad input %s: exit %d, stderr %r (expected 2 and %r)"
                            % (args, result.returncode, stderr, message))
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moe-train", required=True)
    parser.add_argument("--work", help="folder for the tokenizers and documents (default: temp)")
    parser.add_argument("--jobs", type=int, default=4)
    args = parser.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="moe-tokenizers-")

    specs = build_tokenizers(generated_corpus(1, 3000))
    tokenizers = {}
    for name, spec in specs.items():
        folder = os.path.join(work, name)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "tokenizer.json"), "w", encoding="utf-8") as f:
            json.dump(spec, f, ensure_ascii=False)
        # Loaded back by the reference: the file is one `tokenizers` itself accepts.
        tokenizers[folder] = Tokenizer.from_file(os.path.join(folder, "tokenizer.json"))
    docs = []
    for i, (name, raw, text) in enumerate(documents()):
        path = os.path.join(work, "doc%02d.txt" % i)
        with open(path, "wb") as f:
            f.write(raw)
        docs.append((name, path, text))

    failures = []
    checked = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        encodes = {}
        for folder, tok in tokenizers.items():
            for name, path, text in docs:
                # Without special tokens: the documents with added tokens in them.
                for add_special in (True, False):
                    if not add_special and name not in NO_SPECIAL_DOCS:
                        continue
                    encodes[(folder, name, add_special)] = pool.submit(
                        check_encode, args.moe_train, folder, tok, path, name, text, add_special)
        decodes = []
        for (folder, name, add_special), future in encodes.items():
            failure, ids = future.result()
            checked += 1
            if failure:
                failures.append(failure)
            # Decode round trips of the documents that hold the most.
            if ids is not None and add_special and name in DECODE_DOCS:
                for keep in (False, True):
                    decodes.append(pool.submit(check_decode, args.moe_train, folder,
                                               tokenizers[folder], ids, name, keep))
        for future in decodes:
            checked += 1
            failure = future.result()
            if failure:
                failures.append(failure)

    failures += check_bad_input(args.moe_train, work, next(iter(tokenizers)))
    for failure in failures:
        print("MISMATCH " + failure, file=sys.stderr)
    print("%d tokenizers, %d documents, %d checks, %d mismatches"
          % (len(tokenizers), len(docs), checked, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
