#!/usr/bin/env bash
# Starts moe-studio under Xvfb and saves screenshots to docs/screenshots/: the experiment editor
# with the fashion-mnist preset, and the dashboard of a tiny lm run launched from the app.
# Needs xvfb-run and ImageMagick's import (apt-get install xvfb imagemagick).
# Usage: tests/ui/take_screenshots.sh [BUILD_DIR]   (default build/release)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$repo/build/release}
studio=$build/app/studio/moe-studio
out=$repo/docs/screenshots
mkdir -p "$out"
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
cat > "$home/tiny-lm.json" <<'JSON'
{"name": "tiny-lm", "model": {"kind": "lm", "dim": 64, "layers": 2, "heads": 2, "seq_len": 32},
 "moe": {"experts": 8, "top_k": 2, "hidden": 64},
 "train": {"steps": 150, "batch_size": 8, "threads": 1, "eval_every": 50, "eval_batches": 4}}
JSON

# shot SECONDS PNG ARGS...: start the app with ARGS, wait, grab the screen, close it.
shot() {
  local wait=$1 png=$2
  shift 2
  xvfb-run -a -s "-screen 0 1366x860x24" bash -c '
    HOME="$0" "$1" "${@:4}" & pid=$!
    sleep "$2"; import -window root "$3"; kill $pid; wait $pid 2>/dev/null || true
  ' "$home" "$studio" "$wait" "$png" "$@"
  echo "screenshot: $png"
}
shot 4 "$out/experiment-editor.png"
shot 12 "$out/run-dashboard.png" "$home/tiny-lm.json" --run
