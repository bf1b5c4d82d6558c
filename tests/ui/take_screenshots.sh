#!/usr/bin/env bash
# Saves docs/screenshots/*.png: moe-studio's window at each stop of a tour (the experiment
# editor, a live run, every dashboard page, the runs table, a comparison) with real moe-train
# runs, rendered under Xvfb with the system's fonts. Takes a few minutes on 2 cores.
# Needs xvfb-run (apt-get install xvfb). Usage: tests/ui/take_screenshots.sh [BUILD_DIR]
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$repo/build/release}
cmake --build "$build" --target screenshot_tour generate_screenshot moe-train
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
# A private HOME: the tour's runs, run store and settings stay out of the user's.
HOME="$home" XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" \
  xvfb-run -a -s "-screen 0 1366x860x24" \
  "$build/tests/ui/window/screenshot_tour" "$build/app/train/moe-train" "$repo/docs/screenshots"
# The Generate tab streaming from the tiny-mixtral preset trained here for a few minutes.
HOME="$home" XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" \
  xvfb-run -a -s "-screen 0 1366x860x24" \
  "$build/tests/ui/generate/generate_screenshot" "$build/app/train/moe-train" \
  "$repo/resources/presets" "$repo/docs/screenshots/generate.png"
# The Analyze view (docs/screenshots/analyze.png): a short run of the tiny-mixtral preset, analyzed
# on the same corpus with its layers captured.
cmake --build "$build" --target analyze_screenshot
"$build/app/train/moe-train" run --config "$repo/resources/presets/tiny-mixtral.json" \
  --set train.steps=30 --set train.checkpoint_every=30 --set train.eval_every=0 \
  --run-dir "$home/analyzed" > /dev/null
"$build/app/train/moe-train" analyze --model "$home/analyzed" --data /usr/share/common-licenses \
  --tokens 20000 --capacity-factors 1,1.25,1.5,2 --capture "$home/analyzed/analysis/capture" \
  > /dev/null
HOME="$home" XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" \
  xvfb-run -a -s "-screen 0 1366x860x24" "$build/tests/ui/analyze/analyze_screenshot" \
  "$home/analyzed/analysis/analysis.json" "$repo/docs/screenshots/analyze.png"
