#!/usr/bin/env bash
# Installs every Debian 12 package that MoE Studio's build, tests and app need, and the engine's
# LibTorch (PyPI's torch, pinned in packaging/torch-requirements.txt) into a virtual environment
# outside the build tree. Idempotent: what is already there is kept (no 3 GB download again).
#
# Environment: MOE_TORCH_VENV where the environment goes (default
# ${XDG_CACHE_HOME:-~/.cache}/moe-studio/torch-<version>, which cmake/MoeTorchPython.cmake finds
# by itself; configure with -DMOE_TORCH_PYTHON=<venv>/bin/python for another place).
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
# What building moe-train needs besides torch (also alone: `install-deps.sh --engine`, for a GPU
# host whose own PyTorch environment the engine is built against; packaging/install-engine.sh).
engine_packages=(
  build-essential cmake ninja-build pkg-config git ccache
  # LibTorch comes from PyPI; Gloo's headers, which c10d's Gloo process group needs and the torch
  # wheel does not carry, from Debian.
  libgloo-dev
  nlohmann-json3-dev libcli11-dev zlib1g-dev
  # TensorBoard event files (telemetry.tensorboard).
  libprotobuf-dev protobuf-compiler
  # Hugging Face tokenizers (moe_tokenize): PCRE2 for the pre-tokenizers' Unicode patterns, ICU
  # for normalization and character properties.
  libpcre2-dev libicu-dev
)
packages=(
  "${engine_packages[@]}"
  clang
  # The HIP kernel backend (MOE_WITH_HIP). The CUDA one needs NVIDIA's CUDA Toolkit (nvcc, not a
  # Debian package; cmake/MoeGpu.cmake looks in /usr/local/cuda/bin).
  hipcc libamdhip64-dev
  # The virtual environment of the engine's LibTorch (install-torch-venv.sh).
  python3-venv
  # The PDF report check.
  poppler-utils
  libgtest-dev libgmock-dev libbenchmark-dev
  openssh-client openssh-server
  openmpi-bin slurmctld slurmd slurm-client munge
  # The multi-host tests' hosts: network namespaces, a bridge, tc and nftables to shape a link.
  iproute2 nftables
  qt6-base-dev qt6-svg-dev libqt6sql6-sqlite libqcustomplot-dev
  dataset-fashion-mnist
)
engine_only=0
case "${1:-}" in
  --engine) engine_only=1; packages=("${engine_packages[@]}") ;;
  "") ;;
  *) echo "usage: $0 [--engine]" >&2; exit 2 ;;
esac
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
else
  echo "install-deps: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi

# --engine: the user's own torch is what the engine is built against.
[ "$engine_only" -eq 1 ] || "$(dirname "$0")/install-torch-venv.sh"
