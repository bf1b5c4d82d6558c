#!/usr/bin/env bash
# Installs every Debian 12 package that MoE Studio's build, tests and app need. Idempotent.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
packages=(
  build-essential cmake ninja-build pkg-config git
  clang
  # The HIP kernel backend (MOE_WITH_HIP). The CUDA one needs NVIDIA's CUDA Toolkit (nvcc, not a
  # Debian package; cmake/MoeGpu.cmake looks in /usr/local/cuda/bin).
  hipcc libamdhip64-dev
  libtorch-dev
  libgloo-dev
  libopenblas0-pthread
  nlohmann-json3-dev
  # TensorBoard event files (telemetry.tensorboard) and the PDF report check.
  libprotobuf-dev protobuf-compiler poppler-utils
  libcli11-dev
  zlib1g-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  openssh-client openssh-server
  openmpi-bin slurmctld slurmd slurm-client munge
  qt6-base-dev qt6-svg-dev libqt6sql6-sqlite libqcustomplot-dev
  dataset-fashion-mnist
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
