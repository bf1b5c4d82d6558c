#!/usr/bin/env bash
# Writes about 2 MB of English text from what every Debian machine has (license texts, then package
# READMEs in name order) to $1: the tiny-lm acceptance corpus (docs/BENCHMARKS.md).
set -euo pipefail
out=${1:?usage: english_corpus.sh OUT.txt [BYTES]}
bytes=${2:-2000000}
{
  cat /usr/share/common-licenses/*
  find /usr/share/doc -type f -name 'README*' | LC_ALL=C sort | xargs -r zcat -f 2>/dev/null
} | head -c "$bytes" > "$out"
echo "english_corpus: $(wc -c < "$out") bytes in $out"
