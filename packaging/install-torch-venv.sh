#!/usr/bin/env bash
# Creates (or brings up to date) the virtual environment with the engine's LibTorch: the pins of
# packaging/torch-requirements.txt, installed with Debian's python3 into MOE_TORCH_VENV (default
# ${XDG_CACHE_HOME:-~/.cache}/moe-studio/torch-<torch version>). An environment whose recorded
# requirements match is left alone, so CI and later builds on the same machine download nothing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
requirements=$here/torch-requirements.txt
version=$(sed -n 's/^torch==\([^ ]*\).*/\1/p' "$requirements")
if [ -z "$version" ]; then
  echo "install-torch-venv: no torch==VERSION line in $requirements" >&2
  exit 2
fi
venv=${MOE_TORCH_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/moe-studio/torch-$version}
stamp=$venv/moe-requirements.txt
if [ -x "$venv/bin/python" ] && cmp -s "$requirements" "$stamp"; then
  echo "install-torch-venv: $venv has torch $version and the other pins"
  exit 0
fi
echo "install-torch-venv: installing torch $version into $venv (about 3 GB the first time)"
mkdir -p "$(dirname "$venv")"
[ -x "$venv/bin/python" ] || /usr/bin/python3 -m venv "$venv"
# No pip cache: the environment itself is what is kept, a second copy of the wheels would double
# the disk it takes.
"$venv/bin/python" -m pip install --no-cache-dir --quiet --progress-bar off -r "$requirements"
cp "$requirements" "$stamp"
echo "install-torch-venv: done: $("$venv/bin/python" -c 'import torch; print("torch", torch.__version__)')"
