#!/usr/bin/env bash
# packaging/install-engine.sh [PREFIX]
#
# Builds moe-train, MoE Studio's engine, against the torch of the Python environment in use (a
# user's own PyTorch environment on a GPU host, say: activate it first, or set PYTHON) and
# installs it into PREFIX/bin (default: that environment's prefix, so `moe-train` is on the PATH
# whenever the environment is active; ~/.local when the prefix is not writable). A CUDA torch
# gives a CUDA engine (NCCL, CUDA autocast, the CUDA kernels; nvcc of the CUDA Toolkit is needed).
#
# The build needs the engine's Debian packages (packaging/install-deps.sh --engine installs just
# those) and writes into BUILD_DIR (default build/engine in this tree). Exit status 2 when the
# Python has no torch.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PYTHON=${PYTHON:-$(command -v python3 || command -v python || true)}
if [ -z "$PYTHON" ] || ! "$PYTHON" -c 'import importlib.util, sys; sys.exit(importlib.util.find_spec("torch") is None)'; then
  echo "install-engine: no Python with torch (${PYTHON:-none found}): activate your PyTorch environment or set PYTHON" >&2
  exit 2
fi
PYTHON=$(command -v "$PYTHON")
if [ $# -ge 1 ]; then
  PREFIX=$1
else
  PREFIX=$("$PYTHON" -c 'import sys; print(sys.prefix)')
  if [ ! -w "$PREFIX" ]; then PREFIX=$HOME/.local; fi
fi
BUILD_DIR=${BUILD_DIR:-$ROOT/build/engine}
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)

echo "install-engine: torch $("$PYTHON" -c 'import torch; print(torch.__version__)' 2>/dev/null) of $PYTHON -> $PREFIX/bin/moe-train"
# What `cmake --preset engine -DMOE_TORCH_PYTHON=...` configures, in BUILD_DIR.
cmake -S "$ROOT" -B "$BUILD_DIR" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DMOE_BUILD_GUI=OFF -DMOE_BUILD_TESTS=OFF -DMOE_TORCH_PYTHON="$PYTHON" \
  -DCMAKE_INSTALL_PREFIX="$PREFIX"
cmake --build "$BUILD_DIR" --target moe-train
cmake --install "$BUILD_DIR" --component engine
"$PREFIX/bin/moe-train" --version
